"""The proof page: exact sampling passes the test, a broken rule is flagged by the statistic."""
import pytest
from app_pages import open_page

from specdec_core.algorithm.rules import CHAIN_RULES, TREE_RULES
from ui.proof.line import proof_line


def run_proof(rule: str):
    app = open_page("proof", "en", pair="tiny", samples="2000", rule=rule)
    assert not app.exception
    next(b for b in app.button if b.label == "Start sampling").click().run()
    assert not app.exception
    return app


def test_exact_rule_cannot_be_told_apart():
    app = run_proof("exact")
    verdicts = [s.value for s in app.success if "cannot be told apart" in s.value]
    assert len(verdicts) == 2 and not [e for e in app.error if "drifts" in e.value]
    assert len(app.get("plotly_chart")) == 3  # first token, joint, TV over samples


@pytest.mark.parametrize("rule", ["accept-all", "resample-p"])
def test_a_broken_rule_is_flagged(rule):
    app = run_proof(rule)
    drift = [e.value for e in app.error if "drifts" in e.value]
    assert len(drift) == 1 and drift[0].replace("\\", "").startswith("master + scribe")  # values are Markdown-escaped
    assert any("master alone" in s.value for s in app.success)


def test_before_sampling_the_page_waits():
    app = open_page("proof", "en", pair="tiny")
    assert any("Start sampling" in i.value for i in app.info)


def test_the_rule_menu_speaks_the_readers_language():
    app = open_page("proof", "zh", pair="tiny")
    menu = next(s for s in app.selectbox if "exact" in s.options[0] or "鐵律" in s.options[0])
    assert menu.options[0] == "鐵律（正確）" and all(not option.isascii() for option in menu.options)


def test_a_tree_only_rule_is_not_offered_for_chains_and_a_link_to_it_falls_back_to_exact():
    app = open_page("proof", "en", pair="tiny", rule="tree-no-residual")  # on a chain it would just be the exact rule
    assert not app.exception
    menu = next(s for s in app.selectbox if s.label.startswith("Acceptance rule"))
    assert len(menu.options) == len(CHAIN_RULES) and "tree-no-residual" not in menu.options
    assert menu.value == "exact" and any("rule" in w.value for w in app.sidebar.warning)


def test_the_page_opens_in_class_mode():
    app = open_page("proof", "en", pair="tiny")
    assert next(s for s in app.select_slider if s.label == "Samples").value == 2000
    assert any("class mode" in c.value for c in app.caption)


def test_a_full_line_of_live_proofs_refuses_in_plain_words_and_keeps_the_page():
    line = proof_line()
    waiting = [line.join(1000) for _ in range(line.capacity)]
    try:
        app = open_page("proof", "zh", pair="tiny")
        next(b for b in app.button if b.label == "開始取樣").click().run()
    finally:
        for turn in waiting:
            line.leave(turn, finished=False)
    assert not app.exception
    assert any("已有 8 場即時證明在排隊" in w.value for w in app.warning)
    assert any("開始取樣" in i.value for i in app.info)  # nothing half-drawn: the page still waits for a press


def tree_menu(app):
    return next(s for s in app.selectbox if s.label.startswith("Acceptance rule"))


def test_tree_mode_offers_the_tree_rule_explains_the_tree_and_runs_to_a_verdict():
    app = open_page("proof", "en", pair="tiny", samples="2000", tree="True", branching="2-1", rule="tree-no-residual")
    assert not app.exception
    assert tree_menu(app).value == "tree-no-residual" and len(tree_menu(app).options) == len(TREE_RULES)
    assert next(s for s in app.selectbox if s.label.startswith("Variants per depth")).value == "2-1"
    note = next(i.value for i in app.info if "Tree mode" in i.value)
    assert "2305" in note and "i.i.d." in note and "2 for the next token" in note
    next(b for b in app.button if b.label == "Start sampling").click().run()
    assert not app.exception
    verdicts = [m.value for m in [*app.success, *app.error] if "cannot be told apart" in m.value or "drifts" in m.value]
    assert len(verdicts) == 2  # the scribe's stream and the master's own
    assert len(app.get("plotly_chart")) == 3 and app.get("progress")


def test_leaving_tree_mode_puts_a_tree_rule_back_to_exact():
    app = open_page("proof", "en", pair="tiny", tree="True", rule="tree-no-residual")
    assert tree_menu(app).value == "tree-no-residual"
    next(t for t in app.toggle if t.label.startswith("Draft tree")).set_value(False).run()
    assert not app.exception
    assert tree_menu(app).value == "exact" and len(tree_menu(app).options) == len(CHAIN_RULES)
    assert not [i for i in app.info if "Tree mode" in i.value]


def test_a_broken_rule_offers_the_scenario_that_catches_it_and_says_so_there():
    """#49 defect 2: the page promised to catch exact-match with a poorer scribe, which hides it."""
    from specdec_core.decoding.proof_scenarios import scenario_for

    app = open_page("proof", "en", rule="exact-match")  # the poetry pair's defaults: temperature 0.8
    assert not app.exception
    scenario = scenario_for("poetry", "exact-match")
    assert any("shrinks as q moves away from p" in c.value for c in app.caption)
    app.button(key="proof_scenario").click().run()
    assert not app.exception
    choice = app.session_state["choice"]
    assert (choice.scribe, choice.settings.k, choice.settings.sampling.temperature) == (
        scenario.scribe, scenario.k, scenario.temperature)
    assert any(c.value.startswith("These are the settings that catch this rule") for c in app.caption)
    assert not [b for b in app.button if b.key == "proof_scenario"]
    caught = [e.value for e in app.error if "drifts" in e.value]  # the recording made in this scenario
    assert any("A recorded result" in i.value for i in app.info) and len(caught) == 1


def test_a_broken_rule_that_passes_is_not_called_right():
    """#49 defect 2: a sentence true of the run when it cannot catch the rule. At temperature 1 raw-q reads the same
    q the draft sampled from, so it is exact there and must pass: the page says the pass proves nothing."""
    app = open_page("proof", "en", pair="tiny", samples="2000", rule="raw-q", temperature="1.0")
    next(b for b in app.button if b.label == "Start sampling").click().run()
    assert not app.exception
    assert len([s for s in app.success if "cannot be told apart" in s.value]) == 2
    assert any("This run did not catch" in w.value and "does not make the rule right" in w.value for w in app.warning)
    exact = run_proof("exact")
    assert not any("This run did not catch" in w.value for w in exact.warning)  # the exact rule is not told so


def test_tree_mode_reads_true_in_a_link_as_presenter_does():
    """#49 defect 12: tree=true was refused while presenter=true worked: one spelling everywhere."""
    for spelling in ("true", "True", "TRUE"):
        app = open_page("proof", "en", pair="tiny", tree=spelling)
        assert not app.exception and app.session_state["proof_tree"] is True, spelling
        assert not any("tree" in w.value for w in app.sidebar.warning)
    refused = open_page("proof", "en", pair="tiny", tree="yes")
    assert refused.session_state["proof_tree"] is False
