"""The archive page in AppTest, with the archive (SCRIPTORIUM_ARCHIVE) in a temporary SQLite file and, for every test
given `store`, again in a database of a real PostgreSQL."""
import json

import pytest
from app_pages import open_page, set_setting
from streamlit.testing.v1 import AppTest

from specdec_core.services.archive import Archive
from specdec_core.settings import DecodeSettings
from ui.archive.store import keep_run
from ui.shared.runs import cached_run
from ui.shared.visitors import OPERATOR_VAR


SECRET = "not-for-the-page"  # a password in the database's URL (the throwaway cluster trusts loopback and ignores it)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path, monkeypatch) -> Archive:
    if request.param == "sqlite":
        location = str(tmp_path / "archive.sqlite")
    else:
        location = request.getfixturevalue("postgres").new_database().replace("scriptorium@", f"scriptorium:{SECRET}@")
    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", location)
    return Archive(location)


def step_forward(app) -> None:
    next(b for b in app.button if b.label == "Step ▶").click().run()


def app_run(seed: int, k: int = 3) -> str:
    """A run through the app's one way of running (the pages call cached_run), filed as the scriptorium files
    a run its reader steps into."""
    trace_json = cached_run("tiny", "cpu", "lm", "春山", DecodeSettings(k=k, seed=seed, max_new_tokens=12))
    assert keep_run(trace_json) is None
    return trace_json


@pytest.mark.parametrize("language", ["zh", "en"])
def test_an_empty_archive_renders_in_both_languages(store, language):
    app = open_page("archive", language, pair="tiny")
    assert not app.exception
    assert app.title[0].value == ("卷宗" if language == "zh" else "The archive")
    assert app.info[0].value.startswith("卷宗還是空的" if language == "zh" else "The archive is empty")
    where = str(store.path.parent) if store.path else SECRET
    assert where not in app.caption[0].value  # #38: the server's path is not shown, nor a database's password
    assert ("0 卷" if language == "zh" else "0 runs") in app.caption[0].value


def test_a_run_made_by_the_app_is_listed_and_opens(store):
    trace = json.loads(app_run(seed=11))
    app = open_page("archive", "en", pair="tiny")
    assert not app.exception
    table = app.dataframe[0].value
    assert list(table["k"]) == ["3"] and list(table["Seed"]) == [11] and list(table["Prompt"]) == ["春山"]
    run_id = store.list()[0].id
    assert app.selectbox(key="archive_run").value == run_id
    assert int(app.metric[0].value) == len(trace["tokens"])
    assert any(trace["text"] in m.value.replace("\\", "") for m in app.markdown)  # markdown marks escaped
    app.button(key="archive_replay").click().run()  # to the scriptorium, with the run in the URL
    assert app.query_params["run"] == str(run_id)


def test_filter_by_k_then_delete_the_run(store, monkeypatch):
    app_run(seed=17, k=2)
    app_run(seed=17, k=5)
    monkeypatch.setenv(OPERATOR_VAR, "the lecturer's own words")  # the runs were filed outside any tab: the operator's
    app = open_page("archive", "en", pair="tiny")
    assert not any(b.key == "archive_delete" for b in app.button)
    app.text_input(key="archive_operator_token").set_value("the lecturer's own words").run()
    assert app.success[-1].value == "This tab is the operator's: it may delete any run."
    assert list(app.dataframe[0].value["k"]) == ["5", "2"]   # as words: a tree run's k is "—"
    app.selectbox(key="archive_k_en").set_value(2).run()
    assert list(app.dataframe[0].value["k"]) == ["2"]
    app.button(key="archive_delete").click().run()
    assert not app.exception
    assert [row.k for row in store.list()] == [5]
    assert app.selectbox(key="archive_k_en").value is None  # k = 2 is gone from the menu, so the filter is back to all
    assert list(app.dataframe[0].value["k"]) == ["5"]


@pytest.mark.parametrize(
    "content, words",
    [(b'{"schema_version": 1, "pair": ', "不是 JSON"), (b'{"schema_version": 7}', "不是一份完整的抄寫紀錄")],
)
def test_a_bad_file_is_refused_with_a_sentence_and_nothing_changes(store, content, words):
    app_run(seed=12)
    app = open_page("archive", "zh", pair="tiny")
    before = store.list()
    app.file_uploader[0].set_value(("broken.json", content, "application/json")).run()
    assert not app.exception
    assert words in app.error[0].value and "沒有任何改變" in app.error[0].value
    assert store.list() == before


@pytest.mark.parametrize("broken", ["a folder that cannot exist", "a database that does not answer"])
def test_a_broken_archive_never_breaks_a_run(tmp_path, monkeypatch, broken):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    location, named = (str(blocker / "archive.sqlite"), "a-file") if broken.startswith("a folder") else (
        f"postgresql://scriptorium:{SECRET}@127.0.0.1:1/archive", "127.0.0.1:1")  # nothing listens on port 1
    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", location)
    trace_json = cached_run("tiny", "cpu", "lm", "春山", DecodeSettings(seed=16, max_new_tokens=12))
    problem = keep_run(trace_json)
    assert json.loads(trace_json)["tokens"]
    assert named in problem and SECRET not in problem


def test_a_run_that_was_not_archived_says_so_on_the_page(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", str(blocker / "archive.sqlite"))
    cached_run.clear()
    app = open_page("scriptorium", "en", pair="tiny", seed="17", max_new="8")
    assert not app.exception
    step_forward(app)  # a run is filed once its reader steps into it
    assert any("not saved to the archive" in w.value for w in app.warning), [w.value for w in app.warning]


def test_an_exported_file_imports_back(store):
    exported = store.get(Archive(store.location).save(app_run(seed=13)).id)
    data = json.loads(exported)
    data["settings"]["seed"] = 14  # as if from another classroom: a run this archive lacks
    app = open_page("archive", "en", pair="tiny")
    before = store.count()
    app.file_uploader[0].set_value(("run.json", json.dumps(data).encode(), "application/json")).run()
    assert not app.exception
    assert store.count() == before + 1
    new_id = store.list()[0].id
    assert app.success[0].value == f"Imported as run #{new_id}."
    assert app.selectbox(key="archive_run").value == new_id  # the imported run is opened


def replay_page():
    import streamlit as st

    from ui.archive.store import load_replay

    trace = load_replay()
    st.write("none" if trace is None else trace.text)


def test_load_replay_reads_the_url_and_warns_on_a_missing_run(store):
    saved = store.save(app_run(seed=15))
    app = AppTest.from_function(replay_page)
    app.query_params["run"] = str(saved.id)
    app.run()
    assert app.markdown[0].value == json.loads(store.get(saved.id))["text"]
    missing = AppTest.from_function(replay_page)
    missing.query_params["run"] = "999"
    missing.run()
    assert missing.markdown[0].value == "none" and "999" in missing.warning[0].value
    handed = AppTest.from_function(replay_page)
    handed.session_state["replay_run"] = saved.id  # what the archive's button leaves for the scriptorium
    handed.run()
    assert handed.markdown[0].value != "none" and handed.query_params["run"] == str(saved.id)
    fresh = AppTest.from_function(replay_page).run()
    assert fresh.markdown[0].value == "none" and not fresh.warning


def test_check_by_replay_vouches_for_a_genuine_run_and_catches_an_edited_seed(store):
    """#27: a trace whose seed was edited imported as if genuine; replaying its settings shows it."""
    genuine = json.loads(app_run(seed=15))
    app = open_page("archive", "en", pair="tiny")
    app.button(key="archive_check").click().run()
    assert not app.exception
    assert any("same, token for token" in s.value for s in app.success), [s.value for s in app.success]
    edited = dict(genuine, settings=dict(genuine["settings"], seed=16))
    app.file_uploader[0].set_value(("edited.json", json.dumps(edited).encode(), "application/json")).run()
    app.button(key="archive_check").click().run()
    assert not app.exception
    assert any("did not write this run" in e.value for e in app.error), [e.value for e in app.error]


def test_a_tree_run_shows_a_dash_for_k_not_none(store):
    """Issue 49, defect 12: the archive read "None" in the k column of a tree run; its shape stands beside it."""
    keep_run(cached_run("poetry", "cpu", "distilled", "床前明月光，", DecodeSettings(seed=5, max_new_tokens=12, tree="2-1")))
    app_run(seed=6)
    app = open_page("archive", "en", pair="tiny")
    table = app.dataframe[0].value
    shown = dict(zip(table["Shape"], table["k"]))
    assert shown == {"2-1": "—", "one line": "3"}, shown


def test_the_table_has_short_headers_so_every_column_fits(store):
    """#27: the table's last column was cut off beside the sidebar at 1400 px."""
    app_run(seed=19)
    app = open_page("archive", "en", pair="tiny")
    headers = list(app.dataframe[0].value.columns)
    assert headers[-1] == "Source" and max(len(h) for h in headers) <= 12, headers


BILLION = {"zh": "新寫詞元數要在 1 到 100000 之間", "en": "the number of new tokens must be from 1 to 100000"}
PAST_CONTEXT = {"zh": "開頭 200 個詞元加上 12 個新詞元放不下", "en": "a prompt of 200 tokens and 12 new ones do not fit"}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_trace_asking_for_a_billion_tokens_is_refused_in_the_reader_s_language(store, language):
    """#38: it imported, and its check by replay ran for ever, growing the server by 35 MB/s."""
    bomb = json.loads(app_run(seed=13))
    bomb["settings"] |= {"max_new_tokens": 10**9, "k": 32, "stop_at_eos": False}
    app = open_page("archive", language, pair="tiny")
    before = store.count()
    app.file_uploader[0].set_value(("bomb.json", json.dumps(bomb).encode(), "application/json")).run()
    assert not app.exception
    assert store.count() == before
    assert any(BILLION[language] in e.value for e in app.error), [e.value for e in app.error]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_check_by_replay_refuses_a_run_past_the_pair_s_context_before_running_it(store, language):
    """#38: a 5,000-token prompt replayed past the pair's 1,024 (21 s, 1.7 GB); ids past the vocabulary
    crashed the forward. The tiny pair reads 128 tokens."""
    long = json.loads(app_run(seed=14))
    long["prompt_tokens"] = [3] * 200
    store.import_json(json.dumps(long))
    app = open_page("archive", language, pair="tiny")
    app.button(key="archive_check").click().run()
    assert not app.exception
    assert any(PAST_CONTEXT[language] in e.value for e in app.error), [e.value for e in app.error]


def test_check_by_replay_names_the_differing_characters_not_only_their_ids(store, tiny):
    """#36: the message read "stored 17, replayed 23": token ids a class cannot read."""
    from specdec_core.algorithm.trace import Trace
    from specdec_core.services.replay import replay_check

    genuine = json.loads(app_run(seed=15))
    edited = dict(genuine, settings=dict(genuine["settings"], seed=16))
    check = replay_check(tiny, Trace.from_dict(edited))
    app = open_page("archive", "en", pair="tiny")
    app.file_uploader[0].set_value(("edited.json", json.dumps(edited).encode(), "application/json")).run()
    app.button(key="archive_check").click().run()
    message = next(e.value for e in app.error if "did not write this run" in e.value).replace("\\", "")  # Markdown escapes
    piece = lambda token: tiny.tokenizer.decode([token])  # noqa: E731 - the tiny pair's tokens are single characters
    assert f"stored “{piece(check.stored)}” (token id {check.stored})" in message, message
    assert f"replayed “{piece(check.replayed)}” (token id {check.replayed})" in message, message


def test_the_chosen_run_stays_chosen_after_a_visit_to_another_page(store):
    """#36: the archive's selection reset to the newest run on return to the page."""
    app_run(seed=21)
    app_run(seed=22)
    app = open_page("archive", "en", pair="tiny")
    older = store.list()[-1].id
    app.selectbox(key="archive_run").set_value(older).run()
    app.switch_page("views/iron_rule.py").run()
    assert not app.exception
    app.switch_page("views/archive.py").run()
    assert not app.exception
    assert app.selectbox(key="archive_run").value == older


def test_the_import_message_goes_once_the_reader_does_something_else(store):
    """#36: "Imported as run #n" stayed up over later actions, as if they had imported something."""
    data = json.loads(app_run(seed=23))
    data["settings"]["seed"] = 24
    app = open_page("archive", "en", pair="tiny")
    app.file_uploader[0].set_value(("run.json", json.dumps(data).encode(), "application/json")).run()
    assert any(s.value.startswith("Imported as run #") for s in app.success)
    app.selectbox(key="archive_run").set_value(store.list()[-1].id).run()
    assert not app.exception
    assert not any(s.value.startswith("Imported as run #") for s in app.success)


def test_ticking_a_slider_files_no_run_and_stepping_files_the_one_looked_at(store):
    """#36: every tick of a sidebar slider made a run, and each was filed; a run is filed when its reader steps."""
    app = open_page("scriptorium", "en", pair="tiny", max_new="8", seed="31")
    for k in (2, 3, 4, 5):  # a teacher walking the k slider to the value they want
        set_setting(app, "k", k)
        assert not app.exception
    assert store.count() == 0
    step_forward(app)
    step_forward(app)
    assert not app.exception
    assert [(row.k, row.seed) for row in store.list()] == [(5, 31)]


TOO_LONG = {"zh": "卻只有 3 個詞元；一個詞元最多寫成 256 個字", "en": "characters for its 3 tokens; a token reads as at most 256"}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_three_million_character_prompt_is_refused_in_the_reader_s_language(store, language):
    """#38: ten such traces grew the archive from 0.8 to 199 MB and every visit by 119 MB."""
    bomb = json.loads(app_run(seed=41))
    bomb["prompt_text"] = "x" * 3_000_000  # 3 MB: under the file limit
    bomb["settings"]["seed"] = 42
    app = open_page("archive", language, pair="tiny")
    before = store.count()
    app.file_uploader[0].set_value(("bomb.json", json.dumps(bomb).encode(), "application/json")).run()
    assert not app.exception
    assert store.count() == before
    assert any(TOO_LONG[language] in e.value for e in app.error), [e.value[:200] for e in app.error]


CAP = {"zh": ("卷宗最多收 5,000 卷", "從最舊的刪起", "不會被刪"), "en": ("at most 5,000 runs", "oldest first", "never dropped")}
FULL = {"zh": "先刪掉一卷匯入的，才能再匯入", "en": "Delete an imported run to make room"}


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_page_says_what_happens_at_the_cap_and_refuses_an_import_past_it(store, monkeypatch, language):
    from specdec_core.services import archive as archive_module

    app = open_page("archive", language, pair="tiny")
    said = " ".join(c.value for c in app.caption)
    assert all(words in said for words in CAP[language]), said
    monkeypatch.setattr(archive_module, "MAX_IMPORTED_RUNS", 1)
    data = json.loads(app_run(seed=43))
    for seed, name in ((44, "first.json"), (45, "second.json")):
        data["settings"]["seed"] = seed
        app.file_uploader[0].set_value((name, json.dumps(data).encode(), "application/json")).run()
        assert not app.exception
    assert [row.source for row in store.list()] == ["import", "app"]
    assert any(FULL[language] in e.value for e in app.error), [e.value for e in app.error]


def test_the_table_receives_previews_and_the_opened_run_its_whole_text(store):
    """#38: each visit sent every row's prompt and text in full, 119 MB over the websocket."""
    data = json.loads(app_run(seed=46))
    data.update(prompt_tokens=[3] * 400, prompt_text="墨" * 100_000)
    data["settings"]["seed"] = 47
    store.import_json(json.dumps(data))
    for seed in range(48, 52):
        app_run(seed=seed)
    app = open_page("archive", "en", pair="tiny")
    assert not app.exception
    table = app.dataframe[0].value
    sent = sum(len(str(value)) for column in table.columns for value in table[column])
    assert len(table) == 6 and sent < 2_000, sent  # the long prompt's row sends 81 characters of it
    assert list(table["Prompt"]).count("墨" * 80 + "…") == 1
    long_id = next(row.id for row in store.list() if row.source == "import")
    app.selectbox(key="archive_run").set_value(long_id).run()
    assert any("墨" * 100_000 in m.value for m in app.markdown)  # opened, the run is read whole from its trace


def test_an_import_is_checked_with_the_page_slot_lent_to_other_pages(store, monkeypatch):
    """#38: a 19.6 MB import took 37 s, and another student's step went from 0.03 s to 2.4 s meanwhile."""
    from contextlib import contextmanager

    import ui.archive.store

    events = []

    @contextmanager
    def spy_long_work():
        events.append("lent")
        yield
        events.append("back")

    real_import = Archive.import_json
    monkeypatch.setattr(ui.archive.store, "long_work", spy_long_work)
    monkeypatch.setattr(Archive, "import_json",
                        lambda self, data, owner: events.append("checked") or real_import(self, data, owner))
    data = json.loads(app_run(seed=53))
    data["settings"]["seed"] = 54
    app = open_page("archive", "en", pair="tiny")
    app.file_uploader[0].set_value(("run.json", json.dumps(data).encode(), "application/json")).run()
    assert not app.exception
    assert events == ["lent", "checked", "back"]
    assert store.list()[0].source == "import"


def test_a_visitor_deletes_only_their_own_runs(store, monkeypatch):
    """#50: any visitor could delete every run (500 deletes in 44.5 s)."""
    app_run(seed=31)  # filed outside any tab, as another visitor's run would be for this one
    monkeypatch.setenv(OPERATOR_VAR, "the lecturer's own words")
    app = open_page("archive", "en", pair="tiny")
    assert not app.exception
    assert not any(b.key == "archive_delete" for b in app.button)
    assert any(c.value.startswith("Only the visitor who made or imported this run may delete it") for c in app.caption)
    app.text_input(key="archive_operator_token").set_value("a guess").run()
    assert app.error[-1].value.startswith("That is not the token")
    assert not any(b.key == "archive_delete" for b in app.button)
    assert len(store.list()) == 1


def test_a_visitor_may_delete_the_run_they_imported(store):
    data = json.loads(app_run(seed=61))
    data["settings"]["seed"] = 62
    app = open_page("archive", "en", pair="tiny")
    app.file_uploader[0].set_value(("run.json", json.dumps(data).encode(), "application/json")).run()
    imported = next(row for row in store.list() if row.source == "import")
    assert imported.owner.startswith("session ")  # a tab on the loopback is a visitor of its own
    assert app.selectbox(key="archive_run").value == imported.id
    app.button(key="archive_delete").click().run()
    assert not app.exception
    assert [row.source for row in store.list()] == ["app"]
