"""The archive: every run's trace kept in an embedded SQLite file, to browse, replay, export and import.

Where the file lives (first match wins):
1. the path given to ``Archive(path)``;
2. the environment variable ``SCRIPTORIUM_ARCHIVE`` (e.g. ``SCRIPTORIUM_ARCHIVE=/tmp/class.sqlite make app``);
3. ``$XDG_DATA_HOME/scriptorium/archive.sqlite``, by default ``~/.local/share/scriptorium/archive.sqlite``.
The folder, the file and its tables are created on first use; nothing else needs configuring.

A trace is checked with ``Trace.from_json`` (size limit, JSON, schema version, consistency) before
the database is touched, so a bad file is refused with a sentence and the archive stays as it was.
Two traces that differ only in their timings (the same seed and settings run again) are the same
run: the second save returns the first one's id.

The archive is bounded, so one visitor cannot fill a class server's disk or every visitor's page:
- a row keeps a short preview of the prompt and the text for the table; the whole run is in its trace,
  read when the run is opened;
- it holds at most MAX_RUNS runs and MAX_STORED_BYTES of (compressed) traces. Past either, the oldest
  runs the app made are dropped to make room, oldest first;
- runs a person imported are theirs, never dropped: at most MAX_IMPORTED_RUNS of them in
  MAX_IMPORTED_BYTES, past which an import is refused (ArchiveFull) until one is deleted. That share
  is a fraction of the whole, so a run the app makes always finds room; each owner (a visitor of a class
  server) may hold at most MAX_OWNER_IMPORTED_RUNS of them in MAX_OWNER_IMPORTED_BYTES, so no one visitor
  fills the share for the class;
- a run remembers its owner, who saved or imported it; a server lets a visitor delete only their own
  (`delete(run_id, owner=...)`), and whoever runs it (the command line, an operator) any.

Every call opens its own short connection inside
one transaction, so Streamlit's threads (and two app processes) can share one file.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import zlib
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Iterator, Literal, NamedTuple

from specdec_core.algorithm.trace import MAX_TRACE_BYTES, Trace, TraceError, mean_acceptance, summarize
from specdec_core.settings import Refusal

ENV_VAR = "SCRIPTORIUM_ARCHIVE"
ARCHIVE_SCHEMA = 1
TIMING_FIELDS = {"draft_s", "target_s", "other_s", "prefill_s", "wall_s"}  # differ on every rerun
Source = Literal["app", "import"]
PREVIEW_CHARS = 80  # of the prompt and of the text, kept in a row for the table (the whole is in the trace)
KEPT_CHARS = PREVIEW_CHARS + 1  # one more, so a preview knows whether the text goes on
# Room for a class of 30 stepping through 150 runs each. Compressed, poetry's default run stores about 7 kB,
# a smollm2 run of 128 tokens at k = 12 and noise 1 measured 0.2 MB (1.4 MB as JSON), the largest the app can
# make about 0.5 MB: the byte cap is met by many long runs or by imports, and then drops old runs, not a page.
MAX_RUNS = 5_000
MAX_STORED_BYTES = 200_000_000  # of compressed traces
MAX_IMPORTED_RUNS = 500  # a tenth of the runs and a quarter of the bytes: app runs always find room
MAX_IMPORTED_BYTES = 50_000_000
MAX_OWNER_IMPORTED_RUNS = 50  # one visitor's share of the imports: a tenth of them
MAX_OWNER_IMPORTED_BYTES = 5_000_000
MAX_OWNER_CHARS = 80  # an owner is an address or a session's id

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,          -- ISO 8601, UTC
    source TEXT NOT NULL CHECK (source IN ('app', 'import')),
    digest TEXT NOT NULL UNIQUE,       -- sha256 of the trace without its timings
    pair TEXT NOT NULL,
    scribe TEXT NOT NULL,
    mode TEXT NOT NULL,
    k INTEGER,
    temperature REAL,
    seed INTEGER,
    prompt_text TEXT NOT NULL,         -- its first PREVIEW_CHARS characters, a preview (the run is in its trace)
    text TEXT NOT NULL,                -- the same
    tokens INTEGER NOT NULL,
    alpha REAL,
    tokens_per_target_forward REAL NOT NULL,
    trace BLOB NOT NULL,               -- zlib-compressed Trace JSON
    tree TEXT NOT NULL DEFAULT '',     -- the drafted tree's shape (settings.tree), '' for a chain of k
    owner TEXT NOT NULL DEFAULT ''     -- who saved or imported it ('' for the command line and older rows)
);
CREATE INDEX IF NOT EXISTS runs_pair ON runs (pair);
CREATE INDEX IF NOT EXISTS runs_scribe ON runs (scribe);
CREATE INDEX IF NOT EXISTS runs_k ON runs (k);
CREATE INDEX IF NOT EXISTS runs_created ON runs (created_at);
CREATE TABLE IF NOT EXISTS upgrades (name TEXT PRIMARY KEY);  -- the rows' upgrades done (an older app ignores it)
"""

_COLUMNS = (  # a summary of each run, never its trace: a visit to the table sends these and nothing more
    f"id, created_at, source, pair, scribe, mode, k, temperature, seed, substr(prompt_text, 1, {KEPT_CHARS}), "
    f"substr(text, 1, {KEPT_CHARS}), tokens, alpha, tokens_per_target_forward, tree, owner"
)


class ArchiveError(RuntimeError):
    """The archive file cannot be used (not SQLite, a newer layout, a missing run); the message says why."""


class MissingRun(ArchiveError):
    """No run with that id (never saved, or deleted)."""


class ArchiveFull(Refusal):
    """An import past the share of the archive kept for imported runs; the message says how to make room."""


class Saved(NamedTuple):
    id: int
    new: bool  # False when the same run was already there


@dataclass(frozen=True)
class RunRow:
    """One line of the archive's table: what a filter or a table needs, without the whole trace."""

    id: int
    created_at: datetime  # UTC
    source: str
    pair: str
    scribe: str
    mode: str
    k: int | None  # None for a tree run, which drafts by its shape and never reads k
    temperature: float | None
    seed: int | None
    prompt_preview: str  # the first PREVIEW_CHARS characters, and … where the prompt goes on
    text_preview: str
    tokens: int
    alpha: float | None
    tokens_per_target_forward: float
    tree: str = ""  # the tree's shape, "" for a chain
    owner: str = ""  # who saved or imported it; "" for the command line


@dataclass(frozen=True)
class RunFilter:
    """None means any; dates are UTC calendar days, both ends included."""

    pair: str | None = None
    scribe: str | None = None
    k: int | None = None
    date_from: date | None = None
    date_to: date | None = None


def default_path(environ: dict[str, str] | None = None) -> Path:
    environ = os.environ if environ is None else environ
    if environ.get(ENV_VAR):
        return Path(environ[ENV_VAR]).expanduser()
    data_home = environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "scriptorium" / "archive.sqlite"


class Archive:
    """One archive file; safe to share between threads (each call opens its own connection)."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._ready = False
        self._ready_lock = threading.Lock()  # only the schema check; SQLite serialises the writes

    def save(self, trace_json: str | bytes, source: Source = "app", owner: str = "") -> Saved:
        """Store a trace (checked first); the same run saved twice keeps one row and one id (and its first owner)."""
        trace = read_trace(trace_json)
        owner = owner[:MAX_OWNER_CHARS]
        fields = _row_fields(trace) | {"source": source, "owner": owner, "trace": zlib.compress(trace.to_json().encode())}
        size = len(fields["trace"])
        names, marks = ", ".join(fields), ", ".join("?" * len(fields))
        find = "SELECT id FROM runs WHERE digest = ?"
        with self._transaction() as db:  # insert-or-find in one transaction: two threads cannot both add it
            # look first: an insert that the unique digest turns away still uses up an AUTOINCREMENT id,
            # and the archive's numbers would skip (only two saves of one run racing can still skip one)
            found = db.execute(find, (fields["digest"],)).fetchone()
            if found is not None:
                return Saved(found[0], False)
            if source == "import":
                _check_import_room(db, size, owner)
            cursor = db.execute(
                f"INSERT INTO runs (created_at, {names}) VALUES (?, {marks}) ON CONFLICT (digest) DO NOTHING",
                (_now(), *fields.values()),
            )
            if cursor.rowcount != 1:
                return Saved(db.execute(find, (fields["digest"],)).fetchone()[0], False)
            _make_room(db, cursor.lastrowid)
            return Saved(cursor.lastrowid, True)

    def import_json(self, data: str | bytes, owner: str = "") -> Saved:
        """A file a person brought: the same checks as save, marked as imported."""
        return self.save(data, source="import", owner=owner)

    def list(self, where: RunFilter = RunFilter(), limit: int = 1000) -> list[RunRow]:
        """Newest first."""
        clauses, values = [], []
        for column in ("pair", "scribe", "k"):
            if getattr(where, column) is not None:
                clauses.append(f"{column} = ?")
                values.append(getattr(where, column))
        if where.date_from is not None:
            clauses.append("created_at >= ?")
            values.append(_day_start(where.date_from))
        if where.date_to is not None:
            clauses.append("created_at < ?")
            values.append(_day_start(where.date_to + timedelta(days=1)))
        condition = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._transaction() as db:
            rows = db.execute(f"SELECT {_COLUMNS} FROM runs {condition} ORDER BY id DESC LIMIT ?", (*values, limit))
            return [_row(r) for r in rows.fetchall()]

    def count(self) -> int:
        with self._transaction() as db:
            return db.execute("SELECT COUNT(*) FROM runs").fetchone()[0]

    def choices(self) -> dict[str, list]:
        """The pairs, scribes and k values present, for the filters' menus."""
        query = "SELECT DISTINCT {0} FROM runs WHERE {0} IS NOT NULL ORDER BY {0}"
        with self._transaction() as db:
            return {column: [v for (v,) in db.execute(query.format(column))] for column in ("pair", "scribe", "k")}

    def get(self, run_id: int) -> str:
        """The stored trace as JSON; MissingRun when there is no such run."""
        with self._transaction() as db:
            found = db.execute("SELECT trace FROM runs WHERE id = ?", (int(run_id),)).fetchone()
        if found is None:
            raise MissingRun(f"there is no run {run_id} in the archive")
        return zlib.decompress(found[0]).decode()

    def delete(self, run_id: int, owner: str | None = None) -> bool:
        """Delete the run, if there is one and, when `owner` is given, it is theirs; whether a run was deleted."""
        with self._transaction() as db:
            if owner is None:
                return db.execute("DELETE FROM runs WHERE id = ?", (int(run_id),)).rowcount > 0
            return db.execute("DELETE FROM runs WHERE id = ? AND owner = ?", (int(run_id), owner)).rowcount > 0

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A fresh connection per call (safe across threads), committed on success, rolled back on error."""
        if not self.path.exists():  # deleted while the app runs: make it afresh rather than fail
            self._ready = False
        self._ensure_schema()
        try:
            with closing(self._connect()) as db, db:
                yield db
        except sqlite3.DatabaseError as error:
            raise ArchiveError(f"the archive {self.path} cannot be used ({error})") from error

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30)
        db.execute("PRAGMA foreign_keys = ON")
        return db

    def _ensure_schema(self) -> None:
        with self._ready_lock:
            if self._ready:
                return
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with closing(self._connect()) as db, db:
                    db.execute("PRAGMA journal_mode = WAL")  # readers do not wait for a writer
                    db.executescript(_SCHEMA)
                    versions = [v for (v,) in db.execute("SELECT version FROM schema_version")]
                    if not versions:
                        db.execute("INSERT INTO schema_version (version) VALUES (?)", (ARCHIVE_SCHEMA,))
                    elif versions != [ARCHIVE_SCHEMA]:
                        raise ArchiveError(
                            f"the archive {self.path} has layout version {versions}; "
                            f"this app reads version {ARCHIVE_SCHEMA}"
                        )
                    _shorten_old_previews(db)
                    _add_column(db, "tree")
                    _add_column(db, "owner")
                    _recount_tree_alphas(db)
            except (sqlite3.DatabaseError, OSError) as error:
                raise ArchiveError(f"the archive {self.path} cannot be opened ({error})") from error
            self._ready = True


def read_trace(data: str | bytes) -> Trace:
    """Trace.from_json with the size measured in bytes, whatever was handed in."""
    raw = data.encode() if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_TRACE_BYTES:
        raise TraceError(f"the file is {len(raw):,} bytes; traces are at most {MAX_TRACE_BYTES:,}")
    try:
        return Trace.from_json(raw)
    except RecursionError:  # a file of nested brackets, made to crash a parser
        raise TraceError("the JSON is nested too deeply to be a trace") from None


def _check_import_room(db: sqlite3.Connection, size: int, owner: str) -> None:
    """Imported runs are the user's and never dropped, so they are refused past their share: the owner's, then
    everyone's."""
    if owner:
        _within_share(db, size, "AND owner = ?", (owner,), MAX_OWNER_IMPORTED_RUNS, MAX_OWNER_IMPORTED_BYTES,
                      "archive_yours_full", "you have imported {runs:,} runs in {mb:.1f} MB, and each visitor may keep "
                      "{limit_runs:,} in {limit_mb} MB: delete one of yours to make room")
    _within_share(db, size, "", (), MAX_IMPORTED_RUNS, MAX_IMPORTED_BYTES, "archive_full",
                  "the archive keeps at most {limit_runs:,} imported runs in {limit_mb} MB, and holds {runs:,} in "
                  "{mb:.1f} MB: delete an imported run to make room")


def _within_share(db: sqlite3.Connection, size: int, which: str, values: tuple, most_runs: int, most_bytes: int,
                  reason: str, message: str) -> None:
    """ArchiveFull (`reason`, `message` filled in) when the imports `which` selects have no room for `size` more."""
    runs, stored = db.execute(  # length(): the blobs are not read
        f"SELECT COUNT(*), COALESCE(SUM(length(trace)), 0) FROM runs WHERE source = 'import' {which}", values
    ).fetchone()
    if runs + 1 > most_runs or stored + size > most_bytes:
        numbers = {"runs": runs, "mb": stored / 1e6, "limit_runs": most_runs, "limit_mb": most_bytes // 1_000_000}
        raise ArchiveFull(message.format(**numbers), reason, **numbers)


def _make_room(db: sqlite3.Connection, kept: int) -> None:
    """Drop the oldest runs the app made until the archive is within MAX_RUNS and MAX_STORED_BYTES again
    (never an imported run, never the run just saved)."""
    runs, stored = db.execute("SELECT COUNT(*), COALESCE(SUM(length(trace)), 0) FROM runs").fetchone()
    runs_over, bytes_over = runs - MAX_RUNS, stored - MAX_STORED_BYTES
    oldest = db.execute("SELECT id, length(trace) FROM runs WHERE source = 'app' AND id != ? ORDER BY id", (kept,))
    dropped = []
    for run_id, size in oldest:
        if runs_over <= 0 and bytes_over <= 0:
            break
        dropped.append((run_id,))
        runs_over, bytes_over = runs_over - 1, bytes_over - size
    db.executemany("DELETE FROM runs WHERE id = ?", dropped)


def _add_column(db: sqlite3.Connection, name: str) -> None:
    """Archives made before trees lack the tree column (their runs are chains), and those made before owners the
    owner column (their runs are the operator's). Adding either keeps layout version 1: an older app names the
    columns it reads and writes, so it still opens the file."""
    if name not in [column for _, column, *_ in db.execute("PRAGMA table_info(runs)")]:
        db.execute(f"ALTER TABLE runs ADD COLUMN {name} TEXT NOT NULL DEFAULT ''")


def _recount_tree_alphas(db: sqlite3.Connection) -> None:
    """Tree runs saved before alpha was counted over first variants (tree_walk.judged_steps) hold their path's mean,
    later variants' min(1, r/q) among it: counted again from their traces, once."""
    if db.execute("SELECT 1 FROM upgrades WHERE name = 'tree_alpha'").fetchone():
        return
    recounted = []
    for run_id, blob in db.execute("SELECT id, trace FROM runs WHERE tree != ''"):
        try:
            recounted.append((mean_acceptance([read_trace(zlib.decompress(blob))]), run_id))
        except (TraceError, zlib.error, UnicodeDecodeError):  # an unreadable row is left as it is: its view says so
            continue
    db.executemany("UPDATE runs SET alpha = ? WHERE id = ?", recounted)
    db.execute("INSERT INTO upgrades (name) VALUES ('tree_alpha')")


def _shorten_old_previews(db: sqlite3.Connection) -> None:
    """Rows saved before previews kept the whole prompt and text (one was 3.3 million characters)."""
    db.execute(
        "UPDATE runs SET prompt_text = substr(prompt_text, 1, ?), text = substr(text, 1, ?) "
        "WHERE length(prompt_text) > ? OR length(text) > ?",
        (KEPT_CHARS,) * 4,
    )


def content_digest(trace: Trace) -> str:
    """What makes two runs the same run: everything but the clock."""
    data = _without_timings(json.loads(trace.to_json()))
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _without_timings(value):
    if isinstance(value, dict):
        return {key: _without_timings(v) for key, v in value.items() if key not in TIMING_FIELDS}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _row_fields(trace: Trace) -> dict:
    summary = summarize(trace)
    settings = trace.settings
    sampling = settings.get("sampling") if isinstance(settings.get("sampling"), dict) else {}
    tree = settings.get("tree") if isinstance(settings.get("tree"), str) else ""
    return {
        "digest": content_digest(trace),
        "pair": trace.pair,
        "scribe": trace.scribe,
        "mode": trace.mode,
        "k": None if tree else _number(settings.get("k"), int),  # a tree's depth is its shape's
        "tree": tree,
        "temperature": _number(sampling.get("temperature"), float),
        "seed": _number(settings.get("seed"), int),
        "prompt_text": trace.prompt_text[:KEPT_CHARS],
        "text": trace.text[:KEPT_CHARS],
        "tokens": summary["tokens"],
        "alpha": summary["alpha"],
        "tokens_per_target_forward": summary["tokens_per_target_forward"],
    }


def _number(value, kind):
    """Settings come from a file that may have been written by hand: keep only real numbers."""
    return kind(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _row(values: tuple) -> RunRow:
    row = RunRow(*values)
    return replace(row, created_at=datetime.fromisoformat(row.created_at), prompt_preview=_preview(row.prompt_preview),
                   text_preview=_preview(row.text_preview))


def _preview(kept: str) -> str:
    return kept[:PREVIEW_CHARS] + "…" if len(kept) > PREVIEW_CHARS else kept


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _day_start(day: date) -> str:
    return datetime.combine(day, time(0), tzinfo=timezone.utc).isoformat(timespec="seconds")
