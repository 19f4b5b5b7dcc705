"""Linear layers that hold a model shipped in bfloat16 as bfloat16 weights on CPU, multiplied in float32.

The poetry master is shipped in bfloat16. Held so, his weights take half the memory of float32; each
product widens them to float32 (exactly: every bfloat16 value is a float32 one) and multiplies the
float32 input, so torch computes the p the graph runtime computes from the same stored weights, to
float32 rounding (runtimes/graph_llama.py decodes him; torch runs the proof's many rows), and both
runtimes make the same greedy choices.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class Bf16Linear(nn.Module):
    """y = x Wᵀ with W held in bfloat16, the product in x's dtype (float32 on CPU)."""

    def __init__(self, weight: torch.Tensor):
        super().__init__()
        if weight.dim() != 2:
            raise ValueError("Bf16Linear needs a matrix")
        self.out_features, self.in_features = weight.shape
        self.register_buffer("weight", weight.detach().to(torch.bfloat16).contiguous())
        self.bias = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.weight.to(x.dtype))


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

