"""The verification rule on hand-built distributions: forced outcomes, then its output law."""
import numpy as np
import pytest
import torch

from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.sampling import sample
from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.algorithm.verify import residual, verify


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def batch(*rows):
    return torch.tensor(rows, dtype=torch.float32)


def test_identical_p_and_q_accept_everything_and_add_a_bonus_from_p():
    p = batch([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [0.0, 0.0, 1.0]])  # (1, k+1=3, V)
    q = p[:, :2]
    verdict = verify(p, q, torch.tensor([[0, 2]]), gen())
    assert verdict.n_accepted.item() == 2
    assert verdict.accept_prob.tolist() == [[1.0, 1.0]]
    assert verdict.next_token.item() == 2  # the bonus comes from p at k+1, all mass on token 2


def test_a_token_the_target_never_writes_is_rejected_and_replaced_from_the_residual():
    p = batch([[0.0, 1.0, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    q = batch([[1.0, 0.0, 0.0]])
    verdict = verify(p, q, torch.tensor([[0]]), gen())
    assert verdict.n_accepted.item() == 0
    assert verdict.accept_prob.item() == 0.0
    assert verdict.next_token.item() == 1
    assert verdict.next_dist.tolist() == [[0.0, 1.0, 0.0]]


def test_acceptance_probability_is_min_one_ratio_and_compared_with_u():
    p = batch([[0.2, 0.8], [0.5, 0.5]])
    q = batch([[0.8, 0.2]])
    verdict = verify(p, q, torch.tensor([[0]]), gen(3))
    assert verdict.accept_prob.item() == pytest.approx(0.25)
    assert verdict.accepted.item() == (verdict.uniforms.item() < 0.25)


def test_only_the_prefix_before_the_first_rejection_is_kept():
    p = batch([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    q = batch([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
    verdict = verify(p, q, torch.tensor([[0, 0, 0]]), gen())
    assert verdict.accepted.tolist() == [[True, False, True]]  # position 3 passes, but is moot
    assert verdict.n_accepted.item() == 1
    assert verdict.next_token.item() == 1


def test_residual_is_normalised_positive_part():
    p, q = torch.tensor([0.5, 0.3, 0.2]), torch.tensor([0.2, 0.6, 0.2])
    assert torch.allclose(residual(p, q), torch.tensor([1.0, 0.0, 0.0]))
    assert torch.allclose(residual(p, torch.zeros(3)), p)


def test_undrafted_positions_fall_through_to_p():
    p = batch([[0.5, 0.5], [0.0, 1.0], [1.0, 0.0]])
    q = batch([[0.5, 0.5], [1.0, 0.0]])
    verdict = verify(p, q, torch.tensor([[0, 0]]), gen(), draft_len=torch.tensor([1]))
    assert verdict.n_accepted.item() == 1
    assert verdict.next_token.item() == 1  # drawn from p at position 2, not its residual with q


def test_no_draft_at_all_samples_the_target():
    p = batch([[0.0, 0.0, 1.0]])
    verdict = verify(p, torch.zeros((1, 0, 3)), torch.zeros((1, 0), dtype=torch.long), gen())
    assert verdict.n_accepted.item() == 0 and verdict.next_token.item() == 2


def test_same_seed_same_verdict():
    p = torch.softmax(torch.randn(64, 4, 9, generator=gen(1)), -1)
    q = torch.softmax(torch.randn(64, 3, 9, generator=gen(2)), -1)
    draft = sample(q, gen(3))
    first, second = verify(p, q, draft, gen(5)), verify(p, q, draft, gen(5))
    assert torch.equal(first.n_accepted, second.n_accepted) and torch.equal(first.next_token, second.next_token)


# The output law: the first emitted token must follow p exactly, whatever q is.
P1 = torch.tensor([0.30, 0.25, 0.20, 0.10, 0.08, 0.05, 0.02])
Q1 = torch.tensor([0.05, 0.10, 0.40, 0.25, 0.05, 0.05, 0.10])
N = 40_000


def first_tokens(rule_name: str, seed: int = 0) -> np.ndarray:
    g = gen(seed)
    rule = RULES[rule_name]
    p = torch.stack([P1, torch.full((7,), 1 / 7)]).expand(N, 2, 7)
    q = Q1.expand(N, 1, 7)
    draft = q[:, 0].argmax(-1, keepdim=True) if rule.draft_greedy else sample(q, g)  # (N, 1)
    verdict = verify(p, q, draft, g, rule)
    first = torch.where(verdict.n_accepted > 0, draft[:, 0], verdict.next_token)
    return np.bincount(first.numpy(), minlength=7)


def test_exact_rule_reproduces_p():
    fit = goodness_of_fit(first_tokens("exact"), P1.double().numpy())
    assert fit.p_value > 0.01
    assert fit.tv_ci[0] <= 0.01


@pytest.mark.parametrize("rule", ["accept-all", "exact-match", "resample-p", "greedy-soft-q"])
def test_broken_rules_do_not_reproduce_p(rule):
    fit = goodness_of_fit(first_tokens(rule), P1.double().numpy())
    assert fit.p_value < 1e-6
    assert fit.tv_ci[0] > 0.02
