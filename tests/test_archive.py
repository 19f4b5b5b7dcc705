"""The archive alone: created on first use, save/list/filter/get/delete, dedupe, refused files, threads, caps.
Every test given `store` runs on both backends, an SQLite file and a database in a real PostgreSQL."""
import copy
import json
import sqlite3
import threading
import zlib
from contextlib import closing
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from specdec_core.algorithm.trace import MAX_TRACE_BYTES, Trace, TraceError, summarize
from specdec_core.decoding.generate import speculative_generate
from specdec_core.services import archive as archive_module
from specdec_core.services.archive import (
    ARCHIVE_SCHEMA,
    PREVIEW_CHARS,
    Archive,
    ArchiveError,
    ArchiveFull,
    MissingRun,
    RunFilter,
    default_location,
)
from specdec_core.settings import DecodeSettings
from sqlalchemy import text

from ui.shared.sidebar import KNOBS


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


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path) -> Archive:
    if request.param == "sqlite":
        return Archive(tmp_path / "nested" / "folder" / "archive.sqlite")
    return Archive(request.getfixturevalue("postgres").new_database())


def sql(store: Archive, statement: str, **values) -> list[tuple]:
    """Run SQL on the archive's own database, as an older version or an operator would have left it."""
    with store.engine.begin() as db:
        result = db.execute(text(statement), values)
        return [tuple(row) for row in result] if result.returns_rows else []


def snapshot(store: Archive) -> list[list[tuple]]:
    """Every table's rows: equal snapshots mean nothing changed."""
    return [sql(store, f"SELECT * FROM {table} ORDER BY 1") for table in ("schema_version", "upgrades", "runs")]


def test_the_layout_is_made_on_first_use(store):
    if store.path is not None:
        assert not store.path.exists()  # opening an Archive alone writes nothing
    assert store.count() == 0
    assert sql(store, "SELECT version FROM schema_version") == [(ARCHIVE_SCHEMA,)]
    assert Archive(store.location).count() == 0  # a second opening keeps the one version row
    assert sql(store, "SELECT COUNT(*) FROM schema_version") == [(1,)]


def test_a_saved_run_lists_its_numbers_and_comes_back_whole(store, traces):
    saved = store.save(traces["lm3"])
    assert saved.new
    trace = Trace.from_json(traces["lm3"])
    summary = summarize(trace)
    (row,) = store.list()
    assert (row.id, row.pair, row.scribe, row.k, row.seed, row.source) == (saved.id, "tiny", "lm", 3, 0, "app")
    assert row.temperature == trace.settings["sampling"]["temperature"]
    assert (row.prompt_preview, row.text_preview, row.tokens) == (trace.prompt_text, trace.text, summary["tokens"])
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
    sql(store, "UPDATE runs SET created_at = :at WHERE id = :id", at="2026-01-01T23:59:59+00:00", id=ids["lm2"])
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


def test_a_newer_layout_is_refused_by_name(store, traces):
    store.count()
    sql(store, "UPDATE schema_version SET version = 99")
    with pytest.raises(ArchiveError, match="layout version"):
        Archive(store.location).save(traces["lm3"])


def test_a_foreign_file_is_refused_by_name(tmp_path):
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


def test_threads_share_one_archive(store, traces):
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


def test_where_the_archive_lives(monkeypatch, tmp_path):
    assert default_location({"SCRIPTORIUM_ARCHIVE": "/srv/class.sqlite"}) == "/srv/class.sqlite"
    assert default_location({"SCRIPTORIUM_ARCHIVE": "~/class.sqlite"}) == str(Path.home() / "class.sqlite")
    url = "postgresql://scriptorium:secret@db.example:5432/scriptorium"
    assert default_location({"SCRIPTORIUM_ARCHIVE": url}) == url  # a database's URL is kept as given
    assert default_location({"XDG_DATA_HOME": "/data"}) == "/data/scriptorium/archive.sqlite"
    assert default_location({}) == str(Path.home() / ".local/share/scriptorium/archive.sqlite")
    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", str(tmp_path / "env.sqlite"))
    assert Archive().path == tmp_path / "env.sqlite"
    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", url)
    remote = Archive()  # nothing is connected until it is used
    assert remote.path is None and remote.engine.dialect.name == "postgresql" and "secret" not in remote.where


@pytest.mark.parametrize("url, said", [
    ("mysql://db.example/archive", "postgresql://"),
    ("postgresql://scriptorium:secret@127.0.0.1:1/archive", "cannot be opened"),  # nothing listens on port 1
])
def test_a_database_that_cannot_serve_is_refused_with_a_sentence(url, said):
    with pytest.raises(ArchiveError, match=said) as refused:
        Archive(url).count()
    assert "secret" not in str(refused.value) and "\n" not in str(refused.value)


def test_saving_a_run_again_does_not_use_up_an_id(store, tiny, tiny_prompt):
    """#27: the archive's numbers skipped, because each refused duplicate insert consumed one."""
    runs = [run(tiny, tiny_prompt, seed=seed) for seed in (1, 1, 1, 2, 2, 3)]
    ids = [store.save(run).id for run in runs]
    assert ids == [1, 1, 1, 2, 2, 3]


def long_prompt_trace(good: str, prompt_tokens: int, prompt_chars: int, text_chars: int | None = None) -> str:
    """A genuine run given a prompt of prompt_tokens ids and prompt_chars characters (and a text of text_chars)."""
    data = json.loads(good)
    data["prompt_tokens"] = [3] * prompt_tokens
    data["prompt_text"] = "墨" * prompt_chars
    if text_chars is not None:
        data["text"] = "卿" * text_chars
    return json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("part", ["prompt_text", "text"])
def test_a_prompt_or_text_longer_than_its_tokens_can_write_is_refused(store, traces, part):
    """#38: ten traces with a 3.3M-character prompt and text grew the archive from 0.8 to 199 MB."""
    bomb = json.loads(traces["lm3"])
    bomb[part] = "x" * 3_000_000  # 3 MB: under the file limit, on a prompt of a few tokens
    assert len(json.dumps(bomb).encode()) < MAX_TRACE_BYTES
    with pytest.raises(TraceError) as refused:
        store.import_json(json.dumps(bomb))
    assert refused.value.reason == ("prompt_chars" if part == "prompt_text" else "text_chars")
    assert refused.value.values["chars"] == 3_000_000 and refused.value.values["limit"] < 10_000
    assert store.count() == 0
    store.import_json(long_prompt_trace(traces["lm3"], prompt_tokens=4, prompt_chars=4 * 256))  # the bound itself is fine


def test_the_table_s_rows_hold_previews_and_the_run_is_whole_when_opened(store, traces):
    """#38: every visit to the archive shipped every row's prompt and text in full (119 MB a visit)."""
    long = long_prompt_trace(traces["lm3"], prompt_tokens=400, prompt_chars=100_000, text_chars=3_000)
    saved = store.import_json(long)
    short = store.save(traces["lm2"])
    rows = {row.id: row for row in store.list()}
    assert rows[saved.id].prompt_preview == "墨" * PREVIEW_CHARS + "…"
    assert rows[saved.id].text_preview == "卿" * PREVIEW_CHARS + "…"
    assert rows[short.id].prompt_preview == Trace.from_json(traces["lm2"]).prompt_text  # a short one is whole, no …
    assert Trace.from_json(store.get(saved.id)).prompt_text == "墨" * 100_000
    assert sql(store, "SELECT max(length(prompt_text)), max(length(text)) FROM runs") == [(81, 81)]  # no more kept


def test_rows_saved_whole_by_an_earlier_version_are_shortened_on_opening(store, traces):
    saved = store.save(traces["lm3"])
    sql(store, "UPDATE runs SET prompt_text = :long WHERE id = :id", long="墨" * 1_000_000, id=saved.id)
    reopened = Archive(store.location)
    (row,) = reopened.list()
    assert row.prompt_preview == "墨" * PREVIEW_CHARS + "…"
    assert sql(store, "SELECT length(prompt_text) FROM runs") == [(PREVIEW_CHARS + 1,)]


def seeded(good: str, seed: int) -> str:
    return broken(good, lambda d: d["settings"].update(seed=seed))


def test_at_the_cap_the_oldest_app_runs_go_and_imports_stay(store, traces, monkeypatch):
    """#38: the archive had no cap. Past it, the app's oldest runs are dropped; a person's imports never are."""
    monkeypatch.setattr(archive_module, "MAX_RUNS", 5)
    imported = [store.import_json(seeded(traces["lm3"], 100 + i)).id for i in range(2)]
    made = [store.save(seeded(traces["lm3"], i)).id for i in range(6)]
    kept = {row.id for row in store.list()}
    assert store.count() == 5
    assert kept == set(imported) | set(made[-3:])  # the three oldest app runs went, oldest first
    store.import_json(seeded(traces["lm3"], 200))  # an import is room for itself too: an app run makes way
    assert store.count() == 5 and set(imported) <= {row.id for row in store.list()}
    assert made[-3] not in {row.id for row in store.list()}


def test_the_byte_cap_drops_app_runs_by_their_stored_size(store, traces, monkeypatch):
    one = len(zlib.compress(Trace.from_json(seeded(traces["lm3"], 0)).to_json().encode()))
    monkeypatch.setattr(archive_module, "MAX_STORED_BYTES", int(3.5 * one))
    ids = [store.save(seeded(traces["lm3"], i)).id for i in range(5)]
    assert [row.id for row in store.list()] == ids[:-4:-1]  # three fit in 3.5 runs' bytes: the newest three


def test_imports_past_their_share_are_refused_and_change_nothing(store, traces, monkeypatch):
    monkeypatch.setattr(archive_module, "MAX_IMPORTED_RUNS", 2)
    for seed in (1, 2):
        store.import_json(seeded(traces["lm3"], seed))
    before = snapshot(store)
    with pytest.raises(ArchiveFull) as refused:
        store.import_json(seeded(traces["lm3"], 3))
    assert refused.value.reason == "archive_full" and refused.value.values["runs"] == 2
    assert "delete an imported run" in str(refused.value)
    assert snapshot(store) == before
    assert store.import_json(seeded(traces["lm3"], 1)) == (1, False)  # one already there is no new import
    store.save(seeded(traces["lm3"], 3))  # the app's own runs are never refused
    monkeypatch.setattr(archive_module, "MAX_IMPORTED_BYTES", 10)
    with pytest.raises(ArchiveFull):
        store.import_json(seeded(traces["lm3"], 4))


def test_the_caps_leave_app_runs_room_beside_a_full_share_of_imports():
    assert archive_module.MAX_IMPORTED_RUNS < archive_module.MAX_RUNS
    assert archive_module.MAX_IMPORTED_BYTES + MAX_TRACE_BYTES < archive_module.MAX_STORED_BYTES


LONGEST_PIECE = "\n" + " " * 80  # SmolLM2's longest token as it reads (81 characters; 84 bytes in JSON)


def widened(candidates: list[dict], n: int = 17) -> list[dict]:
    """n candidates (the top 8 of p and of q and the drafted token), each read as the longest piece."""
    wide = [dict(c, token=49_151, piece=LONGEST_PIECE) for c in candidates]
    return (wide * n)[:n]


def largest_app_trace(tiny, tiny_prompt) -> str:
    """The largest trace the app can write, from a real run's numbers: the sidebar's most (k and new tokens)
    on smollm2 (8,192 positions), every round rejecting its first draft (the most rounds), every piece the
    vocabulary's longest and a prompt filling the context."""
    k, new = int(KNOBS["k"].high), int(KNOBS["max_new"].high)
    settings = DecodeSettings(k=k, noise=1.0, seed=0, max_new_tokens=100)
    data = json.loads(speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings).to_json())
    full = next(r for r in data["rounds"] if len(r["drafted"]) == k)
    rounds = []
    for i in range(new):
        r = copy.deepcopy(full)
        for step in r["drafted"]:
            step.update(token=49_151, piece=LONGEST_PIECE, candidates=widened(step["candidates"]))
        r.update(index=i, n_accepted=0, first_rejected=0, next_kind="corrected", next_token=49_151,
                 next_piece=LONGEST_PIECE, next_dist_top=widened(r["next_dist_top"]))
        rounds.append(r)
    prompt = 8_192 - new
    data.update(rounds=rounds, tokens=[49_151] * new, text=LONGEST_PIECE * new, prompt_tokens=[49_151] * prompt,
                prompt_text=LONGEST_PIECE * prompt, settings=dict(data["settings"], k=k, max_new_tokens=new))
    data["extra"].update(prompt_pieces=[LONGEST_PIECE] * 32, prompt_as_typed=LONGEST_PIECE * prompt)
    return json.dumps(data, ensure_ascii=False)


def test_the_file_limit_is_the_largest_run_the_app_writes_with_a_margin(store, tiny, tiny_prompt):
    """#38: the limit was 20 MB, three times what any run of the app writes; checking such a file took 37 s."""
    largest = largest_app_trace(tiny, tiny_prompt)
    size = len(largest.encode())
    assert size < MAX_TRACE_BYTES <= 1.5 * size, (size, MAX_TRACE_BYTES)
    saved = store.import_json(largest)  # the largest legal run passes every check
    assert saved.new


def test_the_upload_limit_is_the_import_limit_rounded_up():
    import math
    import tomllib

    config = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == math.ceil(MAX_TRACE_BYTES / 1_000_000)


def test_a_tree_run_is_listed_by_its_shape_and_not_by_the_k_it_never_read(store, traces):
    store.save(_as_tree_run(traces["lm3"]))
    store.save(traces["lm3"])
    rows = {row.tree: row for row in store.list()}
    assert set(rows) == {"2-1", ""}
    assert rows["2-1"].k is None and rows[""].k == 3
    assert [row.tree for row in store.list(RunFilter(k=3))] == [""]


def test_an_archive_made_before_trees_gains_the_column_and_lists_its_runs_as_chains(tmp_path, traces):
    path = tmp_path / "old.sqlite"
    Archive(path).save(traces["lm3"])
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE runs DROP COLUMN tree")
    (row,) = Archive(path).list()
    assert row.tree == "" and row.k == 3
    with sqlite3.connect(path) as db:
        assert "tree" in [name for _, name, *_ in db.execute("PRAGMA table_info(runs)")]


def _as_tree_run(good: str) -> str:
    """The tiny pair's master has no tree forward: a chain's file that says it drafted the tree 2-1."""
    return broken(good, lambda d: d["settings"].update(tree="2-1"))


def test_a_visitor_deletes_only_their_own_runs_and_the_operator_any(store, traces):
    """#50: any visitor could delete every run on a shared server."""
    theirs = store.save(seeded(traces["lm3"], 1), owner="10.0.0.7").id
    mine = store.import_json(seeded(traces["lm3"], 2), owner="10.0.0.8").id
    assert not store.delete(theirs, owner="10.0.0.8") and not store.delete(theirs, owner="")
    assert {row.owner for row in store.list()} == {"10.0.0.7", "10.0.0.8"}
    assert store.delete(mine, owner="10.0.0.8")
    assert store.delete(theirs)  # the command line's, and the operator's: no owner asked
    assert store.count() == 0


def test_each_visitor_has_a_share_of_the_imports(store, traces, monkeypatch):
    """#50: one visitor filled the import share in 55 s and locked imports for everyone."""
    monkeypatch.setattr(archive_module, "MAX_OWNER_IMPORTED_RUNS", 2)
    for seed in (1, 2):
        store.import_json(seeded(traces["lm3"], seed), owner="10.0.0.7")
    before = snapshot(store)
    with pytest.raises(ArchiveFull) as refused:
        store.import_json(seeded(traces["lm3"], 3), owner="10.0.0.7")
    assert refused.value.reason == "archive_yours_full" and refused.value.values["runs"] == 2
    assert snapshot(store) == before
    store.import_json(seeded(traces["lm3"], 3), owner="10.0.0.8")  # another student still imports
    monkeypatch.setattr(archive_module, "MAX_OWNER_IMPORTED_BYTES", 10)
    with pytest.raises(ArchiveFull):
        store.import_json(seeded(traces["lm3"], 4), owner="10.0.0.9")


def test_an_archive_from_before_owners_gains_the_column_and_its_runs_are_the_operators(tmp_path, traces):
    path = tmp_path / "old.sqlite"
    Archive(path).save(traces["lm3"])
    with closing(sqlite3.connect(path)) as db, db:  # the table as the layout before owners made it
        db.execute("CREATE TABLE before_owners AS SELECT * FROM runs")
        db.execute("DROP TABLE runs")
        db.execute("ALTER TABLE before_owners DROP COLUMN owner")
        db.execute("ALTER TABLE before_owners RENAME TO runs")
    row = Archive(path).list()[0]
    assert row.owner == "" and not Archive(path).delete(row.id, owner="10.0.0.7")


def test_replicas_importing_at_once_keep_a_visitor_within_their_share(store, traces, monkeypatch):
    """#52: replicas save through their own Archive and connections, so only the database's write lock (not a
    thread's) keeps one visitor's imports within their share."""
    monkeypatch.setattr(archive_module, "MAX_OWNER_IMPORTED_RUNS", 3)
    replicas = [Archive(store.location) for _ in range(2)]
    outcomes, start = [], threading.Barrier(8)

    def work(i):
        start.wait()
        try:
            replicas[i % 2].import_json(seeded(traces["lm3"], 300 + i), owner="10.0.0.7")
            outcomes.append("kept")
        except ArchiveFull:
            outcomes.append("refused")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["kept"] * 3 + ["refused"] * 5
    assert store.count() == 3
