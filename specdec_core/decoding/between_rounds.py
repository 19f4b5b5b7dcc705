"""A check every long loop of the core makes once a round, so whoever runs it can stop it there.

The core knows nothing of who asked for a run. A server that does (ui/shared/fair_share.py) installs a
check for the block it runs, and the check raises when the run's reader has left or asked for
something else: the run stops within a round, between two forwards, and its slot is free for others.
The check lives in a context variable, so each thread (each visitor's script) has its own, and the
command line, which installs none, pays one look-up a round.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

_check: ContextVar[Callable[[], None] | None] = ContextVar("between_rounds", default=None)


def between_rounds() -> None:
    """Run the installed check, if any; it raises to stop the run."""
    check = _check.get()
    if check is not None:
        check()


@contextmanager
def checked_by(check: Callable[[], None]) -> Iterator[None]:
    """Install `check` for the block (and the loops it runs)."""
    token = _check.set(check)
    try:
        yield
    finally:
        _check.reset(token)
