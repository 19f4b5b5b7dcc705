"""A count-based n-gram scribe with Witten-Bell interpolation (a proper distribution over V).

P(w | h) = (c(h, w) + T(h) P(w | h')) / (c(h) + T(h)), where T(h) is the number of distinct
tokens seen after h and h' drops the oldest token of h (Witten & Bell 1991; Chen & Goodman 1998).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import torch
from safetensors import safe_open
from safetensors.numpy import load_file, save_file

from specdec_core.drafts.base import Stateless


class NgramModel:
    """Counts of every order from 1 to `order`, kept per context for fast lookup."""

    def __init__(self, order: int, vocab_size: int, arrays: dict[str, np.ndarray]):
        self.order = order
        self.vocab_size = vocab_size
        self.arrays = arrays  # the counts: unigram (V,), ngrams_o (M, o), counts_o (M,); save() narrows their type
        unigram = arrays["unigram"].astype(np.float64)
        self.unigram = torch.from_numpy(unigram / max(unigram.sum(), 1.0)).float()  # (V,)
        # order -> {context tuple: (next tokens, counts, total, distinct next tokens)}
        self.tables = {o: _group_by_context(arrays[f"ngrams_{o}"], arrays[f"counts_{o}"]) for o in range(2, order + 1)}

    @classmethod
    def fit(cls, sequences: list[list[int]], order: int, vocab_size: int, min_count: int = 1) -> "NgramModel":
        """Counts of `sequences`; n-grams longer than one seen fewer than `min_count` times are left
        out (their mass goes to the shorter context), which keeps a large corpus's file small."""
        counts = {o: Counter() for o in range(1, order + 1)}
        for seq in sequences:
            for o in range(1, order + 1):
                counts[o].update(tuple(seq[i : i + o]) for i in range(len(seq) - o + 1))
        for o in range(2, order + 1):
            counts[o] = Counter({gram: n for gram, n in counts[o].items() if n >= min_count})
        return cls(order, vocab_size, _to_arrays(counts, vocab_size))

    def save(self, path: Path) -> None:
        arrays = {name: _compact(values) for name, values in self.arrays.items()}
        save_file(arrays, str(path), metadata={"order": str(self.order), "vocab_size": str(self.vocab_size)})

    @classmethod
    def load(cls, path: Path) -> "NgramModel":
        with safe_open(str(path), "np") as handle:
            meta = handle.metadata()
        return cls(int(meta["order"]), int(meta["vocab_size"]), load_file(str(path)))

    def probs(self, tokens: list[int]) -> torch.Tensor:
        """P(next | tokens) over the whole vocabulary (V,)."""
        probs = self.unigram
        for o in range(2, self.order + 1):
            if len(tokens) < o - 1:
                break
            entry = self.tables[o].get(tuple(tokens[len(tokens) - o + 1 :]))
            if entry is None:
                break  # a longer context cannot have been seen either
            next_tokens, next_counts, total, types = entry
            probs = probs * (types / (total + types))
            probs = probs.index_add(0, next_tokens, next_counts / (total + types))
        return probs


class NgramDraft(Stateless):
    def __init__(self, model: NgramModel, name: str = "ngram"):
        self.name = name
        self.model = model
        self.vocab_size = model.vocab_size

    def next_logits(self, tokens: list[int]) -> torch.Tensor:
        return self.model.probs(tokens).log()


def _to_arrays(counts: dict[int, Counter], vocab_size: int) -> dict[str, np.ndarray]:
    unigram = np.zeros(vocab_size, dtype=np.int64)
    for (token,), count in counts[1].items():
        unigram[token] = count
    arrays = {"unigram": unigram}
    for o in range(2, len(counts) + 1):
        items = sorted(counts[o].items())
        arrays[f"ngrams_{o}"] = np.array([k for k, _ in items], dtype=np.int64).reshape(-1, o)
        arrays[f"counts_{o}"] = np.array([c for _, c in items], dtype=np.int32)
    return arrays


def _compact(values: np.ndarray) -> np.ndarray:
    """Ids or counts (never negative) in the narrowest of 2, 4 or 8 bytes that holds them: a
    character vocabulary's ids and a pruned table's counts fit in two."""
    if values.size and values.min() < 0:
        raise ValueError("n-gram ids and counts are never negative")
    top = int(values.max()) if values.size else 0
    for narrow in (np.uint16, np.int32):
        if top <= np.iinfo(narrow).max:
            return values.astype(narrow)
    return values.astype(np.int64)


def _group_by_context(ngrams: np.ndarray, counts: np.ndarray) -> dict:
    """{context: (next tokens, counts, total count, distinct next tokens)} from sorted rows."""
    if len(ngrams) == 0:
        return {}
    contexts = ngrams[:, :-1]
    starts = np.flatnonzero(np.r_[True, (contexts[1:] != contexts[:-1]).any(axis=1)])
    ends = np.r_[starts[1:], len(ngrams)]
    table = {}
    for start, end in zip(starts.tolist(), ends.tolist()):
        next_counts = torch.from_numpy(counts[start:end].astype(np.float32))
        table[tuple(contexts[start].tolist())] = (
            torch.from_numpy(ngrams[start:end, -1].astype(np.int64)),
            next_counts,
            float(next_counts.sum()),
            float(end - start),
        )
    return table
