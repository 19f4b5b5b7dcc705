"""Verifying a drafted tree on hand-built distributions: forced outcomes, the chain as a tree, greedy, then the output law."""
import numpy as np
import pytest
import torch

from specdec_core.algorithm.rules import CHAIN_RULES, EXPLANATIONS, RULES
from specdec_core.algorithm.sampling import sample
from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.algorithm.tree_verify import tree_verify
from specdec_core.algorithm.verify import verify
from ui.shared.texts import TEXT as COMMON


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def seed_whose_uniforms(condition, n: int) -> int:
    """A seed whose first n uniforms (the u of nodes 0..n-1, drawn first by tree_verify) satisfy condition."""
    return next(s for s in range(10_000) if condition(torch.rand(n, generator=gen(s)).tolist()))


def one_hot(token: int, vocab: int = 3) -> list[float]:
    return [1.0 if i == token else 0.0 for i in range(vocab)]


# Two siblings under the root. The first sibling is token 0: min(1, 0.1/0.5) = 0.2. If it is rejected the
# residual is norm(max(0, p - q)) = [0, 0.3, 0.1] / 0.4 = [0, 0.75, 0.25]; against it token 2 scores
# 0.25/0.3 = 5/6 (against p itself it would score min(1, 0.4/0.3) = 1). After both are rejected the
# residual is norm(max(0, [0, 0.75, 0.25] - q)) = [0, 1, 0].
ROOT_P, ROOT_Q = [0.1, 0.5, 0.4], [0.5, 0.2, 0.3]


def two_siblings(tokens, rule="exact", seed=0):
    p = torch.tensor([[ROOT_P, one_hot(2), one_hot(0)]])  # (1, N+1=3, V=3): after node 0 surely 2, after node 1 surely 0
    q = torch.tensor([[ROOT_Q, [0.0] * 3, [0.0] * 3]])
    return tree_verify(p, q, torch.tensor([tokens]), torch.tensor([-1, -1]), gen(seed), RULES[rule])


def test_the_first_sibling_is_accepted_when_u_is_below_p_over_q_and_the_bonus_follows_it():
    seed = seed_whose_uniforms(lambda u: u[0] < 0.2, 2)
    verdict = two_siblings([0, 2], seed=seed)
    assert verdict.accept_prob[0, 0].item() == pytest.approx(0.2) and verdict.uniforms[0, 0].item() < 0.2
    assert verdict.path.tolist() == [[0, -1]] and verdict.n_accepted.item() == 1
    assert verdict.tried.tolist() == [[True, False]]  # the second sibling is never tried
    assert verdict.next_token.item() == 2  # the bonus from p after node 0


def test_the_second_sibling_is_tested_against_the_residual_the_first_left():
    seed = seed_whose_uniforms(lambda u: u[0] >= 0.2 and u[1] < 5 / 6, 2)
    verdict = two_siblings([0, 2], seed=seed)
    assert verdict.accepted.tolist() == [[False, True]]
    assert verdict.r_x[0].tolist() == pytest.approx([0.1, 0.25])
    assert verdict.accept_prob[0].tolist() == pytest.approx([0.2, 5 / 6])
    assert verdict.path.tolist() == [[1, -1]] and verdict.next_token.item() == 0  # the bonus after node 1


def test_when_every_sibling_is_rejected_the_token_comes_from_the_last_residual():
    seed = seed_whose_uniforms(lambda u: u[0] >= 0.2 and u[1] >= 5 / 6, 2)
    verdict = two_siblings([0, 2], seed=seed)
    assert verdict.n_accepted.item() == 0 and verdict.tried.tolist() == [[True, True]]
    assert verdict.next_dist[0].tolist() == pytest.approx([0.0, 1.0, 0.0])
    assert verdict.next_token.item() == 1
    broken = two_siblings([0, 2], "tree-no-residual", seed)  # against p itself token 2 scores 1: accepted
    assert broken.accept_prob[0].tolist() == pytest.approx([0.2, 1.0]) and broken.path.tolist() == [[1, -1]]


def test_a_twin_of_a_rejected_sibling_is_rejected_surely_but_the_broken_rule_gives_it_a_second_chance():
    seed = seed_whose_uniforms(lambda u: 0.2 <= u[0] and u[1] < 0.2, 2)  # drawn with replacement: twins happen
    exact, broken = two_siblings([0, 0], seed=seed), two_siblings([0, 0], "tree-no-residual", seed)
    assert exact.accept_prob[0].tolist() == pytest.approx([0.2, 0.0]) and exact.n_accepted.item() == 0
    assert broken.accept_prob[0].tolist() == pytest.approx([0.2, 0.2]) and broken.path.tolist() == [[1, -1]]


def test_the_broken_rule_draws_its_correction_from_the_plain_residual_of_p_and_q():
    seed = seed_whose_uniforms(lambda u: u[0] >= 0.2 and u[1] >= 0.2, 2)
    exact, broken = two_siblings([0, 0], seed=seed), two_siblings([0, 0], "tree-no-residual", seed)
    assert exact.next_dist[0].tolist() == pytest.approx([0.0, 1.0, 0.0])  # norm(max(0, r1 - q))
    assert broken.n_accepted.item() == 0 and broken.next_dist[0].tolist() == pytest.approx([0.0, 0.75, 0.25])


def test_the_walk_descends_into_an_accepted_sibling_and_tries_only_its_children():
    # root: node 0 (token 1, surely rejected), node 1 (token 0, surely accepted); under node 1: node 2, node 3
    p = torch.tensor([[[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [0.5, 0.5], [0.5, 0.5]]])  # (1, 5, 2)
    q = torch.tensor([[[0.5, 0.5], [0.5, 0.5], [0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]])
    verdict = tree_verify(p, q, torch.tensor([[1, 0, 0, 1]]), torch.tensor([-1, -1, 1, 1]), gen())
    # under node 1 p = [0, 1]: node 2 (token 0) scores 0, the residual stays [0, 1] and node 3 (token 1) scores 1
    assert verdict.tried.tolist() == [[True, True, True, True]]
    assert verdict.accepted.tolist() == [[False, True, False, True]]
    assert verdict.path.tolist() == [[1, 3, -1, -1]] and verdict.n_accepted.item() == 2


def test_nodes_under_a_rejected_sibling_are_never_tried():
    p = torch.tensor([[[0.0, 1.0], [0.5, 0.5], [0.5, 0.5]]])
    q = torch.tensor([[[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]])
    verdict = tree_verify(p, q, torch.tensor([[0, 1]]), torch.tensor([-1, 0]), gen())
    assert verdict.tried.tolist() == [[True, False]] and verdict.n_accepted.item() == 0
    assert verdict.next_token.item() == 1


def test_an_empty_tree_samples_the_target():
    p = torch.tensor([[[0.0, 0.0, 1.0]]])
    verdict = tree_verify(p, torch.zeros_like(p), torch.zeros((1, 0), dtype=torch.long), torch.zeros(0, dtype=torch.long), gen())
    assert verdict.n_accepted.item() == 0 and verdict.next_token.item() == 2


def test_a_parent_listed_after_its_child_is_refused():
    p = torch.full((1, 3, 2), 0.5)
    with pytest.raises(ValueError, match="listed before it"):
        tree_verify(p, p, torch.tensor([[0, 1]]), torch.tensor([1, -1]), gen())


@pytest.mark.parametrize("rule", ["exact", "accept-all", "exact-match", "resample-p", "tree-no-residual"])
def test_a_chain_is_a_tree_with_branching_one_and_gets_verifys_verdict_from_the_same_seed(rule):
    batch, k, vocab = 256, 4, 5
    logits = torch.randn(batch, k + 1, vocab, generator=gen(1))
    p = torch.softmax(logits, -1)
    q = torch.softmax(logits[:, :k] + torch.randn(batch, k, vocab, generator=gen(2)), -1)  # near p: long accepts too
    draft = sample(q, gen(3))  # (B, k)
    chain = verify(p, q, draft, gen(4), RULES[rule])
    tree = tree_verify(p, torch.cat([q, torch.zeros_like(p[:, :1])], 1), draft, torch.arange(k) - 1, gen(4), RULES[rule])
    assert torch.equal(tree.n_accepted, chain.n_accepted) and torch.equal(tree.next_token, chain.next_token)
    assert torch.equal(tree.uniforms, chain.uniforms)
    assert torch.allclose(tree.next_dist, chain.next_dist, atol=1e-6)  # verify renormalises p for the bonus: an ulp apart
    tried = torch.arange(k) <= chain.n_accepted[:, None]  # (B, k) the positions up to the first rejection
    assert torch.equal(tree.tried, tried)
    assert torch.equal(tree.accept_prob[tried], chain.accept_prob[tried])
    assert rule == "accept-all" or set(chain.n_accepted.tolist()) == set(range(k + 1))  # every length occurred


def greedy_tree():
    """nodes: 0 = 2 (root), 1 = 1 (root), 2 = 0 (under 0), 3 = 2 (root, twin of 0), 4 = 1 (under 3), 5 = 1 (under 4).

    The argmax is 2 at the root, 0 after node 0, 1 after node 3 and 1 after node 4: two paths match, [0, 2]
    and, through the twin drawn later, the longer [3, 4, 5].
    """
    tokens = torch.tensor([[2, 1, 0, 2, 1, 1]])
    parents = torch.tensor([-1, -1, 0, -1, 3, 4])
    argmax = [2, 0, 1, 0, 1, 1, 0]  # at the root, then after each node
    vocab = 3
    p = torch.tensor([[[0.1, 0.1, 0.1] for _ in argmax]])
    for row, best in enumerate(argmax):
        p[0, row, best] = 0.8
    return p, torch.full_like(p, 1 / vocab), tokens, parents


def test_greedy_takes_the_longest_path_that_matches_the_argmax_then_the_argmax_after_it():
    p, q, tokens, parents = greedy_tree()
    verdict = tree_verify(p, q, tokens, parents, gen(), greedy=True)
    assert verdict.path.tolist() == [[3, 4, 5, -1, -1, -1]] and verdict.n_accepted.item() == 3
    assert verdict.next_token.item() == 0  # the argmax after node 5
    assert verdict.accepted.tolist() == [[False, False, False, True, True, True]]
    assert verdict.tried.tolist() == [[True, True, False, True, True, True]]  # siblings under the root, 3 and 4


def test_greedy_without_a_match_writes_the_targets_argmax():
    p, q, tokens, parents = greedy_tree()
    verdict = tree_verify(p, q, torch.tensor([[0, 1, 0, 0, 1, 1]]), parents, gen(), greedy=True)
    assert verdict.n_accepted.item() == 0 and verdict.next_token.item() == 2


def test_greedy_equals_sampling_against_the_argmax_when_siblings_differ():
    """With one-hot p (what temperature 0 gives) the exact walk accepts exactly the sibling that is the argmax."""
    batch, vocab = 512, 4
    parents = torch.tensor([-1, -1, -1, 0, 0, 1, 3])
    p = torch.nn.functional.one_hot(torch.randint(vocab, (batch, 8), generator=gen(1)), vocab).float()
    q = torch.softmax(torch.randn(batch, 8, vocab, generator=gen(2)), -1)
    distinct = torch.stack([torch.randperm(vocab, generator=gen(3 + b)) for b in range(batch)])  # (B, V)
    tokens = torch.cat([distinct[:, :3], distinct[:, 1:3], distinct[:, :1], distinct[:, 2:3]], 1)  # siblings differ
    greedy = tree_verify(p, q, tokens, parents, gen(4), greedy=True)
    walked = tree_verify(p, q, tokens, parents, gen(4))
    assert torch.equal(greedy.path, walked.path) and torch.equal(greedy.next_token, walked.next_token)
    assert set(greedy.n_accepted.tolist()) == {0, 1, 2, 3}


def test_the_tree_rule_is_selectable_and_explained_but_chain_pages_skip_it():
    assert RULES["tree-no-residual"].tree_only and not any(rule.tree_only for rule in CHAIN_RULES.values())
    assert set(RULES) - set(CHAIN_RULES) == {"tree-no-residual"}
    for language in ("zh", "en"):
        assert EXPLANATIONS["tree-no-residual"][language] and COMMON.table["rule:tree-no-residual"][language]


# The output law: whatever q, the tokens a tree writes follow p. q is far from p (alpha = 0.4 at the root),
# so siblings are rejected often and the residual recursion is exercised at every sibling.
P1 = torch.tensor([0.35, 0.25, 0.15, 0.12, 0.08, 0.05], dtype=torch.float64)
Q1 = torch.tensor([0.02, 0.03, 0.10, 0.15, 0.30, 0.40], dtype=torch.float64)
P2 = torch.softmax(1.5 * torch.randn(6, 6, generator=gen(7), dtype=torch.float64), -1)  # p(x2 | x1)
Q2 = torch.softmax(1.5 * torch.randn(6, 6, generator=gen(8), dtype=torch.float64), -1)  # q(x2 | x1)
TRIALS = 200_000


def first_tokens(verdict, tokens) -> torch.Tensor:
    """The first token each row writes: the first accepted node's, or the token drawn at the root."""
    first_node = verdict.path[:, 0].clamp(min=0)
    return torch.where(verdict.n_accepted > 0, tokens.gather(1, first_node[:, None])[:, 0], verdict.next_token)


def one_level(p_root, q_root, siblings: int, rule: str, g) -> torch.Tensor:
    """Draw `siblings` tokens i.i.d. from q_root (B, V) under each row's root, verify, and return the first token."""
    batch, vocab = q_root.shape
    tokens = sample(q_root[:, None].expand(batch, siblings, vocab), g)  # (B, m)
    p = torch.cat([p_root[:, None], torch.full((batch, siblings, vocab), 1 / vocab, dtype=p_root.dtype)], 1)
    q = torch.cat([q_root[:, None], torch.zeros((batch, siblings, vocab), dtype=q_root.dtype)], 1)
    verdict = tree_verify(p, q, tokens, torch.full((siblings,), -1), g, RULES[rule])
    return first_tokens(verdict, tokens)


@pytest.mark.parametrize("siblings", [2, 3])
def test_the_first_token_follows_p_and_the_broken_rule_is_caught(siblings):
    roots = (P1.expand(TRIALS, 6), Q1.expand(TRIALS, 6))
    exact = np.bincount(one_level(*roots, siblings, "exact", gen(10)).numpy(), minlength=6)
    broken = np.bincount(one_level(*roots, siblings, "tree-no-residual", gen(10)).numpy(), minlength=6)
    assert goodness_of_fit(exact, P1.numpy()).p_value > 0.001
    assert goodness_of_fit(broken, P1.numpy()).p_value < 1e-6


def two_two_tree_pairs(rule: str, seed: int) -> np.ndarray:
    """The first two tokens of TRIALS rounds on a 2-2 tree, as (x1, x2) cell counts over 36 cells.

    nodes 0, 1 under the root drawn from Q1; nodes 2, 3 under node 0 and 4, 5 under node 1 from Q2[their parent].
    Where the walk ends at the root, the second token is the next round's first: a fresh level drawn under x1.
    """
    g = gen(seed)
    first = sample(Q1.expand(TRIALS, 2, 6), g)  # (B, 2)
    second = torch.cat([sample(Q2[first[:, i]][:, None].expand(TRIALS, 2, 6), g) for i in (0, 1)], 1)  # (B, 4)
    tokens = torch.cat([first, second], 1)  # (B, 6)
    leaves = torch.full((TRIALS, 4, 6), 1 / 6, dtype=torch.float64)  # p after a leaf: only the bonus reads it
    p = torch.cat([P1.expand(TRIALS, 1, 6), P2[first], leaves], 1)  # (B, 7, 6)
    q = torch.cat([Q1.expand(TRIALS, 1, 6), Q2[first], torch.zeros_like(leaves)], 1)
    verdict = tree_verify(p, q, tokens, torch.tensor([-1, -1, 0, 0, 1, 1]), g, RULES[rule])
    x1 = first_tokens(verdict, tokens)
    second_node = verdict.path[:, 1].clamp(min=0)
    next_round = one_level(P2[x1], Q2[x1], 2, rule, g)
    x2 = torch.where(verdict.n_accepted >= 2, tokens.gather(1, second_node[:, None])[:, 0],
                     torch.where(verdict.n_accepted == 1, verdict.next_token, next_round))
    return np.bincount((6 * x1 + x2).numpy(), minlength=36)


def test_two_levels_deep_the_first_two_tokens_follow_p_and_the_broken_rule_is_caught():
    joint = (P1[:, None] * P2).reshape(-1).numpy()  # p(x1) p(x2 | x1)
    assert goodness_of_fit(two_two_tree_pairs("exact", 20), joint).p_value > 0.001
    assert goodness_of_fit(two_two_tree_pairs("tree-no-residual", 20), joint).p_value < 1e-6
