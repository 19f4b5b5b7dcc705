"""The goodness-of-fit test: calibrated on exact samples, and strong enough for a 2% TV error."""
import numpy as np

from specdec_core.algorithm.stats import goodness_of_fit

P = np.array([0.3, 0.2, 0.15, 0.1, 0.08, 0.07, 0.05, 0.03, 0.015, 0.005])
N = 20_000


def test_exact_samples_pass_at_fixed_seeds():
    rng = np.random.default_rng(0)
    p_values = [goodness_of_fit(rng.multinomial(N, P), P).p_value for _ in range(20)]
    assert min(p_values) > 0.001
    assert 0.2 < np.median(p_values) < 0.8  # roughly uniform under the null


def test_a_two_percent_tv_error_is_detected():
    shifted = P.copy()
    shifted[0] += 0.02
    shifted[3] -= 0.02  # total variation 0.02
    rng = np.random.default_rng(1)
    fit = goodness_of_fit(rng.multinomial(N, shifted), P)
    assert fit.p_value < 0.001
    assert fit.tv_ci[0] <= 0.02 <= fit.tv_ci[1]


def test_tv_interval_covers_zero_for_exact_samples():
    fit = goodness_of_fit(np.random.default_rng(2).multinomial(N, P), P)
    assert fit.tv_ci[0] <= 0.005
    assert fit.tv_null > 0  # noise alone gives a positive plug-in tv


def test_rare_cells_are_pooled_and_missing_mass_counted():
    counts = np.array([500, 480, 15, 3, 2])
    probs = np.array([0.5, 0.48, 0.0149, 0.0001, 0.0])  # sums to 0.995: the rest is unlisted
    fit = goodness_of_fit(counts, probs)
    assert fit.bins == 4  # three large cells, and one pooled rest
    assert fit.samples == 1000


def test_cells_covering_part_of_the_mass_are_calibrated():
    """Samples outside the listed cells still count in n (the bug a 2-token proof once had)."""
    full = np.append(P, 0.0)
    listed = full[:6]  # 0.9 of the mass listed, the rest unlisted
    rng = np.random.default_rng(3)
    p_values = []
    for _ in range(200):
        counts = rng.multinomial(N, full / full.sum())
        p_values.append(goodness_of_fit(counts[:6], listed, n_samples=N, resamples=2).p_value)
    assert np.mean(np.array(p_values) < 0.05) < 0.1
    wrong = goodness_of_fit(counts[:6], listed, resamples=2)  # n taken as the listed counts alone
    assert wrong.p_value < 1e-6


def test_a_single_pooled_cell_has_nothing_to_test():
    assert goodness_of_fit(np.array([3, 2]), np.array([0.0003, 0.0002]), n_samples=10_000).p_value == 1.0


def test_an_impossible_observation_is_a_certain_rejection():
    fit = goodness_of_fit(np.array([90, 0, 10]), np.array([1.0, 0.0, 0.0]))
    assert fit.p_value == 0.0


def test_the_interval_holds_the_bias_corrected_tv_though_not_always_the_samples_own():
    """#36: the proof showed TV 0.0382 beside [0.0144, 0.0303]. The basic bootstrap's interval is for the true
    TV; the plug-in TV of many thin cells sits above it, while the bias-corrected TV is its centre."""
    cells = np.full(300, 1 / 300)
    rng = np.random.default_rng(3)
    fits = [goodness_of_fit(rng.multinomial(3_000, cells), cells, seed=seed) for seed in range(20)]
    assert all(f.tv_ci[0] <= f.tv_corrected <= f.tv_ci[1] for f in fits)
    assert sum(f.tv > f.tv_ci[1] for f in fits) >= 10  # the samples' own TV lies above the interval
