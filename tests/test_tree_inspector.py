"""The scriptorium on a tree run (issue 35): each depth's variants told, tabled and counted as the run recorded them.

Every claim is checked against the round's TreeNodes, read here straight from the parents and flags, not through
the walk the page uses, so a page that told another walk would fail.
"""
import re

import pytest

from specdec_core.algorithm.trace import DraftStep, Round, Trace, TreeNode, summarize
from specdec_core.decoding.generate import speculative_generate
from specdec_core.pairs.registry import load_pair
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.scriptorium.numbers import table_number
from ui.scriptorium import worked
from ui.scriptorium.moments import judged_acceptances, moments, progress_at
from ui.scriptorium.sheet import display_piece
from ui.scriptorium.stepper import _story, probability_text
from ui.scriptorium.texts import TEXT
from ui.scriptorium.tree_view import EMPTY, variant_rows
from specdec_core.algorithm.tree_walk import tree_walk, trial_of

PROMPT = "床前明月光，"
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


@pytest.fixture(autouse=True)
def english(in_english):
    """These words are read outside a page run: in English (a test that reads Chinese switches for itself)."""


@pytest.fixture(scope="module")
def poetry():
    return load_pair("poetry", device="cpu")


def tree_run(poetry, temperature: float, seed: int = 3) -> Trace:
    settings = DecodeSettings(sampling=SamplingConfig(temperature=temperature), max_new_tokens=24, tree="2-2-1", seed=seed)
    return speculative_generate(poetry.as_target(), poetry.draft("distilled"), poetry.encode_prompt(PROMPT), settings)


@pytest.fixture(scope="module")
def tree(poetry) -> Trace:
    """T = 1: variants are struck, some before a later one passes; the run stops at a sealed end mark."""
    return tree_run(poetry, 1.0, seed=2)   # a seed whose run ends at a sealed ∎ with drafts under it


@pytest.fixture(scope="module")
def greedy_tree(poetry) -> Trace:
    return tree_run(poetry, 0.0)


def tree_rounds(trace: Trace) -> list[Round]:
    return [r for r in trace.rounds if r.tree]


def children(r: Round, parent: int) -> list[int]:
    return [i for i, node in enumerate(r.tree) if node.parent == parent]


def at_depth(r: Round, depth: int) -> list[int]:
    """The variants tried for the depth-th drafted step: the children of the path's node above it."""
    parent = -1
    for _ in range(depth - 1):
        parent = next(i for i in children(r, parent) if r.tree[i].accepted)
    return children(r, parent)


def quoted(piece: str) -> str:
    return f"“{display_piece(piece)}”"


def moment_of(trace: Trace, r: Round, stage: str, sealed: int | None = None):
    return next(m for m in moments(trace) if m.round == r.index and m.stage == stage and sealed in (None, m.sealed))


def test_the_runs_cover_what_the_page_must_tell(tree):
    """The run holds each case the words distinguish: a variant struck before a later one passed, variants never
    tried, a correction after several struck and one after the only one, a bonus, a path whose test was r, not p."""
    trees = tree_rounds(tree)
    assert trees and all(tree_walk(r) is not None for r in trees)
    sealed_depths = [(r, at_depth(r, d)) for r in trees for d in range(1, r.n_accepted + 1)]
    assert any(not r.tree[v[0]].accepted for r, v in sealed_depths)
    assert any(not r.tree[i].tried for r, v in sealed_depths for i in v)
    corrected = [len(at_depth(r, r.n_accepted + 1)) for r in trees if r.next_kind == "corrected"]
    assert 1 in corrected and any(n > 1 for n in corrected)
    assert any(r.next_kind == "bonus" for r in trees)
    on_path = [r.tree[i] for r in trees for d in range(1, r.n_accepted + 1) for i in at_depth(r, d) if r.tree[i].accepted]
    assert any(abs(node.r - node.p) > 1e-6 for node in on_path)  # a path step whose test was min(1, r/q), not p/q


def test_each_drafted_step_of_a_tree_holds_p_and_the_test_against_r(tree):
    """What DraftStep holds in a tree: p(x) in p, the try's min(1, r/q) in accept_prob (so p/q is not its test)."""
    for r in tree_rounds(tree):
        for d, step in enumerate(r.drafted, start=1):
            node = next(r.tree[i] for i in at_depth(r, d) if r.tree[i].token == step.token and r.tree[i].tried
                        and r.tree[i].accepted == step.accepted)
            assert (step.p, step.q, step.accept_prob, step.u) == (node.p, node.q, node.accept_prob, node.u)
            assert node.accept_prob == pytest.approx(min(1.0, node.r / node.q), abs=1e-5)


def test_the_draft_story_counts_the_variants_at_each_depth(tree):
    for r in tree_rounds(tree):
        story = _story(r, moment_of(tree, r, "draft"), trial_of(tree.settings))
        depth_of = []
        for node in r.tree:
            depth_of.append(1 if node.parent < 0 else depth_of[node.parent] + 1)
        counts = [depth_of.count(d) for d in range(1, max(depth_of) + 1)]
        assert f"{len(r.tree)} variants" in story
        assert f"over {len(counts)} depths ({', '.join(map(str, counts))} from depth 1 down)" in story
        assert "has not looked yet" in story


def seal_stories_told(trace: Trace) -> list[int]:
    """Check every seal story of a tree run against its nodes; the count of variants struck before each sealed one."""
    counts = []
    for r in tree_rounds(trace):
        for m in (m for m in moments(trace) if m.round == r.index and m.stage == "seal"):
            d, story = m.sealed, _story(r, m, "residual")
            variants = at_depth(r, d)
            sealed = next(i for i in variants if r.tree[i].accepted)
            struck = [i for i in variants[: variants.index(sealed)] if r.tree[i].tried]
            untried = [i for i in variants if not r.tree[i].tried]
            good = quoted(r.tree[sealed].piece)
            assert f"walked down to depth {d}:" in story and "from the left" not in story
            if not struck:
                assert f"its {'only' if len(variants) == 1 else 'first'} variant, {good}, passed" in story
            elif len(struck) == 1:
                assert (f"the first variant, {quoted(r.tree[struck[0]].piece)}, was struck; the second, {good}, "
                        "passed against the residual it left") in story
            else:
                pieces = ", ".join(quoted(r.tree[i].piece) for i in struck)
                assert (f"the first {len(struck)} variants, {pieces}, were struck; variant {len(struck) + 1}, {good}, "
                        "passed against the residual they left") in story
            if len(untried) == 1:
                assert "1 more variant here is never tried" in story
            elif untried:
                assert f"The {len(untried)} other variants after it here are never tried" in story
            else:
                assert "never tried" not in story
            counts.append(len(struck))
    return counts


def test_each_seal_story_names_the_variants_struck_and_the_one_that_passed(tree):
    assert 1 in seal_stories_told(tree), "no seal came after a struck variant"


def test_a_dynamic_tree_is_told_the_same_way(poetry):
    """EAGLE-2's growth: three variants a node, so a variant can pass after two were struck."""
    told = []
    for seed in range(4):
        settings = DecodeSettings(sampling=SamplingConfig(temperature=1.0), max_new_tokens=24, tree="dynamic-3-12", seed=seed)
        trace = speculative_generate(poetry.as_target(), poetry.draft("distilled"), poetry.encode_prompt(PROMPT), settings)
        assert all(tree_walk(r) is not None for r in tree_rounds(trace))
        told += seal_stories_told(trace)
    assert max(told) >= 2, "no seal came after two struck variants"


def test_the_verdict_story_says_where_the_walk_ended(tree):
    for r in tree_rounds(tree):
        m = moment_of(tree, r, "verdict")
        story = _story(r, m, "residual")
        assert "at position" not in story and "drafted tokens are sealed" not in story  # the chain's words
        if m.written < len(r.new_tokens):  # the text ended at a sealed end mark
            end = r.drafted[m.written - 1]
            assert end.piece == "</s>" and f"sealed down to depth {m.written}, where {quoted(end.piece)} is the end mark" in story
            continue
        assert story.endswith(f"gains {r.n_accepted + 1} token{'s' if r.n_accepted else ''}.")
        if r.next_kind == "bonus":
            assert not children(r, next(i for i in at_depth(r, r.n_accepted) if r.tree[i].accepted))  # a leaf
            assert f"every depth down to depth {r.n_accepted}, {quoted(r.drafted[-1].piece)}, below which" in story
            assert f"one more, {quoted(r.next_piece)}" in story
            continue
        variants = at_depth(r, r.n_accepted + 1)
        assert all(r.tree[i].tried and not r.tree[i].accepted for i in variants)
        pieces = ", ".join(quoted(r.tree[i].piece) for i in variants)
        if len(variants) == 1:
            assert f"the only variant at depth {r.n_accepted + 1}, {pieces}, was struck" in story
            assert "the residual it left" in story
        else:
            every = "both" if len(variants) == 2 else f"all {len(variants)}"  # #49: not "all 2 variants"
            assert f"{every} variants at depth {r.n_accepted + 1}, {pieces}, were struck" in story
            assert "the residual the last one left" in story
        assert f"writes {quoted(r.next_piece)}" in story


def test_tree_stories_speak_one_language_at_a_time(tree):
    """Chinese first and never mixed: the Chinese words carry no English word, the English no Chinese outside the
    quoted pieces."""
    import streamlit as st

    for m in moments(tree):
        r = tree.rounds[m.round]
        english = _story(r, m, "residual")
        assert not CJK.search(re.sub(r"“[^”]*”", "", english)), english
        st.session_state["language"] = "zh"
        chinese = _story(r, m, "residual")
        st.session_state["language"] = "en"
        assert not re.search(r"[A-Za-z]{2,}", re.sub(r"「[^」]*」", "", chinese)), chinese
        assert chinese.startswith(f"第 {r.index + 1} 輪") and english.startswith(f"Round {r.index + 1}")


def test_the_variant_table_is_the_depths_nodes_in_the_order_tried(tree):
    for r in tree_rounds(tree):
        walk = tree_walk(r)
        for d in range(1, len(r.drafted) + 1):
            nodes = [r.tree[i] for i in at_depth(r, d)]
            rows = variant_rows(r, walk[d - 1], "residual", revealed=True)
            assert [row["Order"] for row in rows] == list(range(1, len(nodes) + 1))
            for row, node in zip(rows, nodes, strict=True):
                assert (row["Variant"], row["p(x)"], row["q(x)"]) == (display_piece(node.piece), probability_text(node.p),
                                                                     probability_text(node.q))
                if node.tried:
                    assert (row["r(x)"], row["min(1, r/q)"], row["u"]) == (
                        probability_text(node.r), probability_text(node.accept_prob), f"{node.u:.3f}")
                    assert row["Verdict"] == ("✔ sealed" if node.accepted else "✘ struck")
                    assert node.accepted == (node.u < node.accept_prob)  # the verdict shown is the rule's on these numbers
                else:  # never tried: p and q only, no residual, test, draw or verdict
                    assert [row[c] for c in ("r(x)", "min(1, r/q)", "u", "Verdict")] == [EMPTY] * 4
            hidden = variant_rows(r, walk[d - 1], "residual", revealed=False)  # before the master walks there
            assert all([row[c] for c in ("r(x)", "min(1, r/q)", "u", "Verdict")] == [EMPTY] * 4 for row in hidden)


def test_the_worked_round_lists_every_variant_tried_in_walk_order(tree):
    for r in tree_rounds(tree):
        walk = tree_walk(r)
        tried = [(d, i) for d in range(1, len(r.drafted) + 1) for i in at_depth(r, d) if r.tree[i].tried]
        rows = worked.tree_rows(r, walk, "residual")
        assert [(row["Depth"], row["Token"]) for row in rows] == [(d, display_piece(r.tree[i].piece)) for d, i in tried]
        for row, (_, i) in zip(rows, tried):
            node = r.tree[i]
            assert (row["r(x)"], row["min(1, r/q)"], row["u"]) == (table_number(node.r), table_number(node.accept_prob), table_number(node.u))
            assert row["Verdict"].endswith("sealed" if node.accepted else "struck")
        if r.next_kind == "corrected":  # after several struck variants the last residual is not max(0, p - q) normalised
            table = worked.new_token_rows(r, tree_trial="residual")
            assert "max(0, p − q)" not in table[0] and "r(x)" in table[0]
            assert sum(row["Token"].endswith("◀") for row in table) <= 1


def test_alpha_so_far_counts_the_first_variant_at_each_depth(tree):
    """The first variant faces p itself (r = p), as a chain's token does: its min(1, p/q) estimates the same alpha."""
    firsts = []
    for r in tree_rounds(tree):
        for d in range(1, len(r.drafted) + 1):
            first = r.tree[at_depth(r, d)[0]]
            assert first.tried and first.r == first.p
            firsts.append(first.accept_prob)
    assert progress_at(tree, moments(tree)[-1]).alpha == pytest.approx(sum(firsts) / len(firsts))
    # negative control: the drafted steps reached (path and last struck) give another number on this run
    reached = [s.accept_prob for r in tree.rounds for s in r.reached]
    assert abs(sum(reached) / len(reached) - sum(firsts) / len(firsts)) > 1e-3
    assert TEXT("alpha_tree") != TEXT("alpha") and "first variant" in TEXT("alpha_tree_help")


def test_a_greedy_tree_is_told_as_his_first_choice_without_residual(greedy_tree):
    assert trial_of(greedy_tree.settings) == "greedy"
    trees = tree_rounds(greedy_tree)
    assert any(r.n_accepted for r in trees) and any(r.next_kind == "corrected" for r in trees)
    for m in moments(greedy_tree):
        r = greedy_tree.rounds[m.round]
        story = _story(r, m, "greedy")
        assert "residual" not in story
        if m.stage == "seal":
            sealed = next(i for i in at_depth(r, m.sealed) if greedy_tree.rounds[m.round].tree[i].accepted)
            assert r.tree[sealed].p == 1.0 and f"{quoted(r.tree[sealed].piece)}, is his own first choice" in story
            n = len(at_depth(r, m.sealed))
            assert (f"its only variant, {quoted(r.tree[sealed].piece)}," if n == 1 else f"of the {n} variants there") in story
        walk = tree_walk(r)
        for depth in walk or []:
            rows = variant_rows(r, depth, "greedy", revealed=True)
            assert "r(x)" not in rows[0] and "u" not in rows[0]
            assert [row["Verdict"].startswith("✔") for row in rows] == [r.tree[i].p == 1.0 for i in depth.variants]


def test_three_variants_two_struck_then_the_third_passes():
    """A hand-made round (2-2-1 has two a depth): the story names both struck and counts the third."""
    nodes = [TreeNode(10, "山", -1, 0.5, 0.1, 0.1, 0.2, 0.9, True, False),
             TreeNode(11, "石", -1, 0.3, 0.2, 0.1, 0.3, 0.8, True, False),
             TreeNode(12, "水", -1, 0.2, 0.3, 0.6, 1.0, 0.4, True, True),
             TreeNode(13, "雲", -1, 0.2, 0.3, 0.0, 0.0, 0.4, False, False)]
    step = DraftStep(12, "水", 0.2, 0.3, 1.0, 0.4, True, [])
    r = Round(index=0, context_len=2, k=1, drafted=[step], n_accepted=1, first_rejected=None, next_token=9, next_piece="流",
              next_kind="bonus", next_dist_top=[], target_cache=[2, 7, 3], draft_cache=[2, 6, 3], draft_s=0.0, target_s=0.0,
              other_s=0.0, tree=nodes)
    trace = Trace(pair="hand", scribe="hand", mode="speculative", settings={}, prompt_tokens=[1, 2], prompt_text="春山",
                  tokens=[12, 9], text="水流", rounds=[r], prefill_s=0.0, wall_s=1.0)
    story = _story(r, moment_of(trace, r, "seal", 1), "residual")
    assert ("the first 2 variants, “山”, “石”, were struck; variant 3, “水”, passed against the residual they left" in story
            and "1 more variant here is never tried" in story)
    assert "against p itself" in _story(r, moment_of(trace, r, "seal", 1), "p")


def test_a_tree_record_that_does_not_tell_its_round_is_shown_as_the_chain_it_lists(tree):
    """A hand-edited file whose tree seals another token than its drafted path: the page tells the drafted steps."""
    import copy

    r = copy.deepcopy(next(r for r in tree_rounds(tree) if r.n_accepted))
    r.tree[next(i for i in at_depth(r, 1) if r.tree[i].accepted)].token += 1
    assert tree_walk(r) is None
    assert judged_acceptances(r) == [s.accept_prob for s in r.reached]
    assert "sealed 1 from the left" in _story(r, moment_of(tree, r, "seal", 1), "residual")


def test_chains_are_told_and_counted_as_before(tiny, tiny_prompt):
    """A chain run never reads as a tree: the chain's words at every step, alpha over the verdicts reached."""
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=7, max_new_tokens=24))
    for m in moments(trace):
        r = trace.rounds[m.round]
        assert tree_walk(r) is None and judged_acceptances(r) == [s.accept_prob for s in r.reached]
        story = _story(r, m)
        if m.stage == "draft":
            assert story == TEXT("stage_draft", round=r.index + 1, n=len(r.drafted))
        elif m.stage == "seal":
            assert story == TEXT("stage_seal", round=r.index + 1, sealed=m.sealed)
        elif r.next_kind == "corrected" and m.written == len(r.new_tokens):
            assert f"at position {r.n_accepted + 1}" in story
        assert "variant" not in story and "depth" not in story
    assert progress_at(trace, moments(trace)[-1]).alpha == pytest.approx(summarize(trace)["alpha"])
    assert worked.new_token_rows(trace.rounds[0]) == worked.new_token_rows(trace.rounds[0], tree_trial=None)


def test_the_page_steps_through_a_replayed_tree_run(tree):
    """The scriptorium on a tree run from the archive: the story and the table of the step, the first-variant α."""
    from app_pages import open_page

    from ui.archive.store import archive

    run = archive().save(tree.to_json()).id
    app = open_page("scriptorium", "en", run=str(run))
    assert not app.exception
    steps = moments(tree)
    assert any(i.value == _story(tree.rounds[0], steps[0], "residual") for i in app.info)
    next(b for b in app.button if b.label == "Step ▶").click().run()  # the first seal: depth 1 is walked
    assert not app.exception
    assert any(i.value == _story(tree.rounds[0], steps[1], "residual") for i in app.info)
    assert [m.label for m in app.metric][3] == TEXT("alpha_tree")
    table = app.dataframe[0].value
    assert list(table.columns) == ["Order", "Variant", "p(x)", "q(x)", "r(x)", "min(1, r/q)", "u", "Verdict"]
    assert list(table["Variant"]) == [display_piece(r.piece) for r in tree.rounds[0].tree if r.parent == -1]
    next(b for b in app.button if b.label == "To the end ⏭").click().run()  # the last verdict, with its worked round
    assert not app.exception
    told = _story(tree.rounds[-1], steps[-1], "residual").split(" This round gains")[0]  # the page counts in its pair's unit
    assert any(i.value.startswith(told) for i in app.info) and "end mark" in told
    worked_rows = worked.tree_rows(tree.rounds[-1], tree_walk(tree.rounds[-1]), "residual", steps[-1].written)
    assert any(list(frame.value.iloc[:, 2]) == [row["Token"] for row in worked_rows] for frame in app.dataframe
               if "Depth" in frame.value.columns)  # the third column names the unit: "Character" on this pair's page


def test_the_chart_at_a_depth_marks_the_residual_each_tried_variant_faced(tree):
    from ui.scriptorium.plots import candidate_figure
    from ui.scriptorium.tree_view import residuals_faced, variant_candidates

    labels = {"p": "p", "q": "q", "min": "min", "r": "r", "axis": "axis", "faced": "faced"}
    r = next(r for r in tree_rounds(tree) if r.next_kind == "corrected" and len(at_depth(r, r.n_accepted + 1)) > 1)
    depth = tree_walk(r)[r.n_accepted]
    rows = variant_candidates(r, depth, r.drafted[-1].candidates)
    assert {r.tree[i].token for i in depth.variants} <= {c.token for c in rows}  # every variant has its bar
    figure = candidate_figure(rows, r.drafted[-1].token, labels, residual=False, faced=residuals_faced(r, depth, "residual"))
    marks = next(t for t in figure.data if t.name == "faced")
    assert list(marks.y) == [r.tree[i].r for i in at_depth(r, r.n_accepted + 1)]
    assert residuals_faced(r, depth, "greedy") == []


def test_the_broken_sibling_rule_is_told_as_testing_against_p(poetry):
    """tree-no-residual tries every variant against p itself: no story may say it faced a residual."""
    settings = DecodeSettings(sampling=SamplingConfig(temperature=1.0), max_new_tokens=24, tree="2-2-1", seed=3,
                              rule="tree-no-residual")
    trace = speculative_generate(poetry.as_target(), poetry.draft("distilled"), poetry.encode_prompt(PROMPT), settings)
    assert trial_of(trace.settings) == "p"
    seals_after_a_strike = 0
    for m in moments(trace):
        r = trace.rounds[m.round]
        story = _story(r, m, "p")
        assert "residual it left" not in story and "residual they left" not in story and "last one left" not in story
        if m.stage == "seal" and "was struck" in story:
            seals_after_a_strike += 1
            assert "against p itself" in story
    assert all(node.r == node.p for r in tree_rounds(trace) for node in r.tree if node.tried)
    assert seals_after_a_strike  # the run has a variant passing after a strike: the case whose words differ


def test_every_way_of_trying_has_its_words():
    from specdec_core.algorithm.tree_walk import TRIALS

    for trial in TRIALS:
        assert TEXT(f"variants_caption_{trial}") and TEXT(worked.TREE_INTRO[trial])
    assert trial_of({}) == "residual" and trial_of({"rule": "tree-no-residual", "sampling": {"temperature": 1.0}}) == "p"
    assert trial_of({"rule": "tree-no-residual", "sampling": {"temperature": 0}}) == "greedy"


def later_variant_sealed(trace: Trace):
    """A round and depth where the master struck the first variant and sealed a later one of another piece, the
    first one having variants under it."""
    for r in tree_rounds(trace):
        for d in range(1, r.n_accepted + 1):
            variants = at_depth(r, d)
            chosen = next(i for i in variants if r.tree[i].accepted)
            if chosen != variants[0] and r.tree[chosen].piece != r.tree[variants[0]].piece and children(r, variants[0]):
                return r, d, variants[0], chosen
    raise AssertionError("the run should seal a later variant above more variants")


def test_before_the_verdict_the_tabs_and_tables_follow_the_scribes_first_reading(tree):
    """At the draft stage the depths' tabs name the first variant drawn at each depth (not the one the master will
    seal), and the table a depth below it lists the variants under that first one; at the verdict, the path's."""
    from app_pages import open_page

    from ui.archive.store import archive

    r, d, first, chosen = later_variant_sealed(tree)
    steps = moments(tree)
    draft = next(i for i, m in enumerate(steps, start=1) if m.round == r.index and m.stage == "draft")
    app = open_page("scriptorium", "en", run=str(archive().save(tree.to_json()).id))
    app.session_state["moment"] = draft
    app.session_state[f"position_{r.index}_draft"] = d  # the tab of depth d + 1, below the one in question
    app.run()
    assert not app.exception

    def tabs() -> list[str]:
        return [option.content.split(" · ")[-1] for option in app.get("button_group")[0].proto.options]

    assert tabs()[d - 1] == display_piece(r.tree[first].piece) != display_piece(r.tree[chosen].piece)
    table = app.dataframe[0].value
    assert list(table["Variant"]) == [display_piece(r.tree[i].piece) for i in children(r, first)]
    assert set(table["Verdict"]) == {EMPTY}
    verdict = next(i for i, m in enumerate(steps, start=1) if m.round == r.index and m.stage == "verdict")
    app.session_state["moment"] = verdict  # negative control: once judged, the tab names the variant sealed
    app.run()
    assert not app.exception and tabs()[d - 1] == display_piece(r.tree[chosen].piece)


def test_variants_drawn_without_replacement_show_the_q_i_they_were_drawn_and_tested_with(poetry):
    """A distinct run's later variant faced min(1, r/q_i): its row shows q_i beside q, and the test's own name."""
    settings = DecodeSettings(sampling=SamplingConfig(temperature=1.0), max_new_tokens=24, tree="2-2-1", seed=3,
                              siblings="distinct")
    trace = speculative_generate(poetry.as_target(), poetry.draft("distilled"), poetry.encode_prompt(PROMPT), settings)
    checked = 0
    for r in trace.rounds:
        walk = tree_walk(r)
        for depth in walk or []:
            rows = variant_rows(r, depth, "residual", revealed=True)
            assert [row["q_i(x)"] for row in rows] == [probability_text(r.tree[i].q_i) for i in depth.variants]
            for row, i in zip(rows, depth.variants):
                node = r.tree[i]
                if node.tried and node.q_i > 0:
                    assert row["min(1, r/q_i)"] == probability_text(min(1.0, node.r / node.q_i))
                    checked += node.q_i != pytest.approx(node.q)  # a later variant: q_i is not q
            worked_rows = worked.tree_rows(r, walk, "residual")
            assert all("q_i(x)" in row and "min(1, r/q_i)" in row for row in worked_rows)
    assert checked > 0
    iid = tree_run(poetry, 1.0)  # control: i.i.d. variants were drawn with q itself, and their rows say so
    for r in iid.rounds:
        for depth in tree_walk(r) or []:
            assert all("q_i(x)" not in row and "min(1, r/q)" in row for row in variant_rows(r, depth, "residual", True))


def test_nothing_below_a_sealed_end_mark_is_drawn_or_counted_as_struck(tree):
    """#49 defect 6: a tree round that ended at ∎ drew the variant below ∎ as tried and rejected, and its summary
    counted it struck, while the story said it is never written."""
    from ui.scriptorium.margin import tree_html
    from ui.scriptorium.moments import end_depth
    from ui.scriptorium.sheet import round_margins

    last = tree.rounds[-1]
    m = moment_of(tree, last, "verdict")
    ended = end_depth(last, m)
    walk = tree_walk(last)
    assert ended is not None and any(d > ended and last.tree[i].tried for i, d in enumerate(walk.depth_of))  # the case
    states = walk.states(None, ended)
    assert all(states[i] == "untried" for i, d in enumerate(walk.depth_of) if d > ended)
    assert walk.states(None) != states  # the negative control: read without the end, the walk's own verdicts
    margins = round_margins(last, m, walk)
    assert all(v.state != "struck" for depth in margins[ended:] for v in depth)
    struck = sum(state == "struck" for state in states)
    assert f"struck {struck}" in tree_html(tree, m)
