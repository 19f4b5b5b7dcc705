"""Links a visitor may paste: every page renders without an exception, refused values are named, and a
link never makes the server read a folder or open a connection."""
import os
import re
import socket
import sys
from contextlib import contextmanager

import pytest
from app_pages import open_page

IO_EVENTS = ("open", "os.", "shutil.", "glob.", "socket.", "http.", "urllib.")  # audit events that touch disk or network
PAGES = ["parable", "scriptorium", "iron_rule", "proof", "race", "speed_lab", "archive"]
ADDRESSES = {
    "unknown language and k": {"language": "EN", "k": "999"},
    "run id past SQLite": {"pair": "tiny", "run": "100000000000000000000"},
    "run id not a number": {"pair": "tiny", "run": "../1"},
    "path as pair": {"pair": "../../etc", "language": "xx"},
    "unknown scribe and device": {"pair": "tiny", "scribe": "evil", "device": "meta"},
    "not numbers": {"pair": "tiny", "k": "four", "seed": "1e400", "temperature": "nan", "top_p": "-inf", "noise": "0x1"},
    "huge numbers": {"pair": "tiny", "seed": "9" * 400, "max_new": str(10**30), "large": "maybe"},
    "a temperature below the floor": {"pair": "tiny", "temperature": "1e-40"},  # #38: NaN in the trace
    "markup": {"pair": "tiny", "prompt": '<img src=x onerror=alert(1)>![t](http://127.0.0.1:9/x.png)', "other": "a,b"},
    "shapes the core refuses": {"pair": "tiny", "shape": "8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8-8"},
    "a tree these models cannot draw": {"pair": "tiny", "shape": "dynamic-8-128"},  # the tiny master lacks the lean forward
}


@pytest.mark.parametrize("query", ADDRESSES.values(), ids=ADDRESSES.keys())
@pytest.mark.parametrize("page", PAGES)
def test_every_page_survives_every_hostile_link(page, query):
    language = query.get("language", "en")
    app = open_page(page, language, **{key: value for key, value in query.items() if key != "language"})
    assert not app.exception, app.exception


@pytest.mark.parametrize(
    "key, value",
    [("pair", "../../etc"), ("scribe", "evil"), ("device", "meta"), ("language", "xx"), ("k", "999"), ("seed", "-1"),
     ("temperature", "1e-40"), ("temperature", "0.001"), ("shape", "evil"), ("shape", "9-1"), ("shape", "8-8-8"),
     ("shape", "dynamic-2-999"), ("shape", "<b>2-2</b>")],
)
def test_a_refused_link_value_is_named_never_silently_replaced(key, value):
    query = {"language": "en", **({"pair": "tiny"} if key == "scribe" else {}), key: value}
    app = open_page("parable", query.pop("language"), **query)
    assert not app.exception
    notes = [w.value for w in app.sidebar.warning]
    assert any(f"{key}={value}" in note.replace("\\", "") for note in notes), notes


def test_a_markdown_prompt_from_a_link_is_drawn_as_text(monkeypatch):
    app = open_page("iron_rule", "en", pair="tiny", prompt="![t](http://127.0.0.1:9/x.png)")
    assert not app.exception
    drawn = " ".join(str(getattr(e, "value", "")) for e in app.markdown) + " ".join(e.value for e in app.error)
    assert "![t](" not in drawn  # escaped as \!\[t\]\( wherever the prompt was written back


def test_a_link_naming_an_unregistered_pair_reads_nothing_and_connects_nowhere(tmp_path, monkeypatch):
    """With no model folder allowed, ?other= and ?pair= paths are refused before anything touches them."""
    monkeypatch.delenv("SCRIPTORIUM_MODEL_DIR", raising=False)
    probe = tmp_path / "probe-models"
    probe.mkdir()
    (probe / "config.json").write_text("{}")
    hostile = ({"other": f"{probe},{probe}"}, {"pair": str(probe)}, {"other": "HuggingFaceTB/SmolLM2-135M,x"})
    with _watch(probe, monkeypatch) as (touched, connections):
        for query in hostile:
            app = open_page("parable", "en", **query)
            assert not app.exception
            assert app.session_state["choice"].pair in ("poetry", "smollm2", "tiny")
    assert touched == [], touched
    assert [c for c in connections if not _loopback(c[1])] == [], connections


def test_the_watch_sees_a_folder_being_read(tmp_path, monkeypatch):
    """The negative control: where the server allows a model folder, the same watch sees it looked at."""
    probe = tmp_path / "probe-models"
    probe.mkdir()
    monkeypatch.setenv("SCRIPTORIUM_MODEL_DIR", str(tmp_path))
    with _watch(probe, monkeypatch) as (touched, _):
        open_page("parable", "en", other="probe-models,probe-models")
    assert touched, "the watch saw nothing: the test above would pass for any code"


@contextmanager
def _watch(probe, monkeypatch):
    """Audit events (open, listdir, connect) and os.stat calls that name `probe` or reach past loopback."""
    touched, connections, watching = [], [], [True]

    def spy(event, args):
        if not watching[0]:
            return
        if event in ("socket.connect", "socket.getaddrinfo"):
            connections.append((event, args))
        if event.startswith(IO_EVENTS) and any(str(probe) in str(a) or "huggingface.co" in str(a) for a in args):
            touched.append((event, args))

    real_stat = os.stat

    def stat(path, *args, **kwargs):  # is_dir and exists look through os.stat, which raises no audit event
        if watching[0] and str(probe) in str(path):
            touched.append(("os.stat", path))
        return real_stat(path, *args, **kwargs)

    sys.addaudithook(spy)  # cannot be removed: `watching` silences it after the block
    monkeypatch.setattr(os, "stat", stat)
    try:
        yield touched, connections
    finally:
        watching[0] = False


def _loopback(args) -> bool:
    text = str(args)
    return "127.0.0.1" in text or "localhost" in text or "::1" in text or socket.AF_UNIX.name in text


def test_the_server_config_fits_a_class():
    """#28 and #27: loopback only, no tracebacks for visitors, uploads capped at the archive's own limit
    (the uploader said 200MB), no file watcher, no lookup of an external address, no per-page full GC."""
    import tomllib
    from pathlib import Path

    from specdec_core.algorithm.trace import MAX_TRACE_BYTES

    config = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml").read_text())
    server = config["server"]
    assert server["address"] == "127.0.0.1" and server["fileWatcherType"] == "none"
    assert server["maxUploadSize"] == MAX_TRACE_BYTES // 1_000_000
    assert config["client"]["showErrorDetails"] == "none" and config["runner"]["postScriptGC"] is False


ICON_DIRECTIVE = re.compile(r":(material|streamlit)/\w+:|:[\w+-][\w_+-]*:")  # what Streamlit draws as an icon or emoji
BIDI = "\u202e\u202a\u2066\u200f"


@pytest.mark.parametrize("text", [":material/lock: Log in", "a :smile: b", ":streamlit: x", "‮gnp.exe"])
def test_visitor_text_drawn_as_markdown_reads_no_directive_and_no_bidi_control(text):
    """#38: :material/lock: survived the escaping and drew an icon; U+202E reversed the rest of a line."""
    from ui.shared.i18n import Texts, markdown_literal

    for drawn in (markdown_literal(text), Texts({"x": {"zh": "{v}", "en": "{v}"}})("x", v=text)):
        unescaped = drawn.replace("\\", "")  # what Streamlit's Markdown leaves for its icon pass
        assert not ICON_DIRECTIVE.search(unescaped) and not set(BIDI) & set(drawn), drawn
        assert unescaped.replace("\u2060", "") == text.replace("\u202e", ""), drawn  # the text itself is kept


def test_bidi_controls_never_reach_a_plain_label_or_the_sheet():
    from ui.scriptorium.sheet import display_piece
    from ui.shared.i18n import Texts

    assert Texts({"x": {"zh": "{v}", "en": "{v}"}}).plain("x", v=f"a{BIDI}b") == "ab"
    assert display_piece(f"\u202e春") == "春"


def test_an_imported_prompt_with_directives_and_bidi_controls_is_drawn_inert(tmp_path, monkeypatch):
    import json

    from specdec_core.services.archive import Archive
    from specdec_core.settings import DecodeSettings
    from ui.shared.runs import cached_run

    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", str(tmp_path / "archive.sqlite"))
    cached_run.clear()
    trace = json.loads(cached_run("tiny", "cpu", "lm", "春山", DecodeSettings(k=3, seed=31, max_new_tokens=8)))
    trace["prompt_text"] = "\u202e:material/lock: 春山"
    Archive(tmp_path / "archive.sqlite").import_json(json.dumps(trace, ensure_ascii=False))
    app = open_page("archive", "en", pair="tiny")
    assert not app.exception
    markdown, cells = [m.value for m in app.markdown], list(app.dataframe[0].value["Prompt"])  # a cell draws no icons
    assert any("lock" in text for text in markdown) and cells
    for text in markdown:
        assert not ICON_DIRECTIVE.search(text.replace("\\", "")), text
    for text in markdown + cells:
        assert "\u202e" not in text, text


@pytest.mark.parametrize("key, value", [("samples", "7"), ("samples", "lots"), ("rule", "evil"), ("tree", "yes")])
def test_the_proof_page_names_a_refused_samples_or_rule_like_every_other_link_value(key, value):
    """#38: the proof page dropped these silently, unlike every other link value."""
    app = open_page("proof", "en", pair="tiny", **{key: value})
    assert not app.exception
    notes = [w.value for w in app.sidebar.warning]
    assert any(f"{key}={value}" in note.replace("\\", "") for note in notes), notes
    assert app.query_params[key] != value  # the address bar says what runs
    again = [w.value for w in app.run().sidebar.warning]
    assert sum(f"{key}={value}" in note.replace("\\", "") for note in again) == 1, again  # kept, said once
