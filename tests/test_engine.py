"""The decoding loop on a real (tiny) model pair: greedy equivalence, replay, caches, trace."""
import dataclasses

import pytest

from specdec_core.algorithm.trace import Trace, TraceError, mean_acceptance, summarize
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.pairs.pair import PairError
from specdec_core.settings import DecodeSettings, SamplingConfig, SettingsError

GREEDY = SamplingConfig(temperature=0.0)


@pytest.mark.parametrize("scribe", ["unigram", "ngram", "prompt-lookup", "lm"])
@pytest.mark.parametrize("k", [1, 3, 6])
def test_greedy_speculative_equals_greedy_target(tiny, tiny_prompt, scribe, k):
    settings = DecodeSettings(k=k, sampling=GREEDY, max_new_tokens=40, stop_at_eos=False)
    plain = plain_generate(tiny.as_target(), tiny_prompt, settings)
    spec = speculative_generate(tiny.as_target(), tiny.draft(scribe), tiny_prompt, settings)
    assert spec.tokens == plain.tokens
    assert len(spec.tokens) == 40


def test_greedy_holds_with_noise_and_adaptive_k(tiny, tiny_prompt):
    settings = DecodeSettings(k=2, sampling=GREEDY, max_new_tokens=40, noise=0.3, adaptive_k=True, stop_at_eos=False)
    plain = plain_generate(tiny.as_target(), tiny_prompt, settings)
    spec = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings)
    assert spec.tokens == plain.tokens


def test_same_seed_same_trace_other_seed_other_trace(tiny, tiny_prompt):
    settings = DecodeSettings(k=4, seed=11, max_new_tokens=30, sampling=SamplingConfig(temperature=1.0, top_p=0.9))
    run = lambda s: speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, s)  # noqa: E731
    first, second = run(settings), run(settings)
    assert first.tokens == second.tokens
    assert [r.drafted for r in first.rounds] == [r.drafted for r in second.rounds]
    assert run(dataclasses.replace(settings, seed=12)).tokens != first.tokens


def test_adaptive_k_follows_plus_two_minus_one(tiny, tiny_prompt):
    settings = DecodeSettings(k=3, seed=1, max_new_tokens=100, adaptive_k=True, stop_at_eos=False)
    rounds = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings).rounds
    assert rounds[0].k == 3
    for before, after in zip(rounds[:15], rounds[1:15]):  # early rounds, far from the length cap
        assert after.k == (before.k + 2 if before.n_accepted == before.k else max(1, before.k - 1))
    assert len({r.k for r in rounds}) > 2


def test_caches_are_rolled_back_to_the_accepted_prefix(tiny, tiny_prompt):
    settings = DecodeSettings(k=4, seed=3, max_new_tokens=40, stop_at_eos=False)
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings)
    for r in trace.rounds:
        before, after_forward, after_rollback = r.target_cache
        assert before == r.context_len - 1  # everything but the token fed next
        assert after_forward == r.context_len + len(r.drafted)
        assert after_rollback == r.context_len + r.n_accepted
        assert r.draft_cache[2] <= r.context_len + r.n_accepted


def test_max_new_tokens_is_exact_and_every_round_is_recorded(tiny, tiny_prompt):
    settings = DecodeSettings(k=5, seed=2, max_new_tokens=17, stop_at_eos=False)
    trace = speculative_generate(tiny.as_target(), tiny.draft("ngram"), tiny_prompt, settings)
    assert len(trace.tokens) == 17
    assert [t for r in trace.rounds for t in r.new_tokens] == trace.tokens
    summary = summarize(trace)
    assert summary["tokens_per_target_forward"] == 17 / len(trace.rounds)
    assert sum(summary["accept_length_histogram"].values()) == sum(1 for r in trace.rounds if r.drafted)


def test_alpha_counts_only_the_drafts_the_master_reached(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft("ngram"), tiny_prompt, DecodeSettings(k=5, seed=2, max_new_tokens=40))
    cut = [r for r in trace.rounds if len(r.drafted) > r.n_accepted + 1]
    assert cut, "no round drafted past its first rejection"
    before = summarize(trace)
    for r in cut:  # steps past the first rejection were scored on a discarded prefix: forced to extremes
        for step in r.drafted[r.n_accepted + 1 :]:
            step.accept_prob = 0.0 if step.accept_prob > 0.5 else 1.0
    after = summarize(trace)
    assert after["alpha"] == before["alpha"]
    reached = [s.accept_prob for r in trace.rounds for s in r.drafted[: r.n_accepted + 1]]
    assert after["alpha"] == pytest.approx(sum(reached) / len(reached))
    assert mean_acceptance([trace, trace]) == pytest.approx(after["alpha"])


def test_generation_stops_at_the_end_token(tiny, tiny_prompt):
    eos = tiny.tokenizer.eos_token_id
    for seed in range(20):
        trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(seed=seed, max_new_tokens=60))
        if eos in trace.tokens:
            assert trace.tokens[-1] == eos and trace.tokens.count(eos) == 1
            assert trace.rounds[-1].stopped_at_eos
            return
    pytest.fail("no run of the tiny pair wrote an end token")


def test_trace_round_trips_through_json(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(seed=4, max_new_tokens=20))
    assert Trace.from_json(trace.to_json()) == trace
    assert trace.to_json().startswith('{"pair": "tiny"')


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.update(schema_version=99), "schema version"),
        (lambda d: d.pop("rounds"), "missing"),
        (lambda d: d.update(tokens=d["tokens"][::-1] + [3]), "do not match"),
        (lambda d: d.update(surprise=1), "unexpected"),
        (lambda d: d.update(extra=["pieces"]), "extra"),
    ],
)
def test_broken_trace_files_are_refused_with_a_reason(tiny, tiny_prompt, edit, message):
    import json

    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(seed=4, max_new_tokens=20))
    data = json.loads(trace.to_json())
    edit(data)
    with pytest.raises(TraceError, match=message):
        Trace.from_json(json.dumps(data))
    with pytest.raises(TraceError, match="JSON"):
        Trace.from_json("{not json")


def test_plain_decoding_is_one_target_forward_per_token(tiny, tiny_prompt):
    trace = plain_generate(tiny.as_target(), tiny_prompt, DecodeSettings(max_new_tokens=12, stop_at_eos=False))
    assert trace.target_forwards == 12 and trace.mode == "plain"
    assert all(r.next_kind == "plain" and not r.drafted for r in trace.rounds)


def test_bad_prompts_and_settings_get_plain_messages(tiny):
    with pytest.raises(PairError, match="empty"):
        tiny.encode_prompt("   ")
    with pytest.raises(PairError, match="lacks these characters: x 雪"):
        tiny.encode_prompt("春x雪山")
    with pytest.raises(PairError, match="at most"):
        tiny.encode_prompt("春" * 200, max_new_tokens=10)
    with pytest.raises(SettingsError, match="k must"):
        DecodeSettings(k=-1)
    with pytest.raises(SettingsError, match="noise"):
        DecodeSettings(noise=1.5)
    with pytest.raises(ValueError, match="unknown rule"):
        DecodeSettings(rule="trust-me")
    with pytest.raises(PairError, match="no scribe"):
        tiny.draft("oracle")


def test_trace_records_p_q_and_the_residual_the_ui_draws(tiny, tiny_prompt):
    settings = DecodeSettings(k=4, seed=6, max_new_tokens=40, stop_at_eos=False)
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings)
    corrected = [r for r in trace.rounds if r.next_kind == "corrected"]
    assert corrected and any(r.next_kind == "bonus" for r in trace.rounds)
    for r in trace.rounds:
        for step in r.drafted:
            assert step.accept_prob == pytest.approx(min(1.0, step.p / step.q), rel=1e-5)
            listed = {c.token: c for c in step.candidates}
            if step.token in listed:
                assert (listed[step.token].p, listed[step.token].q) == pytest.approx((step.p, step.q))
    for r in corrected:
        rejected = r.drafted[r.first_rejected]
        assert not rejected.accepted and rejected.u >= rejected.accept_prob
        # r = max(0, p - q) / Z for one Z: the same ratio on every listed entry, 0 where q >= p
        ratios = [(c.p - c.q) / c.r for c in r.next_dist_top if c.r > 1e-4]
        assert ratios and max(ratios) == pytest.approx(min(ratios), rel=1e-3)
        assert all(c.r == 0 for c in r.next_dist_top if c.q >= c.p)


def test_a_scribe_with_another_tokenizer_is_refused(tiny):
    from specdec_core.pairs.char_tokenizer import char_tokenizer
    from specdec_core.pairs.pair import check_same_vocabulary

    check_same_vocabulary(tiny.tokenizer, char_tokenizer(list("春夏秋冬山水風月花鳥，。")), "same")
    with pytest.raises(PairError, match="different tokenizer"):
        check_same_vocabulary(tiny.tokenizer, char_tokenizer(list("夏春秋冬山水風月花鳥，。")), "shuffled")


def test_segments_show_exactly_the_written_tokens(tiny, tiny_prompt):
    from specdec_core.algorithm.trace import segments

    for seed in range(30):
        trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=6, seed=seed, max_new_tokens=40))
        shown = [piece for piece, kind in segments(trace) if kind != "rejected"]
        assert shown == [tiny.as_target().piece(t) for t in trace.tokens]
        assert all(kind in {"sealed", "rejected", "corrected", "bonus"} for _, kind in segments(trace))
