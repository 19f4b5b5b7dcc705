"""Is a sample drawn from a known distribution? A Cressie–Read goodness-of-fit test and total variation with intervals."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import power_divergence

MIN_EXPECTED = 5.0  # the usual validity condition for the chi-square approximation


@dataclass
class FitResult:
    p_value: float
    statistic: float  # Cressie-Read power divergence, chi-square distributed with dof under the null
    dof: int
    bins: int
    samples: int
    tv: float  # total variation between the empirical and exact distributions, over the bins
    tv_corrected: float  # tv less its bootstrap-estimated upward bias from sampling noise: the centre of tv_ci
    tv_ci: list[float]  # 95% basic-bootstrap interval for the true total variation (it need not hold tv itself)
    tv_null: float  # the tv that exact sampling alone gives on average with this many samples


def goodness_of_fit(observed: np.ndarray, expected_probs: np.ndarray, n_samples: int | None = None, seed: int = 0, resamples: int = 200) -> FitResult:
    """Goodness-of-fit test of counts against exact probabilities over the same cells.

    The statistic is Cressie & Read's (1984) power divergence with lambda = 2/3, between Pearson's
    chi-square (1) and the G-test (0): with hundreds of cells whose expected counts are 5 to 10,
    the G-test rejects an exact sampler about twice as often as its nominal level (measured here),
    while lambda = 2/3 keeps the chi-square approximation honest.

    Cells whose expected count is below MIN_EXPECTED are pooled into one "rest" cell, together
    with whatever mass the cells given do not cover (so expected_probs may sum to less than 1). Then
    n_samples must count every sample, those that fell outside the listed cells included.
    """
    observed = np.asarray(observed, dtype=np.float64)
    n = float(observed.sum() if n_samples is None else n_samples)
    obs, probs = _pool(observed, np.asarray(expected_probs, dtype=np.float64), n)
    if len(obs) < 2:  # everything fell in one pooled cell: nothing to test at this sample size
        return FitResult(1.0, 0.0, 0, len(obs), int(n), 0.0, 0.0, [0.0, 0.0], 0.0)
    with np.errstate(divide="ignore"):  # a count where p is 0 gives inf: a certain rejection
        g, p_value = power_divergence(obs, probs * n, lambda_="cressie-read")
    rng = np.random.default_rng(seed)
    tv = total_variation(obs / n, probs)
    boot = np.array([total_variation(rng.multinomial(int(n), obs / n) / n, probs) for _ in range(resamples)])
    null = [total_variation(rng.multinomial(int(n), probs) / n, probs) for _ in range(resamples)]
    # The plug-in tv is biased upwards (noise never cancels in |.|); the basic bootstrap reflects
    # the resampled spread around tv, which corrects for that bias to first order. So the interval is
    # for the true TV, and with many cells it can lie wholly below tv. The corrected point estimate
    # reflects the bootstrap's median the same way, so it always lies inside the interval.
    low, middle, high = np.quantile(boot, [0.025, 0.5, 0.975])
    return FitResult(
        p_value=float(p_value),
        statistic=float(g),
        dof=len(obs) - 1,
        bins=len(obs),
        samples=int(n),
        tv=float(tv),
        tv_corrected=float(max(2 * tv - middle, 0.0)),
        tv_ci=[float(max(2 * tv - high, 0.0)), float(min(2 * tv - low, 1.0))],
        tv_null=float(np.mean(null)),
    )


def _pool(observed: np.ndarray, probs: np.ndarray, n: float) -> tuple[np.ndarray, np.ndarray]:
    keep = probs * n >= MIN_EXPECTED
    rest_prob = max(1.0 - probs[keep].sum(), 0.0)
    rest_obs = n - observed[keep].sum()
    obs, probs = observed[keep], probs[keep]
    if rest_prob * n >= MIN_EXPECTED or rest_obs > 0:
        obs, probs = np.append(obs, rest_obs), np.append(probs, rest_prob)
    probs = probs / probs.sum()
    return obs, probs


def tv_on_fixed_cells(counts: np.ndarray, probs: np.ndarray, keep: np.ndarray, n: int) -> tuple[float, float]:
    """(TV of the sample from probs, the TV an exact sampler shows on average at this n), over cells fixed
    in advance: the `keep` cells and one pooled cell for the rest. Fixed cells let the TV of an exact
    sampler fall toward 0 as n grows; cells pooled anew at each n (as the test pools them) change with
    n, and the TV over them can rise."""
    cell_probs = np.append(probs[keep], max(1.0 - probs[keep].sum(), 0.0))
    cell_counts = np.append(counts[keep], n - counts[keep].sum())
    # E|freq - p| ~ sqrt(2 p (1 - p) / (pi n)) per cell, by the normal approximation to the binomial
    expected = 0.5 * float(np.sqrt(2 * cell_probs * (1 - cell_probs) / (np.pi * max(n, 1))).sum())
    return total_variation(cell_counts / max(n, 1), cell_probs), expected


def total_variation(a: np.ndarray, b: np.ndarray) -> float:
    """TV between two distributions over the same cells: half the L1 distance."""
    return 0.5 * float(np.abs(a - b).sum())
