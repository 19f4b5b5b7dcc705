"""The contracts every part of the core shares: the settings of a run, and the target as decoding reads it.

One SamplingConfig is applied to both the target p and the draft q (gpt-fast's single
`sampling_kwargs`), so the draft always samples under the same settings it is judged by.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Callable

import torch

from specdec_core.algorithm.rules import rule_named
from specdec_core.algorithm.tree_shape import SIBLINGS, TreeShape

MAX_K = 32
MAX_SEED = 2**63 - 1  # what torch.Generator.manual_seed takes
MAX_TOKENS = 100_000  # a run's prompt and new tokens together: beyond any pair's context, so a bound on any trace
# Below this, logits / T overflows float32 (at about 1e-38 a run writes NaN), and the distribution is
# one-hot on the argmax to within float rounding long before: ask for greedy by name, T = 0.
MIN_TEMPERATURE = 0.01
MAX_BRANCHING = 8  # children a node of a drafted tree may have
MAX_TREE_NODES = 128  # a tree verified in one forward: the master's glance stays cheap while memory bounds it


class Refusal(ValueError):
    """Input the core will not use; the message says why in English, for the command line.

    `reason` names the kind of problem and `values` its particulars, so an app can say it in the
    reader's language (ui/shared/errors.py)."""

    def __init__(self, message: str, reason: str = "", **values):
        super().__init__(message)
        self.reason, self.values = reason, values


class SettingsError(Refusal):
    """A setting is out of range; the message says which and why, in plain words."""


@dataclass(frozen=True)
class SamplingConfig:
    """Temperature, top-k and top-p shared by both models.

    temperature 0 means greedy: the distribution becomes one-hot on the argmax.
    top_k 0 and top_p 1.0 mean "off".
    """

    temperature: float = 1.0
    top_k: int = 0
    top_p: float = 1.0

    def __post_init__(self):
        if not (self.temperature == 0.0 or MIN_TEMPERATURE <= self.temperature <= 10.0):
            raise SettingsError(f"temperature must be 0 (greedy) or from {MIN_TEMPERATURE} to 10, got {self.temperature}",
                                "temperature", value=self.temperature, low=MIN_TEMPERATURE, high=10)
        if self.top_k < 0:
            raise SettingsError(f"top-k must be 0 (off) or a positive count, got {self.top_k}")
        if not 0.0 < self.top_p <= 1.0:
            raise SettingsError(f"top-p must be in (0, 1], got {self.top_p}")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


@dataclass(frozen=True)
class DecodeSettings:
    """Everything besides the models and the prompt that decides a run."""

    k: int = 4
    sampling: SamplingConfig = field(default_factory=SamplingConfig)
    seed: int = 0
    max_new_tokens: int = 64
    noise: float = 0.0  # mixes q with uniform: the draft-quality knob
    adaptive_k: bool = False  # transformers' schedule: +2 after a full accept, -1 otherwise
    rule: str = "exact"
    stop_at_eos: bool = True
    top_n: int = 8  # candidates recorded per position for the bar charts
    # A tree instead of a chain (settings.tree_shape): "3-2-1-1", b_d children drawn from q (see siblings) under
    # every node at depth d, or "dynamic-W-B", grown where the draft is confident. "" drafts a chain of k.
    tree: str = ""
    # How a tree node's children are drawn from q: "iid" (with replacement: twins may occur) or "distinct" (without
    # replacement, verified by recursive rejection sampling, Jeon et al. 2024). A chain has one child a node: no effect.
    siblings: str = "iid"

    def __post_init__(self):
        if not 1 <= self.k <= MAX_K:  # the target alone is plain_generate, not k = 0
            raise SettingsError(f"k must be between 1 and {MAX_K}, got {self.k}")
        if not 0 <= self.seed <= MAX_SEED:
            raise SettingsError(f"the seed must be a whole number from 0 to {MAX_SEED}, got {self.seed}")
        if not 0.0 <= self.noise <= 1.0:
            raise SettingsError(f"noise must be between 0 and 1, got {self.noise}")
        if not 1 <= self.max_new_tokens <= MAX_TOKENS:
            raise SettingsError(f"max new tokens must be from 1 to {MAX_TOKENS:,}, got {self.max_new_tokens}",
                                "max_new_tokens", value=self.max_new_tokens, limit=MAX_TOKENS)
        rule_named(self.rule)
        tree_shape(self.tree)
        if self.siblings not in SIBLINGS:
            raise SettingsError(f"a tree's siblings are drawn {' or '.join(map(repr, SIBLINGS))} (with or without "
                                f"replacement); got {str(self.siblings)[:40]!r}", "siblings_unknown",
                                value=str(self.siblings)[:40])

    @property
    def shape(self) -> TreeShape:
        """How a round's draft grows: the tree's shape, or a chain of k (branching 1 at each of k depths)."""
        return tree_shape(self.tree) or TreeShape(branching=(1,) * self.k)

    @classmethod
    def from_dict(cls, values: dict) -> "DecodeSettings":
        """Settings as a trace stores them (as_dict, plus keys this version ignores); SettingsError when a
        field is missing, of the wrong kind or out of range."""
        known = {f.name for f in fields(cls)}
        kept = {key: value for key, value in values.items() if key in known}
        try:
            sampling = SamplingConfig(**kept.pop("sampling"))
            return cls(sampling=sampling, **kept)
        except (KeyError, TypeError) as error:
            raise SettingsError(f"the trace's settings cannot be read back ({error})", "settings_unreadable",
                                error=str(error)) from None

    def as_dict(self) -> dict:
        """Plain data; a chain's leaves out `tree`, and i.i.d. siblings leave out `siblings`, so chain runs, recordings
        and share links read as before trees, and tree runs as before distinct siblings."""
        values = {**asdict(self), "sampling": asdict(self.sampling)}
        if not self.tree:
            del values["tree"]
        if self.siblings == "iid":
            del values["siblings"]
        return values


def tree_shape(text: str) -> TreeShape | None:
    """A tree's shape from its name, None for "" (a chain of k). Static: children per depth, "3-2-1-1".
    Dynamic (EAGLE-2's growth): "dynamic-W-B", the W most confident frontier nodes expanded a depth with W
    children each, B nodes in all. SettingsError when the name is neither, or the tree is out of bounds."""
    if text == "":
        return None
    parts = str(text).split("-")
    dynamic = parts[0] == "dynamic"
    numbers = parts[1:] if dynamic else parts
    if not (1 <= len(numbers) <= MAX_K and all(part.isascii() and part.isdigit() for part in numbers)) or (dynamic and len(numbers) != 2):
        raise SettingsError(f"a tree is written as children per depth, such as 3-2-1-1 (1 to {MAX_K} depths), or as "
                            f"dynamic-W-B; got {str(text)[:40]!r}", "tree_unreadable", value=str(text)[:40], most=MAX_K)
    values = tuple(int(part) for part in numbers)
    branching = values[:1] if dynamic else values
    if not all(1 <= b <= MAX_BRANCHING for b in branching):
        raise SettingsError(f"each depth of a tree has 1 to {MAX_BRANCHING} children per node; got {text}",
                            "tree_branching", value=text, most=MAX_BRANCHING)
    nodes = values[1] if dynamic else tree_nodes(values)
    if nodes > MAX_TREE_NODES or nodes < 1:
        raise SettingsError(f"the tree {text} has {nodes} nodes; one glance verifies 1 to {MAX_TREE_NODES}",
                            "tree_too_big", value=text, nodes=nodes, most=MAX_TREE_NODES)
    return TreeShape(width=values[0], budget=values[1], depth=MAX_K) if dynamic else TreeShape(branching=values)


def tree_nodes(branching: tuple[int, ...]) -> int:
    """How many nodes a static tree of this branching holds: b1 + b1 b2 + b1 b2 b3 + ..."""
    total, width = 0, 1
    for b in branching:
        width *= b
        total += width
    return total


@dataclass
class Target:
    """The target model p as decoding reads it: the model, its vocabulary, how a token reads, where text ends."""

    name: str
    model: torch.nn.Module
    vocab_size: int
    piece: Callable[[int], str]  # token id -> display text
    decode: Callable[[list[int]], str]  # token ids -> text
    eos_token_id: int | None = None
    context_limit: int = MAX_TOKENS  # tokens the model reads, prompt included
    # (start, end) of the reader's own text among a prompt's ids; None: the whole prompt is theirs
    question_span: Callable[[list[int]], tuple[int, int]] | None = None


def check_fits(prompt: list[int], settings: DecodeSettings, vocab_size: int, context_limit: int) -> None:
    """A run a model can make: a prompt of ids in its vocabulary that, with the new tokens, fits its
    context. A round never reads past prompt + max_new_tokens (its k shrinks to what is left), so
    that sum is the whole bound. SettingsError otherwise, before any work is done."""
    if not prompt:
        raise SettingsError("the prompt is empty", "prompt_empty")
    outside = next((t for t in prompt if not 0 <= t < vocab_size), None)
    if outside is not None:
        raise SettingsError(f"the prompt holds token id {outside}; this vocabulary has ids 0 to {vocab_size - 1}",
                            "token_outside_vocabulary", token=outside, last=vocab_size - 1)
    if len(prompt) + settings.max_new_tokens > context_limit:
        raise SettingsError(f"a prompt of {len(prompt):,} tokens and {settings.max_new_tokens:,} new ones do not fit: "
                            f"this model reads at most {context_limit:,} tokens, prompt included", "run_too_long",
                            prompt=len(prompt), new=settings.max_new_tokens, limit=context_limit)
