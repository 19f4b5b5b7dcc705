"""Theory functions against values worked out by hand."""
import pytest
import torch

from specdec_core.algorithm.theory import alpha_needed, best_k, expected_acceptance, expected_tokens_per_round, speedup


def test_alpha_is_the_overlap_of_p_and_q():
    p = torch.tensor([0.5, 0.3, 0.2])
    q = torch.tensor([0.2, 0.3, 0.5])
    assert expected_acceptance(p, q) == pytest.approx(0.2 + 0.3 + 0.2)


def test_expected_tokens_per_round():
    assert expected_tokens_per_round(0.5, 3) == pytest.approx(1.875)  # 1 + .5 + .25 + .125
    assert expected_tokens_per_round(0.0, 4) == pytest.approx(1.0)
    assert expected_tokens_per_round(1.0, 4) == 5.0


def test_speedup_matches_the_paper_formula():
    # alpha 0.8, k 4, c 0.05: (1 - 0.8^5) / (0.2 * 1.2) = 0.67232 / 0.24
    assert speedup(0.8, 4, 0.05) == pytest.approx(0.67232 / 0.24)
    # a verify forward twice as dear as a 1-token forward halves the gain at c = 0
    assert speedup(0.5, 1, 0.0, verify_cost=2.0) == pytest.approx(1.5 / 2.0)


def test_best_k_grows_with_alpha_and_shrinks_with_c():
    assert best_k(0.9, 0.01)[0] > best_k(0.5, 0.01)[0]
    assert best_k(0.8, 0.5)[0] < best_k(0.8, 0.01)[0]
    k, gain = best_k(0.6, 0.1)
    assert gain == pytest.approx(max(speedup(0.6, j, 0.1) for j in range(1, 17)))
    assert speedup(0.6, k, 0.1) == gain


def test_alpha_needed_against_values_worked_out_by_hand():
    # one draft, free: a round writes 1 + alpha, so 2x needs every draft kept
    assert alpha_needed(2.0, 0.0, k_max=1) == pytest.approx(1.0, abs=1e-5)
    # two free drafts: 1 + alpha + alpha^2 = 2 at the golden ratio's inverse
    assert alpha_needed(2.0, 0.0, k_max=2) == pytest.approx((5**0.5 - 1) / 2, abs=1e-5)
    # a glance that costs two forwards needs more: 1 + alpha + alpha^2 = 4 has no alpha below 1
    assert alpha_needed(2.0, 0.0, lambda k: 2.0, k_max=2) is None
    assert alpha_needed(1.0, 0.0) == 0.0  # the master alone is 1x, whatever the scribe


def test_alpha_needed_is_none_where_the_scribe_costs_too_much_for_any_alpha():
    # c = 1/2: (k + 1) / (k/2 + 1) < 2 for every k, however good the scribe
    assert alpha_needed(2.0, 0.5) is None
    assert alpha_needed(2.0, 0.4) is not None  # while a cheaper scribe gets there with a long line: 17 / 7.4 at k = 16


def test_alpha_needed_is_where_the_best_predicted_speedup_crosses_the_target():
    verify_cost = lambda k: 1.15 + 0.04 * (k - 3)  # noqa: E731 (a glance dearer by the position, as on a CPU)
    for c in (0.0, 0.06, 0.15):
        needed = alpha_needed(2.0, c, verify_cost)
        assert best_k(needed, c, verify_cost)[1] >= 2.0 > best_k(needed - 1e-4, c, verify_cost)[1]
    assert alpha_needed(2.0, 0.0, verify_cost) < alpha_needed(2.0, 0.06, verify_cost) < alpha_needed(2.0, 0.15, verify_cost)
