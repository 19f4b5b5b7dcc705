"""Linear layers that read their weights once, not once per row, when few rows come in on CPU.

Decoding feeds one row per step and verifying feeds k + 1, so every linear layer streams its whole
weight matrix from memory to use it for a handful of dot products. On the 2-core CI machine (AMD,
PyTorch's MKL), ``F.linear`` does that at well under the available bandwidth for one row, and for
two to five rows it reads the weights about once per row: SmolLM2-135M's cached forward took 70 ms
for one new token and 104-132 ms for two to five. Asked as ``W @ xᵀ`` with at least two rows, MKL
takes a GEMM path that reads the weights once: 59 ms for one token, 64-81 ms for two to five. That
brings the verify cost v near 1 on CPU, as on a GPU. Re-measure: ``python -m tools.linear_rows``.
"""
from __future__ import annotations

import torch
from torch import nn

MAX_ROWS = 64  # the rows where W @ xᵀ was measured faster; longer inputs (prompts, training) keep F.linear


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


def decode_linears(model: nn.Module) -> nn.Module:
    """Turn every plain nn.Linear in `model` into a DecodeLinear in place (parameters, names and ties
    stay as they are) and return the model."""
    return linear_form(model, DecodeLinear)


def linear_form(model: nn.Module, form: type[nn.Linear]) -> nn.Module:
    """Give every nn.Linear or DecodeLinear in `model` the class `form` (either of the two), in place.
    Other subclasses of nn.Linear keep their own forward."""
    for module in model.modules():
        if type(module) in (nn.Linear, DecodeLinear):
            module.__class__ = form  # no state of its own in either: only forward changes
    return model
