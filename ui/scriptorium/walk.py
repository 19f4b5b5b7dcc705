"""A tree round's walk, depth by depth: the variants under each node the master reached, in the order he tried them.

The engine records every node of a drafted tree (Round.tree) as tree_verify met it, and, as the round's drafted
steps, the accepted path plus the variant struck last where the walk ended. The stepper's words, its inspector
and the worked round read the walk from here, so all three tell the same walk.
"""
from __future__ import annotations

from dataclasses import dataclass

from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.trace import Round, TreeNode

# How the master tried a depth's variants: "residual" (each against the residual the rejected ones left, SpecInfer's
# rule), "p" (each against p itself: the broken rule tree-no-residual) or "greedy" (temperature 0: each compared
# with his argmax, no draw)
TRIALS = ("residual", "p", "greedy")


@dataclass(frozen=True)
class Depth:
    """One depth of the walk: the variants drafted under the node the master stood at, in drawing order."""

    depth: int  # 1 for the variants under the context
    parent: int  # the node they hang under (index into Round.tree), -1 for the context
    variants: tuple[int, ...]  # their indices in Round.tree, in the order drawn, which is the order tried
    accepted: int | None  # the variant sealed here; None where every one was struck

    def tried(self, tree: list[TreeNode]) -> list[int]:
        return [i for i in self.variants if tree[i].tried]

    def struck_before(self, tree: list[TreeNode]) -> list[int]:
        """The variants tried and struck before the one sealed (all tried ones where none was sealed)."""
        ahead = self.variants if self.accepted is None else self.variants[: self.variants.index(self.accepted)]
        return [i for i in ahead if tree[i].tried and not tree[i].accepted]


def tree_walk(r: Round) -> list[Depth] | None:
    """The depths the master walked, from the context down; None for a chain round, or for a tree record that
    does not tell the round's drafted steps (a hand-made file), which is then shown as the chain it lists."""
    if not r.tree:
        return None
    walk, parent = [], -1
    while True:  # parents are listed before their children, so each step goes to a later node and ends
        variants = tuple(i for i, node in enumerate(r.tree) if node.parent == parent)
        if not variants:
            break
        accepted = next((i for i in variants if r.tree[i].accepted), None)
        walk.append(Depth(len(walk) + 1, parent, variants, accepted))
        if accepted is None:
            break
        parent = accepted
    return walk if _tells_the_round(r, walk) else None


def _tells_the_round(r: Round, walk: list[Depth]) -> bool:
    """The walk seals the drafted path, tries the first variant at each depth, and ends as the round says."""
    path = [d.accepted for d in walk if d.accepted is not None]
    if [r.tree[i].token for i in path] != [s.token for s in r.drafted[: r.n_accepted]] or len(path) != r.n_accepted:
        return False
    if not all(r.tree[d.variants[0]].tried for d in walk):
        return False
    if r.next_kind == "bonus":
        return len(walk) == r.n_accepted and len(r.drafted) == r.n_accepted
    last = walk[-1].tried(r.tree) if walk else []
    return (r.next_kind == "corrected" and walk[-1].accepted is None and len(r.drafted) == r.n_accepted + 1
            and bool(last) and r.tree[last[-1]].token == r.drafted[-1].token)


def trial_of(settings: dict) -> str:
    """How the run's master tried variants, from its settings (one of TRIALS); the exact rule where they do not say."""
    sampling = settings.get("sampling") if isinstance(settings, dict) else None
    if isinstance(sampling, dict) and sampling.get("temperature") == 0:
        return "greedy"
    rule = RULES.get(settings.get("rule")) if isinstance(settings, dict) else None
    return "p" if rule is not None and rule.siblings == "p" else "residual"


def variants_per_depth(r: Round) -> list[int]:
    """How many variants the scribe drafted at each depth of the whole tree, from depth 1 down."""
    depth_of: list[int] = []
    for node in r.tree:
        depth_of.append(1 if node.parent < 0 else depth_of[node.parent] + 1)
    return [depth_of.count(d) for d in range(1, max(depth_of, default=0) + 1)]


def descendants(r: Round, node: int) -> int:
    """How many nodes hang below `node`, at any depth."""
    below = {node}
    for i, n in enumerate(r.tree):
        if n.parent in below:
            below.add(i)
    return len(below) - 1


def first_variant_acceptances(r: Round, walk: list[Depth]) -> list[float]:
    """min(1, p/q) of the first variant at each depth the master reached: the first one is tried against p itself,
    and it is the token a chain would have drafted there (the first child drawn from q), so these estimate the same
    alpha, sum_x min(p, q), as a chain's verdicts do."""
    return [r.tree[d.variants[0]].accept_prob for d in walk]
