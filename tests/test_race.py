"""The race's runs and numbers (#36): each run stops at the end mark, the verdict is the median of several runs
with their spread, and a cached result says how long ago it was measured."""
import copy
from dataclasses import replace

import pytest

from specdec_core.decoding.generate import plain_generate
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.race.runs import RACE_RUNS, race_runs
from ui.race.summary import clock_time, finish_s, minutes_ago, speed_ratio, summarize_race

# With the tiny pair, prompt 春山 and seed 13, the master alone writes the end token as his 9th of 16 tokens.
ENDS_EARLY = DecodeSettings(k=4, sampling=SamplingConfig(temperature=1.0), max_new_tokens=16, seed=13)


@pytest.fixture(scope="module")
def tiny_race(tiny):
    target, ids = tiny.as_target(), tiny.encode_prompt("春山", ENDS_EARLY.max_new_tokens)
    full_length = plain_generate(target, ids, replace(ENDS_EARLY, stop_at_eos=False))
    return full_length, race_runs(target, tiny.draft("lm"), ids, ENDS_EARLY), target.eos_token_id


def test_every_run_of_the_race_stops_at_the_end_mark(tiny_race):
    """The lanes ran past ∎ into new poems: the race wrote the full length whatever the text said."""
    full_length, (plains, speculatives), eos = tiny_race
    assert eos in full_length.tokens[:-1]  # the setting really writes past an end token when told to
    assert len(plains) == len(speculatives) == RACE_RUNS
    for trace in plains + speculatives:
        assert trace.tokens[-1] == eos and eos not in trace.tokens[:-1]
    assert plains[0].tokens == full_length.tokens[: full_length.tokens.index(eos) + 1]


def timed(trace, factor: float):
    """The same run as if every part of it had taken `factor` times as long."""
    slower = copy.deepcopy(trace)
    slower.prefill_s *= factor
    for r in slower.rounds:
        r.draft_s, r.target_s, r.other_s = r.draft_s * factor, r.target_s * factor, r.other_s * factor
    return slower


def test_the_verdict_is_the_median_run_with_the_spread(tiny_race):
    _, (plains, speculatives), _ = tiny_race
    plain, speculative = plains[0], speculatives[0]
    base = speed_ratio(plain, speculative)
    assert base == pytest.approx((len(speculative.tokens) / finish_s(speculative)) / (len(plain.tokens) / finish_s(plain)))
    # three runs whose scribe was 2x slower, as timed, and 2x faster: the median is the as-timed one
    summary = summarize_race([plain] * 3, [timed(speculative, 2.0), speculative, timed(speculative, 0.5)])
    assert summary.shown == 1 and summary.median == pytest.approx(base)
    assert (summary.low, summary.high) == pytest.approx((base / 2, base * 2))


def test_a_cached_measurement_says_how_long_ago_it_was_made():
    """A fresh session 20 minutes later was told its 2.16x was "measured just now"."""
    measured_at = 1_700_000_000.0
    assert minutes_ago(measured_at, now=measured_at + 20 * 60 + 5) == 20
    assert minutes_ago(measured_at, now=measured_at + 59) == 0
    assert len(clock_time(measured_at)) == 8 and clock_time(measured_at).count(":") == 2
