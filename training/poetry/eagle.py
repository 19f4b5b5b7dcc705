"""Train the poetry pair's feature scribe on the master's states over training poems and its own samples.

Data: eagle_features.py's shards, every SHARD_HELD-th one held back to choose the checkpoint by α.
The head is the master's whole vocabulary but the three pieces it never writes (<pad>, <s>, <unk>):
at 6.5 k rows there is nothing to gain by cutting it. A poem's prompt is ``<s>`` and its first
character, so the scribe drafts from the second character on. The shared trainer (training/eagle/
train.py) does the rest: ``python -m training.poetry eagle-features``, then ``eagle``.
"""
from __future__ import annotations

from dataclasses import replace

import torch

from specdec_core.pairs.poetry import FEATURE_DIR
from specdec_core.pairs.registry import load_pair
from training.eagle.train import Run, Sequence
from training.eagle.train import train as train_scribe
from training.poetry import data
from training.poetry.eagle_features import data_summary, present, shard_path
from training.poetry.paths import CKPT

TOP = 2                  # index of the normed top state among the shard's saved states
SHARD_HELD, HELD_AT = 16, 14   # shards 14, 30, 46, …: poems of every length held back
PROMPT_LEN = 2           # <s> and the first character
RUN = Run(name="eagle", ckpt=CKPT / "eagle.pt", out_dir=FEATURE_DIR, total_steps=600, batch=32, about={})


def head_tokens(vocab_size: int) -> torch.Tensor:
    """Every token id the master writes: all but <pad>, <s> and <unk>, which the shipped pair silences."""
    never = {data.PAD_ID, data.BOS_ID, data.UNK_ID}
    return torch.tensor([i for i in range(vocab_size) if i not in never])


def load_data() -> tuple[list[Sequence], list[Sequence], dict]:
    """Every shard read once: (training, held-back) sequences, (tokens (L,), top states (L, H) bfloat16, prompt
    length) per poem, and the cache's data_summary."""
    sequences, texts = {False: [], True: []}, []
    for index in present():
        shard = torch.load(shard_path(index))
        texts.append((index, shard["kind"], shard["sequences"]))
        sequences[index % SHARD_HELD == HELD_AT] += [(torch.tensor(seq), feats[:, TOP].clone(), PROMPT_LEN)
                                                     for seq, feats in zip(shard["sequences"], shard["features"])]
    return sequences[False], sequences[True], data_summary(texts)


def train(minutes: float | None, threads: int, total_steps: int | None = None, log=print) -> dict:
    master = load_pair("poetry", "cpu").target
    training, held, summary = load_data()
    run = replace(RUN, total_steps=total_steps or RUN.total_steps, about={"data": summary})
    return train_scribe(run, master, head_tokens(master.config.vocab_size), training, held, minutes, threads, log)
