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


def load_sequences(held: bool) -> list[Sequence]:
    """(tokens (L,), top states (L, H) bfloat16, prompt length) per answered prompt, training or held-back shards."""
    out = []
    for index in range(len(batches())):
        if (index % SHARD_HELD == SHARD_HELD - 1) != held or not shard_path(index).exists():
            continue
        shard = torch.load(shard_path(index))
        out += [(torch.tensor(seq), feats[:, TOP], n) for seq, feats, n in
                zip(shard["sequences"], shard["features"], shard["prompt_lens"])]
    return out


def train(minutes: float | None, threads: int, log=print) -> dict:
    master = load_pair("smollm2", "cpu").target
    vocab_ids = load_file(str(DISTILLED_DIR / "model.safetensors"))["vocab_ids"].long()   # the 8,192 frequent tokens
    run = replace(RUN, about={"data_sha256": data_sha256()})
    return train_scribe(run, master, vocab_ids, load_sequences(False), load_sequences(True), minutes, threads, log)


def data_sha256() -> str:
    digest = hashlib.sha256()
    for index in range(len(batches())):
        if shard_path(index).exists():
            digest.update(shard_path(index).name.encode())
            for seq in torch.load(shard_path(index))["sequences"]:
                digest.update(torch.tensor(seq, dtype=torch.int32).numpy().tobytes())
    return digest.hexdigest()
