"""The race's measurement (#49): it is the speed lab's bench, on the server's board, with both ways writing the same
number of tokens against the master's fastest plain decoding; its lanes replay the median prompt."""
from dataclasses import replace

import pytest

from specdec_core.decoding.generate import plain_generate, plain_tokens, speculative_generate
from specdec_core.services.bench import median_unit, run_bench
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.race.runs import lanes
from ui.shared.measurements import Run, board, latest, measured
from ui.shared.when import clock_time, minutes_ago

# With the tiny pair, prompt 春山 and seed 13, the master alone writes the end token as his 9th of 16 tokens.
ENDS_EARLY = DecodeSettings(k=4, sampling=SamplingConfig(temperature=1.0), max_new_tokens=16, seed=13)


@pytest.fixture(scope="module")
def report(tiny):
    return run_bench(tiny, "lm", ENDS_EARLY, ["春山", "秋水"], repeats=1)


def test_both_lanes_write_as_many_tokens_and_the_master_alone_is_his_fastest_run(tiny, report):
    """#49: the race timed the master through the traced path, and its lanes wrote 43 against 19 characters."""
    replay, target = report["replay"], tiny.as_target()
    ids = tiny.encode_prompt(replay["prompt"], ENDS_EARLY.max_new_tokens)
    full = replace(ENDS_EARLY, stop_at_eos=False)
    assert replay["plain_tokens"] == plain_tokens(target, ids, full) == plain_generate(target, ids, full).tokens
    assert len(replay["plain_times"]) == len(replay["plain_tokens"]) == ENDS_EARLY.max_new_tokens
    assert replay["plain_times"] == sorted(replay["plain_times"]) and replay["plain_times"][0] > 0
    alone, together = lanes(replay)
    assert len(alone.pieces) == len(together.pieces) == ENDS_EARLY.max_new_tokens
    assert len(together.times) == len(together.pieces)
    speculative = speculative_generate(target, tiny.draft("lm"), ids, full)
    assert [piece for piece, _ in together.pieces] == [tiny.as_target().piece(t) for t in speculative.tokens]


def test_a_lane_knows_where_its_text_ended(tiny, report):
    alone, _ = lanes(report["replay"])
    eos = tiny.as_target().eos_token_id
    tokens = report["replay"]["plain_tokens"]
    assert alone.ended_at == (tokens.index(eos) + 1 if eos in tokens else None)
    early = dict(report["replay"], prompt="春山", plain_tokens=[1, eos, 2], plain_pieces=["a", "</s>", "b"],
                 plain_times=[0.1, 0.2, 0.3])
    assert lanes(early)[0].ended_at == 2


def test_the_replay_is_the_unit_whose_speedup_is_the_median():
    # plain over speculative per unit: 1.0, 3.0, 2.0 -> the median is unit 2; of four, the lower middle
    assert median_unit([1.0, 3.0, 2.0], [1.0, 1.0, 1.0]) == 2
    assert median_unit([4.0, 1.0, 3.0, 2.0], [1.0] * 4) == 3
    assert median_unit([2.0, 2.0], [1.0, 4.0]) == 1


def test_the_replay_speedup_and_prompt_are_its_units(report):
    replay = report["replay"]
    assert replay["prompt"] in ("春山", "秋水") and replay["speedup"] > 0
    low, high = report["speedup_interval_vs_fastest_plain"]
    assert low <= report["speedup_vs_fastest_plain"] <= high or low == high


def test_the_board_keeps_one_measurement_per_setting_until_it_is_measured_again(tiny):
    """#49: the race's and the lab's results were cached apart, for the whole server, and "again" in the lab
    returned the first numbers."""
    board.clear()
    run = Run("tiny", "cpu", "lm", replace(ENDS_EARLY, max_new_tokens=4), ("春山",))
    assert latest(run) is None
    first = measured(run)
    assert latest(run) is first and measured(run) is first  # a second reader gets the same measurement
    fresh = measured(run, again=True)
    assert fresh is not first and latest(run) is fresh and fresh["measured_at"] >= first["measured_at"]


def test_a_shared_measurement_says_how_long_ago_it_was_made():
    """A fresh session 20 minutes later was told its 2.16x was "measured just now"."""
    measured_at = 1_700_000_000.0
    assert minutes_ago(measured_at, now=measured_at + 20 * 60 + 5) == 20
    assert minutes_ago(measured_at, now=measured_at + 59) == 0
    assert len(clock_time(measured_at)) == 8 and clock_time(measured_at).count(":") == 2
