"""The worst single visitor the security probe found (#38), against a class server: what it holds and who waits.

Usage: .venv/bin/python -m tools.worst_visitor [--attack replay,leave,links,proofs,...] [--seconds 60] [--pair poetry]

For each attack it starts a fresh server (tools.browser.app_process, the shipped settings), loads the
scriptorium once as a lecturer's tab would, then lets one hostile visitor loose in a thread while a second
session, a student, opens the scriptorium with a fresh seed every few seconds (tools.classroom_load,
over Streamlit's websocket protocol). The attacks, as the probe ran them:

- replay: import, through the archive page's uploader, a trace asking for 1,000,000,000 new tokens (k 32,
  no stop at the end mark) and one whose prompt is 5,000 tokens; whichever is accepted, press
  "Check by replay" on it.
- uploads: ten tabs each send fifteen files just under server.maxUploadSize as fast as they can, and
  stay open.
- archive: import ten traces whose prompt and text are 3.3M characters each, then visit the archive
  page again and again.
- leave (#50): two tabs at a time import a trace asking for as many tokens as the pair's context holds
  (k 32, noise 1, T 2), press "Check by replay" and close at once, again and again.
- links (#50): two tabs at a time open the scriptorium on a heavy link (a dynamic tree of 128 nodes,
  noise 1, T 2, 128 new tokens) with a new seed each time; where the server refuses it, the same link
  with half the tokens, until one is computed, which they then repeat.
- proofs (#50): eight tabs open the proof page and press Start sampling once, and stay open.
- closed (#50): five tabs upload two near-limit files each and close; a new tab then imports a run.
- deletes (#50): the archive holds the lecturer's runs; the visitor opens each and presses Delete
  wherever the page offers it.
- race (#50): two tabs open the race at the sidebar's heaviest chain (k 12, noise 1, T 2, 128 new
  tokens; where refused, half the tokens, until one is computed) and press "Time it again" again and again.
- sweep (#50): two tabs open the speed lab at those settings, press Measure, then "Run the sweep" again
  and again.

The visitor's tabs come from ATTACKER_ADDRESS, another loopback address, so the server sees one visitor
(as it would one laptop on a class network); the student's come from 127.0.0.1, each tab its own.

The traces are a real run of the pair given (poetry by default, whose context is 1,024 tokens), edited,
made before any server starts. Each attack, and the student's window, lasts at most --seconds.

It prints one markdown table row per attack: what the server answered, its resident memory at the start
and at its peak, the student's time from asking for a new run to its finished page, and every error
(a failed request, an exception on a page, a traceback in the server's log) instead of a traceback here.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import tomllib
import uuid
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

import requests
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from tools.browser import ROOT, app_process
from tools.classroom_load import FINISHED, PeakRss, Session, open_and_step

FULL_FILE = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"]["maxUploadSize"] * 1024 * 1024
FLOOD_FILE = FULL_FILE * 19 // 20  # just under the limit per file, as the probe sent (19 MB of 20)
FLOOD_TABS, FLOOD_UPLOADS = 10, 15  # 150 uploads, as the probe sent
BOMB_CHARACTERS = 3_300_000  # a bomb trace's prompt and its text each
BOMB_TRACES = 10
STUDENT_EVERY_S = 2.0
LECTURER_SEED, STUDENT_SEED = 10_000, 20_000
CHECK_KEY = "archive_check"  # the "Check by replay" button's key (ui/archive/sections.py)
DELETE_KEY = "archive_delete"
ATTACKER_ADDRESS = "127.0.0.2"  # Linux answers all of 127/8 on the loopback
HEAVY_LINK = {"shape": "dynamic-8-128", "noise": 1, "temperature": 2, "max_new": 128}
HEAVY_CHAIN = {"k": 12, "noise": 1, "temperature": 2, "max_new": 128}  # the sidebar's most, as a chain
PROOF_TABS, CLOSED_TABS, LECTURER_RUNS = 8, 5, 20


@dataclass
class Page:
    """What one finished script run put on a tab: its alerts (format, body), buttons by id, menus' options by
    label, the uploader's id."""

    alerts: list[tuple[int, str]] = field(default_factory=list)
    buttons: dict[str, str] = field(default_factory=dict)
    menus: dict[str, list[str]] = field(default_factory=dict)
    uploader: str = ""
    seconds: float = 0.0

    def said(self) -> str:
        """"accepted" or "refused" from the page's success or error, with the error's first words."""
        for kind, body in self.alerts:
            if kind in (Alert.ERROR, Alert.WARNING):  # its first words, without the Markdown escapes
                words = " ".join(body.replace("\\", "").split())
                return "refused: " + (words if len(words) <= 100 else words[:100] + "…")
        return "accepted" if any(kind == Alert.SUCCESS for kind, _ in self.alerts) else "no answer on the page"


class Tab:
    """One browser tab on the server, speaking Streamlit's websocket protocol; every wait ends by `deadline`."""

    def __init__(self, base: str, deadline: float, address: str = "127.0.0.1", headers: dict | None = None):
        """headers: sent with the websocket's opening request, as a browser sends its cookies."""
        self.base, self.deadline, self.session_id = base, deadline, ""
        self._connection = connect(base.replace("http", "ws") + "/_stcore/stream", subprotocols=["streamlit"],
                                   max_size=None, source_address=(address, 0), additional_headers=headers)

    def __enter__(self) -> Tab:
        self.socket = self._connection.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._connection.__exit__(*exc)

    def run(self, page_name: str, widgets: Callable | None = None, query: str = "language=en") -> Page:
        """Ask for a run of the page (`widgets` fills in its widget states) and read until it has finished."""
        started = time.perf_counter()
        self.ask(page_name, widgets, query)
        page = Page()
        while True:
            forward = ForwardMsg.FromString(self.socket.recv(timeout=max(self.deadline - time.monotonic(), 0.1)))
            kind = forward.WhichOneof("type")
            if kind == "new_session":  # each script run starts with one; a page that reran itself starts over
                self.session_id, page = forward.new_session.initialize.session_id, Page()
            elif kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                _note(page, forward.delta.new_element)
            elif kind == "script_finished" and forward.script_finished in FINISHED:
                page.seconds = time.perf_counter() - started
                return page

    def ask(self, page_name: str, widgets: Callable | None = None, query: str = "language=en") -> None:
        """Ask for a run of the page and read nothing (a tab that closes next)."""
        message = BackMsg()
        message.rerun_script.query_string, message.rerun_script.page_name = query, page_name
        if widgets:
            widgets(message.rerun_script.widget_states)
        self.socket.send(message.SerializeToString())

    def press(self, page_name: str, button_id: str, wait: bool = True, query: str = "language=en") -> Page | None:
        def trigger(states) -> None:
            state = states.widgets.add()
            state.id, state.trigger_value = button_id, True

        if not wait:
            return self.ask(page_name, trigger, query)
        return self.run(page_name, trigger, query)

    def clear_cache(self) -> None:
        """Send the message a browser's "Clear cache" sends (the server refuses it: ui/shared/server_guard.py)."""
        message = BackMsg()
        message.clear_cache = True
        self.socket.send(message.SerializeToString())

    def import_file(self, client: requests.Session, uploader: str, name: str, data: bytes) -> Page:
        """Upload a file as the browser's uploader does, then run the archive page with the uploader holding it."""
        file_id = str(uuid.uuid4())
        url = f"{self.base}/_stcore/upload_file/{self.session_id}/{file_id}"
        status = upload(client, self.base, self.session_id, data, file_id, name)
        if status != 204:
            raise RuntimeError(f"the upload of {name} was answered {status}")

        def holding(states) -> None:
            state = states.widgets.add()
            state.id = uploader
            info = state.file_uploader_state_value.uploaded_file_info.add()
            info.name, info.size, info.file_id = name, len(data), file_id
            info.file_urls.file_id, info.file_urls.upload_url, info.file_urls.delete_url = file_id, url, url

        return self.run("archive", holding)


def _note(page: Page, element) -> None:
    kind = element.WhichOneof("type")
    if kind == "alert":
        page.alerts.append((element.alert.format, element.alert.body))
    elif kind == "button":
        page.buttons[element.button.id] = element.button.label
    elif kind == "selectbox":
        page.menus[element.selectbox.label] = list(element.selectbox.options)
    elif kind == "file_uploader":
        page.uploader = element.file_uploader.id
    elif kind == "exception":  # the app shows no details to a visitor: the server's log has them
        raise RuntimeError(f"the page showed an exception {element.exception.message[:100]!r}")


def open_session(stack: ExitStack, base: str) -> str:
    """A tab that has opened the parable page and stays open; its session id (what the upload URL names)."""
    tab = stack.enter_context(Tab(base, time.monotonic() + 300))
    tab.run("parable")
    return tab.session_id


def upload(client: requests.Session, base: str, session_id: str, data: bytes, file_id: str = "",
           name: str = "flood.json", timeout: float = 120) -> int:
    """PUT one file as the browser's uploader does (its XSRF token from the cookie /_stcore/health set)."""
    token = client.cookies["_streamlit_xsrf"]
    answer = client.put(f"{base}/_stcore/upload_file/{session_id}/{file_id or uuid.uuid4()}",
                        headers={"X-Xsrftoken": token}, files={"file": (name, data, "application/json")},
                        timeout=timeout)
    return answer.status_code


def xsrf_client(base: str) -> requests.Session:
    client = requests.Session()
    client.get(f"{base}/_stcore/health", timeout=30)  # sets the _streamlit_xsrf cookie, as a browser gets it
    return client


def hostile_files(pair: str) -> dict[str, bytes]:
    """The files the visitor uploads, by name: a real run of `pair` (its own scribe and example prompt),
    edited as the probe edited it. Made once, before any server starts, so making them takes no server time."""
    from specdec_core.settings import DecodeSettings
    from ui.shared.models import cached_pair
    from ui.shared.runs import cached_run

    model_pair = cached_pair(pair, "cpu")
    prompt = model_pair.example_prompts[0] if model_pair.example_prompts else "春山"
    run = cached_run(pair, "cpu", model_pair.default_draft, prompt, DecodeSettings(k=3, seed=41, max_new_tokens=8))
    edits = {"billion tokens": billion_tokens, "5,000-token prompt": long_prompt}
    edits |= {f"huge text {n}": huge_text for n in range(BOMB_TRACES)}
    fits = model_pair.context_limit - len(json.loads(run)["prompt_tokens"])
    edits |= {f"replay of {fits >> halves}": asking_for(fits >> halves) for halves in range(6)}  # longest first
    files = {name: edited(run, seed, edit) for seed, (name, edit) in enumerate(edits.items(), start=900)}
    return files | {"run": run.encode(), "pair": pair.encode()}  # the run itself, and the pair by name


def edited(run: str, seed: int, edit: Callable[[dict], None]) -> bytes:
    trace = json.loads(run)
    trace["settings"]["seed"] = seed  # each file its own run: the archive would call a second copy "already there"
    edit(trace)
    return json.dumps(trace).encode()


def billion_tokens(trace: dict) -> None:
    trace["settings"] |= {"max_new_tokens": 1_000_000_000, "k": 32, "stop_at_eos": False}


def asking_for(tokens: int) -> Callable[[dict], None]:
    def edit(trace: dict) -> None:  # noise 1 and T 2: nearly every draft rejected, the dearest replay of its length
        trace["settings"] |= {"max_new_tokens": tokens, "k": 32, "noise": 1.0, "stop_at_eos": False}
        trace["settings"]["sampling"]["temperature"] = 2.0
    return edit


def long_prompt(trace: dict) -> None:
    trace["prompt_tokens"] = [3] * 5_000


def huge_text(trace: dict) -> None:
    trace["prompt_text"] = trace["text"] = "x" * BOMB_CHARACTERS


def replay_bomb(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """Import each bomb; where one is accepted (the run then opens), press "Check by replay" and wait."""
    with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
        uploader, client = tab.run("archive").uploader, xsrf_client(base)
        for name in ("billion tokens", "5,000-token prompt"):
            page = tab.import_file(client, uploader, f"{name}.json", files[name])
            said.append(f"{name}: {page.said()}")
            check = next((id_ for id_ in page.buttons if id_.endswith(CHECK_KEY)), None)
            if page.said() == "accepted" and check:
                pressed = time.monotonic()
                try:
                    checked = tab.press("archive", check)
                    said.append(f"its check ({checked.seconds:.1f} s): {checked.said()}")
                except TimeoutError:
                    said.append(f"its check: still running when the time was up, {time.monotonic() - pressed:.0f} s")
                    break


def upload_flood(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """FLOOD_TABS tabs at once, each sending FLOOD_UPLOADS near-limit files back to back; the tabs stay open."""
    data, answers, lock = b"x" * FLOOD_FILE, Counter(), threading.Lock()
    with ExitStack() as tabs:
        sessions = [open_session(tabs, base) for _ in range(FLOOD_TABS)]

        def flood(session_id: str) -> None:
            client = xsrf_client(base)
            for _ in range(FLOOD_UPLOADS):
                if time.monotonic() > deadline:
                    return
                try:
                    status = upload(client, base, session_id, data, timeout=max(deadline - time.monotonic(), 1))
                except requests.RequestException as error:  # counted with the answers: the row says how many
                    status = type(error).__name__
                with lock:
                    answers[status] += 1

        threads = [threading.Thread(target=flood, args=(s,), daemon=True) for s in sessions]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(deadline - time.monotonic(), 0) + 5)
        names = {204: "kept", 413: "refused (session full)", 503: "refused (server full)"}
        said.append(", ".join(f"{n} {names.get(status, f'answered {status}')}" for status, n in answers.items()))
        time.sleep(max(deadline - time.monotonic(), 0))  # the tabs hold what they were given while the student runs


def archive_bomb(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """Import the huge traces, then open the archive page back to back until the time is up."""
    answers, visits, late = Counter(), [], []
    try:
        with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
            uploader, client = tab.run("archive").uploader, xsrf_client(base)
            for name in (name for name in files if name.startswith("huge text")):
                answers[tab.import_file(client, uploader, f"{name}.json", files[name]).said()] += 1
            while time.monotonic() < deadline:
                visits.append(tab.run("archive").seconds)
    except TimeoutError:  # an import or a visit still waited for when the time was up: the row says so
        late.append("a page still unanswered when the time was up")
    said.extend(f"{n} × {answer}" for answer, n in answers.items())
    said.append(f"{len(visits)} archive visits, {spread(visits)} s" if visits else "no archive visit in time")
    said.extend(late)


def replay_and_leave(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """Find the longest replay the server checks (longest first, each waited for), then two tabs at a time
    import it, press "Check by replay" and close at once, until the time is up."""
    client, chosen = xsrf_client(base), None
    with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
        uploader = tab.run("archive").uploader
        for name in (name for name in files if name.startswith("replay of ")):
            page = tab.import_file(client, uploader, f"{name}.json", files[name])
            check = next((id_ for id_ in page.buttons if id_.endswith(CHECK_KEY)), None)
            answer = tab.press("archive", check).said() if check else page.said()
            said.append(f"{name} tokens: {answer}")
            if not answer.startswith("refused: Cannot"):  # checked: the same text or not, either is computed
                chosen = name
                break
    if chosen is None:
        return
    left = [0]

    def press_and_leave() -> None:
        with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
            page = tab.import_file(client, tab.run("archive").uploader, f"{chosen}.json", files[chosen])
            tab.press("archive", next(id_ for id_ in page.buttons if id_.endswith(CHECK_KEY)), wait=False)
            left[0] += 1

    while time.monotonic() < deadline - 5:
        pair_of_tabs = [threading.Thread(target=press_and_leave, daemon=True) for _ in range(2)]
        for tab in pair_of_tabs:
            tab.start()
        for tab in pair_of_tabs:
            tab.join(max(deadline - time.monotonic(), 0.1))
    said.append(f"{left[0]} checks of {chosen} tokens pressed and left")


def heavy_links(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """Halve HEAVY_LINK's tokens until the server computes it, then two tabs open it with a new seed each time."""
    link, seeds, answers = dict(HEAVY_LINK), iter(range(50_000, 10**6)), Counter()

    def query() -> str:
        return urlencode({"language": "en", "pair": files["pair"].decode(), "seed": next(seeds), **link})
    while link["max_new"] >= 8:
        with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
            answer = tab.run("scriptorium", query=query()).said()
        said.append(f"{link['max_new']} tokens: {answer if answer.startswith('refused') else 'computed'}")
        if not answer.startswith("refused"):
            break
        link["max_new"] //= 2

    def keep_opening() -> None:
        while time.monotonic() < deadline:
            try:
                with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
                    answer = tab.run("scriptorium", query=query()).said()
            except TimeoutError:  # the time ran out during this one
                answer = "unanswered when the time was up"
            answers[answer if answer.startswith("unanswered") else "refused" if answer.startswith("refused") else "computed"] += 1

    at_once(keep_opening, 2, deadline)
    said.append(", ".join(f"{n} {answer}" for answer, n in answers.items()) + f" at {link['max_new']} tokens")


def proof_line(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """PROOF_TABS tabs press Start sampling on the proof page; a refused tab's page says so and finishes."""
    answers, query = Counter(), urlencode({"language": "en", "pair": files["pair"].decode()})

    def start() -> None:
        try:
            with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
                page = tab.run("proof", query=query)
                button = next(id_ for id_, label in page.buttons.items() if label == "Start sampling")
                answer = tab.press("proof", button).said()
                answers["refused: the visitor's two places are taken" if "each visitor may" in answer else answer] += 1
                time.sleep(max(deadline - time.monotonic(), 0))  # the tab stays open
        except TimeoutError:
            answers["sampling, or in line, until the time was up"] += 1

    at_once(start, PROOF_TABS, deadline)
    said.append("; ".join(f"{n} × {answer}" for answer, n in answers.items()))


def closed_tabs(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """CLOSED_TABS tabs upload two near-limit files each and close; then a new tab imports a run."""
    client, data = xsrf_client(base), b"x" * FLOOD_FILE
    with ExitStack() as tabs:
        held = [upload(client, base, s, data) for s in [open_session(tabs, base) for _ in range(CLOSED_TABS)]
                for _ in range(2)]
    said.append(f"{held.count(204)} of {len(held)} uploads kept, then the tabs closed")
    with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
        said.append(f"a new tab's import: {tab.import_file(client, tab.run('archive').uploader, 'run.json', files['run']).said()}")


def deletes(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    """Open the archive (the lecturer's runs, the newest open) and press Delete while the page offers it."""
    deleted = 0
    with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
        page = tab.run("archive")
        while time.monotonic() < deadline and (button := next((i for i in page.buttons if i.endswith(DELETE_KEY)), None)):
            tab.press("archive", button)
            deleted, page = deleted + 1, tab.run("archive")
    said.append(f"Delete offered and pressed {deleted} times on {LECTURER_RUNS} runs the lecturer made")


def race_again(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    keep_pressing(base, files, deadline, said, "race", (), "race_again")


def sweeps(base: str, files: dict[str, bytes], deadline: float, said: list[str]) -> None:
    keep_pressing(base, files, deadline, said, "speed_lab", ("measure",), "sweep")


def keep_pressing(base: str, files: dict[str, bytes], deadline: float, said: list[str], page_name: str,
                  first: tuple[str, ...], again: str) -> None:
    """Find the most tokens at HEAVY_CHAIN whose `again` press the server computes (halving from 128), then two
    tabs open the page, press the `first` buttons, and press `again` until the time is up."""
    settings, answers = dict(HEAVY_CHAIN), Counter()

    def one_tab(repeat: bool) -> str:
        query = urlencode({"language": "en", "pair": files["pair"].decode(), **settings})
        with Tab(base, deadline, ATTACKER_ADDRESS) as tab:
            page = tab.run(page_name, query=query)
            for key in (*first, again):
                page = tab.press(page_name, keyed(page, key), query=query)
            answer = outcome(page)
            while repeat and time.monotonic() < deadline:
                answer = outcome(tab.press(page_name, keyed(page, again), query=query))
                answers[answer] += 1
            return answer

    try:
        while settings["max_new"] >= 8 and one_tab(repeat=False) == "refused":
            settings["max_new"] //= 2
    except TimeoutError:
        said.append(f"the first press at {settings['max_new']} tokens was unanswered when the time was up")
        return

    def repeat() -> None:
        try:
            one_tab(repeat=True)
        except TimeoutError:  # the time ran out during a press
            answers["unanswered when the time was up"] += 1
        except StopIteration:
            answers["no such button on the page"] += 1

    at_once(repeat, 2, deadline)
    said.append(", ".join(f"{n} {answer}" for answer, n in answers.items()) + f" at {settings['max_new']} tokens")


def at_once(tab_work: Callable[[], None], tabs: int, deadline: float) -> None:
    """`tabs` tabs doing `tab_work` side by side, each given until the deadline and 30 s more to finish."""
    threads = [threading.Thread(target=tab_work, daemon=True) for _ in range(tabs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(deadline - time.monotonic(), 0) + 30)


def keyed(page: Page, key: str) -> str:
    """The id of the page's button made with `key` (Streamlit ends a keyed widget's id with -key)."""
    return next(id_ for id_ in page.buttons if id_.rsplit("-", 1)[-1] == key)


def outcome(page: Page) -> str:
    """A refusal is an error on the page; a verdict that the scribe loses is a warning, and was computed."""
    return "refused" if any(kind == Alert.ERROR for kind, _ in page.alerts) else "computed"


ATTACKS = {"replay": replay_bomb, "uploads": upload_flood, "archive": archive_bomb, "leave": replay_and_leave,
           "links": heavy_links, "proofs": proof_line, "closed": closed_tabs, "deletes": deletes,
           "race": race_again, "sweep": sweeps}


class Student(threading.Thread):
    """Another session: a new run (fresh seed) every STUDENT_EVERY_S, each waited for, until told to stop."""

    def __init__(self, base: str, pair: str):
        super().__init__(daemon=True)
        self.base, self.pair, self.stop = base, pair, threading.Event()
        self.sessions: list[Session] = []
        self.asked_at: float | None = None  # when the run now waited for was asked for

    def run(self) -> None:
        seed = STUDENT_SEED
        while not self.stop.is_set():
            self.asked_at = time.monotonic()
            self.sessions.append(open_and_step(self.base, self.pair, seed, 0))
            seed, waited, self.asked_at = seed + 1, time.monotonic() - self.asked_at, None
            self.stop.wait(max(STUDENT_EVERY_S - waited, 0))

    def unanswered_s(self) -> float:
        return 0.0 if self.asked_at is None else time.monotonic() - self.asked_at


@dataclass
class Row:
    attack: str
    said: list[str] = field(default_factory=list)
    start_mb: float = 0.0
    peak_mb: float = 0.0
    end_mb: float = 0.0  # once the attack and the student are done: what the server kept
    runs_s: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        memory = f"{self.start_mb:.0f} → {self.peak_mb:.0f} → {self.end_mb:.0f}" if self.peak_mb else "—"
        runs = f"{spread(self.runs_s)} ({len(self.runs_s)} runs)" if self.runs_s else "—"
        errors = "; ".join(self.errors) if self.errors else "none"
        return f"| {self.attack} | {'; '.join(self.said) or '—'} | {memory} | {runs} | {errors} |"


def spread(xs: list[float]) -> str:
    return f"{min(xs):.1f} / {statistics.median(xs):.1f} / {max(xs):.1f}"


def measure(name: str, pair: str, files: dict[str, bytes], seconds: float) -> Row:
    """One attack on a fresh server, the student running beside it; every failure ends up in the row."""
    row = Row(name)
    try:
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "server.log"
            if name == "deletes":
                lecturer_runs(Path(folder) / "archive.sqlite", files["run"].decode())
            with app_process(archive=Path(folder) / "archive.sqlite", log=log) as (base, pid):
                lecturer = open_and_step(base, pair, LECTURER_SEED, 0)  # loads the pair once, as the lecturer's tab
                if lecturer.error:
                    row.errors.append(f"lecturer's page: {lecturer.error}")
                row.start_mb = rss_mb(pid)
                with PeakRss(pid) as rss:
                    watch(row, base, pair, files, seconds)
                row.peak_mb, row.end_mb = rss.peak_mb, rss_mb(pid)
            tracebacks = log.read_text(errors="replace").count("Traceback")
            if tracebacks:
                row.errors.append(f"{tracebacks} tracebacks in the server's log")
    except Exception as error:  # noqa: BLE001 - a server that did not start is this row's error
        row.errors.append(f"{type(error).__name__}: {error}")
    return row


def lecturer_runs(path: Path, run: str) -> None:
    """LECTURER_RUNS runs in the archive before the server starts, as the lecturer's command line files them."""
    from specdec_core.services.archive import Archive

    store = Archive(path)
    for seed in range(LECTURER_RUNS):
        store.save(edited(run, seed, lambda trace: None))


def watch(row: Row, base: str, pair: str, files: dict[str, bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    student = Student(base, pair)
    attacker = threading.Thread(target=lambda: attack_into(row, base, files, deadline), daemon=True)
    student.start()
    attacker.start()
    attacker.join(seconds + 30)
    if attacker.is_alive():
        row.errors.append("the attacker was still waiting 30 s after its time")
    student.stop.wait(max(deadline - time.monotonic(), 0))
    student.stop.set()
    student.join(30)
    row.runs_s = [s.page_s[0] for s in student.sessions if s.page_s]
    failed = [s for s in student.sessions if s.error]
    if failed:
        row.errors.append(f"{len(failed)} student runs failed, first: {failed[0].error[:120]}")
    if student.unanswered_s():
        row.errors.append(f"a student run unanswered after {student.unanswered_s():.0f} s")


def attack_into(row: Row, base: str, files: dict[str, bytes], deadline: float) -> None:
    try:
        ATTACKS[row.attack](base, files, deadline, row.said)
    except Exception as error:  # noqa: BLE001 - a refused or broken attack is reported, not raised
        row.errors.append(f"attacker: {type(error).__name__}: {str(error)[:160]}")


def rss_mb(pid: int) -> float:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.worst_visitor", description=__doc__.splitlines()[0])
    parser.add_argument("--attack", default=",".join(ATTACKS), help="attacks, comma-separated: " + ", ".join(ATTACKS))
    parser.add_argument("--seconds", type=float, default=60, help="how long each attack and the student's window last")
    parser.add_argument("--pair", default="poetry", help="the student's pair")
    parser.add_argument("--attack-pair", default="", help="the pair the visitor's traces, links and proofs name "
                        "(default: the student's)")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.attack.split(",")]
    unknown = [name for name in names if name not in ATTACKS]
    if unknown:
        parser.error(f"no attack {', '.join(unknown)}; choose from {', '.join(ATTACKS)}")
    try:
        files = hostile_files(args.attack_pair or args.pair)
    except Exception as error:  # noqa: BLE001 - e.g. a pair whose files are not here
        print(f"no run of {args.attack_pair or args.pair} to make the hostile files from: {type(error).__name__}: {error}",
              file=sys.stderr)
        return 1
    rows = [measure(name, args.pair, files, args.seconds).markdown() for name in names]
    print("\n| attack | what the server answered | server RSS, MB (start → peak → end) "
          "| student's new run, s (min / median / max) | errors |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
