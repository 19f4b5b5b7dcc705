"""The iron rule page's inputs and cached computations: the editable toy table, the draw slider's cap,
the draws with one variant or two, and the position of the sidebar's run. The computation itself is the
core's (decoding.one_position)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from specdec_core.algorithm.trace import Trace
from specdec_core.decoding.one_position import Draws, Position, model_position, run_rule, run_two_variants
from specdec_core.settings import DecodeSettings
from ui.shared.models import cached_pair
from ui.shared.runs import cached_run

TOY = pd.DataFrame({"token": list("月光山水風"), "p": [40.0, 25.0, 15.0, 12.0, 8.0], "q": [15.0, 40.0, 10.0, 10.0, 25.0]})
MIN_TOKENS, MAX_TOKENS = 2, 12
DRAW_BUDGET = 20_000_000  # draws x vocabulary size: each draw samples over the whole vocabulary
MAX_DRAWS, MIN_DRAWS = 20_000, 500
DEFAULT_DRAWS = 10_000


# Rules that change only what happens after a rejection (accept-all writes the draft there; resample-p draws
# p instead of the residual; tree-no-residual tests the second variant, drafted only after the first is rejected,
# against p): their output is off p by at most 1 - alpha in TV, so a near-perfect scribe hides them.
BIAS_AT_MOST_REJECTION = ("accept-all", "resample-p", "tree-no-residual")
# Two variants: the exact rule and the slip that only a second variant can show. The chain's broken rules stay
# in the one-variant mode, where each shows its own mistake alone.
TWO_VARIANT_RULES = ("exact", "tree-no-residual")
NOISE_FACTOR = 2.0  # a TV within this many times the master alone's is not told apart from sampling noise


def hidden_by_good_scribe(rule: str, alpha: float, tv_rule: float, tv_alone: float) -> float | None:
    """The bound 1 - alpha on a broken rule's bias when its TV is within the sampling noise (the master
    alone's TV at the same draws), else None: a class would read that TV as "the rule is fine"."""
    if rule not in BIAS_AT_MOST_REJECTION or tv_rule > NOISE_FACTOR * tv_alone:
        return None
    return 1.0 - alpha


class ToyTableError(ValueError):
    """A toy table that is not a pair of distributions; `key` and `values` fill the page's message."""

    def __init__(self, key: str, **values):
        super().__init__(key)
        self.key, self.values = key, values


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


def max_draws(vocab_size: int) -> int:
    """The most draws the page offers: every draw samples over the whole vocabulary."""
    cap = DRAW_BUDGET // max(vocab_size, 1) // MIN_DRAWS * MIN_DRAWS
    return int(min(MAX_DRAWS, max(MIN_DRAWS, cap)))


@st.cache_data(show_spinner=False, max_entries=64)
def cached_draws(position: Position, rule: str, n: int, seed: int, variants: int = 1) -> Draws:
    """n runs of the rule at this position, the draft pencilling one variant (the round, k = 1) or two (a tree)."""
    return run_rule(position, rule, n, seed) if variants == 1 else run_two_variants(position, rule, n, seed)


@st.cache_data(show_spinner=False, max_entries=32)
def real_run_tokens(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings
                    ) -> tuple[list[int], list[int]]:
    """(prompt tokens, written tokens) of the sidebar's run."""
    trace = Trace.from_json(cached_run(pair_name, device, scribe, prompt, settings))
    return trace.prompt_tokens, trace.tokens


@st.cache_data(show_spinner=False, max_entries=32)
def real_position(pair_name: str, device: str, scribe: str, prompt: str, settings: DecodeSettings, at: int) -> Position:
    """Master's and scribe's scores after the prompt and the run's first `at` tokens."""
    prompt_tokens, tokens = real_run_tokens(pair_name, device, scribe, prompt, settings)
    written = tokens[at] if at < len(tokens) else None
    return model_position(cached_pair(pair_name, device), scribe, prompt_tokens + tokens[:at], written, settings)
