"""How much model work one server process does at once: a slot per CPU core, one torch thread per run.

A Streamlit server runs every session's script in a thread of one process. Left alone, each run
would start torch's own pool of threads per core, and thirty sessions would put sixty threads on two
cores; a forward that takes 4 ms alone took 186 ms that way. Here each run computes on one thread
and at most one run per core computes at a time: the rest wait their turn, so a crowd queues instead
of thrashing, and one session alone still has a core to itself.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Iterator

import streamlit as st
import torch

SLOTS_VAR = "SCRIPTORIUM_RUN_SLOTS"  # overrides the number of runs that compute at once


def slot_count() -> int:
    wanted = os.environ.get(SLOTS_VAR, "")
    return int(wanted) if wanted.isdigit() and int(wanted) > 0 else len(os.sched_getaffinity(0))


@st.cache_resource(show_spinner=False)
def _slots() -> threading.BoundedSemaphore:
    torch.set_num_threads(1)  # per process, once: every run shares this setting
    return threading.BoundedSemaphore(slot_count())


@contextmanager
def run_slot() -> Iterator[None]:
    """Hold one of the process's compute slots while the block runs."""
    with _slots():
        yield
