"""Linear layers that multiply by a shipped draft's int8 weights as they are, on CPU.

A draft writes one token per forward, so each forward streams all its weights from memory to use
them once; held as float32 copies of int8 matrices, that is four times the bytes the file holds.
``torch._weight_int8pack_mm`` (the weight-only int8 kernel that gpt-fast and torchao use on CPU)
reads the int8 matrix with its per-row scales and bfloat16 inputs, about a third faster a drafted
token than float32 copies, with alpha unchanged to the third decimal (the model card has the
numbers). Speculative sampling stays exact whatever q is: the draft's q is what this arithmetic gives.
"""
from __future__ import annotations

import copy

import torch
import torch.nn.functional as F
from torch import nn

from specdec_core.runtimes.bf16_linear import Bf16Linear

MANY_ROWS = 64   # above this many rows the int8 matrix is widened to bfloat16 and multiplied as one


class Int8Linear(nn.Module):
    """y = x Wᵀ + b with W = int8 matrix x per-row scale, computed in bfloat16, returned in x's dtype."""

    def __init__(self, weight: torch.Tensor, row_scale: torch.Tensor, bias: torch.Tensor | None = None):
        super().__init__()
        if weight.dtype != torch.int8 or weight.dim() != 2 or row_scale.numel() != weight.shape[0]:
            raise ValueError("Int8Linear needs an int8 matrix and one scale per row")
        self.in_features, self.out_features = weight.shape[1], weight.shape[0]
        # A fresh copy: the kernel crashed on a matrix read straight from a safetensors file, whose
        # data began 40 bytes past a 64-byte boundary, once 31 rows came in; torch allocates aligned.
        self.register_buffer("weight", weight.clone(memory_format=torch.contiguous_format))
        self.register_buffer("scale", row_scale.reshape(-1).to(torch.bfloat16).contiguous())
        self.bias = bias

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.reshape(-1, self.in_features).to(torch.bfloat16)
        if len(flat) > MANY_ROWS:   # a batch (the proof's rows): the kernel is built for a decode's few
            out = F.linear(flat, self.weight.to(torch.bfloat16) * self.scale[:, None]).to(x.dtype)
        else:
            out = torch._weight_int8pack_mm(flat, self.weight, self.scale).to(x.dtype)
        if self.bias is not None:
            out = out + self.bias
        return out.reshape(*x.shape[:-1], self.out_features)


def use_int8_matrices(model: nn.Module, matrices: dict[str, tuple[torch.Tensor, torch.Tensor]]) -> nn.Module:
    """Replace each named linear layer of a CPU model by an Int8Linear over its (int8, row scale)
    pair, in place; its float weight is dropped, its bias kept. Returns the model."""
    for name, (weight, row_scale) in matrices.items():
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name)
        old = getattr(parent, child)
        if not isinstance(old, nn.Linear) or old.weight.shape != weight.shape:
            raise ValueError(f"{name} is not a linear layer of shape {tuple(weight.shape)}")
        if old.weight.device.type != "cpu":
            raise ValueError(f"{name}: int8 matrices are for CPU models; keep float weights on {old.weight.device}")
        setattr(parent, child, Int8Linear(weight, row_scale, old.bias))
    return model


def int8_rows(matrix: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(int8 matrix, float32 scale per row) whose product is ``matrix`` to within half a step per row."""
    scale = (matrix.abs().amax(1, keepdim=True) / 127).clamp(min=torch.finfo(torch.float32).tiny)
    return (matrix / scale).round().clamp(-127, 127).to(torch.int8).contiguous(), scale.contiguous()


def int8_copy(model: nn.Module) -> nn.Module:
    """A copy of a CPU model in which every bias-free matrix (float32 or bfloat16, the head too)
    multiplies by its weight rounded to int8 rows: a quantised master, the usual top draft.

    Only the modules are copied: the copy shares the model's tensors (its embedding and norms stay
    one object in memory; the float matrices it reads are replaced, never written)."""
    shared = {id(tensor): tensor for tensor in [*model.parameters(), *model.buffers()]}
    quantised = copy.deepcopy(model, memo=shared).eval()
    for name, module in list(quantised.named_modules()):
        if isinstance(module, (nn.Linear, Bf16Linear)) and module.bias is None:
            parent_name, _, child = name.rpartition(".")
            setattr(quantised.get_submodule(parent_name), child, Int8Linear(*int8_rows(module.weight.detach().float())))
    return quantised
