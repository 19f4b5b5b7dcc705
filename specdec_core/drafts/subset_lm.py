"""An LM scribe whose output head covers part of the vocabulary: q is zero on the rest.

A draft's head over a 49,152-token vocabulary costs as much as several of its layers; most of the
target's probability mass sits on a few thousand tokens (Zhao et al. 2025, FR-Spec, restrict the
draft's head to the most frequent tokens for the same reason). Speculative sampling stays exact
whatever q is: a token the scribe cannot write is one the target writes itself at the correction.
With ``copies``, tokens outside the head that the context holds can still be drafted
(context_copy.py).
"""
from __future__ import annotations

import torch
from transformers import PreTrainedModel

from specdec_core.drafts.context_copy import CopyScores, with_copies
from specdec_core.drafts.lm import LMDraft
from specdec_core.runtimes.slot_cache import node_paths


class SubsetLMDraft(LMDraft):
    def __init__(self, name: str, model: PreTrainedModel, vocab_ids: torch.Tensor, vocab_size: int,
                 copies: CopyScores | None = None):
        super().__init__(name, model, vocab_size)
        self.vocab_ids = vocab_ids.to(model.device)     # head row i is the token vocab_ids[i]
        self.copies = copies
        self.in_head = torch.zeros(vocab_size, dtype=torch.bool, device=model.device)
        self.in_head[self.vocab_ids] = True

    def hf_assistant(self) -> None:
        return None        # transformers' assisted generation needs a head over the whole vocabulary

    def over_vocab(self, subset_logits: torch.Tensor) -> torch.Tensor:
        return over_vocab(subset_logits, self.vocab_ids, self.vocab_size)

    def next_logits(self, tokens: list[int]) -> torch.Tensor:
        return self._with_copies(super().next_logits(tokens), tokens)

    def tree_logits(self, context: list[int], tokens: list[int], parents: list[int], n_last: int) -> torch.Tensor:
        logits = super().tree_logits(context, tokens, parents, n_last)
        if self.copies is None:
            return logits
        fed = [context] if not tokens else [context + path for path in node_paths(tokens, parents)[-n_last:]]
        return torch.stack([self._with_copies(row, sequence) for row, sequence in zip(logits, fed[-n_last:])])

    def batch_next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, valid = super().batch_next_logits(sequences)
        if self.copies is None:
            return logits, valid
        return torch.stack([self._with_copies(row, seq) for row, seq in zip(logits, sequences.tolist())]), valid

    def _with_copies(self, logits: torch.Tensor, tokens: list[int]) -> torch.Tensor:
        return logits if self.copies is None else with_copies(logits, tokens, self.in_head, self.copies)


def over_vocab(subset_logits: torch.Tensor, vocab_ids: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """Logits over the whole vocabulary: the head's where it has a row, -inf elsewhere."""
    out = subset_logits.new_full((*subset_logits.shape[:-1], vocab_size), float("-inf"))
    out[..., vocab_ids] = subset_logits
    return out
