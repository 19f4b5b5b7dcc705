"""Check by replay (#27): a genuine trace reproduces token for token; one whose seed was edited does not."""
import json
from dataclasses import replace

import pytest

from specdec_core.algorithm.trace import Trace
from specdec_core.decoding import generate
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.services.replay import compare, replay_check
from specdec_core.settings import DecodeSettings, SettingsError


@pytest.fixture(scope="module")
def genuine(tiny, tiny_prompt) -> Trace:
    return speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=21, max_new_tokens=20))


def test_a_genuine_trace_reproduces(tiny, genuine):
    check = replay_check(tiny, Trace.from_json(genuine.to_json()))
    assert check.reproduces and check.first_difference is None


def test_a_plain_run_reproduces_too(tiny, tiny_prompt):
    trace = plain_generate(tiny.as_target(), tiny_prompt, DecodeSettings(seed=4, max_new_tokens=12))
    assert replay_check(tiny, trace).reproduces


def test_an_edited_seed_is_caught_where_the_text_first_differs(tiny, genuine):
    data = json.loads(genuine.to_json())
    data["settings"]["seed"] = 22  # the rounds still agree with the tokens: the file reads as consistent
    edited = Trace.from_dict(data)
    check = replay_check(tiny, edited)
    assert not check.reproduces
    assert check.stored == genuine.tokens[check.first_difference] and check.replayed != check.stored


def test_settings_that_cannot_be_read_back_are_a_settings_error(tiny, genuine):
    settings = {key: value for key, value in genuine.settings.items() if key != "sampling"}
    with pytest.raises(SettingsError, match="cannot be read back"):  # built in code: an import refuses it first
        replay_check(tiny, replace(genuine, settings=settings))


def hostile(genuine: Trace, prompt: list[int] | None = None, **settings) -> Trace:
    """The genuine trace with its prompt or settings replaced, built in code past the import's checks."""
    return replace(genuine, prompt_tokens=genuine.prompt_tokens if prompt is None else prompt,
                   settings=genuine.settings | settings)


BOMBS = {  # #38: each ran far past the pair (or forever) or crashed the forward before it was refused
    "a billion new tokens": (dict(max_new_tokens=10**9, k=32, stop_at_eos=False), None, "max_new_tokens"),
    "new tokens past the context": (dict(max_new_tokens=200, stop_at_eos=False), None, "run_too_long"),
    "a prompt past the context": ({}, [3] * 5000, "run_too_long"),
    "prompt ids past the vocabulary": ({}, [1, 10**6], "token_outside_vocabulary"),
}


@pytest.mark.parametrize("settings, prompt, reason", BOMBS.values(), ids=BOMBS.keys())
def test_a_replay_beyond_the_pair_is_refused_before_any_work(tiny, genuine, settings, prompt, reason, monkeypatch):
    def no_forward(model):
        raise AssertionError("a forward was set up before the refusal")

    monkeypatch.setattr(generate, "cached_lm_for", no_forward)   # refused, not run: no model is asked anything
    with pytest.raises(SettingsError) as refused:
        replay_check(tiny, hostile(genuine, prompt, **settings))
    assert refused.value.reason == reason


def test_a_run_that_fills_the_context_exactly_still_runs(tiny, tiny_prompt):
    """The bound is the pair's own: prompt + new tokens may reach its context, not pass it."""
    room = tiny.context_limit - len(tiny_prompt)
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt,
                                 DecodeSettings(k=8, max_new_tokens=room, stop_at_eos=False))
    assert len(trace.tokens) == room and replay_check(tiny, trace).reproduces


def test_compare_names_the_first_difference_and_a_length_change():
    assert compare([1, 2, 3], [1, 2, 3]).reproduces
    assert compare([1, 2, 3], [1, 5, 3]).first_difference == 1
    check = compare([1, 2], [1, 2, 7])
    assert (check.first_difference, check.stored, check.replayed) == (2, None, 7)
