"""Moments of a run: the counters a class sees never run ahead of what has been shown."""
from specdec_core.algorithm.trace import summarize
from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings
from ui.scriptorium.moments import moments, progress_at


def test_moments_end_where_the_run_ends(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(k=3, max_new_tokens=20, stop_at_eos=False))
    steps = moments(trace)
    assert [m.stage for m in steps].count("verdict") == len(trace.rounds)
    end = progress_at(trace, steps[-1])
    summary = summarize(trace)
    assert (end.tokens, end.target_forwards) == (summary["tokens"], summary["target_forwards"])
    assert abs(end.alpha - summary["alpha"]) < 1e-9


def test_counters_grow_one_seal_at_a_time(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(k=3, max_new_tokens=20, stop_at_eos=False))
    tokens = [progress_at(trace, m).tokens for m in moments(trace)]
    assert tokens[0] == 0 and all(0 <= b - a <= 1 for a, b in zip(tokens, tokens[1:]))
