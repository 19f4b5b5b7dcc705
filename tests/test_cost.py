"""A run's cost before it starts (services/cost.py): the work bound holds against what runs really do at
their worst (noise 1, temperature 2), the pace is measured, and a run past the limit is refused."""
import pytest

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.pairs.registry import load_pair
from specdec_core.services.cost import Pace, Work, check_cost, master_pace, most_work, with_scribe
from specdec_core.settings import DecodeSettings, SamplingConfig, SettingsError

WORST = {"noise": 1.0, "sampling": SamplingConfig(temperature=2.0), "max_new_tokens": 40, "seed": 3}


def _done(trace) -> Work:
    """The work a trace records: each round's master forward checks its drafted tokens and one more."""
    checked = sum(len(r.tree) + 1 if r.tree else r.k + 1 for r in trace.rounds)
    return Work(target_forwards=1 + len(trace.rounds), prompt_positions=len(trace.prompt_tokens),
                checked_positions=checked, draft_positions=checked)


@pytest.fixture(scope="module")
def poetry():
    return load_pair("poetry", "cpu")  # trees need a float32 Llama master: the tiny pair's is not one


@pytest.mark.parametrize("settings", [
    DecodeSettings(k=4, **WORST),
    DecodeSettings(k=2, adaptive_k=True, **WORST),  # the schedule grows k after full accepts
    DecodeSettings(k=4, tree="3-2-1", **WORST),
    DecodeSettings(k=4, tree="dynamic-3-12", **WORST),
    DecodeSettings(k=6, max_new_tokens=40, seed=3),  # a good day: the bound is still a bound
], ids=["chain", "adaptive", "static-tree", "dynamic-tree", "good-day"])
def test_the_bound_covers_every_forward_a_run_makes(poetry, settings):
    prompt = poetry.encode_prompt("床前明月光", settings.max_new_tokens)
    trace = speculative_generate(poetry.as_target(), poetry.draft(None), prompt, settings)
    bound, done = most_work(settings, len(prompt)), _done(trace)
    assert all(b >= d for b, d in zip(bound.as_tuple(), done.as_tuple())), (bound, done)
    assert bound.target_forwards == 1 + settings.max_new_tokens  # one round per new token at worst


def test_a_plain_run_is_one_forward_a_token_and_no_scribe(tiny, tiny_prompt):
    settings = DecodeSettings(**WORST)
    trace = plain_generate(tiny.as_target(), tiny_prompt, settings)
    bound = most_work(settings, len(tiny_prompt), speculative=False)
    assert bound == Work(1 + settings.max_new_tokens, len(tiny_prompt), settings.max_new_tokens, 0)
    assert len(trace.tokens) <= bound.checked_positions


def test_the_pace_is_measured_and_the_cost_grows_with_the_run(tiny, tiny_prompt):
    pace = with_scribe(master_pace(tiny.as_target()), tiny.as_target(), tiny.draft("lm"))
    assert pace.target_forward_s > 0 and pace.draft_position_s > 0
    assert min(pace.prompt_position_s, pace.checked_position_s) >= 0
    short, long = (pace.seconds(most_work(DecodeSettings(k=4, max_new_tokens=n), len(tiny_prompt))) for n in (10, 100))
    wide = pace.seconds(most_work(DecodeSettings(k=4, tree="3-3-3", max_new_tokens=100), len(tiny_prompt)))
    assert 0 < short < long < wide


def test_a_run_past_the_limit_is_refused_with_its_numbers():
    check_cost(19.6, 20.0)  # within: nothing to say
    with pytest.raises(SettingsError) as refused:
        check_cost(812.4, 20.0)
    assert refused.value.reason == "run_too_costly"
    assert refused.value.values == {"seconds": 812, "limit": 20}


def test_an_eight_thousand_token_replay_costs_minutes_at_any_pace():
    """The imported SmolLM2 trace of issue 50 (k 32, noise 1, T 2, 8,000 tokens): refused at a pace far
    faster than any pair here (1 ms a forward, 0.1 ms a position)."""
    settings = DecodeSettings(k=32, noise=1.0, sampling=SamplingConfig(temperature=2.0), max_new_tokens=8000)
    seconds = Pace(0.001, 0.0001, 0.0001, 0.0001).seconds(most_work(settings, 30))
    with pytest.raises(SettingsError):
        check_cost(seconds, 20.0)
