"""The sidebar's draft shape: a tree run where the models can draw one, a chain of k said plainly where they
cannot, the shape kept in the link as shape=, and a replayed tree run's shape restored."""
import pytest
from app_pages import open_page, set_setting

from specdec_core.algorithm.trace import Trace
from ui.shared.runs import cached_run
from ui.shared.scribes import NAMES
from ui.shared.texts import TEXT

POETRY_TREE = {"pair": "poetry", "scribe": "distilled", "max_new": "16"}  # the pair's own model scribe: it draws trees


def run_of(app) -> Trace:
    """The run the page shows: the sidebar's choice through the pages' one way of running (cached, so the same run)."""
    choice = app.session_state["choice"]
    return Trace.from_json(cached_run(choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings))


def k_slider(app):
    return next(s for s in app.sidebar.slider if s.key == "w_k")


def test_a_tree_in_the_link_makes_the_scriptorium_run_a_tree():
    app = open_page("scriptorium", "en", shape="2-2", **POETRY_TREE)
    assert not app.exception
    assert app.session_state["choice"].settings.tree == "2-2"
    trace = run_of(app)
    assert trace.settings["tree"] == "2-2"
    assert trace.rounds and all(len(r.tree) <= 6 for r in trace.rounds)  # 2 + 2·2 nodes at most
    assert any(len(r.tree) == 6 for r in trace.rounds) and max(r.k for r in trace.rounds) == 2  # the tree's depth
    assert k_slider(app).disabled  # k is not used, and the sidebar says so
    assert any("k is not used" in c.value and "2 depths" in c.value for c in app.sidebar.caption)
    assert app.query_params["shape"] == "2-2"  # the link written back names the tree
    assert app.selectbox(key="w_shape").value == "2-2"


def test_the_chain_of_the_same_link_has_no_tree():
    """The negative control: the same link without shape= runs a chain, with k in use."""
    app = open_page("scriptorium", "en", **POETRY_TREE)
    assert not app.exception
    assert app.session_state["choice"].settings.tree == ""
    assert all(r.tree == [] for r in run_of(app).rounds)
    assert not k_slider(app).disabled and app.query_params["shape"] == ""


@pytest.mark.parametrize("language", ["zh", "en"])
def test_an_ngram_scribe_with_a_tree_warns_and_runs_a_chain_of_k(language):
    app = open_page("scriptorium", language, shape="2-2", pair="poetry", scribe="trigram", k="3", max_new="16")
    assert not app.exception and not app.error
    warnings = [w.value.replace("\\", "") for w in app.sidebar.warning]
    scribe = NAMES.table["trigram"][language]  # named as the reader sees the scribe
    chains_only = TEXT.table["error_tree_scribe"][language].split("{scribe}")[1][:8]  # the core's reason, said here
    assert any(scribe in w and chains_only in w and "3" in w for w in warnings), warnings
    assert app.session_state["choice"].settings.tree == ""
    trace = run_of(app)
    assert all(r.tree == [] for r in trace.rounds) and max(r.k for r in trace.rounds) == 3  # a chain of k = 3
    assert not k_slider(app).disabled  # k is what the run uses
    assert app.query_params["shape"] == "2-2"  # kept for the next scribe that can draw it
    drawn = set_setting(app, "scribe", "distilled")  # and it can
    assert not drawn.exception and drawn.session_state["choice"].settings.tree == "2-2"
    assert not any(scribe in w.value for w in drawn.sidebar.warning)


def test_a_master_without_the_lean_forward_warns_and_runs_a_chain():
    """The tiny pair's master is not a float32 Llama: no tree, whichever scribe."""
    app = open_page("scriptorium", "en", pair="tiny", scribe="lm", shape="dynamic-2-8", max_new="16")
    assert not app.exception
    assert any("lean forward" in w.value for w in app.sidebar.warning), [w.value for w in app.sidebar.warning]
    assert app.session_state["choice"].settings.tree == ""
    assert all(r.tree == [] for r in run_of(app).rounds)


@pytest.mark.parametrize("value", ["evil", "8-8-8", "9-1", "dynamic-2-999", "2--2", "0-2", "1-" * 40 + "1"])
def test_a_shape_the_core_refuses_is_dropped_with_a_note(value):
    """Garbage, too many nodes for one glance, too many branches, too many depths: named, and the run is a chain."""
    app = open_page("scriptorium", "en", shape=value, **POETRY_TREE)
    assert not app.exception
    notes = [w.value.replace("\\", "") for w in app.sidebar.warning]
    assert any(f"shape={value[:40]}" in note for note in notes), notes
    assert app.session_state["choice"].settings.tree == "" and app.query_params["shape"] == ""


def test_a_tree_the_menu_lacks_is_offered_when_a_link_names_it():
    app = open_page("parable", "en", shape="3-1", **POETRY_TREE)
    assert not app.exception and not app.sidebar.warning
    assert app.session_state["choice"].settings.tree == "3-1"
    assert "3-1" in app.selectbox(key="w_shape").options[-1]


def test_replaying_an_archived_tree_run_sets_the_sidebar_to_its_shape(tmp_path, monkeypatch):
    from specdec_core.services.archive import Archive
    from specdec_core.settings import DecodeSettings
    from ui.archive.store import keep_run

    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", str(tmp_path / "archive.sqlite"))
    tree = cached_run("poetry", "cpu", "distilled", "春眠不覺曉", DecodeSettings(seed=5, max_new_tokens=12, tree="2-1-1"))
    chain = cached_run("poetry", "cpu", "distilled", "春眠不覺曉", DecodeSettings(k=3, seed=5, max_new_tokens=12))
    keep_run(tree), keep_run(chain)
    runs = {row.tree: row.id for row in Archive(tmp_path / "archive.sqlite").list()}
    app = open_page("scriptorium", "en", run=str(runs["2-1-1"]))
    assert not app.exception
    assert app.session_state["shape"] == "2-1-1" and app.query_params["shape"] == "2-1-1"
    assert app.session_state["choice"].settings.tree == "2-1-1"
    back = open_page("scriptorium", "en", shape="2-2", run=str(runs[""]))  # a chain's replay puts the chain back
    assert not back.exception
    assert back.session_state["shape"] == "" and back.session_state["choice"].settings.tree == ""


@pytest.mark.parametrize("page", ["race", "proof", "iron_rule", "archive", "speed_lab"])
def test_every_page_opens_with_a_tree_chosen(page):
    app = open_page(page, "en", shape="2-2", **POETRY_TREE)
    assert not app.exception
    assert app.session_state["choice"].settings.tree == "2-2"


def test_the_proof_page_says_the_sidebar_s_tree_is_not_its_own():
    app = open_page("proof", "en", shape="2-2-1", **POETRY_TREE)
    assert not app.exception
    k = app.session_state["choice"].settings.k
    captions = [c.value.replace("\\", "") for c in app.caption]  # Markdown escapes the shape's dashes
    assert any("2-2-1" in c and f"at most {k} " in c for c in captions), captions
    chain = open_page("proof", "en", **POETRY_TREE)  # no tree chosen: nothing to say
    assert not any("sidebar chose the draft tree" in c.value for c in chain.caption)


def test_the_iron_rule_says_its_variants_are_not_the_sidebar_s_tree():
    app = open_page("iron_rule", "en", shape="2-2", **POETRY_TREE)
    app.session_state["iron_mode"] = "real"
    app.run()
    assert not app.exception
    captions = [c.value.replace("\\", "") for c in app.caption]
    assert any("draft tree 2-2:" in c for c in captions), captions


def test_a_tree_run_past_the_cache_s_first_capacity_is_drawn_to_its_end(monkeypatch):
    """Issue 50, defect 1: a tree run that outgrew the cache's first capacity (256 positions) crashed the page
    in keep_path. The capacity is made small so that an ordinary run reaches it."""
    from specdec_core.runtimes import lean_llama
    monkeypatch.setattr(lean_llama, "FIRST_CAPACITY", 8)
    app = open_page("scriptorium", "en", shape="2-2-2-1", seed="3", **POETRY_TREE)
    assert not app.exception and not app.error
    trace = run_of(app)
    assert len(trace.prompt_tokens) + len(trace.tokens) > lean_llama.FIRST_CAPACITY
