"""One measurement of a setting for the whole server: the race, the speed lab's measurement, its sweep and its
chain against tree all read the latest one, and whichever page measures again replaces it for all.

So one setting has one speedup on every page, and a button that measures again does measure again. A
measurement is the core's bench
(services.bench.run_bench: speculative decoding interleaved with the master alone at his fastest), stamped with
the moment it ended, so every page can say when it was made. A recording stands in (labelled) until a live
measurement exists.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import streamlit as st

from specdec_core.services import recorded
from specdec_core.services.bench import run_bench
from specdec_core.services.recorded import LAB_REPEATS, Recording
from specdec_core.settings import DecodeSettings
from ui.shared.fair_share import fair_run, run_seconds
from ui.shared.models import cached_pair

REPEATS = LAB_REPEATS  # a recording of the pair's defaults stands for a live measurement exactly
KEPT = 256  # measurements the board holds, the oldest dropped first: each is a few kilobytes


@dataclass(frozen=True)
class Run:
    """What a measurement measures: a pair on a device, a scribe, settings, and the prompts it writes from."""
    pair: str
    device: str
    scribe: str
    settings: DecodeSettings
    prompts: tuple[str, ...]


@dataclass
class Board:
    results: OrderedDict = field(default_factory=OrderedDict)  # a key (repr(Run)) -> its latest result
    lock: threading.Lock = field(default_factory=threading.Lock)
    measuring: dict = field(default_factory=dict)  # a key -> the lock its measurement holds

    def lock_for(self, key: str) -> threading.Lock:
        with self.lock:
            return self.measuring.setdefault(key, threading.Lock())

    def fresh(self, key: str, make, again: bool = False):
        """The latest result under key, made now (make()) if there is none or `again` is asked. Two visitors
        asking at once for one that does not exist yet wait for one measurement, not two; an `again` that
        waited while another visitor measured takes that fresh one."""
        first = self.results.get(key)
        with self.lock_for(key):
            current = self.results.get(key)
            if current is None or (again and current is first):
                self.put(key, make())
            return self.results[key]

    def put(self, key: str, result) -> None:
        with self.lock:
            self.results[key] = result
            self.results.move_to_end(key)
            while len(self.results) > KEPT:
                self.results.popitem(last=False)


@st.cache_resource(show_spinner=False)
def board() -> Board:
    return Board()


def latest(run: Run) -> dict | None:
    """The latest live measurement of this run on this server, or None."""
    return board().results.get(repr(run))


def measured(run: Run, again: bool = False) -> dict:
    """The latest measurement of this run, made now if there is none or `again` is asked."""
    return board().fresh(repr(run), lambda: measure(run), again)


def measure(run: Run) -> dict:
    """run_bench's report of the run, and when it ended (epoch seconds); within the visitor's fair share."""
    pair = cached_pair(run.pair, run.device)
    with fair_run(bench_seconds(pair, run)):
        result = run_bench(pair, run.scribe, run.settings, list(run.prompts), repeats=REPEATS)
    return result | {"measured_at": time.time()}


def bench_seconds(pair, run: Run) -> float:
    """The most run_bench may take: a warm-up and REPEATS runs per prompt of each of its three methods (the
    speculative run, the plain run with its bookkeeping, the plain tokens alone), at the longest prompt."""
    longest = max(len(pair.encode_prompt(prompt, run.settings.max_new_tokens)) for prompt in run.prompts)
    runs = 1 + REPEATS * len(run.prompts)
    speculative = run_seconds(run.pair, run.device, run.scribe, run.settings, longest)
    plain = run_seconds(run.pair, run.device, run.scribe, run.settings, longest, speculative=False)
    return runs * (speculative + 2 * plain)


def recording_of(run: Run) -> Recording | None:
    """The shipped recording made with exactly this run's settings, which stands in until one is measured live."""
    return recorded.matching("speed", recorded.key_of(run.pair, run.scribe, "", run.settings, prompts=list(run.prompts)))
