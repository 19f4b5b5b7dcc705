"""Is a sample drawn from a known distribution? G-test and total variation with intervals."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import power_divergence

MIN_EXPECTED = 5.0  # the usual validity condition for the chi-square approximation


@dataclass
class FitResult:
    p_value: float
    g_statistic: float
    dof: int
    bins: int
    samples: int
    tv: float  # total variation between the empirical and exact distributions, over the bins
    tv_corrected: float  # tv less its bootstrap-estimated upward bias from sampling noise
    tv_ci: list[float]  # 95% basic-bootstrap interval for the true total variation
    tv_null: float  # the tv that exact sampling alone gives on average with this many samples


def goodness_of_fit(observed: np.ndarray, expected_probs: np.ndarray, seed: int = 0, resamples: int = 200) -> FitResult:
    """G-test of counts against exact probabilities over the same cells.

    Cells whose expected count is below MIN_EXPECTED are pooled into one "rest" cell, together
    with whatever mass the cells given do not cover (so expected_probs may sum to less than 1).
    """
    observed = np.asarray(observed, dtype=np.float64)
    n = observed.sum()
    obs, probs = _pool(observed, np.asarray(expected_probs, dtype=np.float64), n)
    with np.errstate(divide="ignore"):  # a count where p is 0 gives G = inf: a certain rejection
        g, p_value = power_divergence(obs, probs * n, lambda_="log-likelihood")
    rng = np.random.default_rng(seed)
    tv = _tv(obs / n, probs)
    boot = np.array([_tv(rng.multinomial(int(n), obs / n) / n, probs) for _ in range(resamples)])
    null = [_tv(rng.multinomial(int(n), probs) / n, probs) for _ in range(resamples)]
    # The plug-in tv is biased upwards (noise never cancels in |.|); the basic bootstrap reflects
    # the resampled spread around tv, which corrects for that bias to first order.
    low, high = np.quantile(boot, [0.025, 0.975])
    return FitResult(
        p_value=float(p_value),
        g_statistic=float(g),
        dof=len(obs) - 1,
        bins=len(obs),
        samples=int(n),
        tv=float(tv),
        tv_corrected=float(max(2 * tv - boot.mean(), 0.0)),
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


def _tv(a: np.ndarray, b: np.ndarray) -> float:
    return 0.5 * float(np.abs(a - b).sum())
