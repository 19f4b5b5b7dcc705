"""Train the smollm2 pair's feature scribe on the master's states over its own answers (training/eagle/train.py).

Data: master_features.py's shards, every SHARD_HELD-th one held back to watch the loss and α. The
head is the distilled scribe's 8,192 frequent tokens (FR-Spec). The shared trainer does the rest.
"""
from __future__ import annotations

import hashlib
from dataclasses import replace

import torch
from safetensors.torch import load_file

from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_DIR, FEATURE_DIR
from training.eagle.train import Run, Sequence
from training.eagle.train import train as train_scribe
from training.smollm2.master_features import batches, shard_path
from training.smollm2.paths import DATA

TOP = 2                  # index of the normed top state among the shard's saved states
SHARD_HELD = 16          # every 16th shard is held back
RUN = Run(name="eagle", ckpt=DATA / "eagle" / "ckpt.pt", out_dir=FEATURE_DIR, total_steps=1700, batch=16, about={})


def load_data() -> tuple[list[Sequence], list[Sequence], str]:
    """Every shard written read once: (training, held-back) sequences, (tokens (L,), top states (L, H) bfloat16,
    prompt length) per answered prompt, and the data_sha256 of their token ids."""
    sequences, texts = {False: [], True: []}, []
    for index in range(len(batches())):
        if not shard_path(index).exists():
            continue
        shard = torch.load(shard_path(index))
        texts.append((index, shard["sequences"]))
        held = index % SHARD_HELD == SHARD_HELD - 1
        rows = zip(shard["sequences"], shard["features"], shard["prompt_lens"])
        # cloned: a view would keep the shard's three layers of states in memory, not the top one alone
        sequences[held] += [(torch.tensor(seq), feats[:, TOP].clone(), n) for seq, feats, n in rows]
    return sequences[False], sequences[True], data_sha256(texts)


def train(minutes: float | None, threads: int, log=print) -> dict:
    master = load_pair("smollm2", "cpu").target
    vocab_ids = load_file(str(DISTILLED_DIR / "model.safetensors"))["vocab_ids"].long()   # the 8,192 frequent tokens
    training, held, sha256 = load_data()
    run = replace(RUN, about={"data_sha256": sha256})
    return train_scribe(run, master, vocab_ids, training, held, minutes, threads, log)


def data_sha256(shards: list[tuple[int, list[list[int]]]]) -> str:
    """The sha256 of the shards' token ids in shard order, (index, sequences) each."""
    digest = hashlib.sha256()
    for index, sequences in shards:
        digest.update(shard_path(index).name.encode())
        for seq in sequences:
            digest.update(torch.tensor(seq, dtype=torch.int32).numpy().tobytes())
    return digest.hexdigest()
