"""Check by replay (#27): a genuine trace reproduces token for token; one whose seed was edited does not."""
import json

import pytest

from specdec_core.algorithm.trace import Trace
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
    data = json.loads(genuine.to_json())
    del data["settings"]["sampling"]
    with pytest.raises(SettingsError, match="cannot be read back"):
        replay_check(tiny, Trace.from_dict(data))


def test_compare_names_the_first_difference_and_a_length_change():
    assert compare([1, 2, 3], [1, 2, 3]).reproduces
    assert compare([1, 2, 3], [1, 5, 3]).first_difference == 1
    check = compare([1, 2], [1, 2, 7])
    assert (check.first_difference, check.stored, check.replayed) == (2, None, 7)
