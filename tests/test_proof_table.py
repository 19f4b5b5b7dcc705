"""The proof's verdicts table (#36): each TV stands beside what it can be compared with, and the 95%
interval beside the number it is an interval for."""
import numpy as np
import pytest

from specdec_core.algorithm.stats import goodness_of_fit
from ui.proof.results import verdict_row


@pytest.fixture(autouse=True)
def english(in_english):
    """These words are read outside a page run: in English."""


def test_the_number_beside_the_interval_lies_inside_it():
    cells = np.full(300, 1 / 300)  # many thin cells: the samples' TV sits above the interval for the true TV
    joint = goodness_of_fit(np.random.default_rng(3).multinomial(3_000, cells), cells)
    assert joint.tv > joint.tv_ci[1]
    row = verdict_row("master and scribe", joint, joint)
    names = list(row)
    interval = names.index("95% interval of the bias-less TV")
    beside = names[interval - 1]
    assert beside == "TV less sampling bias"
    low, high = (float(x) for x in row[names[interval]].strip("[]").split(", "))
    assert low <= float(row[beside]) <= high
    assert float(row["TV of the samples (first two)"]) > high  # shown too, but never beside the interval
    assert names[names.index("TV of the samples (first two)") + 1] == "TV of exact sampling at this size"
