"""Imported traces: every field checked for type and range before anything is stored or drawn."""
import json

import pytest

from specdec_core.algorithm.trace import Trace, TraceError
from specdec_core.decoding.generate import speculative_generate
from specdec_core.services.archive import Archive
from specdec_core.settings import MAX_TOKENS, DecodeSettings
from ui.scriptorium.moments import moments
from ui.scriptorium.sheet import sheet_html


@pytest.fixture(scope="module")
def good(tiny, tiny_prompt) -> dict:
    trace = speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(k=3, seed=5, max_new_tokens=12))
    return json.loads(trace.to_json())


def edited(good: dict, path: str, value) -> str:
    """The good trace with one field replaced; path like "rounds.0.drafted.0.p"."""
    data = json.loads(json.dumps(good))
    *parents, last = path.split(".")
    node = data
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[int(last) if isinstance(node, list) else last] = value
    return json.dumps(data, ensure_ascii=False)


HOSTILE = {
    "accept_prob as a word": ("rounds.0.drafted.0.accept_prob", "high"),
    "n_accepted not whole": ("rounds.0.n_accepted", 1.5),
    "next_piece a number": ("rounds.0.next_piece", 7),
    "prompt_text a number": ("prompt_text", 12345),
    "negative probability": ("rounds.0.drafted.0.p", -5),
    "probability above one": ("rounds.0.next_dist_top.0.q", 1.5),
    "token id past any vocabulary": ("rounds.0.drafted.0.token", 10**12),
    "markup as next_kind": ("rounds.0.next_kind", 'bonus"><form><input type=password></form><b class="x'),
    "unknown mode": ("mode", "<script>"),
    "boolean as token": ("tokens.0", True),
    "negative time": ("wall_s", -1),
    "settings holding a list": ("settings.k", [1, 2]),
    "settings nested deep": ("settings.sampling", {"a": {"b": 1}}),
    "a piece of a megabyte": ("rounds.0.drafted.0.piece", "字" * 1_000_000),
    "a k of thousands": ("rounds.0.k", 5000),
    "first_rejected a word": ("rounds.0.first_rejected", "none"),
    # issue 50, defects 4 and 8: 7.9 M characters in pair added 15.8 MB to the archive a time; U+202E reversed its table
    "a pair name of megabytes": ("pair", "p" * 7_900_000),
    "a scribe name past any scribe's": ("scribe", "s" * 65),
    "a direction mark in the pair": ("pair", "tiny\u202e"),
    "a control character in the scribe": ("scribe", "lm\u0000"),
    "a rule name of megabytes in the settings": ("settings.rule", "r" * 300),
}


def test_the_good_trace_reads_back(good):
    assert Trace.from_json(json.dumps(good)).tokens == good["tokens"]


@pytest.mark.parametrize("path, value", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_field_is_refused_with_its_name(good, path, value):
    with pytest.raises(TraceError) as refused:
        Trace.from_json(edited(good, path, value))
    named = [part for part in path.split(".") if not part.isdigit()]
    assert any(part in str(refused.value) for part in named), str(refused.value)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_constants_no_run_writes_are_refused(good, constant):
    text = edited(good, "rounds.0.drafted.0.u", 0.123456789).replace("0.123456789", constant)
    with pytest.raises(TraceError, match=constant):
        Trace.from_json(text)


@pytest.mark.parametrize("path, value", list(HOSTILE.values())[:4], ids=list(HOSTILE)[:4])
def test_the_archive_refuses_them_and_stays_as_it_was(good, path, value, tmp_path):
    store = Archive(tmp_path / "archive.sqlite")
    store.save(json.dumps(good))
    with pytest.raises(TraceError):
        store.import_json(edited(good, path, value))
    assert store.count() == 1


UNBOUNDED = {  # #38: each imported fine, then a replay ran forever, past the context, or on NaN
    "a billion new tokens": ({"max_new_tokens": 10**9, "k": 32, "stop_at_eos": False}, None, "max_new_tokens"),
    "a temperature of 1e-40": ({"sampling": {"temperature": 1e-40, "top_k": 0, "top_p": 1.0}}, None, "temperature"),
    "fewer new tokens than it wrote": ({"max_new_tokens": 3}, None, "more_than_max_new"),
    "a prompt past any context": ({}, [3] * (MAX_TOKENS + 1), "run_too_long"),
    "settings without sampling": ({"sampling": None}, None, "settings_unreadable"),
}


@pytest.mark.parametrize("settings, prompt, reason", UNBOUNDED.values(), ids=UNBOUNDED.keys())
def test_settings_no_run_could_have_are_refused_at_import_by_their_reason(good, settings, prompt, reason, tmp_path):
    data = json.loads(edited(good, "settings", good["settings"] | settings))
    if prompt is not None:
        data["prompt_tokens"] = prompt
    store = Archive(tmp_path / "archive.sqlite")
    with pytest.raises(TraceError) as refused:
        store.import_json(json.dumps(data))
    assert refused.value.reason == reason and "settings" in str(refused.value) + reason
    assert store.count() == 0


@pytest.mark.parametrize("depth", [500, 900])
def test_deeply_nested_extra_is_refused_not_a_recursion_error(good, depth, tmp_path):
    """#38: 500 to 900 levels in extra read as JSON, then broke the archive's digest with a RecursionError."""
    data = dict(good, extra={"x": json.loads("[" * depth + "]" * depth)})
    store = Archive(tmp_path / "archive.sqlite")
    with pytest.raises(TraceError) as refused:
        store.import_json(json.dumps(data))
    assert refused.value.reason == "extra_too_deep" and store.count() == 0


@pytest.mark.parametrize("number", ["1e999", "-1e999"])
def test_a_number_json_reads_as_infinity_is_refused_so_every_stored_run_reads_back(good, number, tmp_path):
    """#38: 1e999 in extra was stored as Infinity; the run never read back and the archive page, which
    opens the newest run, showed an error to every later visitor."""
    text = json.dumps(dict(good, extra={"x": 7.5})).replace("7.5", number)
    store = Archive(tmp_path / "archive.sqlite")
    with pytest.raises(TraceError, match="1e999"):
        store.import_json(text)
    assert store.count() == 0


def test_the_sheet_never_writes_an_unknown_kind_as_markup(good):
    """Defence in depth: even a Trace built in code with a hostile kind is drawn as plain ink."""
    trace = Trace.from_json(json.dumps(good))
    trace.rounds[0].next_kind = 'x"><img src=//evil>'
    html = sheet_html(trace, moments(trace)[-1])
    assert "evil" not in html and "<img" not in html
