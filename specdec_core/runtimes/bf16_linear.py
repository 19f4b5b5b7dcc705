"""Linear layers that multiply by bfloat16 weights on CPU, for a model shipped in bfloat16.

Decoding one token reads every weight to use it once; verifying k + 1 reads them once for k + 1
rows. Where the CPU has bfloat16 matrix units (AMX), a bfloat16 product of a handful of rows costs
about what one row costs: the weight-bound regime of a GPU, in which checking k + 1 characters
costs about one. float32 products of the same matrices cost more with every row. The poetry master
is shipped in bfloat16 and multiplied so; whichever forward runs it (transformers' or the lean
one), the module is the same, so its p is the same.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class Bf16Linear(nn.Module):
    """y = x Wᵀ with W held in bfloat16, x rounded to bfloat16, y returned in x's dtype."""

    def __init__(self, weight: torch.Tensor):
        super().__init__()
        if weight.dim() != 2:
            raise ValueError("Bf16Linear needs a matrix")
        self.out_features, self.in_features = weight.shape
        self.register_buffer("weight", weight.detach().to(torch.bfloat16).contiguous())
        self.bias = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x.to(torch.bfloat16), self.weight).to(x.dtype)


def use_bf16_matrices(model: nn.Module) -> nn.Module:
    """Replace every bias-free linear layer of a CPU model by a Bf16Linear over its weight, in place
    (a head tied to the embedding gets its own bfloat16 copy; the embedding stays). Returns the model."""
    for name, module in list(model.named_modules()):
        if isinstance(module, nn.Linear) and module.bias is None:
            if module.weight.device.type != "cpu":
                raise ValueError(f"{name}: bfloat16 matrices are for CPU models")
            parent_name, _, child = name.rpartition(".")
            setattr(model.get_submodule(parent_name), child, Bf16Linear(module.weight))
    return model

