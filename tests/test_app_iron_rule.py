"""The iron rule page in AppTest: both languages, the toy table (edits and refusals), the Monte Carlo, real mode."""
import pytest
from app_pages import open_page

from specdec_core.algorithm.rules import CHAIN_RULES

EDITS = "iron_toy"  # the toy table's key: AppTest seeds an editor's edits through session state


def iron_rule(language="zh"):
    app = open_page("iron_rule", language, pair="tiny")
    assert not app.exception
    return app


def test_the_rule_menu_offers_the_chain_rules_only():
    menu = next(s for s in iron_rule("en").selectbox if "exact (the iron rule)" in s.options)
    assert len(menu.options) == len(CHAIN_RULES) and "tree-no-residual" not in menu.options


def metric(app, index: int) -> float:
    return float(app.metric[index].value)


def edit_toy(app, edited_rows: dict):
    app.session_state[EDITS] = {"edited_rows": edited_rows, "added_rows": [], "deleted_rows": []}
    app.run()
    assert not app.exception
    return app


@pytest.mark.parametrize("language", ["zh", "en"])
def test_renders_in_both_languages(language):
    app = iron_rule(language)
    assert app.title[0].value.startswith("鐵律" if language == "zh" else "The iron rule")
    assert len(app.metric) == 5  # alpha, 1 - alpha, TV of the rule, TV of the master alone, seal rate
    assert metric(app, 0) + metric(app, 1) == pytest.approx(1.0, abs=1e-3)
    assert not app.error


def test_editing_the_toy_table_changes_alpha():
    app = iron_rule("en")
    before = metric(app, 0)
    edit_toy(app, {0: {"q": 400.0}})  # the scribe now writes 月 far more often than the master would
    assert metric(app, 0) != before
    assert not app.error


@pytest.mark.parametrize(
    "edit, words",
    [
        ({0: {"p": -1.0}}, "negative"),
        ({row: {"q": 0.0} for row in range(5)}, "Every weight of q"),
        ({1: {"p": "many"}}, "not a number"),
        ({2: {"token": "月"}}, "more than once"),
    ],
)
def test_an_invalid_toy_table_is_refused_and_the_last_good_one_kept(edit, words):
    app = iron_rule("en")
    before = metric(app, 0)
    edit_toy(app, edit)
    assert words in app.error[0].value and "last valid table" in app.error[0].value
    assert metric(app, 0) == before


def test_monte_carlo_converges_to_p_under_the_exact_rule_only():
    app = iron_rule("en")
    app.session_state["iron_draws"] = 20_000
    app.run()
    exact_tv, alone_tv = metric(app, 2), metric(app, 3)
    assert exact_tv < 0.02 and alone_tv < 0.02  # sampling error alone, at 20,000 draws over 5 tokens
    app.session_state["iron_rule"] = "accept-all"
    app.run()
    assert not app.exception
    assert metric(app, 2) > 0.2  # accept-all writes q: TV(p, q) = 1 - alpha = 0.32 on the toy table
    assert metric(app, 4) == 1.0  # every draft is sealed


def test_real_mode_reads_the_models_at_a_chosen_position():
    app = iron_rule("en")
    app.session_state["iron_mode"] = "real"
    app.run()
    assert not app.exception and not app.error
    assert any("春山" in m.value for m in app.markdown)  # the sidebar's first example prompt
    first = metric(app, 0)
    app.slider(key="iron_position").set_value(3).run()
    assert not app.exception
    assert metric(app, 0) != first
    assert 0.0 <= metric(app, 0) <= 1.0


def test_real_mode_sets_no_widget_twice(monkeypatch, caplog):
    """Switching to real mode (a larger vocabulary caps the draws) logs no Session State warning: the draws'
    slider takes its value from session state alone, never a default as well."""
    from streamlit.elements.lib import policies

    monkeypatch.setattr(policies, "_shown_default_value_warning", False)
    monkeypatch.setattr(policies.runtime, "exists", lambda: True)  # AppTest runs without a Runtime
    app = open_page("iron_rule", "en")  # the poetry pair: its vocabulary caps the draws below the toy's 10,000
    app.session_state["iron_mode"] = "real"
    with caplog.at_level("WARNING"):
        app.run()
    assert not app.exception
    assert app.slider(key="iron_draws").value < 10_000
    assert not [r for r in caplog.records if "Session State API" in r.getMessage()]


def test_a_near_perfect_scribe_hiding_a_broken_rule_is_explained_and_the_poorest_is_one_click_away():
    """#36: with the int8 master (alpha near 1) accept-all reads TV below the master alone's, with no word said."""
    app = open_page("iron_rule", "en")
    app.session_state["iron_mode"] = "real"
    app.session_state["iron_rule"] = "accept-all"
    app.run()
    assert not app.exception
    alpha = metric(app, 0)
    note = next(w.value for w in app.warning if "cannot be seen here" in w.value)
    assert f"α = {alpha:.3f}" in note and f"1 − α = {1 - alpha:.3f}" in note
    app.button(key="iron_poorest").click().run()
    assert not app.exception
    assert app.session_state["choice"].scribe == "mismatched"
    assert metric(app, 2) > 2 * metric(app, 3)  # the bias now stands far above the noise
    assert not any("cannot be seen here" in w.value for w in app.warning)


def two_variants(language="zh", **state):
    """The page in the two-variant mode, with any other session values set before it runs."""
    app = iron_rule(language)
    app.session_state["iron_variants"] = 2
    for key, value in state.items():
        app.session_state[key] = value
    app.run()
    assert not app.exception and not app.error
    return app


TWO_VARIANT_WORDS = {  # the section's heading, the metric naming the verdict, the outcome caption's opening
    "zh": ("兩個異文：旁註裡的第二種寫法", "寫出的字與 p 的距離 TV", "次之中：第一個異文蓋印"),
    "en": ("Two variants: a second reading in the margin", "TV distance to p", "runs: the first variant sealed"),
}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_two_variants_render_and_converge_to_p_in_both_languages(language):
    app = two_variants(language, iron_draws=20_000)
    heading, verdict, outcomes = TWO_VARIANT_WORDS[language]
    assert heading in [s.value for s in app.subheader]
    assert any("arXiv 2305.09781" in m.value for m in app.markdown)  # why the residual, and whose proof
    assert len(app.metric) == 5 and app.metric[2].label == verdict
    assert metric(app, 2) < 0.02 and metric(app, 3) < 0.02  # the exact rule's TV is sampling noise alone
    assert any(outcomes in c.value for c in app.caption)
    menu = app.selectbox(key=f"w_iron_tree_rule_{language}")
    assert menu.options == [{"zh": "鐵律（正確）", "en": "exact (the iron rule)"}[language],
                            {"zh": "異文不扣殘差", "en": "tree-no-residual"}[language]]


def test_two_variants_catch_the_second_variant_tested_against_p():
    app = two_variants("en", iron_draws=20_000, iron_tree_rule="tree-no-residual")
    assert metric(app, 2) > 0.09 and metric(app, 3) < 0.02  # TV .124 on the toy table, the reference noise alone
    assert any("residual left by the variants rejected before it" in c.value for c in app.caption)  # the rule's bug
    app.session_state["iron_variants"] = 1  # back to one variant: the chain's menu, without the tree's rule
    app.run()
    assert not app.exception and not app.error
    menu = app.selectbox(key="w_iron_rule_en")
    assert menu.value == "exact" and "tree-no-residual" not in menu.options


def test_two_variants_in_real_mode_read_the_models_position():
    app = two_variants("en", iron_mode="real")
    assert "Two variants: a second reading in the margin" in [s.value for s in app.subheader]
    assert len(app.metric) == 5 and 0.0 <= metric(app, 0) <= 1.0
    assert any("α₂ = Σ min(r₁, q)" in c.value for c in app.caption)
