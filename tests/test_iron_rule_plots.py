"""The iron rule page's pure pieces: figure builders on hand-built numbers, and the one-position data."""
import numpy as np
import pandas as pd
import pytest

from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.decoding import one_position
from ui.iron_rule import plots as plots
from ui.iron_rule import runs as data

LABELS = ["月", "光", "山"]
P, Q = [0.5, 0.3, 0.2], [0.2, 0.2, 0.6]
WORDS = {key: key for key in ("p", "q", "overlap", "axis", "excess", "r", "sealed", "corrected", "rule", "alone",
                              "x", "y", "written", "first", "second", "brush")}


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
    """The bound the page's note rests on: accept-all writes q, resample-p writes min(p, q) + (1 - alpha) p,
    tree-no-residual with two variants min(p, q) + (1 - alpha)(min(p, q) + (1 - alpha) r1); all are within
    1 - alpha of p in TV, so a near-perfect scribe hides them."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        p, q = rng.dirichlet(np.ones(8) * 0.5), rng.dirichlet(np.ones(8) * 0.5)
        alpha = np.minimum(p, q).sum()
        r1 = np.maximum(p - q, 0) / max(1 - alpha, 1e-300)
        # tree-no-residual, two variants: the second is tested against p, and both rejected draws from r1
        second_against_p = np.minimum(p, q) + (1 - alpha) * r1
        outputs = {"accept-all": q, "resample-p": np.minimum(p, q) + (1 - alpha) * p,
                   "tree-no-residual": np.minimum(p, q) + (1 - alpha) * second_against_p}
        assert set(outputs) == set(data.BIAS_AT_MOST_REJECTION)
        for out in outputs.values():
            assert 0.5 * np.abs(out - p).sum() <= 1 - alpha + 1e-12


def test_the_note_comes_only_for_a_rejection_only_bug_within_the_noise():
    assert data.hidden_by_good_scribe("accept-all", 0.99, 0.021, 0.024) == pytest.approx(0.01)
    assert data.hidden_by_good_scribe("accept-all", 0.68, 0.32, 0.01) is None  # plainly biased: no excuse offered
    assert data.hidden_by_good_scribe("exact", 0.99, 0.021, 0.024) is None
    assert data.hidden_by_good_scribe("exact-match", 0.99, 0.021, 0.024) is None  # biased even when q = p


# Two variants on the page's toy table: p 月 .40 光 .25 山 .15 水 .12 風 .08, q 月 .15 光 .40 山 .10 水 .10 風 .25.
# alpha = .68, r1 = (.25, 0, .05, .02, 0) / .32; alpha2 = sum min(r1, q) = .3125; r2 = (.63125, 0, .05625, 0, 0) / .6875.
# tree-no-residual writes min(p, q) + .32 (min(p, q) + .32 r1) = (.278, .33, .148, .1384, .1056): TV .124 from p.


def test_two_variant_paths_add_up_to_p_on_the_toy_table_and_anywhere():
    paths = one_position.two_variant_paths(one_position.distributions(data.toy_position(data.TOY)))
    assert paths.alpha2 == pytest.approx(0.3125, abs=1e-5)  # p and q come through float32 softmax
    assert paths.r2 == pytest.approx([0.63125 / 0.6875, 0, 0.05625 / 0.6875, 0, 0], abs=1e-5)
    assert paths.second == pytest.approx(0.32 * np.array([0.15, 0, 0.1, 0.0625, 0]), abs=1e-5)  # (1 - alpha) min(r1, q)
    rng = np.random.default_rng(1)
    for _ in range(100):
        p, q = rng.dirichlet(np.ones(6) * 0.5), rng.dirichlet(np.ones(6) * 0.5)
        dists = one_position.Distributions(p, q, float(np.minimum(p, q).sum()),
                                           np.maximum(p - q, 0) / np.maximum(p - q, 0).sum(), np.minimum(1.0, p / q))
        paths = one_position.two_variant_paths(dists)
        assert paths.first + paths.second + paths.brush == pytest.approx(p, abs=1e-9)


def test_two_variants_write_p_through_the_pages_run_and_tree_no_residual_does_not():
    """The page's own run (cached_draws, two variants, through tree_verify), 20,000 runs with a fixed seed."""
    position = data.toy_position(data.TOY)
    dists = one_position.distributions(position)
    exact = data.cached_draws(position, "exact", 20_000, 5, variants=2)
    broken = data.cached_draws(position, "tree-no-residual", 20_000, 5, variants=2)
    counts = {name: np.bincount(draws.written, minlength=5) for name, draws in (("exact", exact), ("broken", broken))}
    assert goodness_of_fit(counts["exact"], dists.p).p_value > 0.001
    assert goodness_of_fit(counts["broken"], dists.p).p_value < 1e-6
    assert one_position.tv_curve(exact.written, dists.p)[1][-1] < 0.02
    assert one_position.tv_curve(broken.written, dists.p)[1][-1] > 0.09  # .124 by the law above
    # how often each way was taken: the first kept alpha, the second (1 - alpha) alpha2, the brush the rest
    shares = [(exact.variant == kept).mean() for kept in (1, 2, 0)]
    assert shares == pytest.approx([0.68, 0.32 * 0.3125, 0.32 * 0.6875], abs=0.015)
    assert (exact.sealed == (exact.variant > 0)).all() and (exact.alone == broken.alone).all()


def test_a_twin_of_a_rejected_first_variant_is_never_kept_but_the_broken_rule_keeps_it():
    """q writes only 月, so both variants are 月 (drawn with replacement). p = (.5, .5): the first is kept with
    chance .5; after its rejection r1 = (0, 1) leaves 月 nothing, so the twin is surely rejected and the master
    writes 光. Tested against p again, the twin is kept half the time: 月 comes out 75% of the time."""
    position = data.toy_position(pd.DataFrame({"token": ["月", "光"], "p": [1.0, 1.0], "q": [1.0, 0.0]}))
    exact = one_position.run_two_variants(position, "exact", 4_000, seed=2)
    broken = one_position.run_two_variants(position, "tree-no-residual", 4_000, seed=2)
    assert not (exact.variant == 2).any() and (exact.written[exact.variant == 0] == 1).all()
    assert (broken.variant == 2).mean() == pytest.approx(0.25, abs=0.03)
    assert (exact.written == 0).mean() == pytest.approx(0.5, abs=0.03)
    assert (broken.written == 0).mean() == pytest.approx(0.75, abs=0.03)


def test_two_variants_keep_the_same_seed_same_draws_and_refuse_a_drafting_rule():
    position = data.toy_position(data.TOY)
    first, again = (one_position.run_two_variants(position, "exact", 3_000, seed=7) for _ in range(2))
    assert (first.written == again.written).all() and (first.variant == again.variant).all()
    with pytest.raises(ValueError, match="how the draft draws"):
        one_position.run_two_variants(position, "raw-q", 100, seed=7)


def test_two_variant_paths_stack_to_p():
    first, second, brush = np.array([0.2, 0.2, 0.2]), np.array([0.15, 0.05, 0.0]), np.array([0.15, 0.05, 0.0])
    figure = plots.two_variant_paths_figure(LABELS, first, second, brush, P, WORDS)
    assert figure.layout.barmode == "stack" and [t.name for t in figure.data] == ["first", "second", "brush", "p"]
    assert np.add(np.add(figure.data[0].y, figure.data[1].y), figure.data[2].y) == pytest.approx(P)


def test_two_variants_are_verified_by_tree_verify_as_two_children_of_one_root(monkeypatch):
    """One mechanism, one place: the page's two-variant draws go through the tree's own verification."""
    calls = []
    real = one_position.tree_verify

    def spy(p, q, tokens, parents, generator, rule, *rest):
        calls.append((tokens.shape, parents.tolist(), rule.name))
        return real(p, q, tokens, parents, generator, rule, *rest)

    monkeypatch.setattr(one_position, "tree_verify", spy)
    one_position.run_two_variants(data.toy_position(data.TOY), "tree-no-residual", 500, seed=0)
    assert calls == [((500, 2), [-1, -1], "tree-no-residual")]
