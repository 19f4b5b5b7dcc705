"""A tree round's walk, depth by depth, read from its record; and the verdicts a run's alpha is measured on.

The engine records every node of a drafted tree (Round.tree) as tree_verify met it, and, as the round's drafted
steps, the accepted path plus the variant struck last where the walk ended. At each depth the master tries the
variants in the order they were drawn: the first against his own p, each later one against the residual r that
the struck ones left, with min(1, r/q). Only the first one's test is a chain's: it is the token a chain would have
drafted there (the first child drawn from q), tried against p, so its min(1, p/q) estimates the same alpha,
sum_x min(p, q), as a chain's verdicts do. A later variant's min(1, r/q) estimates no alpha. So alpha, in every
count of this app (the stepper's "alpha so far", trace.summarize, the bench), is measured on judged_steps.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:  # trace.py imports this module: its types are read only by the type checker
    from specdec_core.algorithm.trace import DraftStep, Round, Trace, TreeNode


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
    does not tell the round's drafted steps (a hand-made file), which is then read as the chain it lists."""
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


def judged_steps(r: Round) -> list[Union[DraftStep, TreeNode]]:
    """The verdicts of a round that alpha is measured on, in order: in a chain, each drafted token the master's
    verdicts reached (Round.reached); in a tree, the first variant at each depth he reached (the i-th is depth i).
    Each has accept_prob, min(1, p/q), and accepted, whether it was sealed."""
    walk = tree_walk(r)
    if walk is None:
        return r.reached
    return [r.tree[d.variants[0]] for d in walk]


def judged_acceptances(r: Round) -> list[float]:
    """min(1, p/q) of each of a round's judged_steps: what the round adds to its run's alpha."""
    return [step.accept_prob for step in judged_steps(r)]


def counts_first_variants(trace: Trace) -> bool:
    """Whether the run's alpha is counted over first variants: some round of it is a tree the walk reads."""
    return any(tree_walk(r) is not None for r in trace.rounds)
