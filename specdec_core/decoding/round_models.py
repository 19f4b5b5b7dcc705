"""The models a round reads (round.Verifier and round.Drafter) for its three shapes.

- One row with KV caches: the scriptorium's sheet (`OneRowTarget`, `OneRowDraft`), which also read a
  drafted tree (round.TreeVerifier and round.TreeDrafter) where the forward can (the lean one).
- Many rows after one shared prompt, no per-row cache: the proof (`SharedPrefixTarget`, `ManyRowDraft`).
- One fixed position, whatever the context: the iron rule (`FixedScores`).
"""
from __future__ import annotations

import torch

from specdec_core.drafts.base import Draft
from specdec_core.runtimes.cached_lm import CachedLM, SharedPrefix
from specdec_core.runtimes.slot_cache import SlotCachedLM


class OneRowTarget:
    """A target with its cache, fed only what is new; rollback crops the cache."""

    def __init__(self, lm: CachedLM | SlotCachedLM):
        self.lm = lm

    @property
    def cache_len(self) -> int:
        return self.lm.cache_len

    def score(self, contexts: torch.Tensor, drafted: torch.Tensor) -> torch.Tensor:
        tokens = contexts[0].tolist() + drafted[0].tolist()
        return self.lm.logits(tokens, n_last=drafted.shape[1] + 1)[None]  # (1, n+1, V)

    def rollback(self, keep: torch.Tensor) -> None:
        self.lm.rollback(int(keep[0]))

    def score_tree(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int]) -> torch.Tensor:
        nodes = tokens[0].tolist()
        return self.lm.tree_logits(contexts[0].tolist(), nodes, parents, n_last=len(nodes) + 1)[None]  # (1, N+1, V)

    def keep_path(self, path: torch.Tensor, n_accepted: torch.Tensor) -> None:
        self.lm.keep_path(path[0, : int(n_accepted[0])].tolist())


class OneRowDraft:
    """A draft with its own state (a cache, a context copy) for one row."""

    def __init__(self, draft: Draft):
        self.draft = draft

    @property
    def cache_len(self) -> int:
        return self.draft.cache_len

    def next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits = self.draft.next_logits(sequences[0].tolist())
        if logits is None:
            return torch.zeros((1, self.draft.vocab_size)), torch.tensor([False])
        return logits[None], torch.tensor([True])

    def rollback(self, keep: torch.Tensor) -> None:
        self.draft.rollback(int(keep[0]))

    def tree_logits(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int], n_last: int):
        logits = self.draft.tree_logits(contexts[0].tolist(), tokens[0].tolist(), parents, n_last)[None]  # (1, n_last, V)
        return logits, torch.ones(logits.shape[:2], dtype=torch.bool)  # a tree-drafting scribe always proposes

    def keep_path(self, path: torch.Tensor, n_accepted: torch.Tensor) -> None:
        self.draft.keep_path(path[0, : int(n_accepted[0])].tolist())


class SharedPrefixTarget:
    """Rows that all begin with one prompt read once: each round scores every row from the prompt on."""

    cache_len = 0

    def __init__(self, shared: SharedPrefix):
        self.shared = shared

    def score(self, contexts: torch.Tensor, drafted: torch.Tensor) -> torch.Tensor:
        full = torch.cat([contexts, drafted], dim=1)
        return self.shared.logits(full[:, self.shared.length :], drafted.shape[1] + 1)  # (B, n+1, V)

    def rollback(self, keep: torch.Tensor) -> None:
        pass  # nothing past the shared prompt is kept

    def score_tree(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int]) -> torch.Tensor:
        """(B, N+1, V) read from the paths to the leaves, a forward per leaf depth: a node's row is its depth on
        the first leaf path through it. Without a cache a tree costs its paths, not its nodes: the proof's price."""
        scores = torch.empty((0,))
        for depth, leaves in _leaves_by_depth(parents).items():
            paths = torch.stack([tokens[:, path_to(leaf, parents)] for leaf in leaves], dim=1)  # (B, P, depth)
            rows = contexts.repeat_interleave(len(leaves), dim=0)
            logits = self.score(rows, paths.reshape(-1, depth)).reshape(len(contexts), len(leaves), depth + 1, -1)
            if scores.numel() == 0:
                scores = logits.new_zeros((len(contexts), len(parents) + 1, logits.shape[-1]))
            for j, leaf in enumerate(leaves):
                for at, node in enumerate([-1, *path_to(leaf, parents)]):
                    scores[:, node + 1] = logits[:, j, at]  # the root is row 0, node i row i + 1
        return scores

    def keep_path(self, path: torch.Tensor, n_accepted: torch.Tensor) -> None:
        pass


class ManyRowDraft:
    """A draft scoring many equal-length rows at once, without a cache."""

    cache_len = 0

    def __init__(self, draft: Draft):
        self.draft = draft

    def next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.draft.batch_next_logits(sequences)

    def rollback(self, keep: torch.Tensor) -> None:
        pass

    def tree_logits(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int], n_last: int):
        """(B, n_last, V) and which have a proposal (B, n_last), after the last n_last nodes (the root
        first when the tree is empty): every row's paths to them at once, as equal-length sequences."""
        nodes = [-1, *range(len(parents))][-n_last:]
        paths = [tokens[:, path_to(node, parents)] for node in nodes]  # each (B, depth): a depth's nodes
        sequences = torch.cat([contexts.repeat_interleave(n_last, dim=0), torch.stack(paths, dim=1).flatten(0, 1)], dim=1)
        logits, valid = self.next_logits(sequences)  # (B * n_last, V), (B * n_last,)
        return logits.reshape(len(contexts), n_last, -1), valid.reshape(len(contexts), n_last)

    def keep_path(self, path: torch.Tensor, n_accepted: torch.Tensor) -> None:
        pass


def path_to(node: int, parents: list[int]) -> list[int]:
    """The nodes from the root's first child down to `node` ([] for the root, -1)."""
    path = []
    while node >= 0:
        path.append(node)
        node = parents[node]
    return path[::-1]


def _leaves_by_depth(parents: list[int]) -> dict[int, list[int]]:
    """The tree's leaves (nodes without children) grouped by their depth, the root alone at depth 0 when empty."""
    has_children = set(parents)
    leaves = [node for node in range(len(parents)) if node not in has_children] or [-1]
    by_depth: dict[int, list[int]] = {}
    for leaf in leaves:
        by_depth.setdefault(len(path_to(leaf, parents)), []).append(leaf)
    return by_depth


class FixedScores:
    """The same scores (V,) after any context: one position, as the iron rule studies it."""

    cache_len = 0

    def __init__(self, logits: torch.Tensor):
        self.logits = logits

    def score(self, contexts: torch.Tensor, drafted: torch.Tensor) -> torch.Tensor:
        return self.logits.expand(contexts.shape[0], drafted.shape[1] + 1, -1)  # (B, n+1, V)

    def next_logits(self, sequences: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rows = sequences.shape[0]
        return self.logits.expand(rows, -1), torch.ones(rows, dtype=torch.bool)

    def rollback(self, keep: torch.Tensor) -> None:
        pass

    def score_tree(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int]) -> torch.Tensor:
        return self.logits.expand(contexts.shape[0], len(parents) + 1, -1)  # (B, N+1, V)

    def tree_logits(self, contexts: torch.Tensor, tokens: torch.Tensor, parents: list[int], n_last: int):
        rows = contexts.shape[0]
        return self.logits.expand(rows, n_last, -1), torch.ones((rows, n_last), dtype=torch.bool)

    def keep_path(self, path: torch.Tensor, n_accepted: torch.Tensor) -> None:
        pass
