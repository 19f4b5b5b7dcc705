"""One round of speculative sampling for B rows at once (Leviathan, Kalman & Matias 2023, Algorithm 1).

Every decoding in the app is this function: the scriptorium's sheet is one row with KV caches, the
proof is thousands of rows that share the prompt, the iron rule is k = 1 at one fixed position, and
the target writing alone is a round with no draft. So the proof tests the code that writes the sheet.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import torch

from specdec_core.algorithm.drafting import draft_token
from specdec_core.algorithm.rules import Rule, rule_named
from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.verify import Verdict, verify


class Verifier(Protocol):
    """The target as a round reads it."""

    cache_len: int

    def score(self, contexts: torch.Tensor, drafted: torch.Tensor) -> torch.Tensor:
        """Logits (B, n+1, V) at each drafted position and one past the last, for contexts (B, L) and drafted (B, n)."""

    def rollback(self, keep: torch.Tensor) -> None:
        """Forget what follows the first keep[b] tokens of each row (B,)."""


class Drafter(Protocol):
    """The draft as a round reads it."""

    cache_len: int

    def next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Scores (B, V) for the token after each row of sequences (B, L), and which rows have a proposal (B,)."""

    def rollback(self, keep: torch.Tensor) -> None:
        """As Verifier.rollback."""


class NoClock:
    """Rounds that are not timed (the proof, the iron rule) read this clock."""

    @staticmethod
    def now() -> float:
        return 0.0


@dataclass
class RoundResult:
    """What a round drafted, saw and decided, row by row, and what it cost."""

    drafted: torch.Tensor  # (B, n) n <= k: drafting stops early when no row has a proposal
    draft_len: torch.Tensor  # (B,) tokens each row really drafted
    q: torch.Tensor  # (B, n, V) the distributions the draft sampled from
    p: torch.Tensor  # (B, n+1, V) the target's, after the shared sampling settings
    verdict: Verdict
    draft_s: float
    target_s: float
    target_cache: list[int]  # cache lengths before the verify forward, after it, after rollback
    draft_cache: list[int]  # the same for the draft

    @property
    def n_accepted(self) -> torch.Tensor:
        return self.verdict.n_accepted  # (B,) never past draft_len: q = 0 there, so nothing is accepted

    def new_tokens(self) -> list[list[int]]:
        """Each row's written tokens: its accepted prefix, then the correction or the bonus."""
        drafted, kept, following = self.drafted.tolist(), self.n_accepted.tolist(), self.verdict.next_token.tolist()
        return [row[:n] + [token] for row, n, token in zip(drafted, kept, following)]


def speculative_round(target: Verifier, drafter: Drafter | None, contexts: torch.Tensor, k: int, settings,
                      generator: torch.Generator, clock=NoClock) -> RoundResult:
    """Draft up to k tokens per row, verify them in one target forward, accept, correct or add the bonus, roll back.

    contexts: (B, L) token ids every row has written so far; a round with no draft is the target alone.
    """
    rule = rule_named(settings.rule)
    started, draft_cache = clock.now(), [_cache_len(drafter)]
    # 1. draft: the draft writes up to k tokens per row, each sampled from q
    drafted, q, q_scored, draft_len = _draft(drafter, contexts, k if drafter else 0, settings, rule, generator)
    draft_s, target_cache = clock.now() - started, [target.cache_len]
    draft_cache.append(_cache_len(drafter))
    # 2. verify: one target forward scores every drafted token and the position after them
    p = probs_from_logits(target.score(contexts, drafted), settings.sampling)  # (B, n+1, V)
    target_s = clock.now() - started - draft_s
    target_cache.append(target.cache_len)
    if q is None:  # nothing drafted: q is empty, and the token comes from p
        q = q_scored = p.new_zeros((p.shape[0], 0, p.shape[-1]))
    # 3. accept a prefix with probability min(1, p/q); 4. draw the correction from the residual, or the bonus
    verdict = verify(p, q_scored, drafted, generator, rule, draft_len)
    # 5. roll back: both caches keep the context and the accepted prefix, not the new token
    keep = contexts.shape[1] + verdict.n_accepted
    target.rollback(keep)
    if drafter:
        drafter.rollback(keep)
    target_cache.append(target.cache_len)
    draft_cache.append(_cache_len(drafter))
    return RoundResult(drafted, draft_len, q, p, verdict, draft_s, target_s, target_cache, draft_cache)


def _draft(drafter: Drafter | None, contexts: torch.Tensor, k: int, settings, rule: Rule, generator: torch.Generator):
    """Tokens (B, n), the q they were sampled from and the q the rule scores them with (B, n, V, or
    None when n = 0), and each row's own draft length (B,)."""
    batch, device = contexts.shape[0], contexts.device
    draft_len = torch.zeros(batch, dtype=torch.long, device=device)
    still_drafting = torch.ones(batch, dtype=torch.bool, device=device)
    tokens, sampled_from, scored = [], [], []
    for _ in range(k):
        logits, valid = drafter.next_logits(torch.cat([contexts, *tokens], dim=1))
        still_drafting &= valid.to(device)
        if not still_drafting.any():
            break
        token, q, q_scored = _draft_rows(logits.to(device), settings, rule, generator)
        draft_len += still_drafting
        tokens.append(token[:, None])
        sampled_from.append(q)
        scored.append(q_scored)
    if not tokens:
        return contexts.new_zeros((batch, 0)), None, None, draft_len
    return torch.cat(tokens, dim=1), torch.stack(sampled_from, dim=1), torch.stack(scored, dim=1), draft_len


def _draft_rows(logits: torch.Tensor, settings, rule: Rule, generator: torch.Generator):
    """draft_token on (B, V) scores. One row goes as (V,), where a part-vocabulary head's fast path applies."""
    if logits.shape[0] != 1:
        return draft_token(logits, settings, rule, generator)
    token, q, q_scored = draft_token(logits[0], settings, rule, generator)
    return token.reshape(1), q[None], q_scored[None]


def _cache_len(drafter: Drafter | None) -> int:
    return drafter.cache_len if drafter else 0
