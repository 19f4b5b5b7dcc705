"""The iron rule page's pure pieces: figure builders on hand-built numbers, and the one-position data."""
import numpy as np
import pandas as pd
import pytest

from specdec_core.decoding import one_position
from ui.iron_rule import plots as plots
from ui.iron_rule import runs as data

LABELS = ["月", "光", "山"]
P, Q = [0.5, 0.3, 0.2], [0.2, 0.2, 0.6]
WORDS = {key: key for key in ("p", "q", "overlap", "axis", "excess", "r", "sealed", "corrected", "rule", "alone",
                              "x", "y", "written")}


def bars(figure, name):
    return [trace for trace in figure.data if trace.name == name and trace.type == "bar"]


def test_overlap_figure_shades_min_p_q_in_both_bars():
    figure = plots.overlap_figure(LABELS, P, Q, WORDS)
    shaded = bars(figure, "overlap")
    assert len(shaded) == 2 and {t.offsetgroup for t in shaded} == {"p", "q"}
    assert list(shaded[0].y) == pytest.approx([0.2, 0.2, 0.2])  # their sum, 0.6, is alpha
    (p_bar,) = bars(figure, "p")
    assert [b + h for b, h in zip(p_bar.base, p_bar.y)] == pytest.approx(P)  # the bar still reaches p
    (q_bar,) = bars(figure, "q")
    assert [b + h for b, h in zip(q_bar.base, q_bar.y)] == pytest.approx(Q)


def test_paths_stack_to_p():
    sealed = np.minimum(P, Q)
    corrected = np.maximum(0.0, np.subtract(P, Q))
    figure = plots.paths_figure(LABELS, sealed, corrected, P, WORDS)
    assert figure.layout.barmode == "stack"
    total = np.add(bars(figure, "sealed")[0].y, bars(figure, "corrected")[0].y)
    assert total == pytest.approx(P)


def test_residual_convergence_and_histogram_carry_their_numbers():
    residual = plots.residual_figure(LABELS, [0.3, 0.1, 0.0], [0.75, 0.25, 0.0], WORDS)
    assert list(bars(residual, "r")[0].y) == [0.75, 0.25, 0.0]
    convergence = plots.convergence_figure([10, 100, 1000], [0.3, 0.1, 0.03], [0.3, 0.1, 0.03], WORDS)
    assert convergence.layout.xaxis.type == "log" and [t.name for t in convergence.data] == ["alone", "rule"]
    histogram = plots.histogram_figure(LABELS, [0.49, 0.31, 0.2], P, Q, WORDS)
    assert [t.name for t in histogram.data] == ["written", "p", "q"]
    assert list(histogram.data[0].x) == LABELS


def test_toy_table_gives_the_normalised_weights():
    dists = one_position.distributions(data.toy_position(data.TOY))
    assert dists.p == pytest.approx(data.TOY["p"] / data.TOY["p"].sum(), abs=1e-6)
    assert dists.q == pytest.approx(data.TOY["q"] / data.TOY["q"].sum(), abs=1e-6)
    assert dists.alpha == pytest.approx(np.minimum(dists.p, dists.q).sum(), abs=1e-6)
    assert dists.sealed + dists.corrected == pytest.approx(dists.p, abs=1e-6)  # the two paths give p


@pytest.mark.parametrize(
    "change, key",
    [
        ({"p": [-1, 1, 1, 1, 1]}, "toy_negative"),
        ({"q": [0, 0, 0, 0, 0]}, "toy_all_zero"),
        ({"p": ["x", 1, 1, 1, 1]}, "toy_not_number"),
        ({"p": [None, 1, 1, 1, 1]}, "toy_empty"),
        ({"token": ["月", "月", "山", "水", "風"]}, "toy_repeat"),
        ({"token": ["月", " ", "山", "水", "風"]}, "toy_no_label"),
    ],
)
def test_bad_toy_tables_are_named(change, key):
    table = data.TOY.copy().astype(object)
    for column, values in change.items():
        table[column] = values
    with pytest.raises(data.ToyTableError) as refused:
        data.toy_position(table)
    assert refused.value.key == key


def test_a_one_row_table_is_too_small():
    with pytest.raises(data.ToyTableError, match="toy_count"):
        data.toy_position(pd.DataFrame({"token": ["月"], "p": [1.0], "q": [1.0]}))


def test_the_rule_reproduces_p_and_a_broken_one_does_not():
    position = data.toy_position(data.TOY)
    p = one_position.distributions(position).p
    exact = one_position.run_rule(position, "exact", 20_000, seed=1)
    broken = one_position.run_rule(position, "accept-all", 20_000, seed=1)
    assert one_position.tv_curve(exact.written, p)[1][-1] < 0.02
    assert one_position.tv_curve(broken.written, p)[1][-1] > 0.25  # it writes q: TV(p, q) = 0.32
    assert exact.sealed.mean() == pytest.approx(0.68, abs=0.02)  # alpha of the toy table


def test_same_seed_same_draws():
    position = data.toy_position(data.TOY)
    first, again = one_position.run_rule(position, "exact", 3_000, seed=7), one_position.run_rule(position, "exact", 3_000, seed=7)
    assert (first.written == again.written).all() and (first.alone == again.alone).all()


def test_large_vocabularies_show_top_tokens_and_pool_the_rest():
    rng = np.random.default_rng(0)
    p, q = rng.dirichlet(np.ones(100)), rng.dirichlet(np.ones(100))
    dists = one_position.Distributions(p, q, float(np.minimum(p, q).sum()), p, np.ones(100))
    ids = one_position.shown_tokens(dists)
    assert len(ids) < 100 and (np.diff(p[ids]) <= 0).all()
    shown = one_position.collapse(p, ids)
    assert len(shown) == len(ids) + 1 and sum(shown) == pytest.approx(1.0)
    assert list(one_position.cells(np.array([ids[0], ids[2], 99 if 99 not in ids else -1]), ids, 100)) == [0, 2, len(ids)]
    assert data.max_draws(16) == data.MAX_DRAWS and data.max_draws(49_152) == data.MIN_DRAWS


def test_a_rejection_only_bug_is_off_p_by_at_most_one_minus_alpha():
    """The bound the page's note rests on: accept-all writes q, resample-p writes min(p, q) + (1 - alpha) p;
    both are within 1 - alpha of p in TV, so a near-perfect scribe hides them."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        p, q = rng.dirichlet(np.ones(8) * 0.5), rng.dirichlet(np.ones(8) * 0.5)
        alpha = np.minimum(p, q).sum()
        outputs = {"accept-all": q, "resample-p": np.minimum(p, q) + (1 - alpha) * p}
        assert set(outputs) == set(data.BIAS_AT_MOST_REJECTION)
        for out in outputs.values():
            assert 0.5 * np.abs(out - p).sum() <= 1 - alpha + 1e-12


def test_the_note_comes_only_for_a_rejection_only_bug_within_the_noise():
    assert data.hidden_by_good_scribe("accept-all", 0.99, 0.021, 0.024) == pytest.approx(0.01)
    assert data.hidden_by_good_scribe("accept-all", 0.68, 0.32, 0.01) is None  # plainly biased: no excuse offered
    assert data.hidden_by_good_scribe("exact", 0.99, 0.021, 0.024) is None
    assert data.hidden_by_good_scribe("exact-match", 0.99, 0.021, 0.024) is None  # biased even when q = p
