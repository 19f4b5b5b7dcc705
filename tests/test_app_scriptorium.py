"""The scriptorium: stepping through a real run, and counters that match the trace at its end."""
from app_pages import open_page

from specdec_core.algorithm.trace import Trace, summarize
from specdec_core.pairs.registry import run_defaults


def buttons(app):
    return {b.label: b for b in app.button}


def metrics(app):
    return [m.value for m in app.metric[:4]]


def open_tiny():
    return open_page("scriptorium", "en", pair="tiny", k="3", max_new="24")


def test_it_opens_on_the_first_draft_with_nothing_written():
    app = open_tiny()
    assert not app.exception
    assert app.session_state["moment"] == 1
    assert metrics(app)[:2] == ["0", "0"]
    assert "has not looked yet" in app.info[0].value


def test_stepping_forward_and_back():
    app = open_tiny()
    buttons(app)["Step ▶"].click().run()
    assert app.session_state["moment"] == 2
    assert metrics(app)[1] == "1"  # the master's first glance has happened
    buttons(app)["Step ▶"].click().run()
    buttons(app)["◀ Back"].click().run()
    assert app.session_state["moment"] == 2
    buttons(app)["⏮ Start"].click().run()
    assert app.session_state["moment"] == 1


def test_the_end_shows_the_whole_run_and_its_counters():
    app = open_tiny()
    buttons(app)["To the end ⏭"].click().run()
    assert not app.exception
    choice = app.session_state["choice"]
    from ui.shared.runs import cached_run

    summary = summarize(Trace.from_json(cached_run(choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings)))
    assert metrics(app)[:2] == [str(summary["tokens"]), str(summary["target_forwards"])]
    assert buttons(app)["Step ▶"].disabled


def test_a_position_shows_p_q_and_the_decision():
    app = open_tiny()
    buttons(app)["Step ▶"].click().run()  # the first seal or the verdict: p is known
    labels = [m.label for m in app.metric]
    assert {"p(x)", "q(x)", "p/q", "uniform u"} <= set(labels)
    assert len(app.get("plotly_chart")) >= 1


def test_changing_k_changes_the_run():
    """The same seed and prompt with k=1: one drafted token per line, so a different trace."""
    three, one = open_tiny(), open_page("scriptorium", "en", pair="tiny", k="1", max_new="24")
    assert not one.exception
    assert one.session_state["choice"].settings.k == 1
    assert three.session_state["moment_of"] != one.session_state["moment_of"]
    assert "drafted 1 character;" in one.info[0].value  # #49: not "1 characters"


def test_an_archived_run_replays_exactly():
    open_tiny()  # a k=3 run, archived when it is made (or already, by an earlier test)
    from ui.archive.store import archive

    stored = next(row for row in archive().list() if row.k == 3)
    replay = open_page("scriptorium", "en", pair="tiny", k="1", run=str(stored.id))
    assert not replay.exception
    assert any("Replaying archived run" in i.value for i in replay.info)
    # the sidebar now says k=1, yet the stored run's lines of three are shown
    assert any("drafted 3 characters" in i.value for i in replay.info)


def test_a_chat_pair_writes_an_answer_and_its_whole_text_has_no_template():
    """#27: SmolLM2's answers were cut at 48 tokens, and the whole text began "system You are a helpful…"."""
    app = open_page("scriptorium", "en", pair="smollm2", seed="1")
    assert not app.exception
    assert app.session_state["choice"].settings.max_new_tokens == run_defaults("smollm2").max_new_tokens
    prompt = app.session_state["choice"].prompt
    whole = next(m.value for m in app.markdown if prompt.split()[0] in m.value.replace("\\", ""))
    assert "system" not in whole.lower() and whole.replace("\\", "").startswith(prompt.replace("\\", "")[:10])


def test_a_chat_pair_s_sheet_opens_with_the_question_not_the_template():
    """#36: the prompt cells read "… pur r ? ∎ ↵ ∎ ass istant ↵", the chat template's marks and role words."""
    import re

    app = open_page("scriptorium", "en", pair="smollm2", max_new="16", prompt="Why do cats purr?")
    assert not app.exception
    sheet = next(h.proto.body for h in app.get("html") if 'class="sheet"' in h.proto.body)
    cells = "".join(re.findall(r'class="cell prompt"[^>]*>([^<]*)<', sheet))
    assert cells == "Why␣do␣cats␣purr?" or cells.replace("␣", " ") == "Why do cats purr?", cells


def test_a_link_keeps_its_own_length_for_a_chat_pair():
    app = open_page("scriptorium", "en", pair="smollm2", max_new="16")
    assert app.session_state["choice"].settings.max_new_tokens == 16


def test_replaying_an_archived_run_sets_the_sidebar_to_its_settings(tmp_path, monkeypatch):
    """#27: replaying a run left the sidebar on the default pair's own settings: sheet and settings disagreed."""
    from specdec_core.services.archive import Archive
    from specdec_core.settings import DecodeSettings, SamplingConfig
    from ui.archive.store import keep_run
    from ui.shared.runs import cached_run

    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", str(tmp_path / "archive.sqlite"))
    cached_run.clear()
    settings = DecodeSettings(k=2, seed=9, max_new_tokens=12, sampling=SamplingConfig(temperature=0.5))
    keep_run(cached_run("tiny", "cpu", "lm", "秋水", settings))
    run = Archive(tmp_path / "archive.sqlite").list()[0].id
    app = open_page("scriptorium", "en", run=str(run))
    assert not app.exception
    choice = app.session_state["choice"]
    assert (choice.pair, choice.scribe, choice.prompt) == ("tiny", "lm", "秋水")
    assert (choice.settings.k, choice.settings.seed, choice.settings.sampling.temperature) == (2, 9, 0.5)


def test_a_judged_round_can_be_worked_by_hand():
    app = open_tiny()
    labels = lambda: [e.label for e in app.expander]  # noqa: E731
    assert "This round, worked by hand" not in labels()  # not before the master has looked
    buttons(app)["To the end ⏭"].click().run()
    assert "This round, worked by hand" in labels()


def test_the_default_runs_last_step_agrees_with_the_sheet_and_the_counter():
    """#36: the default poetry run ends at ∎ in the middle of its last line; its last step told of a bonus
    "夜" and a gain of 7 while the sheet stopped at ∎ and the counter added 5."""
    import re

    from ui.scriptorium.sheet import display_piece
    from ui.shared.runs import cached_run

    app = open_page("scriptorium", "zh")
    buttons(app)["寫到底 ⏭"].click().run()
    assert not app.exception
    choice = app.session_state["choice"]
    trace = Trace.from_json(cached_run(choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings))
    before_last = sum(len(r.new_tokens) for r in trace.rounds[:-1])
    story = app.info[-1].value
    assert metrics(app)[0] == str(len(trace.tokens) - trace.rounds[-1].stopped_at_eos)  # #49: ∎ is no character
    assert re.search(r"這一輪得 (\d+) 個字", story).group(1) == str(len(trace.tokens) - before_last)
    quoted = re.findall(r"「(.+?)」", story)
    every_new = [piece for r in trace.rounds for piece in [s.piece for s in r.drafted[: r.n_accepted]] + [r.next_piece]]
    written = [display_piece(piece) for piece in every_new[: len(trace.tokens)]]
    assert quoted and all(piece in written for piece in quoted), (story, written)
    chips = app.get("button_group")[0].proto.options if app.get("button_group") else []
    shown = [option.content.split(" · ")[-1] for option in chips]
    assert shown and all(piece in written for piece in shown), (shown, written)


def _trace_on_screen(app) -> Trace:
    from ui.shared.runs import cached_run

    choice = app.session_state["choice"]
    return Trace.from_json(cached_run(choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings))


def test_the_default_run_says_it_has_no_correction_instead_of_a_silent_button():
    """#36: the int8 master at seed 0 seals every draft; the jump button is disabled and says why."""
    app = open_page("scriptorium", "en")
    assert not app.exception
    from ui.scriptorium.moments import correction_steps

    assert correction_steps(_trace_on_screen(app)) == []
    assert app.button(key="next_correction").disabled
    assert any("This run has no correction" in c.value for c in app.caption)


def test_the_show_a_correction_scenario_opens_on_the_red_brush_and_the_button_steps_on():
    from ui.scriptorium.moments import correction_steps, moments

    app = open_page("parable", "en")
    app.button(key="scenario_correction").click().run()
    assert not app.exception and app.title[0].value == "The scriptorium, round by round"
    trace = _trace_on_screen(app)
    steps = correction_steps(trace)
    assert app.session_state["moment"] == steps[0]
    moment = moments(trace)[steps[0] - 1]
    assert trace.rounds[moment.round].n_accepted > 0  # sealed part way, then the red brush: the parable's picture
    assert "his red brush writes" in app.info[-1].value
    assert not app.button(key="next_correction").disabled
    app.button(key="next_correction").click().run()
    assert app.session_state["moment"] == steps[1]


def test_a_count_scribe_draws_no_empty_cache_rows_and_says_why():
    app = open_page("scriptorium", "en", scribe="bigram")
    assert not app.exception
    assert any("keeps no KV cache" in c.value for c in app.caption)
    assert not any("Both caches roll back" in c.value for c in app.caption)


def test_a_link_names_the_step_it_opens_on():
    """#49, wanted for a lecture: a link can name the step (?step=17); the address bar names the step on screen."""
    app = open_page("scriptorium", "en", pair="tiny", max_new="16", seed="3", step="4")
    assert not app.exception
    assert app.session_state["moment"] == 4 and app.query_params["step"] in ("4", ["4"])
    beyond = open_page("scriptorium", "en", pair="tiny", max_new="16", seed="3", step="999")
    assert not beyond.exception and beyond.session_state["moment"] == 1
    assert any("step" in w.value and "999" in w.value for w in beyond.warning)  # refused, with what it allows
