"""What every cached forward of one sequence keeps track of, whichever runtime computes it.

A forward writes each fed position's keys and values into a cache slot. A chain's slots are its
positions; a drafted tree's nodes sit in the slots after the context, at positions by depth, and
attend the context and their own ancestors (SpecInfer, arXiv 2305.09781, section 4). Once verified,
one path is kept by gathering its slots into place. This bookkeeping is the same for the lean torch
forward (lean_llama.py) and the graph runtime (graph_llama.py); each supplies only the forward itself,
how its cache grows, and how slots move.
"""
from __future__ import annotations

import torch


class SlotCachedLM:
    """The calls of CachedLM, one sequence at a time, over a subclass's `_forward`, `_grow` and `_move`.

    Subclasses hold `states` (capacity, H), the normed top state at each cached slot, which a feature
    scribe reads, and set `capacity` in `_grow`.
    """

    device: torch.device

    def __init__(self) -> None:
        self.capacity = 0
        self.start()

    @property
    def cache_len(self) -> int:
        return len(self.cached)

    @property
    def slots_used(self) -> int:
        """Cache slots holding keys and values: the sequence, then the nodes of a tree not yet settled."""
        return len(self.cached) + len(self.tree_tokens)

    def start(self) -> None:
        """Forget everything: a new sequence begins."""
        self.cached: list[int] = []
        self._forget_tree()
        if not self.capacity:
            self._grow(self._first_capacity())

    def logits(self, tokens: list[int], n_last: int = 1) -> torch.Tensor:
        """Logits (n_last, head) after each of the last n_last positions of `tokens`.

        Feeds tokens[cache_len:] in one forward; the cache must hold a prefix of `tokens`.
        """
        if tokens[: self.cache_len] != self.cached:
            raise RuntimeError("cache out of step with the sequence: roll it back first")
        self._forget_tree()  # a tree's nodes past the sequence are written over
        begin, end = self.cache_len, len(tokens)
        if not 1 <= n_last <= end - begin:
            raise ValueError(f"need 1..{end - begin} new positions for n_last, got {n_last}")
        self._reserve(end)
        # each new position sees the cache and the new positions up to itself
        mask = None if end - begin == 1 else (
            torch.ones(end - begin, end, dtype=torch.bool, device=self.device).tril(begin))
        logits = self._forward(tokens[begin:], begin, torch.arange(begin, end, device=self.device), mask, n_last)
        self.cached = list(tokens)
        return logits

    def tree_logits(self, context: list[int], tokens: list[int], parents: list[int], n_last: int = 1) -> torch.Tensor:
        """Logits (n_last, head) after each of the last n_last positions fed, for a context and a tree after it.

        Node i holds tokens[i] under node parents[i] (-1: under the context's last token); parents come
        before their children. It sits in cache slot len(context) + i at position len(context) + depth - 1
        (depth 1 under the context), and attends the context and its own ancestors, not its cousins. The
        cache holds a prefix of the context, or (an earlier call's) the whole context and the tree's first
        nodes; this call feeds the rest in one forward. keep_path then keeps one path of the tree.
        """
        held = len(self.tree_tokens)
        if held and (context != self.cached or tokens[:held] != self.tree_tokens or parents[:held] != self.tree_parents):
            raise RuntimeError("cache out of step with the tree: keep a path or roll back first")
        if not held and context[: self.cache_len] != self.cached:
            raise RuntimeError("cache out of step with the sequence: roll it back first")
        n_context, begin = len(context), self.slots_used
        end = n_context + len(tokens)
        if not 1 <= n_last <= end - begin:
            raise ValueError(f"need 1..{end - begin} new positions for n_last, got {n_last}")
        self._reserve(end)
        depth = tree_depths(parents)
        positions = torch.tensor(list(range(begin, n_context)) + [n_context + d - 1 for d in depth[max(begin - n_context, 0):]],
                                 device=self.device)                                         # (T,)
        mask = tree_mask(n_context, parents, begin, self.device)                               # (T, end)
        if end - begin == 1 and bool(mask.all()):
            mask = None                     # as logits() feeds one token: a chain's next node sees all before it
        logits = self._forward(context[begin:] + tokens[held:], begin, positions, mask, n_last)
        self.cached, self.tree_tokens, self.tree_parents = list(context), list(tokens), list(parents)
        return logits

    def keep_path(self, path: list[int]) -> None:
        """Keep the context and the tree's nodes on `path` (root down), the rest forgotten.

        The path's keys and values are gathered from their slots into the slots after the context, where
        their positions (by depth) already put them; nodes the cache never held (a draft does not feed its
        leaves) end the kept path. A chain's path is already in place and nothing moves.
        """
        n_context, held = len(self.cached), len(self.tree_tokens)
        kept = [node for node in path if node < held]
        if kept != list(range(len(kept))):
            self._move(n_context + torch.tensor(kept), slice(n_context, n_context + len(kept)))
        self.cached += [self.tree_tokens[node] for node in kept]
        self._forget_tree()

    def rollback(self, n_keep: int) -> None:
        """Drop cached positions past n_keep; the next forward writes over them."""
        del self.cached[n_keep:]
        self._forget_tree()

    def _forget_tree(self) -> None:
        self.tree_tokens: list[int] = []
        self.tree_parents: list[int] = []

    def _reserve(self, end: int) -> None:
        if end > self.capacity:
            self._grow(max(end, 2 * self.capacity))

    def _first_capacity(self) -> int:
        raise NotImplementedError

    def _forward(self, ids: list[int], begin: int, positions: torch.Tensor, mask: torch.Tensor | None,
                 n_last: int) -> torch.Tensor:
        """Feed ids into slots begin … begin + T - 1 at `positions` (T,), each attending the slots its row of
        `mask` (T, end) allows (None: all before it and itself); keep their states; return the logits
        (n_last, head) after the last n_last."""
        raise NotImplementedError

    def _grow(self, capacity: int) -> None:
        """Room for `capacity` slots, keeping the slots in use."""
        raise NotImplementedError

    def _move(self, source: torch.Tensor, target: slice) -> None:
        """Copy the keys, values and states of slots `source` into slots `target`."""
        raise NotImplementedError


def tree_depths(parents: list[int]) -> list[int]:
    """Each node's depth: 1 under the root (-1), one more than its parent's below; parents come first."""
    depth: list[int] = []
    for parent in parents:
        depth.append(1 if parent < 0 else depth[parent] + 1)
    return depth


def node_paths(tokens: list[int], parents: list[int]) -> list[list[int]]:
    """Each node's tokens from the root down to it, itself included."""
    paths: list[list[int]] = []
    for token, parent in zip(tokens, parents):
        paths.append((paths[parent] if parent >= 0 else []) + [token])
    return paths


def tree_mask(n_context: int, parents: list[int], begin: int, device: torch.device) -> torch.Tensor:
    """Which slots each fed position attends (end - begin, end), end = n_context + len(parents).

    The context's positions are causal; node i attends the whole context, its ancestors and itself.
    """
    n, end = len(parents), n_context + len(parents)
    sees = torch.zeros((n, n), dtype=torch.bool)            # (N, N) ancestor-or-self
    for node, parent in enumerate(parents):
        if parent >= 0:
            sees[node] = sees[parent]
        sees[node, node] = True
    rows, columns = torch.arange(begin, end)[:, None], torch.arange(end)[None]
    mask = columns <= rows                                  # (T, end) causal
    fed_nodes = max(begin - n_context, 0)
    mask[max(n_context - begin, 0):, n_context:] = sees[fed_nodes:]
    return mask.to(device)
