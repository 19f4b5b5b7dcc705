"""The lean forward reads a drafted tree in one forward (tree attention mask, positions by depth) and keeps
one path of it by gathering the path's keys and values into place: every node's logits equal the plain
forward of the context and that node's path, and after keep_path the cache is the plain one's."""
import pytest
import torch

from specdec_core.runtimes import lean_llama
from specdec_core.runtimes.lean_llama import LeanLlamaLM
from specdec_core.runtimes.slot_cache import node_paths, tree_depths, tree_mask
from tests.test_shared_embedding_draft import llama_master

CONTEXT = [1, 4, 5, 6, 7, 8, 9]
# A 3-2-1 tree: three nodes under the context, two under each, one under each of those (15 nodes).
TOKENS = [10, 11, 10, 12, 13, 4, 5, 12, 12, 6, 7, 8, 9, 10, 11]
PARENTS = [-1, -1, -1, 0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8]


@pytest.fixture(scope="module")
def master(tiny):
    return llama_master(tiny.vocab_size)


def plain_last(master, sequence: list[int]) -> torch.Tensor:
    """The logits after a sequence's last token, by a fresh lean forward with no tree in it."""
    lm = LeanLlamaLM(master)
    return lm.logits(sequence)[-1]


def test_depths_paths_and_the_mask_follow_the_parents():
    assert tree_depths(PARENTS) == [1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3]
    assert node_paths(TOKENS, PARENTS)[10] == [10, 13, 7]          # node 10 under 4 under 0
    mask = tree_mask(2, [-1, -1, 0], begin=1, device=torch.device("cpu"))
    assert mask.tolist() == [[True, True, False, False, False],    # the context's last token: causal
                             [True, True, True, False, False],     # node 0 sees the context and itself
                             [True, True, False, True, False],     # node 1 does not see its cousin node 0
                             [True, True, True, False, True]]      # node 2 sees its parent node 0


def test_every_node_of_a_tree_scores_as_its_own_path_would(master):
    lm = LeanLlamaLM(master)
    lm.logits(CONTEXT[:-1])
    got = lm.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=len(TOKENS) + 1)           # (N+1, V)
    assert got.shape[0] == len(TOKENS) + 1
    torch.testing.assert_close(got[0], plain_last(master, CONTEXT), atol=1e-5, rtol=0)
    for node, path in enumerate(node_paths(TOKENS, PARENTS)):
        torch.testing.assert_close(got[node + 1], plain_last(master, CONTEXT + path), atol=1e-5, rtol=0)


def test_a_tree_fed_a_depth_at_a_time_scores_as_one_fed_at_once(master):
    """The draft expands one depth per forward, its cache holding the depths before."""
    whole = LeanLlamaLM(master)
    at_once = whole.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=len(TOKENS) + 1)
    lm = LeanLlamaLM(master)
    pieces = [lm.tree_logits(CONTEXT, [], [], n_last=1)]
    for end, width in ((3, 3), (9, 6), (15, 6)):
        pieces.append(lm.tree_logits(CONTEXT, TOKENS[:end], PARENTS[:end], n_last=width))
    torch.testing.assert_close(torch.cat(pieces), at_once, atol=1e-5, rtol=0)


def test_a_chain_shaped_tree_gives_the_plain_forwards_logits_bit_for_bit(master):
    """Branching 1 is a chain: the same positions, mask and kernels as logits(), so the same numbers."""
    chain, plain = LeanLlamaLM(master), LeanLlamaLM(master)
    chain.logits(CONTEXT[:-1])
    plain.logits(CONTEXT[:-1])
    drafted = [10, 11, 12]
    got = chain.tree_logits(CONTEXT, drafted, [-1, 0, 1], n_last=4)
    assert torch.equal(got, plain.logits(CONTEXT + drafted, n_last=4))


@pytest.mark.parametrize("path", [[], [1], [2, 8], [1, 6, 12], [0, 3, 9]])
def test_keeping_a_path_leaves_the_cache_a_plain_forward_of_that_path_would(master, path):
    lm = LeanLlamaLM(master)
    lm.logits(CONTEXT[:-1])
    lm.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=1)
    lm.keep_path(path)
    kept = CONTEXT + [TOKENS[node] for node in path]
    assert lm.cached == kept and lm.slots_used == len(kept)
    following = kept + [3, 14]
    torch.testing.assert_close(lm.logits(following, n_last=2), LeanLlamaLM(master).logits(following, n_last=2),
                               atol=1e-5, rtol=0)


def test_a_path_past_the_nodes_a_draft_fed_keeps_those_it_fed(master):
    """A draft never feeds its tree's leaves: the kept path stops at the last node the cache holds."""
    lm = LeanLlamaLM(master)
    lm.tree_logits(CONTEXT, [], [], n_last=1)
    lm.tree_logits(CONTEXT, TOKENS[:3], PARENTS[:3], n_last=3)
    lm.tree_logits(CONTEXT, TOKENS[:9], PARENTS[:9], n_last=6)       # depths 1 and 2 fed, depth 3 not
    lm.keep_path([2, 8, 14])
    assert lm.cached == CONTEXT + [TOKENS[2], TOKENS[8]]
    following = lm.cached + [TOKENS[14], 5]
    torch.testing.assert_close(lm.logits(following, n_last=2), LeanLlamaLM(master).logits(following, n_last=2),
                               atol=1e-5, rtol=0)


def test_the_cache_grows_under_a_tree_and_keeps_the_nodes_it_held(master, monkeypatch):
    monkeypatch.setattr(lean_llama, "FIRST_CAPACITY", 12)
    lm = LeanLlamaLM(master)
    lm.tree_logits(CONTEXT, TOKENS[:3], PARENTS[:3], n_last=3)        # 10 slots of 12
    got = lm.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=12)         # 22 slots: the cache doubles mid-tree
    assert lm.capacity >= len(CONTEXT) + len(TOKENS)
    for node, path in list(enumerate(node_paths(TOKENS, PARENTS)))[3:]:
        torch.testing.assert_close(got[node - 3], plain_last(master, CONTEXT + path), atol=1e-5, rtol=0)


def test_a_tree_out_of_step_with_the_cache_is_refused(master):
    lm = LeanLlamaLM(master)
    lm.tree_logits(CONTEXT, TOKENS[:3], PARENTS[:3], n_last=3)
    with pytest.raises(RuntimeError, match="out of step with the tree"):
        lm.tree_logits(CONTEXT, [12] + TOKENS[1:9], PARENTS[:9], n_last=6)


def test_a_path_is_kept_after_the_cache_grew_inside_a_forward(master, monkeypatch):
    """Issue 50, defect 1: past its first capacity the cache grows inside a forward, in inference mode, and
    keep_path's writes to it must be allowed (they raised 'Inplace update to inference tensor')."""
    monkeypatch.setattr(lean_llama, "FIRST_CAPACITY", 8)
    lm = LeanLlamaLM(master)
    lm.logits(CONTEXT[:-1])
    lm.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=1)                 # 22 slots of 8: grown in the forward
    lm.keep_path([1, 6, 12])
    following = lm.cached + [3]
    torch.testing.assert_close(lm.logits(following), LeanLlamaLM(master).logits(following), atol=1e-5, rtol=0)
