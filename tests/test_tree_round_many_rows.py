"""round.tree_round on many rows without caches (the proof's tree mode), on toy models: the tree's layout,
which target row scores which node, a row without a proposal, and the output law."""
import numpy as np
import pytest
import torch

from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.algorithm.round import tree_round as round_of
from specdec_core.algorithm.tree_shape import TreeShape
from specdec_core.decoding.proof_run import PROOF_TREES, tree_branching
from specdec_core.decoding.round_models import FixedScores, ManyRowDraft, SharedPrefixTarget
from specdec_core.settings import DecodeSettings, SettingsError

V = 5


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def tree_round(target, drafter, contexts, branching, settings, generator):
    return round_of(target, drafter, contexts, TreeShape(branching=branching), settings, generator)


class CountingTarget(SharedPrefixTarget):
    """A target that surely writes the token after the last one, (t + 1) mod V, so each row of p names its context."""

    def __init__(self):
        pass  # no shared prompt: score reads the whole rows

    def score(self, contexts, drafted):
        full = torch.cat([contexts, drafted], dim=1)
        last = full[:, contexts.shape[1] - 1 :]  # (B, n+1) the last token before each scored position
        return torch.nn.functional.one_hot((last + 1) % V, V).float() * 50.0  # (B, n+1, V)


class CountingDraft(ManyRowDraft):
    """A draft that proposes (t + 2) mod V surely: every sibling is a twin, and the target never agrees."""

    def __init__(self):
        pass

    def next_logits(self, sequences):
        proposals = torch.nn.functional.one_hot((sequences[:, -1] + 2) % V, V).float() * 50.0
        return proposals, torch.ones(len(sequences), dtype=torch.bool)


def test_the_proofs_trees_are_read_from_their_names_and_a_bad_name_is_refused():
    assert tree_branching("2-2") == (2, 2) and tree_branching("3-1") == (3, 1) and tree_branching("") == ()
    assert all(len(tree_branching(name)) == 2 for name in PROOF_TREES)  # the page's note names two depths
    for bad in ("2-x", "0-2", "2--2"):
        with pytest.raises(SettingsError):
            tree_branching(bad)


@pytest.mark.parametrize("branching, parents", [((2, 2), [-1, -1, 0, 0, 1, 1]), ((3, 1), [-1, -1, -1, 0, 1, 2]),
                                                 ((2, 2, 1), [-1, -1, 0, 0, 1, 1, 2, 3, 4, 5])])
def test_nodes_are_listed_breadth_first_with_siblings_together(branching, parents):
    result = tree_round(CountingTarget(), CountingDraft(), torch.tensor([[0, 3]]), branching, DecodeSettings(), gen())
    assert result.parents == parents


def test_each_node_is_scored_by_the_target_after_its_own_path():
    contexts = torch.tensor([[0, 3], [1, 1]])
    result = tree_round(CountingTarget(), CountingDraft(), contexts, (2, 2), DecodeSettings(), gen())
    # the draft surely writes last + 2: depth 1 is 3 + 2 = 0 (row 0) and 1 + 2 = 3 (row 1), depth 2 two more
    assert result.tokens.tolist() == [[0, 0, 2, 2, 2, 2], [3, 3, 0, 0, 0, 0]]
    # p's row 0 follows the context, row i + 1 follows node i: the argmax is one past the last token there
    expected = (torch.cat([contexts[:, -1:], result.tokens], dim=1) + 1) % V
    assert result.p.argmax(-1).tolist() == expected.tolist()
    # q at the root and after each depth-1 node; none after the leaves, which have no children
    assert result.q[:, :3].argmax(-1).tolist() == [[0, 2, 2], [3, 0, 0]]
    assert result.q[:, 3:].sum().item() == 0
    # every variant is rejected (the target disagrees), so each row writes the target's token after its context
    assert result.verdict.n_accepted.tolist() == [0, 0]
    assert result.new_tokens() == [[4], [2]]


def test_a_row_without_a_proposal_writes_from_p_alone():
    class NoProposal(CountingDraft):
        def next_logits(self, sequences):
            logits, _ = super().next_logits(sequences)
            return logits, torch.zeros(len(sequences), dtype=torch.bool)

    result = tree_round(CountingTarget(), NoProposal(), torch.tensor([[1]]), (2, 1), DecodeSettings(), gen())
    assert result.q.sum().item() == 0 and result.verdict.n_accepted.tolist() == [0]
    assert result.new_tokens() == [[2]]


# A toy position whose target and draft overlap only partly (sum min(p, q) = 0.45), the same after any context:
# siblings are rejected often, and the tree's broken rule shows at its first token.
P = torch.tensor([0.40, 0.30, 0.15, 0.10, 0.05])
Q = torch.tensor([0.05, 0.10, 0.15, 0.30, 0.40])
ROWS = 40_000


def first_two(rule: str, branching, seed: int) -> np.ndarray:
    """(x1, x2) of ROWS rows: one tree round, and where it wrote one token only, a second round on the first depth."""
    target, draft = FixedScores(P.log()), FixedScores(Q.log())
    settings = DecodeSettings(rule=rule)
    g = gen(seed)
    contexts = torch.zeros((ROWS, 1), dtype=torch.long)
    written = tree_round(target, draft, contexts, branching, settings, g).new_tokens()
    short = [row for row, tokens in enumerate(written) if len(tokens) < 2]
    more = tree_round(target, draft, contexts[short], branching[:1], settings, g).new_tokens()
    for row, tokens in zip(short, more):
        written[row] += tokens
    return np.array([tokens[:2] for tokens in written])


def joint_fit(samples: np.ndarray):
    counts = np.bincount(samples[:, 0] * V + samples[:, 1], minlength=V * V)
    return goodness_of_fit(counts, torch.outer(P, P).flatten().double().numpy(), n_samples=len(samples), seed=0)


@pytest.mark.parametrize("branching", [(2, 2), (3, 1)])
def test_the_first_two_tokens_follow_p_and_the_broken_rule_is_caught(branching):
    assert joint_fit(first_two("exact", branching, seed=1)).p_value > 0.001
    assert joint_fit(first_two("tree-no-residual", branching, seed=1)).p_value < 1e-6
