"""Exactness on real model outputs: speculative samples vs the target's exact distribution.

Every broken rule must be caught and the exact rule must pass, at fixed seeds. Settings use
temperature and top-k so that the rules that mishandle them (raw-q) have something to get wrong.
"""
import numpy as np
import pytest

from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.decoding.generate import speculative_generate
from specdec_core.decoding.proof import exact_distribution, run_proof
from specdec_core.settings import DecodeSettings, SamplingConfig

SAMPLING = SamplingConfig(temperature=0.8, top_k=8)
N = 20_000


def settings(rule="exact", k=3, seed=1, noise=0.0):
    return DecodeSettings(k=k, seed=seed, rule=rule, sampling=SAMPLING, noise=noise)


@pytest.mark.parametrize("positions", [1, 2])
@pytest.mark.parametrize("scribe", ["lm", "ngram", "prompt-lookup"])
def test_exact_rule_matches_the_target(tiny, tiny_prompt, scribe, positions):
    report = run_proof(tiny.target, tiny.draft(scribe), tiny_prompt, N, positions, settings(), batch_size=4000)
    assert report.fit.p_value > 0.001
    assert report.fit.tv_ci[0] < 0.01


def test_noisy_scribe_and_plain_target_match_too(tiny, tiny_prompt):
    noisy = run_proof(tiny.target, tiny.draft("lm"), tiny_prompt, N, 2, settings(noise=0.5), batch_size=4000)
    plain = run_proof(tiny.target, None, tiny_prompt, N, 2, settings(), plain=True, batch_size=4000)
    assert noisy.fit.p_value > 0.001 and plain.fit.p_value > 0.001


@pytest.mark.parametrize("rule", ["accept-all", "exact-match", "resample-p", "greedy-soft-q", "raw-q"])
@pytest.mark.parametrize("positions", [1, 2])
def test_broken_rules_are_detected(tiny, tiny_prompt, rule, positions):
    report = run_proof(tiny.target, tiny.draft("lm"), tiny_prompt, N, positions, settings(rule), batch_size=4000)
    assert report.fit.p_value < 1e-4
    assert report.fit.tv_ci[0] > 0.02


def test_two_position_cells_cover_what_matters(tiny, tiny_prompt):
    exact = exact_distribution(tiny.target, tiny_prompt, 2, SAMPLING, N)
    assert exact.probs.sum() == pytest.approx(1.0, abs=1e-5)  # top-k 8: every likely x1 is enumerated
    outside = next(t for t in range(tiny.vocab_size) if t not in exact.first_tokens)
    cells = exact.cell_index(np.array([[exact.first_tokens[1], 5], [outside, 5]]))
    assert cells.tolist() == [tiny.vocab_size + 5, -1]


def test_the_cached_sequential_engine_passes_the_same_test(tiny, tiny_prompt):
    """The batched sampler is a second implementation; the real loop must agree with p as well."""
    n = 1500
    firsts = [
        speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=s, sampling=SAMPLING, max_new_tokens=1)).tokens[0]
        for s in range(n)
    ]
    exact = exact_distribution(tiny.target, tiny_prompt, 1, SAMPLING, n)
    fit = goodness_of_fit(np.bincount(firsts, minlength=tiny.vocab_size), exact.probs, n_samples=n)
    assert fit.p_value > 0.001


def test_progress_reports_and_can_stop(tiny, tiny_prompt):
    seen = []

    def progress(done, total, samples):
        seen.append((done, total, len(samples)))
        return done < 2000

    report = run_proof(tiny.target, tiny.draft("lm"), tiny_prompt, 10_000, 1, settings(), batch_size=1000, progress=progress)
    assert seen[0] == (1000, 10_000, 1000) and seen[-1] == (2000, 10_000, 2000)
    assert report.fit.samples == 2000
