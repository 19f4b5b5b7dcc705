"""A causal LM with its KV cache: feed only what is new, roll back what was rejected."""
from __future__ import annotations

import copy

import torch
from transformers import DynamicCache, PreTrainedModel


class CachedLM:
    """Wraps a transformers causal LM and remembers which tokens its cache holds.

    The cache is plain state owned by this object; callers roll it back explicitly.
    """

    def __init__(self, model: PreTrainedModel):
        self.model = model
        self.device = model.device
        self.cached: list[int] = []
        self.cache = DynamicCache(config=model.config)

    @property
    def cache_len(self) -> int:
        return len(self.cached)

    def start(self) -> None:
        """Forget everything: a new sequence begins."""
        self.cached = []
        self.cache = DynamicCache(config=self.model.config)

    @torch.inference_mode()
    def logits(self, tokens: list[int], n_last: int = 1) -> torch.Tensor:
        """Logits (n_last, V) after each of the last n_last positions of `tokens`.

        Feeds tokens[cache_len:] in one forward; the cache must hold a prefix of `tokens`.
        """
        if tokens[: self.cache_len] != self.cached:
            raise RuntimeError("cache out of step with the sequence: roll it back first")
        new = tokens[self.cache_len :]
        if not 1 <= n_last <= len(new):
            raise ValueError(f"need 1..{len(new)} new positions for n_last, got {n_last}")
        ids = torch.tensor([new], device=self.device)
        mask = torch.ones((1, len(tokens)), dtype=torch.long, device=self.device)  # one row, no padding
        out = self.model(input_ids=ids, attention_mask=mask, cache=self.cache, use_cache=True, logits_to_keep=n_last)
        self.cached = list(tokens)
        return out.logits[0]

    def rollback(self, n_keep: int) -> None:
        """Drop cached positions past n_keep (transformers 5 crops with a negative count)."""
        drop = self.cache_len - n_keep
        if drop > 0:
            self.cache.crop(-drop)
            del self.cached[n_keep:]


@torch.inference_mode()
def last_logits(model: PreTrainedModel, sequences: torch.Tensor, n_last: int = 1) -> torch.Tensor:
    """Cache-free batched forward: logits (B, n_last, V) for equal-length sequences (B, L), B and L at least 1."""
    if not sequences.numel():  # transformers would fail deep inside with a reshape of 0 elements
        raise ValueError(f"a forward needs at least one row and one position, got shape {tuple(sequences.shape)}")
    sequences = sequences.to(model.device)
    mask = torch.ones_like(sequences)  # no padding: rows have equal length by construction
    return model(input_ids=sequences, attention_mask=mask, use_cache=False, logits_to_keep=n_last).logits


class SharedPrefix:
    """A prefix read once, whose cache every row of a batch then shares (the proof's many samples).

    Each call copies the one-row cache to the batch, so the prefix costs one forward in all, not
    one per row and round.
    """

    @torch.inference_mode()
    def __init__(self, model: PreTrainedModel, prefix: list[int]):
        self.model, self.length, self.tokens = model, len(prefix), list(prefix)
        self.cache = DynamicCache(config=model.config)
        if prefix:
            ids = torch.tensor([prefix], device=model.device)
            model(input_ids=ids, attention_mask=torch.ones_like(ids), cache=self.cache, use_cache=True, logits_to_keep=1)

    @torch.inference_mode()
    def logits(self, suffixes: torch.Tensor, n_last: int = 1) -> torch.Tensor:
        """Logits (B, n_last, V) after the last n_last positions of prefix + each row of suffixes (B, L). Each
        distinct row is read once: the proof's rows often repeat their few drafted tokens."""
        distinct, row_of = torch.unique(suffixes.to(self.model.device), dim=0, return_inverse=True)  # (U, L), (B,)
        if self.length == 0:
            return last_logits(self.model, distinct, n_last)[row_of]
        cache = copy.deepcopy(self.cache)
        cache.batch_repeat_interleave(len(distinct))
        mask = torch.ones((len(distinct), self.length + distinct.shape[1]), dtype=torch.long, device=distinct.device)
        return self.model(input_ids=distinct, attention_mask=mask, cache=cache, use_cache=True, logits_to_keep=n_last).logits[row_of]
