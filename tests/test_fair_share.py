"""Fair share (#50): a run past its limit is refused before it starts, a visitor runs one heavy thing at a
time within a budget, heavy runs leave a slot to the class, and a run stops between rounds when its
reader leaves."""
import threading

import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData, ScriptRequests

from specdec_core.decoding.between_rounds import checked_by
from specdec_core.decoding.generate import plain_tokens, speculative_generate
from specdec_core.settings import DecodeSettings, SettingsError
from ui.shared import fair_share, run_slots, runs

WAIT_S = 30  # how long a thread is given to reach a point: a bound on a hang, not a speed


class Stopper(Exception):
    pass


def _stop_after(rounds: int):
    calls = [0]

    def check():
        calls[0] += 1
        if calls[0] > rounds:
            raise Stopper
    return check, calls


def test_a_run_stops_at_the_first_round_after_its_check_says_so(tiny, tiny_prompt):
    check, calls = _stop_after(3)
    with checked_by(check), pytest.raises(Stopper):
        speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=2, max_new_tokens=60, stop_at_eos=False))
    assert calls[0] == 4  # three rounds ran, the fourth never started
    check, calls = _stop_after(5)
    with checked_by(check), pytest.raises(Stopper):
        plain_tokens(tiny.as_target(), tiny_prompt, DecodeSettings(max_new_tokens=60, stop_at_eos=False))
    assert calls[0] == 6
    plain_tokens(tiny.as_target(), tiny_prompt, DecodeSettings(max_new_tokens=60))  # the check left with its block


class FakeContext:
    def __init__(self):
        self.script_requests = ScriptRequests()
        self.session_id = "a-tab"


def test_a_closed_tab_or_a_new_request_stops_the_script_where_streamlit_would(monkeypatch):
    ctx = FakeContext()
    monkeypatch.setattr(fair_share, "get_script_run_ctx", lambda **_: ctx)
    fair_share.stop_if_left()  # nothing asked: the run goes on
    ctx.script_requests.request_rerun(RerunData(query_string="a=1"))
    with pytest.raises(RerunException):
        fair_share.stop_if_left()
    ctx.script_requests.request_stop()  # what Streamlit does when the tab's websocket closes
    with pytest.raises(StopException):
        fair_share.stop_if_left()


def test_a_visitor_has_one_heavy_run_at_a_time_and_a_budget_over_a_window(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(fair_share.time, "monotonic", lambda: now[0])
    ledger = fair_share.Ledger()
    ledger.admit("10.0.0.7", 15, heavy=True, budget_s=60)
    with pytest.raises(SettingsError) as busy:
        ledger.admit("10.0.0.7", 15, heavy=True, budget_s=60)
    assert busy.value.reason == "visitor_busy"
    ledger.admit("10.0.0.8", 15, heavy=True, budget_s=60)  # another student is not held back
    ledger.admit("10.0.0.7", 1, heavy=False, budget_s=60)  # an ordinary run meanwhile is allowed
    ledger.record("10.0.0.7", 50, heavy=True)
    now[0] += 100
    with pytest.raises(SettingsError) as spent:
        ledger.admit("10.0.0.7", 15, heavy=True, budget_s=60)
    assert spent.value.reason == "visitor_budget"
    assert spent.value.values["used"] == 50 and spent.value.values["wait"] == round(fair_share.WINDOW_S - 100)
    now[0] += fair_share.WINDOW_S
    ledger.admit("10.0.0.7", 15, heavy=True, budget_s=60)  # the window moved on


def test_a_run_past_the_limit_is_refused_before_any_work(monkeypatch):
    started = []

    def start(*args):
        started.append(args)
        raise Stopper  # the run began: nothing more to see

    monkeypatch.setattr(runs, "speculative_generate", start)
    runs.cached_run.clear()
    huge = DecodeSettings(k=4, tree="dynamic-8-128", noise=1.0, max_new_tokens=1000)
    with pytest.raises(SettingsError) as refused:
        runs.cached_run("poetry", "cpu", "", "床前明月光", huge)
    assert refused.value.reason == "run_too_costly" and refused.value.values["seconds"] > 20
    assert not started
    monkeypatch.setenv(fair_share.RUN_LIMIT_VAR, "1e9")  # whoever starts the server may allow more
    monkeypatch.setenv(fair_share.BUDGET_VAR, "1e9")
    with pytest.raises(Stopper):
        runs.cached_run("poetry", "cpu", "", "床前明月光", huge)
    assert len(started) == 1


def test_heavy_runs_leave_a_model_slot_to_ordinary_ones(monkeypatch):
    monkeypatch.setenv(run_slots.SLOTS_VAR, "2")
    for cached in (run_slots._page_slots, run_slots._model_slots, fair_share._heavy_lane, fair_share._ledger):
        cached.clear()
    computing, release, second_heavy_in = threading.Event(), threading.Event(), threading.Event()

    def heavy(entered: threading.Event):
        with fair_share.fair_run(fair_share.HEAVY_S + 1):
            entered.set()
            release.wait(WAIT_S)

    first = threading.Thread(target=heavy, args=(computing,))
    second = threading.Thread(target=heavy, args=(second_heavy_in,))  # another visitor: each thread is outside a session
    monkeypatch.setattr(fair_share, "visitor", lambda: threading.current_thread().name)
    first.start()
    assert computing.wait(WAIT_S)
    second.start()
    with fair_share.fair_run(0.1):  # an ordinary run computes while one heavy run holds the lane
        assert not second_heavy_in.is_set()  # and the second heavy run waits for the lane
    release.set()
    first.join(WAIT_S), second.join(WAIT_S)
    assert second_heavy_in.is_set()


def test_timing_a_pace_never_holds_one_slot_while_waiting_for_another(monkeypatch):
    """With one model slot (SCRIPTORIUM_RUN_SLOTS=1), timing the scribe inside a slot while the master's timing
    asked for a second one waited for ever."""
    monkeypatch.setenv(run_slots.SLOTS_VAR, "1")
    for cached in (run_slots._model_slots, fair_share._master_pace, fair_share.pace):
        cached.clear()
    timed = threading.Thread(target=fair_share.pace, args=("tiny", "cpu", "lm"), daemon=True)
    timed.start()
    timed.join(WAIT_S)
    assert not timed.is_alive()
