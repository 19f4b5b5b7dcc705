"""The master's weights in 4-bit blocks: the codes a graph multiplies by, and the same weights for torch.

Each row of a matrix is cut into blocks of 32 weights; a block keeps one float32 scale and a 4-bit
code per weight, w ≈ (code - 8) · scale (symmetric: the scale is the block's largest |w| over 7). This
is the layout of ONNX Runtime's MatMulNBits (two codes to a byte, the first in the low half), the
format serving engines quantize a draft to. torch multiplies by the weights the codes stand for, so
both runtimes draft from the same 4-bit scribe.
"""
from __future__ import annotations

import copy

import torch
from torch import nn

from specdec_core.runtimes.bf16_linear import Bf16Linear

BLOCK = 32   # weights per block, each block with its own scale


def int4_blocks(weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """W (N, K) in MatMulNBits' symmetric 4-bit layout: codes (N, K / 32, 16) uint8, two to a byte, the
    first in the low half; scales (N * K / 32,) float32. w ≈ (code - 8) · scale, code in 0 … 15."""
    n, k = weight.shape
    if k % BLOCK:
        raise ValueError(f"4-bit blocks need a width divisible by {BLOCK}, got {k}")
    blocks = weight.reshape(n, k // BLOCK, BLOCK)                                        # (N, K/32, 32)
    scales = blocks.abs().amax(-1, keepdim=True) / 7
    scales = torch.where(scales > 0, scales, torch.ones_like(scales))
    codes = (torch.round(blocks / scales).clamp(-8, 7) + 8).to(torch.uint8)               # (N, K/32, 32)
    packed = codes[..., 0::2] | (codes[..., 1::2] << 4)                                   # (N, K/32, 16)
    return packed.contiguous(), scales.reshape(-1).contiguous()


def int4_weights(weight: torch.Tensor) -> torch.Tensor:
    """The float32 matrix (N, K) that int4_blocks(weight) stands for: the 4-bit copy's exact weights."""
    packed, scales = int4_blocks(weight.detach().float())
    codes = torch.stack([packed & 15, packed >> 4], dim=-1).flatten(-2).float() - 8       # (N, K/32, 32)
    return (codes * scales.reshape(*codes.shape[:2], 1)).reshape(weight.shape)


def int4_copy(model: nn.Module) -> nn.Module:
    """A copy of a CPU model whose every bias-free matrix (the head too) holds, in float32, exactly the
    weights its 4-bit blocks stand for. Only the modules are copied: the embedding and norms stay the
    model's own tensors."""
    shared = {id(tensor): tensor for tensor in [*model.parameters(), *model.buffers()]}
    quantised = copy.deepcopy(model, memo=shared).eval()
    for name, module in list(quantised.named_modules()):
        if isinstance(module, (nn.Linear, Bf16Linear)) and module.bias is None:
            parent_name, _, child = name.rpartition(".")
            linear = nn.Linear(module.in_features, module.out_features, bias=False)
            linear.weight = nn.Parameter(int4_weights(module.weight), requires_grad=False)
            setattr(quantised.get_submodule(parent_name), child, linear)
    return quantised
