"""The iron rule at one position: p and q from a toy table or from the models, and the rule run N times.

Everything here calls the core (the round every page runs, round.speculative_round, with k = 1;
drafting.draft_token for q; theory.expected_acceptance); it only chooses the inputs and counts the
outcomes, so the page can stay a short script.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st
import torch

from specdec_core.algorithm.drafting import draft_token
from specdec_core.algorithm.round import speculative_round
from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.stats import total_variation
from specdec_core.algorithm.theory import expected_acceptance
from specdec_core.algorithm.trace import Trace
from specdec_core.algorithm.verify import acceptance_probability, residual
from specdec_core.decoding.round_models import FixedScores
from specdec_core.runtimes.cached_lm import last_logits
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.loading import cached_pair, cached_run

TOY = pd.DataFrame({"token": list("月光山水風"), "p": [40.0, 25.0, 15.0, 12.0, 8.0], "q": [15.0, 40.0, 10.0, 10.0, 25.0]})
MIN_TOKENS, MAX_TOKENS = 2, 12
DRAW_BUDGET = 20_000_000  # draws x vocabulary size: each draw samples over the whole vocabulary
MAX_DRAWS, MIN_DRAWS = 20_000, 500
TOP_N = 8  # real mode shows the union of the top entries of p, q and r; the rest is pooled


class ToyTableError(ValueError):
    """A toy table that is not a pair of distributions; `key` and `values` fill the page's message."""

    def __init__(self, key: str, **values):
        super().__init__(key)
        self.key, self.values = key, values


@dataclass(frozen=True)
class Position:
    """One place to write a token: the raw scores of master and scribe, and how both are sampled."""

    labels: tuple[str, ...]  # one per token id
    target_logits: np.ndarray  # (V,)
    scribe_logits: np.ndarray | None  # (V,), None when the scribe has no proposal here
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
    """p, the q the scribe samples from, and what the rule derives from them (numpy, float64)."""

    p: np.ndarray
    q: np.ndarray
    alpha: float  # sum min(p, q)
    residual: np.ndarray  # norm(max(0, p - q)): where the red brush draws
    accept_prob: np.ndarray  # min(1, p/q) for each token, 0 where q = 0

    @property
    def sealed(self) -> np.ndarray:
        """P(the scribe writes x and it is sealed) = q(x) min(1, p(x)/q(x)) = min(p(x), q(x))."""
        return self.q * self.accept_prob

    @property
    def corrected(self) -> np.ndarray:
        """P(a rejection, then the red brush writes x) = (1 - alpha) r(x) = max(0, p(x) - q(x))."""
        return (1.0 - self.alpha) * self.residual


@dataclass
class Draws:
    """N runs of the rule at one position, and N draws of the master alone for reference."""

    written: np.ndarray  # (N,) the token each run wrote
    sealed: np.ndarray  # (N,) whether the scribe's token was kept
    alone: np.ndarray  # (N,) tokens drawn from p directly


def toy_position(table: pd.DataFrame) -> Position:
    """A Position from the editable table (any non-negative weights), or a ToyTableError."""
    labels = _toy_labels(table)
    weights = {column: _toy_weights(table, column) for column in ("p", "q")}
    # log of the normalised weights: softmax at temperature 1 gives the weights back, zeros stay zero
    with np.errstate(divide="ignore"):
        logits = {column: np.log(w / w.sum()).astype(np.float32) for column, w in weights.items()}
    return Position(tuple(labels), logits["p"], logits["q"])


def _toy_labels(table: pd.DataFrame) -> list[str]:
    if not MIN_TOKENS <= len(table) <= MAX_TOKENS:
        raise ToyTableError("toy_count", n=len(table), low=MIN_TOKENS, high=MAX_TOKENS)
    labels = []
    for row, label in enumerate(table["token"], start=1):
        label = "" if label is None or (isinstance(label, float) and np.isnan(label)) else str(label).strip()
        if not label:
            raise ToyTableError("toy_no_label", row=row)
        if label in labels:
            raise ToyTableError("toy_repeat", label=label)
        labels.append(label)
    return labels


def _toy_weights(table: pd.DataFrame, column: str) -> np.ndarray:
    numbers = pd.to_numeric(table[column], errors="coerce")
    for row, (raw, number) in enumerate(zip(table[column], numbers), start=1):
        if raw is None or (isinstance(raw, float) and np.isnan(raw)):  # the editor empties a cell it cannot read
            raise ToyTableError("toy_empty", row=row, column=column)
        if pd.isna(number) or not np.isfinite(number):
            raise ToyTableError("toy_not_number", row=row, column=column, value=raw)
        if number < 0:
            raise ToyTableError("toy_negative", row=row, column=column, value=number)
    weights = numbers.to_numpy(dtype=np.float64)
    if weights.sum() <= 0:
        raise ToyTableError("toy_all_zero", column=column)
    return weights


def distributions(position: Position) -> Distributions:
    """p as the engine's verify step builds it; q as its drafting step builds it (same function)."""
    settings = position.decode_settings()
    p = probs_from_logits(torch.from_numpy(position.target_logits), settings.sampling).double()
    # draft_token also draws a token; this one is thrown away, only q matters here
    throwaway = torch.Generator().manual_seed(0)
    _, q, _ = draft_token(torch.from_numpy(position.scribe_logits), settings, RULES["exact"], throwaway)
    q = q.double()
    accept_prob = acceptance_probability(p, q)
    return Distributions(p.numpy(), q.numpy(), expected_acceptance(p, q), residual(p, q).numpy(), accept_prob.numpy())


def max_draws(vocab_size: int) -> int:
    """The most draws the page offers: every draw samples over the whole vocabulary."""
    cap = DRAW_BUDGET // max(vocab_size, 1) // MIN_DRAWS * MIN_DRAWS
    return int(min(MAX_DRAWS, max(MIN_DRAWS, cap)))


def run_rule(position: Position, rule: str, n: int, seed: int, batch: int = 2_000) -> Draws:
    """Run one round with k = 1 n times (round.speculative_round, batched): keep the token written first.

    The written token is the scribe's when it is sealed, otherwise the red brush's correction;
    the bonus token that follows a seal belongs to the next position and is ignored.
    """
    settings = position.decode_settings(rule, seed)
    generator = torch.Generator().manual_seed(seed)
    master, scribe = FixedScores(torch.from_numpy(position.target_logits)), FixedScores(torch.from_numpy(position.scribe_logits))
    written, sealed = [], []
    for start in range(0, n, batch):
        size = min(batch, n - start)
        result = speculative_round(master, scribe, torch.zeros((size, 1), dtype=torch.long), 1, settings, generator)
        kept = result.n_accepted == 1
        written.append(torch.where(kept, result.drafted[:, 0], result.verdict.next_token))
        sealed.append(kept)
    # the reference: the master writing alone, from its own generator with the same seed
    p = probs_from_logits(torch.from_numpy(position.target_logits), settings.sampling)  # (V,)
    alone = torch.multinomial(p, n, replacement=True, generator=torch.Generator().manual_seed(seed))
    return Draws(torch.cat(written).numpy(), torch.cat(sealed).numpy(), alone.numpy())


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


@st.cache_data(show_spinner=False, max_entries=64)
def cached_draws(position: Position, rule: str, n: int, seed: int) -> Draws:
    return run_rule(position, rule, n, seed)


@st.cache_data(show_spinner=False, max_entries=32)
def real_run_tokens(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings
                    ) -> tuple[list[int], list[int]]:
    """(prompt tokens, written tokens) of the sidebar's run."""
    trace = Trace.from_json(cached_run(pair_name, device, scribe, prompt, settings)[0])
    return trace.prompt_tokens, trace.tokens


@st.cache_data(show_spinner=False, max_entries=32)
def real_position(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings, at: int) -> Position:
    """Master's and scribe's scores after the prompt and the run's first `at` tokens."""
    pair = cached_pair(pair_name, device)
    prompt_tokens, tokens = real_run_tokens(pair_name, device, scribe, prompt, settings)
    context = prompt_tokens + tokens[:at]
    vocab = pair.vocab_size
    target = last_logits(pair.target, torch.tensor([context]))[0, -1, :vocab]
    drafter = pair.scribe(scribe)
    drafter.start()
    scores = drafter.next_logits(context)
    target = pair.as_target()
    return Position(
        labels=_unique_labels([target.piece(t) for t in range(vocab)]),
        target_logits=target.float().cpu().numpy(),
        scribe_logits=None if scores is None else scores[:vocab].float().cpu().numpy(),
        sampling=settings.sampling,
        noise=settings.noise,
        context=target.decode(context),
        written=target.piece(tokens[at]) if at < len(tokens) else "",
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
