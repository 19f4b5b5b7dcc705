"""When each token was written (the race replays it): a round's tokens appear when its verify ends."""
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.decoding.timeline import token_times, written_by
from specdec_core.settings import DecodeSettings


def test_each_rounds_tokens_appear_together_when_the_round_ends(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=2, max_new_tokens=20))
    times = token_times(trace)
    assert len(times) == len(trace.tokens) and times == sorted(times)
    ends, now = [], trace.prefill_s
    for r in trace.rounds:
        now += r.draft_s + r.target_s + r.other_s
        ends += [now] * len(r.new_tokens)
    assert times == ends[: len(trace.tokens)]
    assert len(set(times)) == len(trace.rounds)  # one moment per round


def test_the_master_alone_writes_one_token_a_round(tiny, tiny_prompt):
    trace = plain_generate(tiny.as_target(), tiny_prompt, DecodeSettings(seed=2, max_new_tokens=10, stop_at_eos=False))
    assert len(set(token_times(trace))) == len(trace.tokens) == 10


def test_written_by_counts_what_had_appeared():
    assert [written_by([0.1, 0.1, 0.3], t) for t in (0.0, 0.1, 0.2, 0.3)] == [0, 2, 2, 3]
