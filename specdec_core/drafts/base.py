"""What the engine asks of a scribe: raw next-token scores, with or without a cache."""
from __future__ import annotations

from typing import Protocol

import torch


class Draft(Protocol):
    """A draft model. It returns raw scores (logits or log-probabilities) over the target's
    vocabulary; the engine applies the shared sampling settings, so q is exactly what it samples.
    """

    name: str
    vocab_size: int
    @property
    def cache_len(self) -> int: ...

    def start(self) -> None:
        """A new sequence begins."""

    def prefill(self, tokens: list[int]) -> None:
        """Read a prompt ahead of the first round (a cache-less scribe has nothing to do)."""

    def next_logits(self, tokens: list[int]) -> torch.Tensor | None:
        """Scores (V,) for the token after `tokens`, or None when the scribe has no proposal."""

    def rollback(self, n_keep: int) -> None:
        """Forget state past the first n_keep tokens."""

    def batch_next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Scores (B, V) after each equal-length row of sequences (B, L), and which rows have one."""


class Stateless:
    """Mixin for scribes that recompute from the tokens each call and keep no cache."""

    @property
    def cache_len(self) -> int:
        return 0

    def start(self) -> None:
        pass

    def prefill(self, tokens: list[int]) -> None:
        pass

    def rollback(self, n_keep: int) -> None:
        pass

    def batch_next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Each distinct row scored once: the proof's thousands of rows share one prompt and differ only in
        a few drafted tokens, and a stateless scribe's scores depend on the tokens alone."""
        distinct, row_of = torch.unique(sequences, dim=0, return_inverse=True)   # (U, L), (B,)
        scores = [self.next_logits(row) for row in distinct.tolist()]
        valid = torch.tensor([score is not None for score in scores])
        filler = torch.zeros(self.vocab_size)
        return torch.stack([filler if score is None else score for score in scores])[row_of], valid[row_of]
