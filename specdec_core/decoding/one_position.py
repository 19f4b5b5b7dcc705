"""One position, studied alone: the target's and the draft's scores there, what the rule makes of them,
and the rule run N times with k = 1 (the iron rule page's computation).

One variant: the draws go through round.speculative_round, the round every page runs, with fixed scores.
Two variants: the draws go through tree_verify, the verification of a drafted tree, on a root with two children.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from specdec_core.algorithm.drafting import draft_token
from specdec_core.algorithm.round import speculative_round
from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.sampling import probs_from_logits, sample
from specdec_core.algorithm.stats import total_variation
from specdec_core.algorithm.theory import expected_acceptance
from specdec_core.algorithm.tree_verify import tree_verify
from specdec_core.algorithm.verify import acceptance_probability, residual
from specdec_core.decoding.round_models import FixedScores
from specdec_core.pairs.pair import ModelPair
from specdec_core.runtimes.cached_lm import last_logits
from specdec_core.settings import DecodeSettings, SamplingConfig

TOP_N = 8  # a large vocabulary is shown as the union of the top entries of p, q and r; the rest is pooled
TREE_CELLS = 2_000_000  # two variants: rows x vocabulary per tree_verify call, so a large vocabulary stays in memory


@dataclass(frozen=True)
class Position:
    """One place to write a token: the raw scores of target and draft, and how both are sampled."""

    labels: tuple[str, ...]  # one per token id
    target_logits: np.ndarray  # (V,)
    draft_logits: np.ndarray | None  # (V,), None when the draft has no proposal here
    sampling: SamplingConfig = field(default_factory=SamplingConfig)
    noise: float = 0.0
    context: str = ""  # real mode: the text both have read
    written: str = ""  # real mode: the token the run wrote here

    @property
    def vocab_size(self) -> int:
        return len(self.target_logits)

    def decode_settings(self, rule: str = "exact", seed: int = 0) -> DecodeSettings:
        return DecodeSettings(k=1, sampling=self.sampling, seed=seed, noise=self.noise, rule=rule)


@dataclass
class Distributions:
    """p, the q the draft samples from, and what the rule derives from them (numpy, float64)."""

    p: np.ndarray
    q: np.ndarray
    alpha: float  # sum min(p, q)
    residual: np.ndarray  # norm(max(0, p - q)): where the red brush draws
    accept_prob: np.ndarray  # min(1, p/q) for each token, 0 where q = 0

    @property
    def sealed(self) -> np.ndarray:
        """P(the draft writes x and it is sealed) = q(x) min(1, p(x)/q(x)) = min(p(x), q(x))."""
        return self.q * self.accept_prob

    @property
    def corrected(self) -> np.ndarray:
        """P(a rejection, then the red brush writes x) = (1 - alpha) r(x) = max(0, p(x) - q(x))."""
        return (1.0 - self.alpha) * self.residual


@dataclass
class Draws:
    """N runs of the rule at one position, and N draws of the target alone for reference."""

    written: np.ndarray  # (N,) the token each run wrote
    sealed: np.ndarray  # (N,) whether the draft's token was kept
    alone: np.ndarray  # (N,) tokens drawn from p directly
    variant: np.ndarray | None = None  # two variants: (N,) the one kept, 1 or 2, and 0 where the master wrote


def distributions(position: Position) -> Distributions:
    """p as the engine's verify step builds it; q as its drafting step builds it (same function)."""
    settings = position.decode_settings()
    p = probs_from_logits(torch.from_numpy(position.target_logits), settings.sampling).double()
    # draft_token also draws a token; this one is thrown away, only q matters here
    throwaway = torch.Generator().manual_seed(0)
    _, q, _ = draft_token(torch.from_numpy(position.draft_logits), settings, RULES["exact"], throwaway)
    q = q.double()
    accept_prob = acceptance_probability(p, q)
    return Distributions(p.numpy(), q.numpy(), expected_acceptance(p, q), residual(p, q).numpy(), accept_prob.numpy())


def run_rule(position: Position, rule: str, n: int, seed: int, batch: int = 2_000) -> Draws:
    """Run one round with k = 1 n times (round.speculative_round, batched): keep the token written first.

    The written token is the draft's when it is sealed, otherwise the red brush's correction;
    the bonus token that follows a seal belongs to the next position and is ignored.
    """
    settings = position.decode_settings(rule, seed)
    generator = torch.Generator().manual_seed(seed)
    target, draft = FixedScores(torch.from_numpy(position.target_logits)), FixedScores(torch.from_numpy(position.draft_logits))
    written, sealed = [], []
    for start in range(0, n, batch):
        size = min(batch, n - start)
        result = speculative_round(target, draft, torch.zeros((size, 1), dtype=torch.long), 1, settings, generator)
        kept = result.n_accepted == 1
        written.append(torch.where(kept, result.drafted[:, 0], result.verdict.next_token))
        sealed.append(kept)
    return Draws(torch.cat(written).numpy(), torch.cat(sealed).numpy(), master_alone(position, n, seed))


def run_two_variants(position: Position, rule: str, n: int, seed: int) -> Draws:
    """n times: the draft draws two variants i.i.d. from q (with replacement), and tree_verify checks them as
    the two children of one root; keep the token written first.

    Under the exact rule the first variant is tested against p, the second against the residual r1 the first
    left, and where both are rejected the master writes from the last residual r2 (SpecInfer, arXiv 2305.09781);
    `rule` may break that, as tree-no-residual does. The bonus drawn after a kept variant belongs to the next
    position and is ignored.
    """
    chosen = RULES[rule]
    if chosen.draft_greedy or chosen.raw_q:  # these act where the variants are drawn; here they are drawn from q
        raise ValueError(f"rule {rule!r} changes how the draft draws, not how two variants are verified")
    dists = distributions(position)
    p, q = torch.from_numpy(dists.p), torch.from_numpy(dists.q)  # (V,) float64
    vocab = len(p)
    # after each variant only the ignored bonus reads p, and no child is drawn: p and q there are placeholders
    p_tree = torch.stack([p, p, p])  # (3, V) the root, then after variant 1 and variant 2
    q_tree = torch.stack([q, torch.zeros_like(q), torch.zeros_like(q)])  # (3, V)
    parents = torch.tensor([-1, -1])  # the tree: both variants hang under the root
    generator = torch.Generator().manual_seed(seed)
    batch = max(1, TREE_CELLS // vocab)
    written, variant = [], []
    for start in range(0, n, batch):
        size = min(batch, n - start)
        tokens = sample(q.expand(size, 2, vocab), generator)  # (B, 2) two i.i.d. draws from q
        verdict = tree_verify(p_tree.expand(size, 3, vocab), q_tree.expand(size, 3, vocab), tokens, parents, generator,
                              chosen)
        kept = verdict.path[:, 0]  # (B,) the variant kept (0 or 1), -1 where both were rejected
        written.append(torch.where(kept >= 0, tokens.gather(1, kept.clamp(min=0)[:, None])[:, 0], verdict.next_token))
        variant.append(kept + 1)
    variant = torch.cat(variant).numpy()
    return Draws(torch.cat(written).numpy(), variant > 0, master_alone(position, n, seed), variant)


def master_alone(position: Position, n: int, seed: int) -> np.ndarray:
    """The reference: n tokens the target writes alone, from its own generator with the same seed."""
    p = probs_from_logits(torch.from_numpy(position.target_logits), position.sampling)  # (V,)
    return torch.multinomial(p, n, replacement=True, generator=torch.Generator().manual_seed(seed)).numpy()


@dataclass
class TwoVariantPaths:
    """The three ways the exact rule writes x when the draft pencils two variants: they add up to p."""

    alpha2: float  # sum min(r1, q): the chance the second variant is kept once the first is rejected
    r2: np.ndarray  # norm(max(0, r1 - q)): where the master writes when both are rejected
    first: np.ndarray  # min(p, q): the first variant is x and kept
    second: np.ndarray  # (1 - alpha) min(r1, q): the first rejected, the second is x and kept
    brush: np.ndarray  # (1 - alpha)(1 - alpha2) r2: both rejected, the master writes x


def two_variant_paths(dists: Distributions) -> TwoVariantPaths:
    """The law behind the two-variant draws: the second variant faces r1 = dists.residual, as the first faced p."""
    r1, q = torch.from_numpy(dists.residual), torch.from_numpy(dists.q)
    alpha2 = expected_acceptance(r1, q)
    r2 = residual(r1, q).numpy()
    rejected = 1.0 - dists.alpha
    return TwoVariantPaths(alpha2, r2, dists.sealed, rejected * np.minimum(dists.residual, dists.q),
                           rejected * (1.0 - alpha2) * r2)


def tv_curve(tokens: np.ndarray, p: np.ndarray, points: int = 40) -> tuple[list[int], list[float]]:
    """Total variation distance between the first n draws' frequencies and p, at log-spaced n."""
    ns = np.unique(np.geomspace(10, len(tokens), points).astype(int)) if len(tokens) >= 10 else [len(tokens)]
    tvs = [total_variation(np.bincount(tokens[:n], minlength=len(p)) / n, p) for n in ns]
    return [int(n) for n in ns], tvs


def cells(tokens: np.ndarray, ids: np.ndarray, vocab_size: int) -> np.ndarray:
    """Each token's cell: its place among the shown ids, or one pooled cell after them for all the rest."""
    slot = np.full(vocab_size, len(ids))
    slot[ids] = np.arange(len(ids))
    return slot[tokens]


def frequencies(tokens: np.ndarray, vocab_size: int) -> np.ndarray:
    return np.bincount(tokens, minlength=vocab_size) / max(len(tokens), 1)


def shown_tokens(dists: Distributions, top_n: int = TOP_N) -> np.ndarray:
    """Token ids to draw: all of a small vocabulary, else the top entries of p, q and r, by p."""
    if len(dists.p) <= 2 * top_n:
        return np.arange(len(dists.p))
    ids = np.unique(np.concatenate([np.argsort(-v)[:top_n] for v in (dists.p, dists.q, dists.residual)]))
    return ids[np.argsort(-dists.p[ids], kind="stable")]


def collapse(values: np.ndarray, ids: np.ndarray) -> list[float]:
    """values at ids, plus one pooled entry for every other token when ids do not cover them all."""
    shown = [float(v) for v in values[ids]]
    return shown if len(ids) == len(values) else shown + [float(values.sum() - values[ids].sum())]


def model_position(pair: ModelPair, draft_name: str, context: list[int], written: int | None, settings: DecodeSettings) -> Position:
    """The target's and the draft's scores after `context`, labelled by the pair's vocabulary."""
    vocab = pair.vocab_size
    target = last_logits(pair.target, torch.tensor([context]))[0, -1, :vocab]
    drafter = pair.draft(draft_name)
    drafter.start()
    scores = drafter.next_logits(context)
    decoding = pair.as_target()
    return Position(
        labels=_unique_labels([decoding.piece(t) for t in range(vocab)]),
        target_logits=target.float().cpu().numpy(),
        draft_logits=None if scores is None else scores[:vocab].float().cpu().numpy(),
        sampling=settings.sampling,
        noise=settings.noise,
        context=decoding.decode(context),
        written=decoding.piece(written) if written is not None else "",
    )


def _unique_labels(pieces: list[str]) -> tuple[str, ...]:
    """Readable, distinct axis labels (plotly merges bars that share a label)."""
    seen: set[str] = set()
    labels = []
    for token, piece in enumerate(pieces):
        label = piece.replace("\n", "↵") if piece.strip() else "␣" * max(len(piece), 1)
        if label in seen:
            label = f"{label}#{token}"
        seen.add(label)
        labels.append(label)
    return tuple(labels)
