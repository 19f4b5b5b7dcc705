"""Linear layers that read their weights once, not once per row, when few rows come in on CPU.

Decoding feeds one row per step and verifying feeds k + 1, so every linear layer streams its whole
weight matrix from memory to use it for a handful of dot products. On some CPUs (AMD with MKL)
``F.linear`` reads the weights about once per row for two to five rows, while ``W @ xᵀ`` with at
least two rows takes a GEMM path that reads them once; that brings the verify cost near 1 on CPU,
as on a GPU. On others (Intel with AMX) ``F.linear`` is the faster at every row count. So each
model is timed in both forms when it is placed, and keeps ``W @ xᵀ`` unless ``F.linear`` is clearly
faster there. The measurements behind this are on the model card (assets/models/README.md).
"""
from __future__ import annotations

import time

import torch
from torch import nn

MAX_ROWS = 64  # the rows where W @ xᵀ was measured faster; longer inputs (prompts, training) keep F.linear
TIMED_ROWS = (1, 2, 4)  # a decode step, a verify at k = 1, one at k = 3
TIMED_REPEATS = 3  # the fastest of these, each form in turn, so a busy moment does not decide
CLEARLY_FASTER = 1.2  # F.linear must beat W @ xᵀ by this much: a near tie keeps the form measured longest


class DecodeLinear(nn.Linear):
    """nn.Linear with the same parameters, computing few-row CPU inputs as W @ xᵀ."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows = x.numel() // x.shape[-1]
        if x.device.type != "cpu" or not 1 <= rows <= MAX_ROWS:
            return super().forward(x)
        flat = x.reshape(rows, x.shape[-1])
        if rows == 1:
            flat = torch.cat((flat, flat))  # one row takes MKL's slower GEMV path; two take GEMM
        out = (self.weight @ flat.t()).t()[:rows].contiguous()
        if self.bias is not None:
            out = out + self.bias
        return out.reshape(*x.shape[:-1], out.shape[-1])


def decode_linears(model: nn.Module, clock=time.perf_counter) -> nn.Module:
    """Give every plain nn.Linear in `model` the faster form for few rows on this machine, in place
    (parameters, names and ties stay as they are), and return the model."""
    return linear_form(model, faster_form(model, clock))


def faster_form(model: nn.Module, clock=time.perf_counter) -> type[nn.Linear]:
    """DecodeLinear, unless nn.Linear runs the model's own linear layers CLEARLY_FASTER at a decode's
    few rows on this CPU (timed on each call: a pair is placed once, and the timing takes under a second)."""
    linears = [m for m in model.modules() if type(m) in (nn.Linear, DecodeLinear)]
    if not linears or linears[0].weight.device.type != "cpu":
        return DecodeLinear  # nothing to time; off the CPU DecodeLinear is nn.Linear
    seconds = _seconds_per_form(model, linears, clock)
    return nn.Linear if seconds[DecodeLinear] > CLEARLY_FASTER * seconds[nn.Linear] else DecodeLinear


@torch.inference_mode()
def _seconds_per_form(model: nn.Module, linears: list[nn.Linear], clock) -> dict[type, float]:
    """For each form, the fastest of TIMED_REPEATS passes of TIMED_ROWS rows through every layer."""
    inputs = [torch.zeros(rows, m.in_features, dtype=m.weight.dtype) for rows in TIMED_ROWS for m in linears]
    layers = [m for _ in TIMED_ROWS for m in linears]
    best = {nn.Linear: float("inf"), DecodeLinear: float("inf")}
    was = type(linears[0])
    for _ in range(TIMED_REPEATS):
        for form in best:
            linear_form(model, form)
            start = clock()
            for layer, x in zip(layers, inputs):
                layer(x)
            best[form] = min(best[form], clock() - start)
    linear_form(model, was)
    return best


def linear_form(model: nn.Module, form: type[nn.Linear]) -> nn.Module:
    """Give every nn.Linear or DecodeLinear in `model` the class `form` (either of the two), in place.
    Other subclasses of nn.Linear keep their own forward."""
    for module in model.modules():
        if type(module) in (nn.Linear, DecodeLinear):
            module.__class__ = form  # no state of its own in either: only forward changes
    return model
