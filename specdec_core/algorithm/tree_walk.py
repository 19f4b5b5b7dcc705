"""A tree round's walk, read from its record: the variants under each node the master reached, in the order he tried
them; and the verdicts a run's alpha is measured on.

The engine records every node of a drafted tree (Round.tree) as tree_verify met it, parents before their children and
each node's children in the order they were drawn, and, as the round's drafted steps, the accepted path plus the
variant struck last where the walk ended. Everything that counts, draws or tells a tree round reads the walk from
here (summarize and the bench; the sheet and its margin, the tree diagram, the handout, the stepper's words, its
inspector and the worked round), so all of them tell the same walk; a record that contradicts its own round is read
as none, and the round as the chain its drafted steps list.

At each depth the master tries the variants in the order they were drawn: the first against his own p, each later
one against the residual r that the struck ones left, with min(1, r/q). Only the first one's test is a chain's: it
is the token a chain would have drafted there (the first child drawn from q), tried against p, so its min(1, p/q)
estimates the same alpha, sum_x min(p, q), as a chain's verdicts do. A later variant's min(1, r/q) estimates no
alpha. So alpha, in every count of this app (the stepper's "alpha so far", trace.summarize, the bench), is measured
on judged_steps.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from specdec_core.algorithm.rules import RULES
from specdec_core.settings import MAX_TREE_NODES

if TYPE_CHECKING:  # trace.py imports this module: its types are read only by the type checker
    from specdec_core.algorithm.trace import DraftStep, Round, Trace, TreeNode

# How the master tried a depth's variants: "residual" (each against the residual the rejected ones left, SpecInfer's
# rule), "p" (each against p itself: the broken rule tree-no-residual) or "greedy" (temperature 0: each compared
# with his argmax, no draw)
TRIALS = ("residual", "p", "greedy")
NODE_STATES = ("unjudged", "sealed", "struck", "untried")  # a tree node at a moment: see Walk.states


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


@dataclass(frozen=True)
class Walk(Sequence):
    """A tree round's walk: its depths from the context down (walk[0] is depth 1), each node's depth, and the line,
    the node of each drafted step."""

    depths: tuple[Depth, ...]
    depth_of: tuple[int, ...]  # each node's depth, 1 under the context
    line: tuple[int, ...]  # the node of each drafted step: the accepted path, then the last sibling struck
    nodes: tuple[TreeNode, ...]  # the round's tree

    def __getitem__(self, index):
        return self.depths[index]

    def __len__(self) -> int:
        return len(self.depths)

    @property
    def path(self) -> tuple[int, ...]:
        """The accepted path from depth 1 down."""
        return tuple(d.accepted for d in self.depths if d.accepted is not None)

    def children(self, node: int) -> tuple[int, ...]:
        """The nodes drafted under `node` (-1: the context), in the order drawn."""
        return children(self.nodes, node)

    def first_reading(self, node: int) -> list[int]:
        """Below `node` (-1: the context), the first child drawn at each depth, down the first children: the line a
        chain drafting from there would have written."""
        out = []
        while below := self.children(node):
            node = below[0]
            out.append(node)
        return out

    def under(self, node: int) -> Depth:
        """The variants drafted under `node` (-1: the context) as one depth, whether or not the walk went there."""
        return _depth_under(self.nodes, node, 1 if node < 0 else self.depth_of[node] + 1)

    def line_at(self, sealed: int) -> tuple[int, ...]:
        """The line before the verdict, once the master has sealed `sealed` depths: the path sealed so far, then the
        scribe's first reading below its last node. The scribe did not know which variant would stand, so
        nothing on it tells the master's choice before he has made it."""
        sealed = min(sealed, len(self.path))
        return (*self.path[:sealed], *self.first_reading(self.path[sealed - 1] if sealed else -1))

    def states(self, judged: int | None = None, ended: int | None = None) -> list[str]:
        """Each node once the master has judged the depths down to `judged` (None: the whole walk): "sealed" (on the
        accepted path), "struck" (tried and rejected), "untried" (the walk never reached it: a sibling after the
        accepted one, or anything under a node not accepted), or "unjudged" below the depths judged. ended: the
        depth of an end mark sealed on the path; what lies below it is never written, whatever the walk tried
        there, so it is "untried" too (the text never reached it)."""
        judged = len(self.nodes) if judged is None else judged
        past = len(self.nodes) if ended is None else ended
        return ["unjudged" if depth > judged else "untried" if depth > past else "sealed" if node.accepted
                else "struck" if node.tried else "untried" for node, depth in zip(self.nodes, self.depth_of)]


def tree_walk(r: Round) -> Walk | None:
    """The walk of a tree round; None for a chain round, and for a tree record that does not tell the round's own
    outcome (a hand-made or hand-edited file), which is then shown as the chain its drafted steps list rather than
    drawn or told wrong."""
    tree = r.tree
    if not tree or len(tree) > MAX_TREE_NODES:
        return None
    depth_of: list[int] = []
    for i, node in enumerate(tree):
        if not -1 <= node.parent < i:  # parents before their children: every step down goes to a later node
            return None
        depth_of.append(1 if node.parent < 0 else depth_of[node.parent] + 1)
    path = [i for i, node in enumerate(tree) if node.accepted]
    if len(path) != r.n_accepted or [tree[i].parent for i in path] != [-1, *path][: len(path)]:
        return None  # one accepted node a depth, each under the one before: a single path from the context
    reached = {-1, *path}  # the walk tries only the children of the context and of accepted nodes
    if any(node.tried and node.parent not in reached or node.accepted and not node.tried for node in tree):
        return None
    depths = []
    for parent in [-1, *path]:
        depth = _depth_under(tree, parent, len(depths) + 1)
        if not depth.variants:
            break
        depths.append(depth)
    struck = depths[-1].tried(tree) if depths and depths[-1].accepted is None else []
    walk = Walk(tuple(depths), tuple(depth_of), (*path, *struck[-1:]), tuple(tree))
    return walk if _tells_the_round(r, walk) else None


def children(tree: list[TreeNode] | tuple[TreeNode, ...], node: int) -> tuple[int, ...]:
    """The variants drafted under `node` (-1: the context) of a tree round, in the order drawn (a Depth's variants):
    the i-th of them is its node's i-th variant, for any node of the tree, reached by the walk or not."""
    return tuple(i for i, n in enumerate(tree) if n.parent == node)


def _depth_under(tree: list[TreeNode] | tuple[TreeNode, ...], parent: int, number: int) -> Depth:
    variants = children(tree, parent)
    return Depth(number, parent, variants, next((i for i in variants if tree[i].accepted), None))


def _tells_the_round(r: Round, walk: Walk) -> bool:
    """The walk tries the first variant at each depth, its line is the round's drafted steps, and it ends as the
    round says: a bonus below a leaf of the path, or a correction where no variant under its end was sealed, the
    last one struck there being the round's last drafted step."""
    if not all(walk.nodes[d.variants[0]].tried for d in walk):
        return False
    if [walk.nodes[i].token for i in walk.line] != [s.token for s in r.drafted]:
        return False
    ended_on_a_leaf = walk.line == walk.path and len(walk) == len(walk.path)
    return r.next_kind == "bonus" if ended_on_a_leaf else r.next_kind == "corrected" and len(walk.line) > len(walk.path)


def trial_of(settings: dict) -> str:
    """How the run's master tried variants, from its settings (one of TRIALS); the exact rule where they do not say."""
    sampling = settings.get("sampling") if isinstance(settings, dict) else None
    if isinstance(sampling, dict) and sampling.get("temperature") == 0:
        return "greedy"
    rule = RULES.get(settings.get("rule")) if isinstance(settings, dict) else None
    return "p" if rule is not None and rule.siblings == "p" else "residual"


def variants_per_depth(walk: Walk) -> list[int]:
    """How many variants the scribe drafted at each depth of the whole tree, from depth 1 down."""
    return [walk.depth_of.count(d) for d in range(1, max(walk.depth_of, default=0) + 1)]


def descendants(r: Round, node: int) -> int:
    """How many nodes hang below `node`, at any depth."""
    below = {node}
    for i, n in enumerate(r.tree):
        if n.parent in below:
            below.add(i)
    return len(below) - 1


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
