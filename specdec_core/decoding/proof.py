"""The proof of exactness: many continuations at once, compared with the exact target distribution.

Each round is round.speculative_round, the one the scriptorium's sheet is written with. Rows of a
batch accept different numbers of tokens per round, so each round runs on the rows that have written
equally many tokens (equal-length sequences, no padding). Only the first `positions`
tokens are kept, and they depend only on the first `positions` drafted tokens of a round, so a
round drafts min(k, positions still missing) tokens: the same distribution, less work.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch

from specdec_core.algorithm.round import speculative_round
from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.stats import MIN_EXPECTED, FitResult, goodness_of_fit
from specdec_core.decoding.round_models import ManyRowDraft, SharedPrefixTarget
from specdec_core.runtimes.cached_lm import SharedPrefix, last_logits

# progress(done, total, samples so far (done, positions)) -> False to stop early
Progress = Callable[[int, int, np.ndarray], bool | None]


@dataclass
class ExactDistribution:
    """Exact probabilities of the first `positions` tokens over an enumerable set of cells.

    One position: a cell per token. Two: a cell per (x1, x2) for every x1 likely enough that some
    of its cells could reach the expected count the test needs; the rest of the mass is pooled.
    """

    positions: int
    vocab_size: int
    first_tokens: np.ndarray  # (S,) the x1 enumerated (every token for one position)
    probs: np.ndarray  # (S * V,) for two positions, (V,) for one

    def cell_index(self, samples: np.ndarray) -> np.ndarray:
        """Cell of each sample (N, positions); -1 where it falls in the pooled rest."""
        if self.positions == 1:
            return samples[:, 0]
        slot = np.full(self.vocab_size, -1)
        slot[self.first_tokens] = np.arange(len(self.first_tokens))
        first = slot[samples[:, 0]]
        return np.where(first >= 0, first * self.vocab_size + samples[:, 1], -1)

    def counts(self, samples: np.ndarray) -> np.ndarray:
        cells = self.cell_index(samples)
        return np.bincount(cells[cells >= 0], minlength=len(self.probs))


@dataclass
class ProofReport:
    fit: FitResult
    exact: ExactDistribution
    samples: np.ndarray  # (N, positions)


def exact_distribution(target, prompt: list[int], positions: int, sampling, n_samples: int) -> ExactDistribution:
    device = target.device
    p1 = probs_from_logits(last_logits(target, torch.tensor([prompt]))[0, -1], sampling).double().cpu()  # (V,)
    vocab = p1.shape[-1]
    if positions == 1:
        return ExactDistribution(1, vocab, np.arange(vocab), p1.numpy())
    first = torch.nonzero(p1 * n_samples >= MIN_EXPECTED).flatten()  # x1 whose cells can matter
    if len(first) == 0:  # too few samples for any cell to be tested: the whole joint is the pooled rest
        return ExactDistribution(2, vocab, first.numpy(), np.zeros(0))
    rows = torch.cat([torch.tensor(prompt).expand(len(first), -1), first[:, None]], dim=1).to(device)
    p2 = probs_from_logits(last_logits(target, rows)[:, -1], sampling).double().cpu()  # (S, V)
    joint = p1[first, None] * p2
    return ExactDistribution(2, vocab, first.numpy(), joint.flatten().numpy())


class SampleStream:
    """Independent continuations, drawn a batch at a time from one seeded generator.

    A page can interleave two streams (speculative and plain) and redraw its histograms between
    batches; the samples are those one long call would give.
    """

    def __init__(self, target, draft, prompt: list[int], positions: int, settings, plain: bool = False):
        self.draft = None if plain else draft
        self.prompt, self.positions, self.settings = list(prompt), positions, settings
        self.generator = torch.Generator(device=target.device).manual_seed(settings.seed)
        self.shared = SharedPrefix(target, self.prompt[:-1])  # every sample starts with the prompt: read it once

    def draw(self, size: int) -> np.ndarray:
        """The first `positions` tokens of `size` more continuations (size, positions)."""
        return _sample_batch(self.shared, self.draft, self.prompt, size, self.positions, self.settings, self.generator)


def sample_continuations(
    target,
    draft,
    prompt: list[int],
    n_samples: int,
    positions: int,
    settings,
    plain: bool = False,
    batch_size: int = 500,
    progress: Progress | None = None,
) -> np.ndarray:
    """First `positions` tokens of n_samples independent continuations (N, positions)."""
    stream = SampleStream(target, draft, prompt, positions, settings, plain)
    batches: list[np.ndarray] = []
    done = 0
    while done < n_samples:
        size = min(batch_size, n_samples - done)
        batches.append(stream.draw(size))
        done += size
        if progress and progress(done, n_samples, np.concatenate(batches)) is False:
            break
    return np.concatenate(batches)


def run_proof(target, draft, prompt, n_samples, positions, settings, plain=False, batch_size=500, progress=None) -> ProofReport:
    exact = exact_distribution(target, prompt, positions, settings.sampling, n_samples)
    samples = sample_continuations(target, draft, prompt, n_samples, positions, settings, plain, batch_size, progress)
    fit = goodness_of_fit(exact.counts(samples), exact.probs, n_samples=len(samples), seed=settings.seed)
    return ProofReport(fit, exact, samples)


def _sample_batch(target: SharedPrefix, draft, prompt, size, positions, settings, generator) -> np.ndarray:
    written: list[list[int]] = [[] for _ in range(size)]
    verifier, drafter = SharedPrefixTarget(target), ManyRowDraft(draft) if draft else None
    while True:
        groups = defaultdict(list)  # tokens written so far -> rows
        for row, tokens in enumerate(written):
            if len(tokens) < positions:
                groups[len(tokens)].append(row)
        if not groups:
            return np.array([tokens[:positions] for tokens in written])
        for length, rows in groups.items():
            sequences = torch.tensor([prompt + written[row] for row in rows], device=target.model.device)
            k = min(settings.k, positions - length)
            result = speculative_round(verifier, drafter, sequences, k, settings, generator)
            for row, new in zip(rows, result.new_tokens()):
                written[row] += new
