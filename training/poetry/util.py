"""Shared helpers: logging, loading exported models, validation loss."""
from __future__ import annotations

import logging
import sys

import torch
import torch.nn.functional as F

from training.poetry import data
from training.poetry.paths import ASSETS


def get_logger(name: str, path) -> logging.Logger:
    path.parent.mkdir(parents=True, exist_ok=True)
    log = logging.getLogger(f"poetry.{name}")
    log.setLevel(logging.INFO)
    if not log.handlers:
        fmt = logging.Formatter("%(asctime)s %(name)s %(message)s", "%H:%M:%S")
        for h in (logging.FileHandler(path), logging.StreamHandler(sys.stdout)):
            h.setFormatter(fmt)
            log.addHandler(h)
    return log


def load_exported(name: str):
    """The exported model as the app runs it on CPU (a bfloat16 file multiplied in bfloat16)."""
    from specdec_core.runtimes.shipped_model import load_causal_lm
    return load_causal_lm(ASSETS / name, torch.device("cpu")).eval()


@torch.no_grad()
def val_loss(model, val_ids: torch.Tensor, max_len: int, batch: int = 32, bf16: bool = False) -> float:
    """Mean next-token NLL (nats/token) over validation entries, each read from its own ``<s>``.

    Every character and the closing ``</s>`` is a target; the ``<s>`` itself never is. bf16: compute
    in bfloat16 (the quick check during training; the exported figure is float32).
    """
    was_training = model.training
    model.eval()
    total, count = 0.0, 0
    for x, m, y, tm in data.padded_batches(data.entry_chunks(val_ids, max_len), batch):
        x, m, y, tm = (t.to(model.device) for t in (x, m, y, tm))
        with torch.autocast(model.device.type, dtype=torch.bfloat16, enabled=bf16):
            logits = model(input_ids=x, attention_mask=m).logits.float()  # (B, T, V)
        nll = F.cross_entropy(logits.transpose(1, 2), y, reduction="none")  # (B, T)
        total += nll[tm].sum().item()
        count += tm.sum().item()
    model.train(was_training)
    return total / count
