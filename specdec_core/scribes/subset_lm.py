"""An LM scribe whose output head covers part of the vocabulary: q is zero on the rest.

A draft's head over a 49,152-token vocabulary costs as much as several of its layers; most of the
master's probability mass sits on a few thousand tokens (Zhao et al. 2025, FR-Spec, restrict the
draft's head to the most frequent tokens for the same reason). Speculative sampling stays exact
whatever q is: a token the scribe cannot write is one the master writes itself at the correction.
"""
from __future__ import annotations

import torch
from transformers import PreTrainedModel

from .lm import LMScribe


class SubsetLMScribe(LMScribe):
    def __init__(self, name: str, model: PreTrainedModel, vocab_ids: torch.Tensor, vocab_size: int):
        super().__init__(name, model, vocab_size)
        self.vocab_ids = vocab_ids.to(model.device)     # head row i is the token vocab_ids[i]

    def hf_assistant(self) -> None:
        return None        # transformers' assisted generation needs a head over the whole vocabulary

    def over_vocab(self, subset_logits: torch.Tensor) -> torch.Tensor:
        """Logits over the whole vocabulary: the head's where it has a row, -inf elsewhere."""
        out = subset_logits.new_full((*subset_logits.shape[:-1], self.vocab_size), float("-inf"))
        out[..., self.vocab_ids] = subset_logits
        return out
