"""How much work one server process does at once: a page slot and a model slot per CPU core, one torch
thread per run (a proof's draw on an idle server takes every core). torch's thread count belongs to each
thread (a new thread starts from the last count any thread set), so every run sets its own.

A Streamlit server runs every session's script in a thread of one process. Left alone, thirty
sessions are thirty threads taking turns on one GIL and, through torch, sixty compute threads on two
cores: a forward that takes 4 ms alone took 186 ms that way. Here a page is drawn only in a free page
slot and a model computes only in a free model slot, so a crowd queues and each page, once started,
runs at nearly its solo speed. A long computation (a proof, a speed measurement) hands its page slot
to the others while it runs, so one lecturer's proof never holds up the class's pages.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Iterator

import streamlit as st
import torch

SLOTS_VAR = "SCRIPTORIUM_RUN_SLOTS"  # overrides the number of pages (and of runs) served at once
_holding = threading.local()  # whether this script thread holds a page slot
CORES = len(os.sched_getaffinity(0))  # the most torch threads one run may take, whatever the slot count


def slot_count() -> int:
    wanted = os.environ.get(SLOTS_VAR, "")
    return int(wanted) if wanted.isascii() and wanted.isdigit() and int(wanted) > 0 else CORES   # '²' is a digit to isdigit


class Slots(threading.BoundedSemaphore):
    """The model slots, with their number as they were made."""

    def __init__(self, count: int):
        super().__init__(count)
        self.count = count


@st.cache_resource(show_spinner=False)
def _model_slots() -> Slots:
    return Slots(slot_count())


@st.cache_resource(show_spinner=False)
def _page_slots() -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(slot_count())


@contextmanager
def page_slot() -> Iterator[None]:
    """Hold a page slot while the frame and its page are drawn."""
    _page_slots().acquire()
    _holding.page = True
    try:
        yield
    finally:
        if _holding.page:
            _page_slots().release()
            _holding.page = False


@contextmanager
def long_work() -> Iterator[None]:
    """Lend this page's slot to other pages for the block (a loop of run slots), and take one back after."""
    lent = getattr(_holding, "page", False)
    if lent:
        _page_slots().release()
        _holding.page = False
    try:
        yield
    finally:
        if lent:
            _page_slots().acquire()
            _holding.page = True


@contextmanager
def run_slot() -> Iterator[None]:
    """Hold one of the process's model slots while the block computes, on one torch thread."""
    with _model_slots():
        torch.set_num_threads(1)  # this script thread's own setting: set on every run, whatever ran before
        yield


@contextmanager
def every_core_when_idle() -> Iterator[None]:
    """Every model slot and a torch thread per core (at most CORES) for the block when no other run
    computes: a lecturer's proof on a quiet server then draws in about half the time. One slot and one
    thread, as run_slot, when another run holds a slot. It never waits for the whole machine, but a run
    that arrives meanwhile waits for the block: keep the block to one draw (about a second)."""
    slots = _model_slots()
    if not _take_every_slot(slots):
        with run_slot():
            yield
        return
    try:
        torch.set_num_threads(min(slots.count, CORES))
        yield
    finally:
        torch.set_num_threads(1)
        for _ in range(slots.count):
            slots.release()


def _take_every_slot(slots: Slots) -> bool:
    """All of the slots at once without waiting, or none of them."""
    taken = 0
    while taken < slots.count and slots.acquire(blocking=False):
        taken += 1
    if taken < slots.count:
        for _ in range(taken):
            slots.release()
    return taken == slots.count
