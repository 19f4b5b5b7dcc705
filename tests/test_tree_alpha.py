"""A tree run's alpha, counted the same everywhere (issue 35): over the first variant at each depth the walk reached.

The first variant is tried against p itself, as a chain's token is; later ones against a residual, min(1, r/q), which
is no estimate of alpha. summarize (the archive, the CLI, the bench), the stepper, the handout and the accepted-length
section all count it so. The expected numbers are read here straight from the TreeNodes' parents and flags, not
through the walk the code uses.
"""
import json
from collections import Counter

import pytest

from specdec_core.algorithm.acceptance import position_counts, rates, verdict_counts
from specdec_core.algorithm.trace import Round, Trace, drafted_and_accepted, judged_verdicts, mean_acceptance, summarize
from specdec_core.algorithm.tree_walk import counts_first_variants, judged_steps
from specdec_core.decoding.generate import speculative_generate
from specdec_core.pairs.registry import load_pair
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.scriptorium.accepted import accepted_figure, depth_counts, judged_rounds, written_per_round
from ui.scriptorium.accepted_texts import TEXT as ACCEPTED
from ui.scriptorium.moments import moments, progress_at

PROMPT = "床前明月光，"


@pytest.fixture(scope="module")
def poetry():
    return load_pair("poetry", device="cpu")


@pytest.fixture(scope="module")
def tree(poetry) -> Trace:
    settings = DecodeSettings(sampling=SamplingConfig(temperature=1.0), max_new_tokens=24, tree="2-2-1", seed=3)
    return speculative_generate(poetry.as_target(), poetry.draft("distilled"), poetry.encode_prompt(PROMPT), settings)


def first_variants(r: Round) -> list[int]:
    """The first variant drawn at each depth the walk reached, from the nodes' parents and seals."""
    out, parent = [], -1
    while True:
        variants = [i for i, node in enumerate(r.tree) if node.parent == parent]
        if not variants:
            return out
        out.append(variants[0])
        sealed = [i for i in variants if r.tree[i].accepted]
        if not sealed:
            return out
        parent = sealed[0]


def firsts_by_depth(trace: Trace) -> dict[int, list]:
    by_depth: dict[int, list] = {}
    for r in trace.rounds:
        for depth, i in enumerate(first_variants(r), start=1):
            by_depth.setdefault(depth, []).append(r.tree[i])
    return by_depth


def test_summarize_counts_a_tree_s_alpha_as_the_stepper_does(tree):
    firsts = [node for nodes in firsts_by_depth(tree).values() for node in nodes]
    assert firsts and all(node.tried and node.r == node.p for node in firsts)  # each faced p itself
    expected = sum(node.accept_prob for node in firsts) / len(firsts)
    summary = summarize(tree)
    assert summary["alpha"] == pytest.approx(expected)
    assert summary["alpha"] == pytest.approx(progress_at(tree, moments(tree)[-1]).alpha)  # the stepper's, at the last step
    assert summary["alpha_by_position"] == pytest.approx(
        {d: sum(n.accept_prob for n in nodes) / len(nodes) for d, nodes in firsts_by_depth(tree).items()})
    assert summary["acceptance_rate"] == pytest.approx(sum(node.accepted for node in firsts) / len(firsts))
    # negative control: the old count, the path's steps reached (a later variant's min(1, r/q) among them), differs here
    old = [step.accept_prob for r in tree.rounds for step in r.reached]
    assert abs(sum(old) / len(old) - summary["alpha"]) > 1e-3


def test_alpha_is_counted_on_the_first_variant_of_each_depth_the_walk_reached(tree):
    """judged_steps, which summarize and the stepper count, are the first variants read straight from the nodes."""
    assert counts_first_variants(tree)
    for r in tree.rounds:
        assert judged_steps(r) == [r.tree[i] for i in first_variants(r)]


def test_a_chain_s_summary_is_counted_as_before(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=7, max_new_tokens=24))
    reached = [step for r in trace.rounds for step in r.reached]
    summary = summarize(trace)
    assert not counts_first_variants(trace)
    assert summary["alpha"] == pytest.approx(sum(s.accept_prob for s in reached) / len(reached))
    assert summary["acceptance_rate"] == pytest.approx(sum(s.accepted for s in reached) / len(reached))
    by_position = {}
    for r in trace.rounds:
        for i, step in enumerate(r.reached, start=1):
            by_position.setdefault(i, []).append(step.accept_prob)
    assert summary["alpha_by_position"] == pytest.approx({i: sum(v) / len(v) for i, v in by_position.items()})
    assert verdict_counts(judged_verdicts([trace])) == position_counts(drafted_and_accepted([trace]))


def test_a_tree_s_alpha_by_depth_counts_first_variants_not_passes(tree):
    counts = verdict_counts(judged_verdicts([tree]))
    expected = {d: (len(nodes), sum(n.accepted for n in nodes)) for d, nodes in firsts_by_depth(tree).items()}
    assert counts == expected
    passes = position_counts(drafted_and_accepted([tree]))  # a depth passed by any variant
    assert {d: n for d, (n, _) in passes.items()} == {d: n for d, (n, _) in counts.items()}  # the same depths reached
    assert all(passes[d][1] >= sealed for d, (_, sealed) in counts.items())
    assert rates(passes) != rates(counts)  # negative control: on this run a later variant passed where the first was struck


def test_the_bench_s_tree_alpha_is_the_first_variants(poetry, monkeypatch):
    from specdec_core.services import bench

    made = []
    real = bench.speculative_generate
    monkeypatch.setattr(bench, "speculative_generate", lambda *args: made.append(real(*args)) or made[-1])
    settings = DecodeSettings(sampling=SamplingConfig(temperature=1.0), max_new_tokens=24, tree="2-2-1", seed=3)
    report = bench.run_bench(poetry, "distilled", settings, [PROMPT], repeats=1)
    timed = made[1:]  # the first was the warm-up
    firsts = [n for t in timed for nodes in firsts_by_depth(t).values() for n in nodes]
    assert report["alpha"] == pytest.approx(sum(n.accept_prob for n in firsts) / len(firsts))
    assert report["alpha"] == pytest.approx(mean_acceptance(timed))
    by_depth = {}
    for t in timed:
        for d, nodes in firsts_by_depth(t).items():
            by_depth.setdefault(d, []).extend(nodes)
    assert report["rounds_by_drafted_position"] == [len(by_depth[d]) for d in sorted(by_depth)]
    assert report["alpha_by_drafted_position"] == pytest.approx(
        [sum(n.accepted for n in by_depth[d]) / len(by_depth[d]) for d in sorted(by_depth)])
    assert report["alpha_all_positions"] == pytest.approx(sum(n.accepted for n in firsts) / len(firsts))


# --- the accepted-length section on a tree run --------------------------------------------------------------------

def test_a_tree_run_s_rounds_are_counted_by_tokens_written_against_its_depth(tree):
    rounds, _, _ = judged_rounds(tree)
    written = written_per_round(rounds)
    depth = max(r.k for r in rounds)
    assert len(written) == depth + 1 and sum(written) == len(rounds)
    by_written = Counter(len(r.new_tokens) for r in rounds)  # each round wrote its sealed path and one token after
    assert written == [by_written[n] for n in range(1, depth + 2)]
    figure = accepted_figure(written, None, {key: key for key in ("observed", "accepted", "rounds")}, first=1)
    assert len(figure.data) == 1 and list(figure.data[0].x) == list(range(1, depth + 2))  # bars only: no chain's law
    json.loads(figure.to_json())
    counts = depth_counts(tree, rounds)
    for row in counts:
        reached = [r for r in rounds if r.k >= row["depth"] and r.n_accepted >= row["depth"] - 1]
        assert row["reached"] == len(reached)
        assert row["passed"] == sum(r.n_accepted >= row["depth"] for r in reached)
        assert row["first"] == sum(r.tree[first_variants(r)[row["depth"] - 1]].accepted for r in reached)
    assert any(row["passed"] > row["first"] for row in counts)  # the later variants passed depths here


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_scriptorium_shows_a_tree_run_s_rounds_without_the_chain_s_law(tree, language):
    from app_pages import open_page, shown_words

    from ui.archive.store import archive

    run = archive().save(tree.to_json()).id
    app = open_page("scriptorium", language, run=str(run))
    assert not app.exception
    labels = [e.label for e in app.expander]
    assert shown_words(ACCEPTED, "a_title_tree", language, "character") in labels
    assert shown_words(ACCEPTED, "a_title", language, "character") not in labels
    figure = json.loads(next(e for e in app.get("plotly_chart") if e.proto.id.endswith("accepted_chart")).proto.spec)
    rounds, _, _ = judged_rounds(tree)
    assert len(figure["data"]) == 1 and figure["data"][0]["y"] == written_per_round(rounds)
    depth = max(r.k for r in rounds)
    caption = next(c.value for c in app.caption if c.value.startswith("長條" if language == "zh" else "Bars"))
    said = (f"{len(rounds)} 輪", f"最深 {depth} 層", f"最多寫 {depth + 1} 個") if language == "zh" else \
        (f"{len(rounds)} rounds", f"at most {depth} deep", f"at most {depth + 1}.")
    assert all(words in caption for words in said), caption
    assert "α =" not in caption and ("幾何" in caption if language == "zh" else "geometric law is a chain's" in caption)
    first = depth_counts(tree, rounds)[0]
    depths = next(c.value for c in app.caption if c.value.startswith("逐層" if language == "zh" else "Depth by depth"))
    assert (f"第 1 層走到 {first['reached']} 輪、通過 {first['passed']} 輪，其中第一個異文就蓋印的 {first['first']} 輪"
            if language == "zh" else
            f"depth 1 reached in {first['reached']} rounds and passed in {first['passed']}, by its first variant in "
            f"{first['first']}") in depths


# --- the handout, the archive and the race name a tree's alpha and drafts as what they are ----------------------------

def test_the_handout_names_a_tree_s_alpha_as_the_stepper_does(tree, in_english):
    from test_handout import LINK, handout_texts

    from ui.scriptorium.handout import handout_svg

    counters = handout_texts(handout_svg(tree, moments(tree)[-1], LINK))[2]
    assert f"α (first variants) = {summarize(tree)['alpha']:.2f}" in counters, counters


def test_the_archive_names_a_tree_run_s_alpha(tree, in_english):
    from app_pages import open_page

    from ui.archive.sections import table_columns
    from ui.archive.store import archive
    from ui.archive.texts import TEXT

    run = archive().save(tree.to_json()).id
    app = open_page("archive", "en", pair="poetry")
    app.selectbox(key="archive_run").set_value(run).run()
    assert not app.exception
    alpha = next(m for m in app.metric if m.label.startswith("α"))
    assert alpha.label == TEXT.table["alpha_tree"]["en"] and alpha.value == f"{summarize(tree)['alpha']:.2f}"
    assert alpha.proto.help == TEXT.table["alpha_tree_help"]["en"]
    helps = {TEXT.table[key]["en"] for key in ("col_alpha_help", "col_alpha_help_trees")}
    assert helps == {table_columns(trees)["α"]["help"] for trees in (False, True)}


def test_tree_runs_archived_with_the_old_alpha_are_counted_again_once(tree, tiny, tiny_prompt, tmp_path):
    import sqlite3

    from specdec_core.services.archive import Archive

    path = tmp_path / "archive.sqlite"
    chain = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=7, max_new_tokens=12))
    tree_id, chain_id = Archive(path).save(tree.to_json()).id, Archive(path).save(chain.to_json()).id
    old = [step.accept_prob for r in tree.rounds for step in r.reached]
    with sqlite3.connect(path) as db:  # as an archive saved before this app counted first variants holds them
        db.execute("UPDATE runs SET alpha = ? WHERE id = ?", (sum(old) / len(old), tree_id))
        db.execute("DELETE FROM upgrades")
    rows = {row.id: row.alpha for row in Archive(path).list()}
    assert rows[tree_id] == pytest.approx(summarize(tree)["alpha"]) and rows[chain_id] == pytest.approx(summarize(chain)["alpha"])
    with sqlite3.connect(path) as db:  # done once: a later open leaves the rows alone
        db.execute("UPDATE runs SET alpha = 0.5 WHERE id = ?", (tree_id,))
    assert {row.id: row.alpha for row in Archive(path).list()}[tree_id] == 0.5


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_race_tells_a_tree_run_as_a_tree(language):
    from app_pages import open_page, shown_words

    from ui.race.texts import TEXT

    app = open_page("race", language, pair="poetry", scribe="distilled", max_new="16", shape="2-2")
    assert not app.exception and app.session_state["choice"].settings.tree == "2-2"
    shown = [m.value for m in app.markdown] + [c.value for c in app.caption]
    assert shown_words(TEXT, "intro_tree", language, "character").format(n_prompts=4) in shown
    assert any(c.startswith(shown_words(TEXT, "legend_tree", language, "character")) for c in shown)
    assert shown_words(TEXT, "intro", language, "character").format(n_prompts=4) not in shown
    assert shown_words(TEXT, "legend", language, "character") not in shown
