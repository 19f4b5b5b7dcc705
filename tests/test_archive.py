"""The archive alone: created on first use, save/list/filter/get/delete, dedupe, refused files, threads."""
import json
import sqlite3
import threading
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from specdec_core.algorithm.trace import MAX_TRACE_BYTES, Trace, TraceError, summarize
from specdec_core.decoding.generate import speculative_generate
from specdec_core.services.archive import (
    ARCHIVE_SCHEMA,
    Archive,
    ArchiveError,
    MissingRun,
    RunFilter,
    default_path,
)
from specdec_core.settings import DecodeSettings


def run(tiny, prompt, scribe="lm", k=3, seed=0) -> str:
    settings = DecodeSettings(k=k, seed=seed, max_new_tokens=12)
    return speculative_generate(tiny.as_target(), tiny.draft(scribe), prompt, settings).to_json()


@pytest.fixture(scope="module")
def traces(tiny, tiny_prompt):
    return {
        "lm3": run(tiny, tiny_prompt),
        "lm2": run(tiny, tiny_prompt, k=2),
        "ngram3": run(tiny, tiny_prompt, scribe="ngram"),
    }


@pytest.fixture
def store(tmp_path) -> Archive:
    return Archive(tmp_path / "nested" / "folder" / "archive.sqlite")


def snapshot(store: Archive) -> list[str]:
    """Every table and row, as SQL: equal snapshots mean nothing changed."""
    with sqlite3.connect(store.path) as db:
        return list(db.iterdump())


def test_the_file_and_its_layout_are_made_on_first_use(store):
    assert not store.path.exists()  # opening an Archive alone writes nothing
    assert store.count() == 0
    assert store.path.exists()
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(ARCHIVE_SCHEMA,)]
    assert Archive(store.path).count() == 0  # a second opening keeps the one version row
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (1,)


def test_a_saved_run_lists_its_numbers_and_comes_back_whole(store, traces):
    saved = store.save(traces["lm3"])
    assert saved.new
    trace = Trace.from_json(traces["lm3"])
    summary = summarize(trace)
    (row,) = store.list()
    assert (row.id, row.pair, row.scribe, row.k, row.seed, row.source) == (saved.id, "tiny", "lm", 3, 0, "app")
    assert row.temperature == trace.settings["sampling"]["temperature"]
    assert (row.prompt_text, row.text, row.tokens) == (trace.prompt_text, trace.text, summary["tokens"])
    assert row.alpha == pytest.approx(summary["alpha"])
    assert row.tokens_per_target_forward == pytest.approx(summary["tokens_per_target_forward"])
    assert row.created_at.tzinfo == timezone.utc
    assert abs(datetime.now(timezone.utc) - row.created_at) < timedelta(minutes=5)
    assert store.get(saved.id) == trace.to_json()


def test_filters_by_pair_scribe_k_and_date(store, traces):
    ids = {name: store.save(text).id for name, text in traces.items()}
    listed = lambda **where: {row.id for row in store.list(RunFilter(**where))}  # noqa: E731
    assert listed() == set(ids.values())
    assert listed(pair="tiny") == set(ids.values())
    assert listed(pair="poetry") == set()
    assert listed(scribe="ngram") == {ids["ngram3"]}
    assert listed(k=2) == {ids["lm2"]}
    assert listed(scribe="lm", k=3) == {ids["lm3"]}
    with sqlite3.connect(store.path) as db:  # file one run a week ago
        db.execute("UPDATE runs SET created_at = ? WHERE id = ?", ("2026-01-01T23:59:59+00:00", ids["lm2"]))
    assert listed(date_from=date(2026, 1, 1), date_to=date(2026, 1, 1)) == {ids["lm2"]}  # both ends included
    assert listed(date_to=date(2025, 12, 31)) == set()
    assert listed(date_from=date(2026, 1, 2)) == {ids["lm3"], ids["ngram3"]}
    assert store.choices() == {"pair": ["tiny"], "scribe": ["lm", "ngram"], "k": [2, 3]}
    assert [row.id for row in store.list()] == sorted(ids.values(), reverse=True)  # newest first


def test_the_same_run_is_kept_once_even_with_other_timings(store, traces):
    first = store.save(traces["lm3"])
    again = store.save(traces["lm3"], source="import")
    data = json.loads(traces["lm3"])
    data["wall_s"] += 1.0
    data["rounds"][0]["target_s"] += 0.5
    slower = store.save(json.dumps(data))
    data["settings"]["seed"] = 99  # another seed is another run, even with the same tokens
    other = store.save(json.dumps(data))
    assert (again, slower) == ((first.id, False), (first.id, False))
    assert other.new and other.id != first.id
    assert store.count() == 2


def broken(text: str, change) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


BAD_FILES = {
    "not JSON": lambda good: "{this is not json",
    "not an object": lambda good: "[1, 2, 3]",
    "wrong schema version": lambda good: broken(good, lambda d: d.update(schema_version=2)),
    "missing field": lambda good: broken(good, lambda d: d.pop("rounds")),
    "unexpected field": lambda good: broken(good, lambda d: d.update(comment="hi")),
    "tokens do not match the rounds": lambda good: broken(good, lambda d: d["tokens"].reverse()),
    "nested too deeply": lambda good: "[" * 100_000 + "]" * 100_000,
    "oversized": lambda good: good + " " * (MAX_TRACE_BYTES + 1 - len(good.encode())),
    # fewer characters than the limit, more bytes: the limit is on bytes, as a file on disk
    "oversized in bytes, not characters": lambda good: good[:-1] + ', "pad": "' + "墨" * (MAX_TRACE_BYTES // 3) + '"}',
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_bad_file_is_refused_with_a_sentence_and_changes_nothing(store, traces, kind):
    store.save(traces["lm3"])
    before = snapshot(store)
    with pytest.raises(TraceError) as refused:
        store.import_json(BAD_FILES[kind](traces["lm2"]))
    assert str(refused.value)  # the sentence the page shows
    if kind.startswith("oversized"):
        assert "bytes" in str(refused.value)
    assert snapshot(store) == before


def test_a_newer_layout_or_a_foreign_file_is_refused_by_name(tmp_path, traces):
    newer = Archive(tmp_path / "newer.sqlite")
    newer.count()
    with sqlite3.connect(newer.path) as db:
        db.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(ArchiveError, match="layout version"):
        Archive(newer.path).save(traces["lm3"])
    foreign = tmp_path / "notes.sqlite"
    foreign.write_text("shopping list: ink, brushes, paper\n" * 100)
    with pytest.raises(ArchiveError, match="notes.sqlite"):
        Archive(foreign).count()
    assert foreign.read_text().startswith("shopping list")


def test_delete_and_missing_runs(store, traces):
    saved = store.save(traces["lm3"])
    assert store.delete(saved.id)
    assert not store.delete(saved.id)
    with pytest.raises(MissingRun, match=str(saved.id)):
        store.get(saved.id)
    assert store.count() == 0


def test_threads_share_one_file(store, traces):
    """Streamlit runs each session in its own thread, all with the one cached Archive."""
    variants = [broken(traces["lm3"], lambda d, s=seed: d["settings"].update(seed=s)) for seed in range(8)]
    saved, errors = [], []

    def work(text):
        try:
            saved.append(store.save(text))
            saved.append(store.save(traces["lm2"]))  # everyone saves this one too: it must stay one row
            store.list()
        except Exception as error:  # noqa: BLE001 - collected and reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(text,)) for text in variants]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert store.count() == 9
    assert len({s.id for s in saved if s.new}) == 9
    assert sum(s.new for s in saved) == 9


def test_where_the_file_lives(monkeypatch, tmp_path):
    assert default_path({"SCRIPTORIUM_ARCHIVE": "/srv/class.sqlite"}) == Path("/srv/class.sqlite")
    assert default_path({"XDG_DATA_HOME": "/data"}) == Path("/data/scriptorium/archive.sqlite")
    assert default_path({}) == Path.home() / ".local/share/scriptorium/archive.sqlite"
    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", str(tmp_path / "env.sqlite"))
    assert Archive().path == tmp_path / "env.sqlite"


def test_saving_a_run_again_does_not_use_up_an_id(tmp_path, tiny, tiny_prompt):
    """#27: the archive's numbers skipped, because each refused duplicate insert consumed one."""
    store = Archive(tmp_path / "archive.sqlite")
    runs = [run(tiny, tiny_prompt, seed=seed) for seed in (1, 1, 1, 2, 2, 3)]
    ids = [store.save(run).id for run in runs]
    assert ids == [1, 1, 1, 2, 2, 3]
