"""A crowd on one server: the same run asked for at once is computed once, and slots bound the work;
alone, a proof's batch takes every core."""
import threading
import time

import pytest
import torch

from specdec_core.settings import DecodeSettings
from ui.shared import run_slots, runs


def test_sessions_asking_for_the_same_run_at_once_share_one_computation(monkeypatch):
    calls = []
    real = runs.speculative_generate

    def counted(*args, **kwargs):
        calls.append(threading.get_ident())
        time.sleep(0.3)  # long enough that every thread arrives while the first computes
        return real(*args, **kwargs)

    monkeypatch.setattr(runs, "speculative_generate", counted)
    runs.cached_run.clear()
    settings = DecodeSettings(k=3, seed=4242, max_new_tokens=10)
    results = [None] * 8

    def ask(i):
        results[i] = runs.cached_run("tiny", "cpu", "lm", "春山", settings)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1, f"computed {len(calls)} times"
    assert len(set(results)) == 1 and results[0]


def _holders(monkeypatch, slots: int, work) -> int:
    """The most threads inside `work` at once, with `slots` slots, eight threads asking."""
    monkeypatch.setenv(run_slots.SLOTS_VAR, str(slots))
    run_slots._page_slots.clear()
    run_slots._model_slots.clear()
    inside, most, lock = [0], [0], threading.Lock()

    def one():
        with work():
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.05)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run_slots._page_slots.clear()
    run_slots._model_slots.clear()
    return most[0]


def test_pages_and_runs_never_exceed_their_slots(monkeypatch):
    assert _holders(monkeypatch, 2, run_slots.page_slot) == 2
    assert _holders(monkeypatch, 2, run_slots.run_slot) == 2


def test_a_long_computation_lends_its_page_slot(monkeypatch):
    """With one slot, a page inside long_work lets another page be drawn meanwhile."""
    monkeypatch.setenv(run_slots.SLOTS_VAR, "1")
    run_slots._page_slots.clear()
    drawn, lent = threading.Event(), threading.Event()

    def lecturer():
        with run_slots.page_slot(), run_slots.long_work():
            lent.set()
            assert drawn.wait(5), "no other page was drawn while the proof ran"

    def student():
        lent.wait(5)
        with run_slots.page_slot():
            drawn.set()

    threads = [threading.Thread(target=lecturer), threading.Thread(target=student)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert drawn.is_set()
    run_slots._page_slots.clear()


def test_a_draw_takes_every_core_only_when_no_other_run_computes(monkeypatch):
    monkeypatch.setenv(run_slots.SLOTS_VAR, "2")
    monkeypatch.setattr(run_slots, "CORES", 2)
    run_slots._model_slots.clear()
    threads_before = torch.get_num_threads()
    try:
        _every_core_alone_one_when_shared()
        _an_error_inside_leaves_one_thread_and_every_slot_free()
    finally:
        torch.set_num_threads(threads_before)  # the tests after this one keep their cores
        run_slots._model_slots.clear()


def _every_core_alone_one_when_shared() -> None:
    with run_slots.every_core_when_idle():
        alone = torch.get_num_threads()
    assert alone == 2 and torch.get_num_threads() == 1
    holding, done = threading.Event(), threading.Event()

    def student():
        with run_slots.run_slot():
            holding.set()
            done.wait(5)

    thread = threading.Thread(target=student)
    thread.start()
    holding.wait(5)
    torch.set_num_threads(3)  # whatever this thread ran at before, a shared draw runs on one
    with run_slots.every_core_when_idle():
        shared = torch.get_num_threads()
        assert run_slots._model_slots().acquire(blocking=False) is False  # the other slot is this draw's
    done.set()
    thread.join(5)
    assert shared == 1


def _an_error_inside_leaves_one_thread_and_every_slot_free() -> None:
    with pytest.raises(KeyError):
        with run_slots.every_core_when_idle():
            raise KeyError("a stop in the middle of a draw")
    assert torch.get_num_threads() == 1
    slots = run_slots._model_slots()
    assert all(slots.acquire(blocking=False) for _ in range(2))
    slots.release(), slots.release()


def test_a_slot_count_past_the_cores_takes_no_more_threads_than_cores(monkeypatch):
    monkeypatch.setenv(run_slots.SLOTS_VAR, "30")  # many pages at once on two cores
    monkeypatch.setattr(run_slots, "CORES", 2)
    run_slots._model_slots.clear()
    threads_before = torch.get_num_threads()
    try:
        with run_slots.every_core_when_idle():
            assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads_before)
        run_slots._model_slots.clear()


@pytest.mark.parametrize("wanted", ["²", "٣", "-1", "0", "two"])
def test_a_slot_count_that_is_not_a_plain_whole_number_leaves_one_slot_a_core(monkeypatch, wanted):
    """'²' and '٣' are digits to str.isdigit; int() refuses the first, and neither is a count anyone typed."""
    monkeypatch.setenv(run_slots.SLOTS_VAR, wanted)
    assert run_slots.slot_count() == run_slots.CORES
