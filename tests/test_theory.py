"""Theory functions against values worked out by hand."""
import pytest
import torch

from specdec_core.algorithm.theory import best_k, expected_acceptance, expected_tokens_per_round, speedup


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
