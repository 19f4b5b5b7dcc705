"""A causal LM as the scribe: a smaller model sharing the target's tokenizer."""
from __future__ import annotations

import functools
from typing import Callable

import torch
from transformers import PreTrainedModel

from specdec_core.runtimes.cached_lm import SharedPrefix
from specdec_core.runtimes.graph_llama import attach_graph
from specdec_core.runtimes.int4_blocks import int4_copy
from specdec_core.runtimes.int8_linear import int8_copy
from specdec_core.runtimes.lean_llama import cached_lm_for
from specdec_core.runtimes.slot_cache import SlotCachedLM

QUANTISED = "int8-master"  # the master's own weights rounded to int8 rows: the master in cheaper ink
FOUR_BIT = "int4-master"   # the master's own weights in 4-bit blocks: the master in the cheapest ink


class LMDraft:
    def __init__(self, name: str, model: PreTrainedModel, vocab_size: int):
        self.name = name
        self.model = model
        self.vocab_size = vocab_size
        self.lm = cached_lm_for(model)     # a lean forward for a CPU Llama (lean_llama.py)
        self.shared: SharedPrefix | None = None   # the proof's prompt, read once for all its batches

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
        """Whether this scribe can expand a tree's depth in one forward: a slot cache's tree mask (lean or graph)."""
        return isinstance(self.lm, SlotCachedLM)

    def tree_logits(self, context: list[int], tokens: list[int], parents: list[int], n_last: int) -> torch.Tensor:
        """Scores (n_last, V) after the last n_last positions fed: the context's last, or a depth's nodes."""
        return self.over_vocab(self.lm.tree_logits(context, tokens, parents, n_last))

    def keep_path(self, path: list[int]) -> None:
        self.lm.keep_path(path)

    def hf_assistant(self) -> PreTrainedModel | None:
        """The model transformers' assisted generation can take as its draft (the bench compares)."""
        return self.model

    @torch.inference_mode()
    def batch_next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The proof's rows share their prompt and often their first tokens: the prefix all of them share is
        read once and kept while the rows keep it, and each distinct row's rest is read once (SharedPrefix)."""
        shared = self._shared_prefix(sequences)
        logits = self.over_vocab(shared.logits(sequences[:, shared.length :])[:, -1])
        return logits, torch.ones(len(sequences), dtype=torch.bool, device=logits.device)

    def _shared_prefix(self, rows: torch.Tensor) -> SharedPrefix:
        """The cache of the longest prefix every row begins with, leaving each row at least one token to feed."""
        same = (rows == rows[:1]).all(dim=0).long().cumprod(dim=0)                  # (L,) 1 while all rows agree
        prefix = rows[0, : min(int(same.sum()), rows.shape[1] - 1)].tolist()
        if self.shared is None or self.shared.tokens != prefix:
            self.shared = SharedPrefix(self.model, prefix)
        return self.shared


def quantised_master(target: PreTrainedModel, vocab_size: int) -> Callable[[], LMDraft]:
    """The int8-master scribe of a CPU target: the master's matrices in int8 rows."""
    return _master_copy(QUANTISED, target, vocab_size, int8_copy, bits=8)


def four_bit_master(target: PreTrainedModel, vocab_size: int) -> Callable[[], LMDraft]:
    """The int4-master scribe of a CPU target: the master's matrices in 4-bit blocks of 32."""
    return _master_copy(FOUR_BIT, target, vocab_size, int4_copy, bits=4)


def _master_copy(name: str, target: PreTrainedModel, vocab_size: int, make_copy, bits: int) -> Callable[[], LMDraft]:
    """A quantised copy of the master as a scribe, made on first use and then shared by every run. torch holds
    the weights the codes stand for (the proof's many rows read them); beside a graph master, the scribe's single
    row runs the graph of the same codes (MatMulNBits)."""
    def make() -> PreTrainedModel:
        quantised = make_copy(target)
        if getattr(target, "decode_graph", None) is not None:
            attach_graph(quantised, bits=bits)
        return quantised
    quantised = functools.cache(make)
    return lambda: LMDraft(name, quantised(), vocab_size)
