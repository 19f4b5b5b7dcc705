"""A trace as a sequence of moments a class steps through: draft, each seal in turn, then the verdict."""
from __future__ import annotations

from dataclasses import dataclass

from specdec_core.algorithm.trace import Round, Trace


@dataclass(frozen=True)
class Moment:
    round: int  # index into trace.rounds
    stage: str  # "draft": the scribe's line; "seal": `sealed` stamps so far; "verdict": correction or bonus
    sealed: int  # how many drafted tokens carry the master's seal at this moment


def moments(trace: Trace) -> list[Moment]:
    out = []
    for i, r in enumerate(trace.rounds):
        if r.drafted:
            out.append(Moment(i, "draft", 0))
            out += [Moment(i, "seal", n) for n in range(1, r.n_accepted + 1)]
        out.append(Moment(i, "verdict", r.n_accepted))
    return out


@dataclass(frozen=True)
class Progress:
    """The counters at a moment: only what the class has already seen."""

    tokens: int
    target_forwards: int
    alpha: float | None  # mean min(1, p/q) over the drafted tokens the master's verdicts have reached so far


def progress_at(trace: Trace, moment: Moment) -> Progress:
    done = trace.rounds[: moment.round]
    current = trace.rounds[moment.round]
    tokens = sum(len(r.new_tokens) for r in done) + moment.sealed + (moment.stage == "verdict")
    judged = [s.accept_prob for r in done for s in r.reached]
    if moment.stage != "draft":  # the master's glance has happened: this round's verdicts are known
        judged += [s.accept_prob for s in current.reached]
    forwards = len(done) + (moment.stage != "draft")
    return Progress(min(tokens, len(trace.tokens)), forwards, sum(judged) / len(judged) if judged else None)


def positions(r: Round) -> list[int]:
    """Positions a student can select in a round: each drafted token, then the new token's slot."""
    return list(range(len(r.drafted) + 1))
