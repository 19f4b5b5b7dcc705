"""The contracts every part of the core shares: the settings of a run, and the target as decoding reads it.

One SamplingConfig is applied to both the target p and the draft q (gpt-fast's single
`sampling_kwargs`), so the draft always samples under the same settings it is judged by.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

import torch

from specdec_core.algorithm.rules import rule_named

MAX_K = 32
MAX_SEED = 2**63 - 1  # what torch.Generator.manual_seed takes


class SettingsError(ValueError):
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
        if not 0.0 <= self.temperature <= 10.0:
            raise SettingsError(f"temperature must be between 0 and 10, got {self.temperature}")
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

    def __post_init__(self):
        if not 1 <= self.k <= MAX_K:  # the target alone is plain_generate, not k = 0
            raise SettingsError(f"k must be between 1 and {MAX_K}, got {self.k}")
        if not 0 <= self.seed <= MAX_SEED:
            raise SettingsError(f"the seed must be a whole number from 0 to {MAX_SEED}, got {self.seed}")
        if not 0.0 <= self.noise <= 1.0:
            raise SettingsError(f"noise must be between 0 and 1, got {self.noise}")
        if self.max_new_tokens < 1:
            raise SettingsError(f"max new tokens must be at least 1, got {self.max_new_tokens}")
        rule_named(self.rule)

    def as_dict(self) -> dict:
        return {**asdict(self), "sampling": asdict(self.sampling)}


@dataclass
class Target:
    """The target model p as decoding reads it: the model, its vocabulary, how a token reads, where text ends."""

    name: str
    model: torch.nn.Module
    vocab_size: int
    piece: Callable[[int], str]  # token id -> display text
    decode: Callable[[list[int]], str]  # token ids -> text
    eos_token_id: int | None = None
    # (start, end) of the reader's own text among a prompt's ids; None: the whole prompt is theirs
    question_span: Callable[[list[int]], tuple[int, int]] | None = None
