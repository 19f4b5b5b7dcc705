"""The archive: every run's trace kept in a database, to browse, replay, export and import.

Where it lives (first match wins):
1. the location given to ``Archive(location)``: a file path, or a ``postgresql://`` URL;
2. the environment variable ``SCRIPTORIUM_ARCHIVE``, either of the two
   (``SCRIPTORIUM_ARCHIVE=/tmp/class.sqlite make app``, or
   ``SCRIPTORIUM_ARCHIVE=postgresql://scriptorium@db.example/scriptorium`` for replicas sharing one archive);
3. ``$XDG_DATA_HOME/scriptorium/archive.sqlite``, by default ``~/.local/share/scriptorium/archive.sqlite``.
An SQLite file, its folder and its tables are created on first use; a PostgreSQL database must exist (its
tables are created on first use). SQLAlchemy Core writes the SQL for either backend.

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

Every change runs in one transaction that holds the archive's write lock (SQLite's BEGIN IMMEDIATE, a
PostgreSQL advisory lock), so the caps hold when Streamlit's threads, or several replicas, save at once.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Iterator, Literal, NamedTuple

from sqlalchemy import (
    BigInteger, CheckConstraint, Column, Connection, Engine, Float, Index, Integer, LargeBinary, MetaData, Table, Text,
    create_engine, delete, event, func, insert, inspect, select, text, update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import NullPool

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
WRITE_LOCK = 0x5C21B70  # PostgreSQL's advisory lock key for the archive's writes (any fixed number)
DATABASE_SCHEMES = ("postgresql",)  # a location with "://" must be one of these; anything else is a file

ID = BigInteger().with_variant(Integer, "sqlite")  # 64 bits; SQLite's AUTOINCREMENT wants the word INTEGER
# The layout, as SQLite files made by earlier versions have it (the indexes' names included).
metadata = MetaData()
schema_version = Table("schema_version", metadata, Column("version", Integer, nullable=False))
upgrades = Table("upgrades", metadata, Column("name", Text, primary_key=True))  # the rows' upgrades done
runs = Table(
    "runs", metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("created_at", Text, nullable=False),  # ISO 8601, UTC
    Column("source", Text, CheckConstraint("source IN ('app', 'import')"), nullable=False),
    Column("digest", Text, nullable=False, unique=True),  # sha256 of the trace without its timings
    Column("pair", Text, nullable=False),
    Column("scribe", Text, nullable=False),
    Column("mode", Text, nullable=False),
    Column("k", BigInteger),  # a file written by hand may hold any whole number: 64 bits on both backends
    Column("temperature", Float),
    Column("seed", BigInteger),
    Column("prompt_text", Text, nullable=False),  # its first KEPT_CHARS characters (the run is in its trace)
    Column("text", Text, nullable=False),  # the same
    Column("tokens", BigInteger, nullable=False),
    Column("alpha", Float),
    Column("tokens_per_target_forward", Float, nullable=False),
    Column("trace", LargeBinary, nullable=False),  # zlib-compressed Trace JSON
    Column("tree", Text, nullable=False, server_default=""),  # the tree's shape (settings.tree), '' for a chain
    Column("owner", Text, nullable=False, server_default=""),  # who saved or imported it ('' for the command line)
    *(Index(f"runs_{name}", name) for name in ("pair", "scribe", "k")),
    Index("runs_created", "created_at"),
    sqlite_autoincrement=True,  # an id is never given twice, even after the newest run is deleted
)
_COLUMNS = (  # a summary of each run, never its trace: a visit to the table sends these and nothing more
    runs.c.id, runs.c.created_at, runs.c.source, runs.c.pair, runs.c.scribe, runs.c.mode, runs.c.k,
    runs.c.temperature, runs.c.seed, func.substr(runs.c.prompt_text, 1, KEPT_CHARS),
    func.substr(runs.c.text, 1, KEPT_CHARS), runs.c.tokens, runs.c.alpha, runs.c.tokens_per_target_forward,
    runs.c.tree, runs.c.owner,
)


class ArchiveError(RuntimeError):
    """The archive cannot be used (not SQLite, a newer layout, a database that does not answer, a missing run);
    the message says why."""


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


def default_location(environ: dict[str, str] | None = None) -> str:
    """The configured archive: a database URL as given, or a file's path with ~ expanded."""
    environ = os.environ if environ is None else environ
    if environ.get(ENV_VAR):
        given = environ[ENV_VAR]
        return given if is_database_url(given) else str(Path(given).expanduser())
    data_home = environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return str(Path(data_home) / "scriptorium" / "archive.sqlite")


def is_database_url(location: str | Path) -> bool:
    return isinstance(location, str) and "://" in location


class Archive:
    """One archive, a file or a database; safe to share between threads (each call takes its own connection)."""

    def __init__(self, location: str | Path | None = None):
        location = default_location() if location is None else location
        self.location = location  # as given, to open the same archive again
        if is_database_url(location):
            self.path, self.engine = None, _database_engine(location)
            self.where = self.engine.url.render_as_string(hide_password=True)
        else:
            self.path = Path(location).expanduser()
            self.engine, self.where = _file_engine(self.path), str(self.path)
        self._ready = False
        self._ready_lock = threading.Lock()  # only the schema check; the write lock orders the writes

    def save(self, trace_json: str | bytes, source: Source = "app", owner: str = "") -> Saved:
        """Store a trace (checked first); the same run saved twice keeps one row and one id (and its first owner)."""
        trace = read_trace(trace_json)
        owner = owner[:MAX_OWNER_CHARS]
        fields = _row_fields(trace) | {"source": source, "owner": owner, "trace": zlib.compress(trace.to_json().encode())}
        with self._transaction(writing=True) as db:  # find-or-insert under the write lock: no one adds it between
            # look first: an insert that the unique digest turns away would still use up an id
            found = db.scalar(select(runs.c.id).where(runs.c.digest == fields["digest"]))
            if found is not None:
                return Saved(found, False)
            if source == "import":
                _check_import_room(db, len(fields["trace"]), owner)
            run_id = db.scalar(insert(runs).values(created_at=_now(), **fields).returning(runs.c.id))
            _make_room(db, run_id)
            return Saved(run_id, True)

    def import_json(self, data: str | bytes, owner: str = "") -> Saved:
        """A file a person brought: the same checks as save, marked as imported."""
        return self.save(data, source="import", owner=owner)

    def list(self, where: RunFilter = RunFilter(), limit: int = 1000) -> list[RunRow]:
        """Newest first."""
        query = select(*_COLUMNS)
        for column in ("pair", "scribe", "k"):
            if getattr(where, column) is not None:
                query = query.where(runs.c[column] == getattr(where, column))
        if where.date_from is not None:
            query = query.where(runs.c.created_at >= _day_start(where.date_from))
        if where.date_to is not None:
            query = query.where(runs.c.created_at < _day_start(where.date_to + timedelta(days=1)))
        with self._transaction() as db:
            return [_row(r) for r in db.execute(query.order_by(runs.c.id.desc()).limit(limit))]

    def count(self) -> int:
        with self._transaction() as db:
            return db.scalar(select(func.count()).select_from(runs))

    def choices(self) -> dict[str, list]:
        """The pairs, scribes and k values present, for the filters' menus."""
        with self._transaction() as db:
            return {name: list(db.scalars(select(runs.c[name]).distinct().where(runs.c[name].is_not(None))
                                          .order_by(runs.c[name])))
                    for name in ("pair", "scribe", "k")}

    def get(self, run_id: int) -> str:
        """The stored trace as JSON; MissingRun when there is no such run."""
        with self._transaction() as db:
            found = db.scalar(select(runs.c.trace).where(runs.c.id == int(run_id)))
        if found is None:
            raise MissingRun(f"there is no run {run_id} in the archive")
        return zlib.decompress(found).decode()

    def delete(self, run_id: int, owner: str | None = None) -> bool:
        """Delete the run, if there is one and, when `owner` is given, it is theirs; whether a run was deleted."""
        query = delete(runs).where(runs.c.id == int(run_id))
        if owner is not None:
            query = query.where(runs.c.owner == owner)
        with self._transaction(writing=True) as db:
            return db.execute(query).rowcount > 0

    @contextmanager
    def _transaction(self, writing: bool = False) -> Iterator[Connection]:
        """A connection in one transaction, committed on success, rolled back on error; `writing` takes the
        archive's write lock first."""
        if self.path is not None and not self.path.exists():  # deleted while the app runs: make it afresh
            self._ready = False
        self._ensure_schema()
        try:
            with self._locked(writing) as db:
                yield db
        except SQLAlchemyError as error:
            raise ArchiveError(f"the archive {self.where} cannot be used ({_first_line(error)})") from error

    @contextmanager
    def _locked(self, writing: bool) -> Iterator[Connection]:
        with self.engine.connect() as db:
            db.execution_options(writing=writing)  # SQLite's BEGIN reads it (_file_engine)
            with db.begin():
                if writing and db.dialect.name == "postgresql":
                    db.execute(select(func.pg_advisory_xact_lock(WRITE_LOCK)))  # released at commit or rollback
                yield db

    def _ensure_schema(self) -> None:
        with self._ready_lock:
            if self._ready:
                return
            try:
                if self.path is not None:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                with self._locked(writing=True) as db:  # two replicas starting at once make the tables once
                    metadata.create_all(db)
                    _check_layout(db, self.where)
                    _shorten_old_previews(db)
                    _add_column(db, "tree")
                    _add_column(db, "owner")
                    _recount_tree_alphas(db)
            except (SQLAlchemyError, OSError) as error:
                raise ArchiveError(f"the archive {self.where} cannot be opened ({_first_line(error)})") from error
            self._ready = True


def _file_engine(path: Path) -> Engine:
    """SQLite: a connection per call (a file deleted while the app runs is made afresh), WAL so readers do not
    wait for a writer, and BEGIN IMMEDIATE for a change, which takes the file's write lock before it reads."""
    engine = create_engine(URL.create("sqlite", database=str(path)), poolclass=NullPool, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _connect(connection, _record):
        connection.isolation_level = None  # the driver leaves BEGIN to us (SQLAlchemy's documented recipe)
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA journal_mode = WAL")

    @event.listens_for(engine, "begin")
    def _begin(db):
        db.exec_driver_sql("BEGIN IMMEDIATE" if db.get_execution_options().get("writing") else "BEGIN")

    return engine


def _database_engine(url: str) -> Engine:
    """PostgreSQL through psycopg (version 3): a small pool per process, each connection checked before use so a
    restarted database is met with a fresh connection rather than an error."""
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise ArchiveError(f"the archive's URL cannot be read ({error})") from None
    if parsed.get_backend_name() not in DATABASE_SCHEMES:
        raise ArchiveError(f"the archive's URL names {parsed.get_backend_name()}; "
                           f"it must be a file path or a postgresql:// URL")
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return create_engine(parsed, pool_pre_ping=True, pool_size=4, max_overflow=4)


def _check_layout(db: Connection, where: str) -> None:
    versions = list(db.scalars(select(schema_version.c.version)))
    if not versions:
        db.execute(insert(schema_version).values(version=ARCHIVE_SCHEMA))
    elif versions != [ARCHIVE_SCHEMA]:
        raise ArchiveError(f"the archive {where} has layout version {versions}; this app reads version {ARCHIVE_SCHEMA}")


def _first_line(error: Exception) -> str:
    """A driver's message without SQLAlchemy's statement and background link."""
    return str(getattr(error, "orig", None) or error).strip().splitlines()[0]


def read_trace(data: str | bytes) -> Trace:
    """Trace.from_json with the size measured in bytes, whatever was handed in."""
    raw = data.encode() if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_TRACE_BYTES:
        raise TraceError(f"the file is {len(raw):,} bytes; traces are at most {MAX_TRACE_BYTES:,}")
    try:
        return Trace.from_json(raw)
    except RecursionError:  # a file of nested brackets, made to crash a parser
        raise TraceError("the JSON is nested too deeply to be a trace") from None


def _check_import_room(db: Connection, size: int, owner: str) -> None:
    """Imported runs are the user's and never dropped, so they are refused past their share: the owner's, then
    everyone's."""
    if owner:
        _within_share(db, size, runs.c.owner == owner, MAX_OWNER_IMPORTED_RUNS, MAX_OWNER_IMPORTED_BYTES,
                      "archive_yours_full", "you have imported {runs:,} runs in {mb:.1f} MB, and each visitor may keep "
                      "{limit_runs:,} in {limit_mb} MB: delete one of yours to make room")
    _within_share(db, size, True, MAX_IMPORTED_RUNS, MAX_IMPORTED_BYTES, "archive_full",
                  "the archive keeps at most {limit_runs:,} imported runs in {limit_mb} MB, and holds {runs:,} in "
                  "{mb:.1f} MB: delete an imported run to make room")


def _within_share(db: Connection, size: int, which, most_runs: int, most_bytes: int, reason: str, message: str) -> None:
    """ArchiveFull (`reason`, `message` filled in) when the imports `which` selects have no room for `size` more."""
    runs_held, stored = db.execute(  # length(): the blobs are not read
        select(func.count(), func.coalesce(func.sum(func.length(runs.c.trace)), 0))
        .where(runs.c.source == "import").where(which)
    ).one()
    if runs_held + 1 > most_runs or stored + size > most_bytes:
        numbers = {"runs": runs_held, "mb": stored / 1e6, "limit_runs": most_runs, "limit_mb": most_bytes // 1_000_000}
        raise ArchiveFull(message.format(**numbers), reason, **numbers)


def _make_room(db: Connection, kept: int) -> None:
    """Drop the oldest runs the app made until the archive is within MAX_RUNS and MAX_STORED_BYTES again
    (never an imported run, never the run just saved)."""
    held, stored = db.execute(select(func.count(), func.coalesce(func.sum(func.length(runs.c.trace)), 0))).one()
    runs_over, bytes_over = held - MAX_RUNS, stored - MAX_STORED_BYTES
    if runs_over <= 0 and bytes_over <= 0:
        return
    oldest = db.execute(select(runs.c.id, func.length(runs.c.trace))
                        .where(runs.c.source == "app", runs.c.id != kept).order_by(runs.c.id))
    dropped = []
    for run_id, size in oldest:
        if runs_over <= 0 and bytes_over <= 0:
            break
        dropped.append(run_id)
        runs_over, bytes_over = runs_over - 1, bytes_over - size
    db.execute(delete(runs).where(runs.c.id.in_(dropped)))


def _add_column(db: Connection, name: str) -> None:
    """Archives made before trees lack the tree column (their runs are chains), and those made before owners the
    owner column (their runs are the operator's). Adding either keeps layout version 1: an older app names the
    columns it reads and writes, so it still opens the file."""
    if name not in [column["name"] for column in inspect(db).get_columns("runs")]:
        db.execute(text(f"ALTER TABLE runs ADD COLUMN {name} TEXT NOT NULL DEFAULT ''"))


def _recount_tree_alphas(db: Connection) -> None:
    """Tree runs saved before alpha was counted over first variants (tree_walk.judged_steps) hold their path's mean,
    later variants' min(1, r/q) among it: counted again from their traces, once."""
    if db.scalar(select(upgrades.c.name).where(upgrades.c.name == "tree_alpha")):
        return
    for run_id, blob in db.execute(select(runs.c.id, runs.c.trace).where(runs.c.tree != "")).all():
        try:
            alpha = mean_acceptance([read_trace(zlib.decompress(blob))])
        except (TraceError, zlib.error, UnicodeDecodeError):  # an unreadable row is left as it is: its view says so
            continue
        db.execute(update(runs).where(runs.c.id == run_id).values(alpha=alpha))
    db.execute(insert(upgrades).values(name="tree_alpha"))


def _shorten_old_previews(db: Connection) -> None:
    """Rows saved before previews kept the whole prompt and text (one was 3.3 million characters)."""
    too_long = (func.length(runs.c.prompt_text) > KEPT_CHARS) | (func.length(runs.c.text) > KEPT_CHARS)
    db.execute(update(runs).where(too_long).values(prompt_text=func.substr(runs.c.prompt_text, 1, KEPT_CHARS),
                                                   text=func.substr(runs.c.text, 1, KEPT_CHARS)))


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


def _row(values) -> RunRow:
    row = RunRow(*values)
    return replace(row, created_at=datetime.fromisoformat(row.created_at), prompt_preview=_preview(row.prompt_preview),
                   text_preview=_preview(row.text_preview))


def _preview(kept: str) -> str:
    return kept[:PREVIEW_CHARS] + "…" if len(kept) > PREVIEW_CHARS else kept


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _day_start(day: date) -> str:
    return datetime.combine(day, time(0), tzinfo=timezone.utc).isoformat(timespec="seconds")
