"""How a round's drafted tree grows: a static branching per depth, or EAGLE-2's growth where the draft is confident.

Whatever the shape, a node's children are drawn from q at that node, i.i.d. or without replacement (SIBLINGS),
and how many it gets is decided before they are drawn, from what is already known (the path's confidence,
the nodes drawn so far, and for distinct siblings how many tokens q holds): given that count, they are the
siblings whose verification tree_verify proves exact. EAGLE-2 (Li et al. 2024, arXiv 2406.16858) grows its
tree the same way, expanding the frontier nodes of highest confidence (the product of the draft's
probabilities along the path); it then also prunes the drafted nodes by their own confidence before
verifying, which would choose children by their own draws, so no longer as drawn from q: that step is left
out here, and every drawn node is verified.
"""
from __future__ import annotations

from dataclasses import dataclass

# How a node's children are drawn from q: "iid", with replacement (SpecInfer), or "distinct", without
# (Recursive Speculative Decoding): DecodeSettings.siblings, and what tree_verify needs to know of the draws.
SIBLINGS = ("iid", "distinct")


@dataclass(frozen=True)
class TreeShape:
    """Static: `branching[d]` children under every node at depth d. Dynamic: at each depth the `width` most
    confident frontier nodes get `width` children each, until `budget` nodes are drawn or `depth` depths."""

    branching: tuple[int, ...] = ()
    width: int = 0  # dynamic when above 0
    budget: int = 0
    depth: int = 0  # the dynamic tree's most depths

    @property
    def max_depth(self) -> int:
        return self.depth if self.width else len(self.branching)

    def at_most(self, depths: int) -> "TreeShape":
        """The same shape cut to its first `depths` depths (a run's last round drafts no further than it writes)."""
        if self.width:
            return TreeShape(width=self.width, budget=self.budget, depth=min(self.depth, depths))
        return TreeShape(branching=self.branching[:depths])

    def children(self, depth: int, confidence: list[float], drawn: int) -> list[int]:
        """How many children each of the frontier's nodes gets at `depth` (0: under the context), given each
        node's confidence and the nodes drawn so far."""
        if depth >= self.max_depth:
            return [0] * len(confidence)
        if not self.width:
            return [self.branching[depth]] * len(confidence)
        counts, left = [0] * len(confidence), self.budget - drawn
        most_confident = sorted(range(len(confidence)), key=lambda node: -confidence[node])[: self.width]
        for node in most_confident:
            counts[node] = max(min(self.width, left), 0)
            left -= counts[node]
        return counts
