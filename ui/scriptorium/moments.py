"""A trace as a sequence of moments a class steps through: draft, each seal in turn (in a tree, one a depth walked),
then the verdict."""
from __future__ import annotations

from dataclasses import dataclass

from specdec_core.algorithm.trace import Round, Trace, written_by_round
from specdec_core.algorithm.tree_walk import judged_acceptances  # a round's share of "alpha so far", as summarize's


@dataclass(frozen=True)
class Moment:
    round: int  # index into trace.rounds
    stage: str  # "draft": the scribe's line; "seal": `sealed` stamps so far; "verdict": correction or bonus
    sealed: int  # how many drafted tokens carry the master's seal at this moment
    written: int  # how many tokens this round has added to the text at this moment


def moments(trace: Trace) -> list[Moment]:
    """Seals stop at the end token where a round wrote it among its drafts: what follows is never written."""
    out = []
    for i, (r, written) in enumerate(zip(trace.rounds, written_by_round(trace))):
        sealed = min(r.n_accepted, written)
        if r.drafted:
            out.append(Moment(i, "draft", 0, 0))
            out += [Moment(i, "seal", n, n) for n in range(1, sealed + 1)]
        out.append(Moment(i, "verdict", sealed, written))
    return out


def ended_in_draft(r: Round, moment: Moment) -> bool:
    """The master has judged the line, and the text ended at an end token among its sealed drafts: the
    drafts after it, and the correction or bonus the verdict drew, are never written."""
    return moment.stage == "verdict" and moment.written < len(r.new_tokens)


def end_depth(r: Round, moment: Moment | None) -> int | None:
    """Where the text ended inside a judged line: the depth (or position) of its sealed end mark; None elsewhere."""
    return moment.written if moment is not None and ended_in_draft(r, moment) else None


@dataclass(frozen=True)
class Progress:
    """The counters at a moment: only what the class has already seen."""

    tokens: int
    target_forwards: int
    alpha: float | None  # mean min(1, p/q) over the drafted tokens the master's verdicts have reached so far
    # (tree_walk.judged_acceptances: in a tree, the first variant at each depth he reached)
    judged: int = 0  # those drafted tokens
    sealed: int = 0  # the drafts his verdicts sealed so far (a tree's: the accepted path's)
    ended: bool = False  # the end mark is among the tokens: the text is done, and the mark is not part of it

    @property
    def text_tokens(self) -> int:
        """The text's own tokens: the end mark closes a text and is not one of its characters."""
        return self.tokens - self.ended


def progress_at(trace: Trace, moment: Moment) -> Progress:
    done = trace.rounds[: moment.round]
    current = trace.rounds[moment.round]
    tokens = sum(written_by_round(trace)[: moment.round]) + moment.written
    judged = [a for r in done for a in judged_acceptances(r)]
    sealed = sum(r.n_accepted for r in done)
    if moment.stage != "draft":  # the master's glance has happened: this round's verdicts are known
        judged += judged_acceptances(current)
        sealed += current.n_accepted
    forwards = len(done) + (moment.stage != "draft")
    ended = moment.stage == "verdict" and current.stopped_at_eos  # the round that wrote the end mark is the last
    return Progress(tokens, forwards, sum(judged) / len(judged) if judged else None, len(judged), sealed, ended)


def positions(r: Round, moment: Moment) -> list[int]:
    """Positions a student can select in a round: each drafted token, then the new token's slot; once a
    line that ended at the end token is judged, only the drafts written, up to that token."""
    if ended_in_draft(r, moment):
        return list(range(moment.written))
    return list(range(len(r.drafted) + 1))


def correction_steps(trace: Trace) -> list[int]:
    """The steps (numbered from 1, as the stepper counts) whose verdict writes a red-brush correction;
    a correction drawn after an accepted end token is never written, so it is not one."""
    return [i for i, m in enumerate(moments(trace), start=1)
            if m.stage == "verdict" and trace.rounds[m.round].next_kind == "corrected"
            and not ended_in_draft(trace.rounds[m.round], m)]


def next_correction(trace: Trace, step: int) -> int | None:
    """The first correction after `step`, or from the start again when none is left; None in a run without one."""
    steps = correction_steps(trace)
    return next((s for s in steps if s > step), steps[0] if steps else None)
