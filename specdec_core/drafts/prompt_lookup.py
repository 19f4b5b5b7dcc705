"""Prompt lookup (Saxena 2023): copy what followed the latest earlier match of the last n-gram.

q is one-hot on the copied token, a deterministic function of the context, so the exact rule
still applies. With no match the scribe proposes nothing and the target writes the next token.
"""
from __future__ import annotations

import torch

from specdec_core.drafts.base import Stateless


class PromptLookupDraft(Stateless):
    def __init__(self, vocab_size: int, max_ngram: int = 3, name: str = "prompt-lookup"):
        self.name = name
        self.vocab_size = vocab_size
        self.max_ngram = max_ngram

    def next_logits(self, tokens: list[int]) -> torch.Tensor | None:
        copied = find_continuation(tokens, self.max_ngram)
        if copied is None:
            return None
        logits = torch.full((self.vocab_size,), float("-inf"))
        logits[copied] = 0.0
        return logits


def find_continuation(tokens: list[int], max_ngram: int) -> int | None:
    """The token after the latest earlier occurrence of the longest matching suffix n-gram."""
    for n in range(min(max_ngram, len(tokens) - 1), 0, -1):
        suffix = tokens[-n:]
        for start in range(len(tokens) - n - 1, -1, -1):
            if tokens[start : start + n] == suffix:
                return tokens[start + n]
    return None
