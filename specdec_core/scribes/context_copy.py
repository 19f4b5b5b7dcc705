"""Copying from the context, for a draft whose head covers part of the vocabulary.

A draft head cut to the most likely tokens (subset_lm.py) cannot write the rarer pieces of a new
topic's words, yet those pieces usually stand earlier in the prompt or the answer: on the smollm2
pair's held-out topics 6% of the master's probability lies outside the draft's head, a third of it
on tokens of the context. Induction (Olsson et al. 2022), as prompt lookup uses it (Saxena 2023):
a token that followed an earlier occurrence of the context's last token is a likely next one, the
more so when the token before it matches too. Such a token gets a score relative to the draft's
best one; a candidate the head covers gets a bonus on its own score. Speculative sampling stays
exact whatever q is: q is what these scores give after the shared temperature and top-p.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

FILE = "context_copy.json"


@dataclass(frozen=True)
class CopyScores:
    """Scores for the context's continuations (logits; -inf leaves a kind out).

    off_head_short / off_head_long: a token outside the head after a match of one token / of two
    or more, scored as the draft's best logit plus this. in_head_long: added to the draft's own
    logit for a token in the head after a match of two or more."""

    off_head_short: float = -math.inf
    off_head_long: float = -math.inf
    in_head_long: float = 0.0

    def save(self, directory: Path) -> None:
        (directory / FILE).write_text(json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def load(cls, directory: Path) -> "CopyScores | None":
        """The rung's scores, or None when it has no file; a broken file raises ValueError naming it."""
        path = directory / FILE
        if not path.exists():
            return None
        try:
            return cls(**{name: float(value) for name, value in json.loads(path.read_text()).items()})
        except (ValueError, TypeError) as error:
            raise ValueError(f"{path}: not a context-copy file ({error})") from error


def continuations(tokens: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(tokens that followed an earlier occurrence of the last token, whether the token before it
    matched too), each continuation once, with its longer match where it has two."""
    seq = np.asarray(tokens)
    if len(seq) < 2:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    at = np.flatnonzero(seq[:-1] == seq[-1])             # earlier occurrences of the last token
    follow = seq[at + 1]
    longer = (at >= 1) & (seq[np.maximum(at - 1, 0)] == seq[-2])
    order = np.lexsort((~longer, follow))                  # each token's longer match first
    follow, longer = follow[order], longer[order]
    first = np.ones(len(follow), dtype=bool)
    first[1:] = follow[1:] != follow[:-1]
    return follow[first], longer[first]


def with_copies(logits: torch.Tensor, tokens: list[int], in_head: torch.Tensor, scores: CopyScores) -> torch.Tensor:
    """The draft's logits (V,) over the whole vocabulary (-inf off its head) with the context's
    continuations scored: a new tensor, or ``logits`` itself when the context offers none."""
    follow, longer = continuations(tokens)
    if len(follow) == 0:
        return logits
    follow, longer = torch.from_numpy(follow).to(logits.device), torch.from_numpy(longer).to(logits.device)
    out = logits.clone()
    covered = in_head[follow]
    best = logits.max()                                    # the head's best: the rest is -inf
    out[follow[covered & longer]] += scores.in_head_long
    out[follow[~covered & longer]] = best + scores.off_head_long
    out[follow[~covered & ~longer]] = best + scores.off_head_short
    return out
