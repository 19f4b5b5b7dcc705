"""A causal LM as the scribe: a smaller model sharing the target's tokenizer."""
from __future__ import annotations

import functools
from typing import Callable

import torch
from transformers import PreTrainedModel

from specdec_core.runtimes.cached_lm import last_logits
from specdec_core.runtimes.int8_linear import int8_copy
from specdec_core.runtimes.lean_llama import LeanLlamaLM, cached_lm_for

QUANTISED = "int8-master"  # the master's own weights rounded to int8 rows: the master in cheaper ink


class LMDraft:
    def __init__(self, name: str, model: PreTrainedModel, vocab_size: int):
        self.name = name
        self.model = model
        self.vocab_size = vocab_size
        self.lm = cached_lm_for(model)     # a lean forward for a CPU Llama (lean_llama.py)

    @property
    def cache_len(self) -> int:
        return self.lm.cache_len

    def start(self) -> None:
        self.lm.start()

    def prefill(self, tokens: list[int]) -> None:
        self.lm.logits(tokens)

    def next_logits(self, tokens: list[int]) -> torch.Tensor:
        return self.over_vocab(self.lm.logits(tokens)[-1])

    def over_vocab(self, logits: torch.Tensor) -> torch.Tensor:
        """The model's logits (..., head) as logits over the tokenizer's vocabulary (..., V).

        A model's head may be padded past the tokenizer's vocabulary; those rows are dropped.
        """
        return logits[..., : self.vocab_size]

    def rollback(self, n_keep: int) -> None:
        self.lm.rollback(n_keep)

    @property
    def drafts_trees(self) -> bool:
        """Whether this scribe can expand a tree's depth in one forward: the lean forward's tree mask."""
        return isinstance(self.lm, LeanLlamaLM)

    def tree_logits(self, context: list[int], tokens: list[int], parents: list[int], n_last: int) -> torch.Tensor:
        """Scores (n_last, V) after the last n_last positions fed: the context's last, or a depth's nodes."""
        return self.over_vocab(self.lm.tree_logits(context, tokens, parents, n_last))

    def keep_path(self, path: list[int]) -> None:
        self.lm.keep_path(path)

    def hf_assistant(self) -> PreTrainedModel | None:
        """The model transformers' assisted generation can take as its draft (the bench compares)."""
        return self.model

    def batch_next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits = self.over_vocab(last_logits(self.model, sequences)[:, -1])
        return logits, torch.ones(len(sequences), dtype=torch.bool, device=logits.device)


def quantised_master(target: PreTrainedModel, vocab_size: int) -> Callable[[], LMDraft]:
    """The int8-master scribe of a CPU target, its copy made on first use and then shared by every run."""
    quantised = functools.cache(lambda: int8_copy(target))
    return lambda: LMDraft(QUANTISED, quantised(), vocab_size)
