"""The evaluation's alpha and its standard error, with answers as clusters."""
import math

import pytest

from training.smollm2.evaluate import clustered_mean


def test_the_mean_weights_every_position_alike():
    mean, _ = clustered_mean([1.0, 6.0], [2, 8])   # rates 0.5 and 0.75 over 2 and 8 positions
    assert mean == pytest.approx(0.7)


def test_answers_at_one_rate_have_no_spread():
    mean, error = clustered_mean([2.0, 5.0, 1.0], [4, 10, 2])
    assert mean == pytest.approx(0.5) and error == pytest.approx(0.0)


def test_the_error_by_hand_and_it_falls_with_more_answers():
    mean, error = clustered_mean([1.0, 3.0], [2, 2])   # residuals -1 and +1: sqrt(2 / 1 * 2) / 4
    assert (mean, error) == (pytest.approx(1.0), pytest.approx(0.5))
    _, more = clustered_mean([1.0, 3.0] * 8, [2, 2] * 8)
    assert more < error / 3


def test_one_answer_has_no_error_to_give():
    assert math.isnan(clustered_mean([3.0], [4])[1])
