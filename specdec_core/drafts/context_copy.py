"""Copying from the context, for a draft whose head covers part of the vocabulary.

A draft head cut to the most likely tokens (subset_lm.py) cannot write the rarer pieces of a new
topic's words, yet those pieces usually stand earlier in the prompt or the answer: on the smollm2
pair's held-out topics 6% of the target's probability lies outside the draft's head, a third of it
on tokens of the context. Induction (Olsson et al. 2022), as prompt lookup uses it (Saxena 2023):
a token that followed an earlier occurrence of the context's last token is a likely next one, the
more so the more tokens before it match too. Such a token gets a score relative to the draft's
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
MAX_MATCH = 3   # match lengths told apart: 1, 2, and 3 or more


@dataclass(frozen=True)
class CopyScores:
    """Scores for the context's continuations (logits; -inf leaves a kind out).

    off_head_short / off_head_long: a token outside the head after a match of one token / of two
    or more, scored as the draft's best logit plus this. in_head_long / in_head_longer: added to
    the draft's own logit for a token in the head after a match of two tokens / of three or more."""

    off_head_short: float = -math.inf
    off_head_long: float = -math.inf
    in_head_long: float = 0.0
    in_head_longer: float = 0.0

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
    """(tokens that followed an earlier occurrence of the last token, how many tokens matched there:
    1 to MAX_MATCH), each continuation once, with its longest match."""
    seq = np.asarray(tokens, dtype=np.int64)
    if len(seq) < 2:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    at = np.flatnonzero(seq[:-1] == seq[-1])             # earlier occurrences of the last token
    follow = seq[at + 1]
    match = np.ones(len(at), dtype=np.int64)
    for back in range(1, min(MAX_MATCH, len(seq) - 1)):   # extend each match one token further back
        match += (match == back) & (at >= back) & (seq[np.maximum(at - back, 0)] == seq[-1 - back])
    order = np.lexsort((-match, follow))                   # each token's longest match first
    follow, match = follow[order], match[order]
    first = np.ones(len(follow), dtype=bool)
    first[1:] = follow[1:] != follow[:-1]
    return follow[first], match[first]


def with_copies(logits: torch.Tensor, tokens: list[int], in_head: torch.Tensor, scores: CopyScores) -> torch.Tensor:
    """The draft's logits (V,) over the whole vocabulary (-inf off its head) with the context's
    continuations scored: a new tensor, or ``logits`` itself when the context offers none."""
    follow, match = continuations(tokens)
    return logits if len(follow) == 0 else scored(logits, follow, match, in_head, scores)


def scored(logits: torch.Tensor, follow: np.ndarray, match: np.ndarray, in_head: torch.Tensor,
           scores: CopyScores) -> torch.Tensor:
    """``logits`` with the given continuations (from ``continuations``) scored, as a new tensor."""
    follow, match = torch.from_numpy(follow).to(logits.device), torch.from_numpy(match).to(logits.device)
    # by match length (row) and whether the head covers the token (column): added to its own
    # logit, or to the head's best one (the rest is -inf); one row per length, from none to three
    table = torch.tensor([[0.0, -math.inf], [0.0, scores.off_head_short], [scores.in_head_long, scores.off_head_long],
                          [scores.in_head_longer, scores.off_head_long]], device=logits.device)
    covered = in_head[follow]
    out = logits.clone()
    out[follow] = torch.where(covered, logits[follow] + table[match, 0], logits.max() + table[match, 1])
    return out
