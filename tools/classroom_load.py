"""A class on one server, or on replicas behind nginx: many sessions open the scriptorium at once and step.

Usage: .venv/bin/python -m tools.classroom_load [--sessions 10,30] [--steps 3] [--pair poetry] [--replicas N]

It starts the real server (`streamlit run app.py`, the shipped .streamlit/config.toml) and talks to it
the way a browser tab does, over Streamlit's websocket protocol, but renders nothing, so the clients
don't eat the server's cores. Each session opens the scriptorium with its own seed, waits for the
finished page, then presses "Step ▶" a few times. Then a fresh server runs every seed again alone, one
after another: a crowd's sheets must equal these solo sheets exactly.

With --replicas N the class goes through deploy/'s recipe instead (tools/replica_set.py): N replicas
behind Debian's nginx, filing into a throwaway PostgreSQL; each session's websocket is a new browser
to nginx, which spreads them over the replicas.

It prints one table row per crowd size: errors, server time to a finished page (min/median/max, from
the request to Streamlit's script_finished), the servers' peak RSS (summed over replicas), and whether
every sheet matched.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
from urllib.parse import urlencode

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from tools.browser import app_process

STEP_LABEL = "Step ▶"
PAGE_TIMEOUT_S = 300
FINISHED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)


@dataclass
class Session:
    """One student's tab: the sheets it saw (after opening and after each step) and how long each took."""

    seed: int
    sheets: list[str] = field(default_factory=list)
    page_s: list[float] = field(default_factory=list)
    error: str = ""


def open_and_step(base: str, pair: str, seed: int, steps: int) -> Session:
    session = Session(seed)
    query = urlencode({"language": "en", "pair": pair, "seed": seed})
    try:
        with connect(base.replace("http", "ws") + "/_stcore/stream", subprotocols=["streamlit"], max_size=None) as socket:
            buttons = _rerun(socket, session, query)
            for _ in range(steps):  # the stepper is a fragment: a browser reruns only it, as here
                buttons = _rerun(socket, session, query, buttons[STEP_LABEL])
    except Exception as error:  # noqa: BLE001 - any failure is one session's error, counted in the table
        session.error = f"{type(error).__name__}: {error}"
    return session


def _rerun(socket, session: Session, query: str, clicked: tuple[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """Ask for a run (pressing the button `clicked`: its id and fragment), read until it finishes.
    Returns the page's buttons by label: (widget id, fragment id)."""
    message = BackMsg()
    message.rerun_script.query_string = query
    message.rerun_script.page_name = "scriptorium"
    if clicked:
        state = message.rerun_script.widget_states.widgets.add()
        state.id, state.trigger_value = clicked[0], True
        message.rerun_script.fragment_id = clicked[1]
    started = time.perf_counter()
    socket.send(message.SerializeToString())
    sheet, buttons = "", {}
    while True:
        forward = ForwardMsg.FromString(socket.recv(timeout=PAGE_TIMEOUT_S))
        kind = forward.WhichOneof("type")
        if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
            element = forward.delta.new_element
            if element.WhichOneof("type") == "html" and 'class="sheet"' in element.html.body:
                sheet = element.html.body
            elif element.WhichOneof("type") == "exception":
                raise RuntimeError(element.exception.message)
            elif element.WhichOneof("type") == "button":
                buttons[element.button.label] = (element.button.id, forward.delta.fragment_id)
        elif kind == "script_finished" and forward.script_finished in FINISHED:
            break
    session.page_s.append(time.perf_counter() - started)
    session.sheets.append(sheet)
    return buttons


class PeakRss:
    """The server process's peak resident memory, read from /proc while the block runs."""

    def __init__(self, pid: int):
        self.pid, self.peak_mb, self._stop = pid, 0.0, threading.Event()

    def __enter__(self):
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *_):
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._stop.wait(0.2):
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    self.peak_mb = max(self.peak_mb, int(line.split()[1]) / 1024)


def crowd(base: str, pids: list[int], pair: str, seeds: list[int], steps: int) -> tuple[list[Session], float]:
    with ExitStack() as watching, ThreadPoolExecutor(len(seeds)) as pool:
        peaks = [watching.enter_context(PeakRss(pid)) for pid in pids]
        sessions = list(pool.map(lambda seed: open_and_step(base, pair, seed, steps), seeds))
    return sessions, sum(rss.peak_mb for rss in peaks)


def report(n: int, sessions: list[Session], solo: dict[int, list[str]], peak_mb: float) -> str:
    errors = [s for s in sessions if s.error]
    first = [s.page_s[0] for s in sessions if s.page_s]
    steps = [t for s in sessions for t in s.page_s[1:]]
    same = sum(all(s.sheets) and s.sheets == solo[s.seed] for s in sessions)  # an empty sheet never counts
    spread = lambda xs: f"{min(xs):.1f} / {statistics.median(xs):.1f} / {max(xs):.1f}" if xs else "—"  # noqa: E731
    for s in errors[:3]:
        print(f"  session seed {s.seed}: {s.error}", file=sys.stderr)
    return f"| {n} | {len(errors)} | {spread(first)} | {spread(steps)} | {peak_mb:.0f} | {same} of {n} |"


@contextmanager
def servers(replicas: int, folder: Path) -> Iterator[tuple[str, list[int]]]:
    """The class's way in and the processes that serve it: one server, or replicas behind nginx."""
    if not replicas:
        with app_process(archive=folder / "archive.sqlite") as (base, pid):
            yield base, [pid]
        return
    from tools.postgres_cluster import ThrowawayCluster
    from tools.replica_set import replicas_behind_nginx

    with ThrowawayCluster() as cluster, replicas_behind_nginx(replicas, cluster.new_database(), folder) as front:
        yield front.base, front.pids()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.classroom_load", description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", default="10,30", help="crowd sizes, comma-separated")
    parser.add_argument("--steps", type=int, default=3, help="presses of Step ▶ per session")
    parser.add_argument("--pair", default="poetry")
    parser.add_argument("--replicas", type=int, default=0,
                        help="serve the class from N replicas behind nginx (deploy/); 0, the default: one server alone")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.sessions.split(",")]
    crowds = {n: list(range(n * 100, n * 100 + n)) for n in sizes}  # fresh seeds: no crowd reads another's cached run
    with tempfile.TemporaryDirectory() as folder:
        with servers(args.replicas, Path(folder)) as (base, pids):
            open_and_step(base, args.pair, 10_000, 0)  # the lecturer's own tab first, as in class
            seen = {n: crowd(base, pids, args.pair, seeds, args.steps) for n, seeds in crowds.items()}
        # A second server, whose caches hold no crowd's runs (the app refuses a browser's clear_cache):
        # every seed alone, one after another.
        with app_process(archive=Path(folder) / "solo.sqlite") as (base, _):
            solo = {seed: open_and_step(base, args.pair, seed, args.steps).sheets for seeds in crowds.values() for seed in seeds}
    rows = [report(n, sessions, solo, peak_mb) for n, (sessions, peak_mb) in seen.items()]
    print("\n| sessions | errors | first page, s (min / median / max) | each step, s (min / median / max) | server peak RSS, MB | sheets equal to their solo run |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
