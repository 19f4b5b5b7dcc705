"""A head that never writes some tokens: the control pieces a poem must not contain.

A character model reads ``<s>`` between poems and ``<unk>`` for a rare character, so it gives them
a little probability (the poetry master's largest is in metrics.json, "control_pieces"). The shipped
pair closes them: their logits are set far below every other, so p is exactly zero there after
the softmax, in every forward that runs the model (transformers' and the lean one alike).
"""
from __future__ import annotations

import torch
from torch import nn

SILENT = -1e4   # exp(-1e4 - max) underflows to 0 in float32; finite, so log p and p log p stay numbers


class SilencedHead(nn.Module):
    """``head(x)`` with the logits of ``token_ids`` set to SILENT."""

    def __init__(self, head: nn.Module, token_ids: list[int]):
        super().__init__()
        self.head, self.bias = head, None
        self.in_features, self.out_features = head.in_features, head.out_features
        self.register_buffer("token_ids", torch.tensor(sorted(token_ids), dtype=torch.long))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(x).index_fill(-1, self.token_ids.to(x.device), SILENT)


def silence(model: nn.Module, token_ids: list[int]) -> nn.Module:
    """Give a causal LM's head SilencedHead over ``token_ids``, in place; returns the model."""
    if token_ids:
        model.lm_head = SilencedHead(model.lm_head, token_ids)
    return model
