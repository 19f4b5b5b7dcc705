"""The speed lab's chain-against-tree section (#35): its verdict follows the numbers, its glance sizes, and the page.

The verdict is tested on made-up reports both ways (the tree faster, slower, tied), so each sentence is
shown only where its numbers hold; the page is opened with the poetry pair's distilled scribe at the
sidebar's fewest characters, and with scribes and masters that cannot draft a tree.
"""
import re

import pytest
from app_pages import open_page, shown_words

from specdec_core.services.glance import GLANCE_SIZES, GlanceTimes
from ui.speed_lab.trees import glance_sentences, glance_sizes, run_settings, tree_verdict
from ui.speed_lab.trees_plot import glance_points
from ui.speed_lab.trees_texts import TEXT
from specdec_core.settings import DecodeSettings


def report(tpf=2.0, speedup=1.0, interval=(0.95, 1.05), verify=1.2, draft_ms=1.0, other_ms=1.0, nodes=3.0, forwards=3.0):
    """The parts of a bench report the verdict reads."""
    return {"tokens_per_target_forward": tpf, "speedup_vs_fastest_plain": speedup,
            "speedup_interval_vs_fastest_plain": list(interval), "verify_cost": verify, "nodes_per_round": nodes,
            "draft_forwards_per_round": forwards, "time_split": {"speculative": {"draft": draft_ms, "other": other_ms}}}


def keys(chain, tree) -> list[str]:
    return [key for key, _ in tree_verdict(chain, tree)]


def said(chain, tree) -> str:
    """The verdict in English as the page writes it (characters: the poetry pair's unit)."""
    return " ".join(shown_words(TEXT, key, "en", "character").format(**numbers) for key, numbers in tree_verdict(chain, tree))


CHAIN = report(tpf=2.0, speedup=1.05, interval=(1.00, 1.10), verify=1.24, draft_ms=1.0, nodes=3.0, forwards=3.0)


def test_a_tree_that_writes_more_a_glance_but_loses_on_the_clock_says_what_it_paid():
    tree = report(tpf=2.24, speedup=0.94, interval=(0.90, 0.98), verify=1.6, draft_ms=1.3, nodes=6.0, forwards=3.0)
    assert keys(CHAIN, tree) == ["tv_more", "tv_slower", "tv_reason_glance", "tv_reason_scribe"]
    words = said(CHAIN, tree)
    assert "1.12× the chain's 2.00" in words and "only 0.90× as fast" in words
    assert "at a cost of 1.60, the chain 4.0 at 1.24" in words and "6.0 nodes a round" in words


def test_a_faster_tree_is_called_faster_and_no_cost_is_blamed():
    tree = report(tpf=2.4, speedup=1.30, interval=(1.20, 1.40), verify=1.1, draft_ms=0.9)
    assert keys(CHAIN, tree) == ["tv_more", "tv_faster"]
    assert "1.24× as fast as the chain" in said(CHAIN, tree)
    # the negative control: the same two runs the other way round, and the verdict turns
    assert keys(tree, CHAIN) == ["tv_fewer", "tv_slower", "tv_reason_glance", "tv_reason_scribe"]


def test_overlapping_intervals_are_a_tie_and_only_the_dearer_costs_are_named():
    tree = report(tpf=2.0, speedup=1.02, interval=(0.97, 1.08), verify=1.5, draft_ms=0.8)
    assert keys(CHAIN, tree) == ["tv_as_many", "tv_tied", "tv_reason_glance"]  # the scribe was cheaper: not blamed
    cheaper = report(tpf=2.1, speedup=1.02, interval=(0.97, 1.08), verify=1.1, draft_ms=0.8, other_ms=1.4)
    assert keys(CHAIN, cheaper) == ["tv_more", "tv_tied", "tv_reason_other"]
    ahead = report(tpf=2.1, speedup=1.08, interval=(0.97, 1.15), verify=1.5, draft_ms=1.5)
    assert keys(CHAIN, ahead) == ["tv_more", "tv_tied"]  # ahead on the clock: nothing to explain


def glance(median, sizes=(1, 2, 4, 7, 8, 16, 32)) -> GlanceTimes:
    return GlanceTimes(sizes=sizes, median_ms=tuple(median), low_ms=tuple(median), high_ms=tuple(median), repeats=5,
                       context=7, weight_bytes=10**7, copy_gb_s=10.0, device="cpu", threads=1, measured_at="2026-01-01T00:00:00+00:00")


def test_the_glance_is_read_at_1_2_4_and_the_rounds_sizes():
    times = glance([10, 10.5, 11, 13, 14, 20, 30])
    sizes, costs = glance_points(times, 7)
    assert sizes == [1, 2, 4, 7, 8] and costs == pytest.approx([1.0, 1.05, 1.1, 1.3, 1.4])
    sentences = glance_sentences(times, 4, 7)
    assert [key for key, _ in sentences] == ["tv_glance_tree", "tv_glance_chain", "tv_glance_cheap"]
    assert sentences[0][1] == dict(tree_n=7, chain_n=4, tree_ms=13, one_ms=10, tree_ratio=pytest.approx(1.3),
                                   chain_ratio=pytest.approx(1.1))
    dear = glance([10, 12, 14, 18, 20, 30, 50])
    assert [key for key, _ in glance_sentences(dear, 7, 7)] == ["tv_glance_tree", "tv_glance_dearer"]  # one size: said once
    assert glance_sizes(GLANCE_SIZES[-1]) is None  # the glance section's own measurement serves
    assert glance_sizes(40) == tuple(sorted(set(GLANCE_SIZES) | {1, 2, 4, 8, 16, 32, 40}))


def test_the_chain_and_the_tree_share_everything_but_the_tree():
    sidebar = DecodeSettings(k=5, seed=3, max_new_tokens=100, tree="3-1")
    chain, tree = run_settings(sidebar, "2-1-1")
    assert chain.tree == "" and tree.tree == "2-1-1" and chain.k == 5 and tree.seed == chain.seed == 3
    assert chain.max_new_tokens == tree.max_new_tokens < 100  # the lab's short measurement


def table_cell(app, row_key: str, column: int) -> float:
    return float(app.table[0].value.loc[shown_words(TEXT, row_key, "en", "character")].iloc[column])


def test_the_section_measures_the_poetry_pairs_distilled_scribe_as_chain_and_tree():
    app = open_page("speed_lab", "en", pair="poetry", scribe="distilled", max_new="8")
    assert not app.exception
    menu = app.selectbox(key="tree_lab_shape")
    assert menu.options[0].startswith("draft tree 2-1-1") and menu.proto.default == 0  # the sidebar's words for it
    app.button(key="tree_lab_measure").click().run()
    assert not app.exception
    frame = app.table[0].value
    assert list(frame.columns) == ["chain: a line of k = 6", "tree: 2-1-1 (up to 6 nodes)"]
    assert table_cell(app, "tv_row_forwards", 1) < table_cell(app, "tv_row_nodes", 1)  # a depth's nodes in one forward
    assert table_cell(app, "tv_row_forwards", 0) == table_cell(app, "tv_row_nodes", 0)  # a line: one forward a character
    verdict = next(m.value for m in app.markdown if m.value.startswith("The tree"))
    tree_tpf, chain_tpf = (f"{table_cell(app, 'tv_row_tpf', column):.2f}" for column in (1, 0))
    assert tree_tpf in verdict and chain_tpf in verdict  # the verdict's figures are the table's
    assert re.search(r"On the clock the tree was (only )?\d\.\d\d× as fast as the chain", verdict)
    assert any(m.value.startswith("Measured on this machine: a glance over") for m in app.markdown)
    assert any(e.proto.id.endswith("tree_glance") for e in app.get("plotly_chart"))


def test_the_sidebars_tree_is_the_one_measured():
    app = open_page("speed_lab", "zh", pair="poetry", scribe="distilled", max_new="8", shape="2-2")
    assert not app.exception
    assert not [box for box in app.selectbox if box.key == "tree_lab_shape"]  # the sidebar's tree, not a menu
    assert any(caption.value.startswith(TEXT.table["tv_sidebar_tree"]["zh"].split("{")[0]) for caption in app.caption)
    app.button(key="tree_lab_measure").click().run()
    assert not app.exception
    assert list(app.table[0].value.columns)[1] == TEXT.table["tv_col_tree"]["zh"].format(tree="2-2", nodes=6)


@pytest.mark.parametrize("language, query, key", [
    ("zh", dict(pair="tiny", max_new="8"), "tv_cannot_master"),
    ("en", dict(pair="poetry", scribe="trigram", max_new="8"), "tv_cannot_scribe"),
])
def test_a_pair_or_scribe_that_cannot_draft_a_tree_is_told_so_and_offered_nothing(language, query, key):
    app = open_page("speed_lab", language, **query)
    assert not app.exception
    start = shown_words(TEXT, key, language, "character").split("{")[0]
    assert any(info.value.startswith(start) for info in app.info)
    assert not [b for b in app.button if b.key == "tree_lab_measure"]


def test_with_a_tree_chosen_the_measurement_and_the_sweep_stay_chains_of_k_and_the_page_says_so():
    from ui.speed_lab.runs import measure_settings, sweep_cells
    from ui.speed_lab.texts import TEXT as LAB

    tree = DecodeSettings(k=3, tree="2-2")
    assert measure_settings(tree).tree == "" and measure_settings(tree).k == 3
    assert {cell.tree for _, _, cell in sweep_cells(tree)} == {""}
    assert len({k for k, _, _ in sweep_cells(tree)}) > 1  # the sweep still varies k
    app = open_page("speed_lab", "en", pair="poetry", scribe="distilled", max_new="8", shape="2-2")
    said = LAB.table["tree_chosen"]["en"].split("{")[0]
    assert any(box.value.startswith(said) for box in app.info)
    chain = open_page("speed_lab", "en", pair="poetry", scribe="distilled", max_new="8")
    assert not any(box.value.startswith(said) for box in chain.info)  # control: no tree, no note
