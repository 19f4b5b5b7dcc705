"""Several students press the proof page's "Start sampling" at once: how long each waits, and what the page
says while it waits.

Usage: .venv/bin/python -m tools.proof_crowd [--students 4] [--samples 2000] [--pair poetry]

It starts the real server and talks to it as browser tabs do, over Streamlit's websocket (as
tools.classroom_load does). First one proof runs alone; then `--students` sessions press Start
together. For each it prints the seconds to a finished proof and, for a proof that waited in line,
how soon the page first said so and what it said. Run it on quiet cores.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from tools.browser import app_process
from tools.classroom_load import FINISHED

START = "Start sampling"
IN_LINE = "In line:"
TIMEOUT_S = 600


@dataclass
class Press:
    """One student's press of Start: seconds to the finished proof, and the first word of the line."""

    seconds: float = 0.0
    first_in_line_s: float | None = None
    in_line_text: str = ""
    verdicts: list[str] = field(default_factory=list)
    error: str = ""


def press_start(base: str, pair: str, samples: int, ready=None) -> Press:
    press = Press()
    query = urlencode({"language": "en", "pair": pair, "samples": samples})
    try:
        with connect(base.replace("http", "ws") + "/_stcore/stream", subprotocols=["streamlit"], max_size=None) as socket:
            buttons = _run(socket, query, None, press, time.perf_counter())
            if ready is not None:
                ready.wait()  # every student presses at the same moment
            started = time.perf_counter()
            _run(socket, query, buttons[START], press, started)
            press.seconds = time.perf_counter() - started
    except Exception as error:  # noqa: BLE001 - one student's failure is a row of the report
        press.error = f"{type(error).__name__}: {error}"
    return press


def _run(socket, query: str, clicked: str | None, press: Press, started: float) -> dict[str, str]:
    message = BackMsg()
    message.rerun_script.query_string = query
    message.rerun_script.page_name = "proof"
    if clicked:
        state = message.rerun_script.widget_states.widgets.add()
        state.id, state.trigger_value = clicked, True
    socket.send(message.SerializeToString())
    buttons = {}
    while True:
        forward = ForwardMsg.FromString(socket.recv(timeout=TIMEOUT_S))
        kind = forward.WhichOneof("type")
        if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
            element = forward.delta.new_element
            which = element.WhichOneof("type")
            if which == "button":
                buttons[element.button.label] = element.button.id
            elif which == "alert" and element.alert.body.startswith(IN_LINE) and press.first_in_line_s is None:
                press.first_in_line_s, press.in_line_text = time.perf_counter() - started, element.alert.body
            elif which == "alert" and "exact distribution" in element.alert.body and clicked:
                press.verdicts.append(element.alert.body)
            elif which == "exception":
                raise RuntimeError(element.exception.message)
        elif kind == "script_finished" and forward.script_finished in FINISHED:
            return buttons


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.proof_crowd", description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=4)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--pair", default="poetry")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, app_process(archive=Path(folder) / "archive.sqlite") as (base, _):
        alone = press_start(base, args.pair, args.samples)
        print(f"one proof alone: {alone.seconds:.1f} s {alone.error}", flush=True)
        ready = threading.Barrier(args.students)
        with ThreadPoolExecutor(args.students) as pool:
            presses = list(pool.map(lambda _: press_start(base, args.pair, args.samples, ready), range(args.students)))
    print(f"\n{args.students} pressed together ({args.samples:,} samples each, {args.pair}):")
    print("| student | finished after, s | × one alone | first said it waits, s | what the page said |")
    print("|---|---|---|---|---|")
    for n, press in enumerate(sorted(presses, key=lambda p: p.seconds), 1):
        waited = "—" if press.first_in_line_s is None else f"{press.first_in_line_s:.1f}"
        said = press.error or press.in_line_text or "(its turn came at once)"
        print(f"| {n} | {press.seconds:.1f} | {press.seconds / alone.seconds:.1f} | {waited} | {said} |")
    print(f"median {statistics.median(p.seconds for p in presses):.1f} s; errors {sum(bool(p.error) for p in presses)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
