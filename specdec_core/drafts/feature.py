"""阿速 reads the master's notes: the feature scribe as the engine's draft (runtimes/feature_scribe.py).

Before each round the master has verified the context, and its lean forward keeps its normed top
state at every cached position (LeanLlamaLM.states). The scribe catches up on the positions it has
not read with those true states, drafts the first token from them, then drafts each further token
from its own predicted state. After the verdict it forgets every position it read from its own
guesses, and the next round reads the master's true states there: the master's notes replace the
scribe's guesses as soon as they exist (as EAGLE does).

A tree (``tree_logits``) is drafted the same way a depth at a time: each node reads its parent's
predicted state (the root's is the guess after the context) with its own token, at the position of
its depth, attending the context's positions and its ancestors. After the verdict every node is
forgotten, as the chain's guesses are: the next round reads the master's true states along the path.

The proof's many rows (``batch_next_logits``) have no cache: there the scribe reads the master's
states, computed afresh, at every position of every row. That q differs from the sheet's after the
first drafted token; the rule is exact for any q, so the proof's verdict holds for both.
"""
from __future__ import annotations

import functools
from pathlib import Path

import torch
from transformers import PreTrainedModel

from specdec_core.drafts.subset_lm import over_vocab
from specdec_core.runtimes.slot_cache import tree_depths, tree_mask
from specdec_core.runtimes.feature_scribe import WEIGHTS, FeatureScribe, FeatureScribeLM, load_scribe, master_states, scribe_forward

FEATURE_SCRIBE = "eagle"     # the rung's name: it drafts as EAGLE does


def feature_rung(target: PreTrainedModel, directory: Path, vocab_size: int, device: torch.device):
    """A pair's eagle rung: the weights in `directory` read on first use, then shared by every run (each
    run its own cache). None off CPU, where the master runs no lean forward to keep its states, or without
    its files."""
    if device.type != "cpu" or not (directory / WEIGHTS).exists():
        return None
    scribe = functools.cache(lambda: load_scribe(target, directory))
    return lambda: FeatureDraft(FEATURE_SCRIBE, scribe(), target, vocab_size)


def reads_master_notes(scribe: str) -> bool:
    """Whether a rung drafts from the master's states (its cache keeps only positions read from them)."""
    return scribe == FEATURE_SCRIBE


class FeatureDraft:
    """A Draft (drafts/base.py) that also reads the master's lean forward (``reads_master``)."""

    def __init__(self, name: str, scribe: FeatureScribe, master: PreTrainedModel, vocab_size: int):
        self.name, self.vocab_size = name, vocab_size
        self.scribe, self.master = scribe, master
        self.lm = FeatureScribeLM(scribe, master)
        self.notes = None              # the master's cached forward (lean or graph) whose states this run reads
        self.read_tokens: list[int] = []   # tokens whose positions the scribe's cache holds, plus one
        self.true_positions = 0        # leading cached positions that read the master's true state
        self.last_guess: torch.Tensor | None = None   # the predicted state after the last position read
        self.tree_guesses: list[torch.Tensor] = []    # the predicted state after each tree node read this round
        self.tree_base = 0                             # the cache's positions before the tree's first node

    def reads_master(self, master_lm) -> None:
        """Read this run's master forward; it must keep its states (a lean forward on CPU)."""
        if not hasattr(master_lm, "states"):
            raise ValueError("the feature scribe reads the master's lean forward (CPU); this master runs another")
        self.notes = master_lm

    @property
    def cache_len(self) -> int:
        return self.lm.length

    def start(self) -> None:
        self.lm.rollback(0)
        self.read_tokens, self.true_positions, self.last_guess = [], 0, None

    def prefill(self, tokens: list[int]) -> None:
        self._catch_up(tokens)

    @torch.inference_mode()
    def next_logits(self, tokens: list[int]) -> torch.Tensor:
        self._catch_up(tokens)
        while self.lm.length < len(tokens) - 1:      # drafting on: read its own guess for the next position
            j = self.lm.length
            self.last_guess = self.lm.read(self.last_guess[None], [tokens[j + 1]])[-1]
            self.read_tokens = tokens[: j + 2]
        return over_vocab(self.lm.logits(self.last_guess), self.scribe.vocab_ids, self.vocab_size)

    drafts_trees = True

    @torch.inference_mode()
    def tree_logits(self, context: list[int], tokens: list[int], parents: list[int], n_last: int) -> torch.Tensor:
        """Scores (n_last, V): after the context (no nodes yet), or after each node of the tree's newest depth."""
        if not tokens:
            scores = self.next_logits(context)[None]         # reads the master's states; the root's guess
            self.tree_guesses, self.tree_base = [], self.lm.length
            return scores
        held = len(self.tree_guesses)
        above = torch.stack([self.last_guess if parent < 0 else self.tree_guesses[parent] for parent in parents[held:]])
        depth = tree_depths(parents)
        positions = torch.tensor([self.tree_base + d - 1 for d in depth[held:]], device=self.lm.device)
        mask = tree_mask(self.tree_base, parents, self.tree_base + held, self.lm.device)
        if mask.shape[0] == 1 and bool(mask.all()):
            mask = None                 # one node that sees every slot before it, as a chain's next guess does
        guesses = self.lm.read(above, tokens[held:], positions, mask)
        self.tree_guesses += list(guesses)
        return over_vocab(self.lm.logits(guesses[-n_last:]), self.scribe.vocab_ids, self.vocab_size)

    def keep_path(self, path: list[int]) -> None:
        """Forget the tree: its nodes were read from guesses, and the master's states replace them next round."""
        self.tree_guesses = []
        self.rollback(self.true_positions + 1)

    def rollback(self, n_keep: int) -> None:
        """Keep positions whose next token is kept and whose state was the master's: guesses are read again."""
        keep = min(self.true_positions, max(n_keep - 1, 0))
        self.lm.rollback(keep)
        self.true_positions, self.read_tokens = keep, self.read_tokens[: keep + 1]

    @torch.inference_mode()
    def _catch_up(self, tokens: list[int]) -> None:
        """Read every position the master has a state for and the scribe has not read with it."""
        if self.notes is None:
            raise RuntimeError("the feature scribe drafts only beside its master: call reads_master first")
        if tokens[: len(self.read_tokens)] != self.read_tokens:     # another sequence: read it from the start
            self.start()
        known = min(self.notes.cache_len, len(tokens) - 1)           # position j needs the state f_j and token j+1
        if known <= self.true_positions:
            return
        self.lm.rollback(self.true_positions)
        begin = self.true_positions
        guesses = self.lm.read(self.notes.states[begin:known], tokens[begin + 1 : known + 1])
        self.last_guess, self.true_positions, self.read_tokens = guesses[-1], known, tokens[: known + 1]

    def hf_assistant(self) -> None:
        return None      # transformers' assisted generation drafts from tokens alone

    @torch.inference_mode()
    def batch_next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if sequences.shape[1] < 2:          # no state to read before the first token: no proposal
            return torch.zeros((len(sequences), self.vocab_size)), torch.zeros(len(sequences), dtype=torch.bool)
        # the proof's rows share their prompt and often their first tokens: each distinct row is read once
        distinct, row_of = torch.unique(sequences, dim=0, return_inverse=True)            # (U, L), (B,)
        states = master_states(self.master, distinct)                                     # (U, L, H)
        guesses = scribe_forward(self.scribe, self.master, states[:, :-1], distinct[:, 1:].to(states.device))
        logits = over_vocab(self.lm.logits(guesses[:, -1]), self.scribe.vocab_ids, self.vocab_size)[row_of.to(states.device)]
        return logits, torch.ones(len(sequences), dtype=torch.bool, device=logits.device)
