"""The proof of exactness: many continuations at once, compared with the exact target distribution.

Each round is round.speculative_round, the one the scriptorium's sheet is written with. Rows of a
batch accept different numbers of tokens per round, so each round runs on the rows that have written
equally many tokens (equal-length sequences, no padding). Only the first `positions`
tokens are kept, and they depend only on the first `positions` drafted tokens of a round, so a
round drafts min(k, positions still missing) tokens: the same distribution, less work.

In tree mode a round is round.tree_round over a static tree cut to the depth still missing.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable

import numpy as np
import torch

from specdec_core.algorithm.round import speculative_round, tree_round
from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.stats import MIN_EXPECTED, FitResult, goodness_of_fit
from specdec_core.algorithm.tree_shape import TreeShape
from specdec_core.decoding.between_rounds import between_rounds
from specdec_core.decoding.round_models import ManyRowDraft, SharedPrefixTarget
from specdec_core.runtimes.cached_lm import SharedPrefix, last_logits

# progress(done, total, samples so far (done, positions)) -> False to stop early
Progress = Callable[[int, int, np.ndarray], bool | None]
# write(rows (B, L) of equal length, positions still missing) -> each row's new tokens, at least one
RoundWriter = Callable[[torch.Tensor, int], list[list[int]]]


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
    if not len(first):  # a flat p1 at this many samples: every joint cell pooled, and no forward of zero rows
        return ExactDistribution(2, vocab, first.numpy(), np.zeros(0))
    rows = torch.cat([torch.tensor(prompt).expand(len(first), -1), first[:, None]], dim=1).to(device)
    p2 = probs_from_logits(last_logits(target, rows)[:, -1], sampling).double().cpu()  # (S, V)
    joint = p1[first, None] * p2
    return ExactDistribution(2, vocab, first.numpy(), joint.flatten().numpy())


class SampleStream:
    """Independent continuations, drawn a batch at a time from one seeded generator.

    A page can interleave two streams (speculative and plain) and redraw its histograms between
    batches; the samples are those one long call would give. branching: the children per depth of
    the static tree each round drafts (tree mode); empty for a chain of settings.k tokens.
    """

    def __init__(self, target, draft, prompt: list[int], positions: int, settings, plain: bool = False,
                 branching: tuple[int, ...] = ()):
        self.prompt, self.positions = list(prompt), positions
        generator = torch.Generator(device=target.device).manual_seed(settings.seed)
        self.shared = SharedPrefix(target, self.prompt[:-1])  # every sample starts with the prompt: read it once
        drafter = None if plain or draft is None else ManyRowDraft(draft)
        self.write = _round_writer(SharedPrefixTarget(self.shared), drafter, settings, branching, generator)

    def draw(self, size: int) -> np.ndarray:
        """The first `positions` tokens of `size` more continuations (size, positions)."""
        return _sample_batch(self.write, self.prompt, size, self.positions, self.shared.model.device)


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
    branching: tuple[int, ...] = (),
) -> np.ndarray:
    """First `positions` tokens of n_samples independent continuations (N, positions)."""
    stream = SampleStream(target, draft, prompt, positions, settings, plain, branching)
    batches: list[np.ndarray] = []
    done = 0
    while done < n_samples:
        size = min(batch_size, n_samples - done)
        batches.append(stream.draw(size))
        done += size
        if progress and progress(done, n_samples, np.concatenate(batches)) is False:
            break
    return np.concatenate(batches)


def run_proof(target, draft, prompt, n_samples, positions, settings, plain=False, batch_size=500, progress=None,
              branching=()) -> ProofReport:
    exact = exact_distribution(target, prompt, positions, settings.sampling, n_samples)
    samples = sample_continuations(target, draft, prompt, n_samples, positions, settings, plain, batch_size, progress, branching)
    fit = goodness_of_fit(exact.counts(samples), exact.probs, n_samples=len(samples), seed=settings.seed)
    return ProofReport(fit, exact, samples)


def _round_writer(verifier, drafter, settings, branching: tuple[int, ...], generator) -> RoundWriter:
    """The round the stream writes with. Only the first `positions` tokens are kept and they depend only on
    the first that many drafted, so a chain drafts min(k, missing) tokens and a tree is cut to that depth."""

    def write(sequences: torch.Tensor, missing: int) -> list[list[int]]:
        if branching and drafter:
            shape = TreeShape(branching=branching[:missing])
            return tree_round(verifier, drafter, sequences, shape, settings, generator).new_tokens()
        return speculative_round(verifier, drafter, sequences, min(settings.k, missing), settings, generator).new_tokens()

    return write


def _sample_batch(write: RoundWriter, prompt, size, positions, device) -> np.ndarray:
    written: list[list[int]] = [[] for _ in range(size)]
    while True:
        between_rounds()
        groups = defaultdict(list)  # tokens written so far -> rows
        for row, tokens in enumerate(written):
            if len(tokens) < positions:
                groups[len(tokens)].append(row)
        if not groups:
            return np.array([tokens[:positions] for tokens in written])
        for length, rows in groups.items():
            sequences = torch.tensor([prompt + written[row] for row in rows], device=device)
            for row, new in zip(rows, write(sequences, positions - length)):
                written[row] += new
