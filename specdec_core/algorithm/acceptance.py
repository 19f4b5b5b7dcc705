"""α at the 1st, 2nd, 3rd… drafted token, counted from a run's rounds: where a scribe's acceptance falls off.

A round's draft is judged left to right and stops at the first rejection, so the i-th drafted token
is judged only in rounds that drafted at least i tokens and sealed the first i − 1. Counting over
those rounds gives the acceptance of the i-th token given that it was reached. Feature-level drafts
(EAGLE, Li et al. 2024) are surest at the 1st token and less sure later, where they read their own
guesses; EAGLE-3 (Li et al. 2025, arXiv 2503.01840) trains on those guesses to lift the later ones.

trace.summarize's alpha_by_position averages min(1, p/q) over the same reached tokens, the expected
seal; these functions count the seals that happened, as a reader counts red and black on the sheet.

In a tree, the master tries a depth's variants one after another, so a depth is passed more often than one
variant is: the chance to pass a depth is no alpha. There alpha is counted on the first variant at each depth
(tree_walk.judged_steps, counted by verdict_counts), the one tried against p, as a chain's token is.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence


def position_counts(outcomes: Iterable[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """{i: (rounds that reached the i-th drafted token, rounds that sealed it)} for every position some
    round reached, in order from 1.

    outcomes: (tokens drafted, tokens accepted) per round. Position i is reached where a round drafted
    at least i tokens and accepted the first i − 1; it is sealed where the round accepted at least i.
    A round that reached position i reached every earlier one, so the positions run 1, 2, … with no gap.
    """
    reached: dict[int, list[int]] = {}
    for drafted, accepted in outcomes:
        for i in range(1, min(drafted, accepted + 1) + 1):
            count = reached.setdefault(i, [0, 0])
            count[0] += 1
            count[1] += i <= accepted
    return {i: (n, sealed) for i, (n, sealed) in sorted(reached.items())}


def verdict_counts(verdicts: Iterable[Sequence[bool]]) -> dict[int, tuple[int, int]]:
    """{i: (rounds with an i-th judged verdict, rounds where it sealed)}, in order from 1.

    verdicts: per round, whether each judged step was sealed (trace.judged_verdicts). In a tree the i-th is the
    first variant at depth i: a depth is reached after a later variant passed above it too, so a struck verdict
    need not be a round's last, as it is in a chain."""
    counts: dict[int, list[int]] = {}
    for judged in verdicts:
        for i, sealed in enumerate(judged, start=1):
            count = counts.setdefault(i, [0, 0])
            count[0] += 1
            count[1] += bool(sealed)
    return {i: (n, sealed) for i, (n, sealed) in sorted(counts.items())}


def alpha_by_position(outcomes: Iterable[tuple[int, int]]) -> dict[int, float]:
    """α_i = rounds that accepted at least i drafted tokens / rounds that drafted at least i and accepted
    the first i − 1. A position no round reached is absent: it has no α, which is not an α of 0."""
    return rates(position_counts(outcomes))


def pooled_alpha(outcomes: Iterable[tuple[int, int]]) -> float | None:
    """Every position together: sealed drafted tokens over reached ones (None when no token was drafted)."""
    return pooled(position_counts(outcomes))


def rates(counts: dict[int, tuple[int, int]]) -> dict[int, float]:
    """Sealed over judged at each position of position_counts or verdict_counts."""
    return {i: sealed / n for i, (n, sealed) in counts.items()}


def pooled(counts: dict[int, tuple[int, int]]) -> float | None:
    """Sealed over judged at every position together; None where nothing was judged."""
    judged = sum(n for n, _ in counts.values())
    return sum(sealed for _, sealed in counts.values()) / judged if judged else None
