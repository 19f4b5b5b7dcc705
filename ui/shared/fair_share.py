"""Every run's cost is known before it starts, and no visitor's share of the server is unbounded.

A run's cost is the most work its settings allow (specdec_core/services/cost.py) at its pair's pace,
timed on this server the first time the pair and scribe run. Before a run starts:
- above the run limit it is refused, in the reader's language, with what would make it fit;
- a visitor runs one heavy computation at a time, and computes at most a budget in any window;
- a heavy run computes in the heavy lane, which leaves a model slot free: a class's ordinary runs
  never queue behind one visitor's expensive ones.
While it computes, a run stops between two rounds when its tab closes or asks for something else
(Streamlit's own stop and rerun requests, read where Streamlit reads them at every st call), and its
slot goes back at once.

A visitor is ui/shared/visitors.py's. Whoever starts the server sets the limits (RUN_LIMIT_VAR,
BUDGET_VAR); a visitor cannot.
"""
from __future__ import annotations

import ctypes
import os
import threading
import time
from collections import defaultdict, deque
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import Iterator

import streamlit as st
from streamlit.logger import get_logger
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

from specdec_core.decoding.between_rounds import checked_by
from specdec_core.services.cost import Pace, check_cost, master_pace, most_work, with_scribe
from specdec_core.settings import DecodeSettings, SettingsError
from ui.shared.models import cached_pair
from ui.shared.run_slots import long_work, run_slot, slot_count
from ui.shared.visitors import visitor

# The most one run may compute, at its bound: every chain the sidebar offers on SmolLM2 (k 12, 128 tokens: 28 s
# at worst on two cores) fits, a 128-node tree of 128 tokens (over 200 s) does not.
RUN_LIMIT_VAR, RUN_LIMIT_S = "SCRIPTORIUM_RUN_LIMIT_S", 30.0
BUDGET_VAR, BUDGET_S = "SCRIPTORIUM_VISITOR_BUDGET_S", 120.0  # the most one visitor computes in any WINDOW_S
WINDOW_S = 300.0
log = get_logger(__name__)
HEAVY_S = 2.0  # a run that may take longer computes in the heavy lane; an ordinary run of the defaults takes < 1 s


def _glibc():
    """glibc, whose malloc_trim hands freed heap back to the system; None under another C library."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None


_LIBC = _glibc()


def limit(variable: str, default: float) -> float:
    """The operator's limit from the environment (a positive number of seconds), else the default."""
    try:
        wanted = float(os.environ.get(variable, ""))
    except ValueError:
        return default
    return wanted if 0 < wanted < float("inf") else default


@dataclass
class Ledger:
    """What each visitor is computing, and what they computed in the last WINDOW_S (server-wide)."""

    busy: set[str] = field(default_factory=set)  # visitors with a heavy run waiting or computing
    spent: defaultdict[str, deque] = field(default_factory=lambda: defaultdict(deque))  # (ended, seconds)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def admit(self, who: str, seconds: float, heavy: bool, budget_s: float) -> None:
        """Take the visitor's heavy place, or refuse with the reason (SettingsError)."""
        with self.lock:
            if heavy and who in self.busy:
                raise SettingsError("you already have a long run computing; it must finish or stop first", "visitor_busy")
            used, wait = self._window(who, seconds, budget_s)
            if used + seconds > budget_s:
                raise SettingsError(f"you have computed {used:.0f} s in the last {WINDOW_S / 60:.0f} minutes; this run "
                                    f"may need {seconds:.0f} s more: try again in {wait:.0f} s", "visitor_budget",
                                    used=round(used), minutes=round(WINDOW_S / 60), seconds=round(seconds), wait=round(wait))
            if heavy:
                self.busy.add(who)

    def record(self, who: str, seconds: float, heavy: bool) -> None:
        with self.lock:
            self.spent[who].append((time.monotonic(), seconds))
            if heavy:
                self.busy.discard(who)

    def _window(self, who: str, seconds: float, budget_s: float) -> tuple[float, float]:
        """Seconds computed within the window, and how long until enough of them leave it for `seconds` more."""
        now, runs = time.monotonic(), self.spent[who]
        while runs and runs[0][0] < now - WINDOW_S:
            runs.popleft()
        used, freed, wait = sum(s for _, s in runs), 0.0, 0.0
        for ended, spent in runs:
            if used - freed + seconds <= budget_s:
                break
            freed += spent
            wait = ended + WINDOW_S - now
        if not runs:
            self.spent.pop(who, None)  # a visitor who left takes no room
        return used, max(wait, 0.0)


@st.cache_resource(show_spinner=False)
def _ledger() -> Ledger:
    return Ledger()


@st.cache_resource(show_spinner=False)
def _heavy_lane() -> threading.BoundedSemaphore:
    """Heavy runs compute here: every model slot but one, so one is always free for an ordinary run."""
    return threading.BoundedSemaphore(max(1, slot_count() - 1))


@contextmanager
def heavy_lane() -> Iterator[None]:
    """A place in the heavy lane for the block, the page's slot lent to others while it waits and computes."""
    with long_work(), _heavy_lane():
        yield


@st.cache_resource(show_spinner=False)
def _master_pace(pair_name: str, device: str) -> Pace:
    pair = cached_pair(pair_name, device)
    with run_slot():
        return master_pace(pair.as_target())


@st.cache_resource(show_spinner=False)
def pace(pair_name: str, device: str, scribe: str | None) -> Pace:
    """The pair's pace on this server with this scribe, timed once (a fraction of a second, seconds for SmolLM2).
    The master's is timed first, in a slot of its own: one slot held while waiting for another could wait
    for ever (with one slot, it would)."""
    pair, master = cached_pair(pair_name, device), _master_pace(pair_name, device)
    with run_slot():
        return with_scribe(master, pair.as_target(), pair.draft(scribe))


def run_seconds(pair_name: str, device: str, scribe: str | None, settings: DecodeSettings, prompt_tokens: int,
                speculative: bool = True) -> float:
    """The most one run of these settings may take on this server."""
    return pace(pair_name, device, scribe).seconds(most_work(settings, prompt_tokens, speculative))


@contextmanager
def fair_run(seconds: float) -> Iterator[None]:
    """Compute the block, which may take up to `seconds`, on the visitor's share: refused (SettingsError)
    above the run limit or the visitor's budget, in the heavy lane when heavy, in a model slot always, and
    stopped between rounds when its reader leaves."""
    budget_s = limit(BUDGET_VAR, BUDGET_S)
    check_cost(seconds, min(limit(RUN_LIMIT_VAR, RUN_LIMIT_S), budget_s))  # a run past the budget could never start
    who, heavy, ledger = visitor(), seconds > HEAVY_S, _ledger()
    ledger.admit(who, seconds, heavy, budget_s)
    started = None
    try:
        with heavy_lane() if heavy else nullcontext(), run_slot(), checked_by(stop_if_left):
            started = time.monotonic()
            yield
    except (StopException, RerunException):
        log.info("stopped a run of %s after %.1f s between rounds: its tab left or asked for another",
                 who, time.monotonic() - started if started is not None else 0.0)
        raise
    finally:
        ledger.record(who, time.monotonic() - started if started is not None else 0.0, heavy)
        if heavy:
            give_memory_back()


def give_memory_back() -> None:
    """Hand the freed heap of a heavy run back to the system. glibc keeps what a thread's arena freed for its
    next use, and every session's thread has its own: the server grew from 1.10 to 1.71 GB over five heavy
    SmolLM2 visits and kept it. malloc_trim returns the free pages (a few milliseconds); elsewhere, nothing."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def stop_if_left() -> None:
    """Stop this script run, as Streamlit would at its next st call, when its reader closed the tab, pressed
    Stop, or asked for another run (a fragment's timer does not stop the whole page)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or ctx.script_requests is None:
        return
    request = ctx.script_requests.on_scriptrunner_yield()
    if request is None:
        return
    if request.type == ScriptRequestType.RERUN:
        raise RerunException(request.rerun_data)
    raise StopException()
