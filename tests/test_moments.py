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


def _forced_run(rounds: list[tuple[list[bool], str]]) -> "Trace":
    """Rounds forced to the verdicts given (True: sealed), each ending in `kind`; no end token."""
    from specdec_core.algorithm.trace import DraftStep, Round, Trace

    built, tokens = [], []
    for i, (verdicts, kind) in enumerate(rounds):
        steps = [DraftStep(10 + j, "字", q=0.5, p=0.5 if ok else 0.1, accept_prob=1.0 if ok else 0.2, u=0.1 if ok else 0.9,
                           accepted=ok, candidates=[]) for j, ok in enumerate(verdicts)]
        n = next((j for j, ok in enumerate(verdicts) if not ok), len(verdicts))
        built.append(Round(index=i, context_len=2, k=len(verdicts), drafted=steps, n_accepted=n,
                           first_rejected=n if n < len(verdicts) else None, next_token=99, next_piece="正", next_kind=kind,
                           next_dist_top=[], target_cache=[1, 7, 5], draft_cache=[1, 6, 5], draft_s=0.0, target_s=0.0,
                           other_s=0.0, stopped_at_eos=False))
        tokens += [s.token for s in steps[:n]] + [99]
    return Trace(pair="hand", scribe="hand", mode="speculative", settings={}, prompt_tokens=[1, 2], prompt_text="春山",
                 tokens=tokens, text="", rounds=built, prefill_s=0.0, wall_s=1.0)


def test_the_correction_steps_are_the_verdicts_that_write_a_correction():
    from ui.scriptorium.moments import correction_steps, next_correction

    # round 1: draft, 2 seals, bonus verdict (steps 1-4); round 2: draft, 1 seal, correction (5-7); round 3 the same (8-10)
    trace = _forced_run([([True, True], "bonus"), ([True, False], "corrected"), ([True, False], "corrected")])
    steps = correction_steps(trace)
    assert steps == [7, 10]
    assert all(moments(trace)[s - 1].stage == "verdict" for s in steps)
    assert next_correction(trace, 1) == 7 and next_correction(trace, 7) == 10
    assert next_correction(trace, 10) == 7  # from the start again


def test_a_run_the_master_never_corrects_has_no_next_correction():
    from ui.scriptorium.moments import correction_steps, next_correction

    trace = _forced_run([([True, True], "bonus"), ([True, True], "bonus")])
    assert correction_steps(trace) == [] and next_correction(trace, 1) is None


def test_a_correction_drawn_after_the_end_token_is_not_a_correction():
    from specdec_core.algorithm.trace import DraftStep
    from ui.scriptorium.moments import correction_steps

    trace = _forced_run([([True, True, False], "corrected")])
    r = trace.rounds[0]
    r.drafted[1] = DraftStep(11, "</s>", q=0.5, p=0.5, accept_prob=1.0, u=0.1, accepted=True, candidates=[])
    trace.tokens[:] = [10, 11]  # the text stops at the sealed end token: the struck draft and the correction go unwritten
    assert correction_steps(trace) == []


def test_alpha_so_far_is_the_mean_chance_and_says_how_many_were_sealed():
    """#49 defect 9: "α so far" read 0.18 after one seal and one strike, shown as if it were the share sealed."""
    from ui.scriptorium.texts import TEXT

    trace = _forced_run([([True, False], "corrected")])  # min(1, p/q): 1.0 and 0.2
    verdict = next(m for m in moments(trace) if m.stage == "verdict")
    now = progress_at(trace, verdict)
    assert (now.judged, now.sealed) == (2, 1) and abs(now.alpha - 0.6) < 1e-9  # the mean chance, not 1 of 2
    before = progress_at(trace, moments(trace)[0])
    assert (before.judged, before.sealed, before.alpha) == (0, 0, None)  # nothing judged before the glance
    assert "chance to seal" in TEXT.table["alpha"]["en"] and "蓋印機率" in TEXT.table["alpha"]["zh"]
    assert "The mean of min(1, p/q)" in TEXT.table["alpha_help"]["en"] and "min(1, p/q) 的平均" in TEXT.table["alpha_help"]["zh"]
    assert "{sealed} of {judged}" in TEXT.table["alpha_help"]["en"] and "{judged} 個裡的 {sealed} 個" in TEXT.table["alpha_help"]["zh"]
