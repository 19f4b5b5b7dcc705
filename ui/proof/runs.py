"""The proof page's samples: a speculative and a plain stream drawn in turn, kept between reruns.

The samples live in session state after every batch, so a Stop (which interrupts the script and
reruns it) keeps what was drawn so far.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np
import streamlit as st

from specdec_core.algorithm.stats import FitResult, goodness_of_fit
from specdec_core.decoding.proof import ExactDistribution, SampleStream, exact_distribution
from ui.shared.models import cached_pair
from ui.shared.run_slots import run_slot

POSITIONS = 2  # the first token and the joint of the first two
STREAMING_RESAMPLES, FINAL_RESAMPLES = 40, 200  # bootstrap size while streaming, and at the end


@dataclass
class ProofRun:
    total: int
    speculative: list[np.ndarray] = field(default_factory=list)
    plain: list[np.ndarray] = field(default_factory=list)
    history: list[dict] = field(default_factory=list)  # per batch: n and each stream's TV
    seconds: float = 0.0
    finished: bool = False

    @property
    def done(self) -> int:
        return sum(len(batch) for batch in self.speculative)

    def samples(self, who: str) -> np.ndarray:
        return np.concatenate(getattr(self, who)) if getattr(self, who) else np.zeros((0, POSITIONS), dtype=int)


@dataclass
class Exact:
    first: ExactDistribution  # p of the first token over the whole vocabulary
    joint: ExactDistribution  # p of the first two, over the cells this many samples can test


@st.cache_data(show_spinner=False, max_entries=16)
def cached_exact(pair_name: str, device: str, ids: tuple[int, ...], sampling, n_samples: int) -> Exact:
    target = cached_pair(pair_name, device).target
    return Exact(
        exact_distribution(target, list(ids), 1, sampling, n_samples),
        exact_distribution(target, list(ids), POSITIONS, sampling, n_samples),
    )


def streams(pair, scribe: str, ids: list[int], settings) -> tuple[SampleStream, SampleStream]:
    """Speculative and plain streams with distinct seeds, so their noise is independent."""
    speculative = SampleStream(pair.target, pair.scribe(scribe), ids, POSITIONS, settings)
    plain = SampleStream(pair.target, None, ids, POSITIONS, replace(settings, seed=settings.seed + 1), plain=True)
    return speculative, plain


def batch_size(total: int) -> int:
    """About ten redraws per run, never batches so small that Python overhead dominates."""
    return max(500, total // 10)


def draw_batch(run: ProofRun, speculative: SampleStream, plain: SampleStream, exact: Exact) -> None:
    started = time.perf_counter()
    size = min(batch_size(run.total), run.total - run.done)
    with run_slot():
        run.speculative.append(speculative.draw(size))
        run.plain.append(plain.draw(size))
    run.seconds += time.perf_counter() - started
    fits = {who: fit(run, who, exact, STREAMING_RESAMPLES)[1] for who in ("speculative", "plain")}
    run.history.append({"n": run.done, **{who: f.tv for who, f in fits.items()}, "null": fits["plain"].tv_null})


def fit(run: ProofRun, who: str, exact: Exact, resamples: int = FINAL_RESAMPLES) -> tuple[FitResult, FitResult]:
    """Goodness of fit of one stream: the first token, and the joint of the first two."""
    samples, seed = run.samples(who), 0
    first = goodness_of_fit(exact.first.counts(samples[:, :1]), exact.first.probs, len(samples), seed, resamples)
    joint = goodness_of_fit(exact.joint.counts(samples), exact.joint.probs, len(samples), seed, resamples)
    return first, joint
