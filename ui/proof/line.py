"""Live proofs take turns: one computes at a time, first come first served, and a waiting page says
where it stands in the line and about when its turn comes.

Four students who pressed Start together used to share the cores four ways: they waited 332–374 s
each with nothing on the page. In turn, the first finishes in one proof's time, and every page says
from its first second how many proofs are ahead of it and, at the rate this server last measured
(or a recorded rate until it has one), about how long they will take. A student's ordinary runs
never wait in this line; a proof computes in the run slots like any other run.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator

import streamlit as st

MAX_IN_LINE = 8  # live proofs waiting or running on one server; more would wait longer than a lesson allows
MAX_PER_VISITOR = 2  # of them one visitor's (ui/shared/fair_share.visitor): one student cannot fill the line


class LineFull(RuntimeError):
    """So many live proofs are already in line that a new one would wait past any use."""

    def __init__(self, ahead: int):
        super().__init__(f"{ahead} live proofs are already in line")
        self.ahead = ahead


class YoursInLine(RuntimeError):
    """This visitor already has MAX_PER_VISITOR proofs in line."""

    def __init__(self, yours: int):
        super().__init__(f"{yours} of your live proofs are already in line")
        self.yours = yours


@dataclass(eq=False)
class Turn:
    """One live proof's place in the line: its size, and how far it has come once running."""

    samples: int
    visitor: str | None = None  # who asked (None: not known, not counted)
    done: int = 0
    started: float | None = None  # time.monotonic() when it began computing


@dataclass(frozen=True)
class Standing:
    """Where a waiting proof stands: proofs ahead of it, and the seconds they need (None: no rate known yet)."""

    ahead: int
    seconds: float | None


@dataclass
class ProofLine:
    """The server's one line of live proofs, shared by every session (threads of one process)."""

    capacity: int = MAX_IN_LINE
    per_visitor: int = MAX_PER_VISITOR
    seconds_per_sample: float | None = None  # the last finished proof's wall time per sample, on this server
    _turns: list[Turn] = field(default_factory=list)
    _changed: threading.Condition = field(default_factory=threading.Condition)

    def join(self, samples: int, visitor: str | None = None) -> Turn:
        with self._changed:
            if len(self._turns) >= self.capacity:
                raise LineFull(len(self._turns))
            yours = sum(turn.visitor == visitor for turn in self._turns)
            if visitor is not None and yours >= self.per_visitor:
                raise YoursInLine(yours)
            turn = Turn(samples, visitor)
            self._turns.append(turn)
            return turn

    def wait_for_turn(self, turn: Turn, seconds: float) -> bool:
        """True once `turn` is first in line; False if it is not within `seconds`."""
        with self._changed:
            return self._changed.wait_for(lambda: self._turns[0] is turn, timeout=seconds)

    def begin(self, turn: Turn) -> None:
        turn.started = time.monotonic()

    def leave(self, turn: Turn, finished: bool) -> None:
        """Out of the line, finished or not; a finished proof's pace becomes the line's rate."""
        with self._changed:
            if finished and turn.started is not None and turn.samples:
                self.seconds_per_sample = (time.monotonic() - turn.started) / turn.samples
            self._turns.remove(turn)
            self._changed.notify_all()

    def standing(self, turn: Turn, fallback_rate: float | None = None) -> Standing:
        """How many proofs are ahead of `turn`, and about how many seconds they need to finish.

        A running proof's own pace counts for itself once it has drawn; the others' at the line's
        measured rate, else at fallback_rate (a recording's), else the time is unknown (None)."""
        with self._changed:
            ahead = self._turns[: self._turns.index(turn)]
        rate = self.seconds_per_sample or fallback_rate
        seconds = 0.0
        for other in ahead:
            if other.started is not None and other.done:
                pace = (time.monotonic() - other.started) / other.done
                seconds += pace * (other.samples - other.done)
            elif rate is None:
                return Standing(len(ahead), None)
            else:
                seconds += rate * (other.samples - other.done)
        return Standing(len(ahead), seconds)


@st.cache_resource(show_spinner=False)
def proof_line() -> ProofLine:
    """The server's line (kept for the process: the app refuses a browser's clear_cache)."""
    return ProofLine()


@contextmanager
def my_turn(line: ProofLine, samples: int, say: Callable[[Standing], None],
            fallback_rate: float | None = None, visitor: str | None = None) -> Iterator[Turn]:
    """Join the line, say where this proof stands every second until its turn, then run the block.

    `say` draws on the page, which is where Streamlit stops a script whose reader pressed Stop or
    left: the turn then leaves the line, as it does on any exit."""
    turn = line.join(samples, visitor)
    finished, patience = False, 0.0  # the first look does not wait: a page in line says so at once
    try:
        while not line.wait_for_turn(turn, patience):
            say(line.standing(turn, fallback_rate))
            patience = 1.0
        line.begin(turn)
        yield turn
        finished = True
    finally:
        line.leave(turn, finished)
