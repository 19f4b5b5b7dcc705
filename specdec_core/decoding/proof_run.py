"""The proof page's experiment: a speculative and a plain stream of samples drawn in turn, each tested
after every batch against the exact target distribution of the first token and of the first two.

The page keeps a ProofRun in its session between batches, so a Stop keeps what was drawn; the
command line (`python -m specdec_core proof --as-page`) runs the same loop to time it.
"""
from __future__ import annotations

import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from specdec_core.algorithm.stats import MIN_EXPECTED, FitResult, goodness_of_fit, tv_on_fixed_cells
from specdec_core.decoding.proof import ExactDistribution, SampleStream, exact_distribution
from specdec_core.settings import tree_shape

POSITIONS = 2  # the first token and the joint of the first two
PROOF_TREES = ("2-1", "2-2", "3-1", "3-2")  # the static trees the proof offers: variants at the first depth, then the second


def tree_branching(name: str) -> tuple[int, ...]:
    """'2-2' -> (2, 2), children per node at each depth, for the proof's trees ("" for a chain: ())."""
    return tree_shape(name).branching if name else ()
FINAL_RESAMPLES = 200  # bootstrap size of the final test's TV interval
# Rows times vocabulary in one batch. A round holds several (rows, V) float32 tables and a copy of the prompt's
# cache per row: SmolLM2 (49,152 tokens) at 2,000 rows made a proof add 1.5 GB to the server, and this bound
# (81 rows) holds it to about 0.5 GB. The poetry pair's proof takes as long at 613 rows as at 2,000
# (docs/benchmarks.md has both).
MAX_BATCH_CELLS = 4_000_000


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


def page_run(pair, draft_name: str, ids: list[int], settings, samples: int,
             branching: tuple[int, ...] = ()) -> tuple[ProofRun, Exact]:
    """The proof page's whole run at once (no redraws between batches): for the command line, recordings and tests."""
    exact = exact_pair(pair.target, ids, settings.sampling, samples)
    run = ProofRun(samples)
    speculative, plain = streams(pair, draft_name, ids, settings, branching)
    while run.done < run.total:
        draw_batch(run, speculative, plain, exact)
    run.finished = True
    return run, exact


def run_as_dict(run: ProofRun) -> dict:
    """A run as plain data (a recording keeps it): each stream's samples as one list of pairs."""
    return {"total": run.total, "speculative": run.samples("speculative").tolist(), "plain": run.samples("plain").tolist(),
            "history": run.history, "seconds": run.seconds, "finished": run.finished}


def run_from_dict(data: dict) -> ProofRun:
    streams = {who: [np.array(data[who], dtype=int).reshape(-1, POSITIONS)] for who in ("speculative", "plain")}
    return ProofRun(int(data["total"]), streams["speculative"], streams["plain"], list(data["history"]),
                    float(data["seconds"]), bool(data["finished"]))


def exact_pair(target, ids: list[int], sampling, n_samples: int) -> "Exact":
    """The exact distributions the two streams are tested against."""
    return Exact(exact_distribution(target, ids, 1, sampling, n_samples), exact_distribution(target, ids, POSITIONS, sampling, n_samples))


@dataclass
class Exact:
    first: ExactDistribution  # p of the first token over the whole vocabulary
    joint: ExactDistribution  # p of the first two, over the cells this many samples can test

    def samples_to_test_joint(self) -> float:
        """About how many samples the likeliest joint cell needs to be tested. With no cell listed, a
        lower bound: no joint cell is likelier than the likeliest first token."""
        likeliest = self.joint.probs.max() if len(self.joint.probs) else self.first.probs.max()
        return MIN_EXPECTED / likeliest


def streams(pair, draft_name: str, ids: list[int], settings,
            branching: tuple[int, ...] = ()) -> tuple[SampleStream, SampleStream]:
    """Speculative and plain streams with distinct seeds, so their noise is independent. branching: the
    speculative stream drafts that static tree each round (tree mode); empty, a chain of settings.k."""
    speculative = SampleStream(pair.target, pair.draft(draft_name), ids, POSITIONS, settings, branching=branching)
    plain = SampleStream(pair.target, None, ids, POSITIONS, replace(settings, seed=settings.seed + 1), plain=True)
    return speculative, plain


def batch_size(total: int, done: int, vocab_size: int = 0) -> int:
    """A small first batch, so the page shows progress within a second or two even on a busy server; then
    about ten redraws per run, never batches so small that Python overhead dominates; and never more rows
    than MAX_BATCH_CELLS allows at this vocabulary."""
    size = max(100, total // 50) if not done else max(500, total // 10)
    return min(size, max(1, MAX_BATCH_CELLS // vocab_size)) if vocab_size else size


def draw_batch(run: ProofRun, speculative: SampleStream, plain: SampleStream, exact: Exact,
               each_draw: Callable[[], AbstractContextManager] = nullcontext) -> None:
    """One batch of each stream, kept together (a Stop between the two draws keeps neither), and each
    stream's TV over the joint's cells as fixed for the whole run. Each stream's draw runs inside a
    fresh each_draw() (a server's compute slot, held one draw at a time)."""
    started = time.perf_counter()
    size = min(batch_size(run.total, run.done, len(exact.first.probs)), run.total - run.done)
    with each_draw():
        speculative_batch = speculative.draw(size)
    with each_draw():
        plain_batch = plain.draw(size)
    run.speculative.append(speculative_batch)
    run.plain.append(plain_batch)
    run.seconds += time.perf_counter() - started
    keep = exact.joint.probs * run.total >= MIN_EXPECTED  # the cells the finished run can test, fixed from the start
    point = {"n": run.done}
    for who in ("speculative", "plain"):
        point[who], point["null"] = tv_on_fixed_cells(exact.joint.counts(run.samples(who)), exact.joint.probs, keep, run.done)
    run.history.append(point)


def fit(run: ProofRun, who: str, exact: Exact, resamples: int = FINAL_RESAMPLES) -> tuple[FitResult, FitResult]:
    """Goodness of fit of one stream: the first token, and the joint of the first two."""
    samples, seed = run.samples(who), 0
    first = goodness_of_fit(exact.first.counts(samples[:, :1]), exact.first.probs, len(samples), seed, resamples)
    joint = goodness_of_fit(exact.joint.counts(samples), exact.joint.probs, len(samples), seed, resamples)
    return first, joint
