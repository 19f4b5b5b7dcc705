"""A class server under a hostile visitor (#38): uploads bounded, no look-up of its own address, no open metrics,
and no figure meeting a half-imported pandas.

The upload, metrics and network tests run the real server (tools.browser.app_process) and speak Streamlit's
websocket protocol and upload endpoint, as a browser tab does.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
import requests

from tools.browser import ROOT, app_process, wait_for_line
from tools.classroom_load import PeakRss
from tools.worst_visitor import FLOOD_FILE, FULL_FILE, open_session, rss_mb, upload, xsrf_client
from ui.shared.server_guard import SERVER_UPLOAD_FILES, SESSION_UPLOAD_FILES

FLOOD_SESSIONS = 6
FLOOD_TRIES = 8  # per session: 48 uploads, which a server without bounds keeps


@pytest.mark.timeout(400)
def test_an_upload_flood_is_refused_past_the_bounds_and_the_server_keeps_its_memory(tmp_path):
    """#38: 150 uploads of 19 MB from one client took the server from 2.0 to 4.7 GB and it kept them."""
    log = tmp_path / "server.log"
    data = b"x" * FLOOD_FILE
    with app_process(archive=tmp_path / "archive.sqlite", log=log) as (base, pid), ExitStack() as tabs:
        sessions = [open_session(tabs, base) for _ in range(FLOOD_SESSIONS)]  # the first page installs the guards
        # the pair the server warms as it starts grows its memory too: measure the uploads after it
        assert wait_for_line(log, "The pair poetry is loaded and timed", 180)
        client = requests.Session()
        client.get(f"{base}/_stcore/health", timeout=30)
        before = rss_mb(pid)
        with PeakRss(pid) as peak:
            answers = {s: [upload(client, base, s, data) for _ in range(FLOOD_TRIES)] for s in sessions}
        after = rss_mb(pid)
        metrics = client.get(f"{base}/_stcore/metrics", timeout=30)
        health = client.get(f"{base}/_stcore/health", timeout=30)
    kept = [answer.count(204) for answer in answers.values()]
    assert all(n <= SESSION_UPLOAD_FILES * FULL_FILE // FLOOD_FILE for n in kept), answers
    assert sum(kept) == SERVER_UPLOAD_FILES * FULL_FILE // FLOOD_FILE, answers  # the server's bound, then no more
    refusals = {status for answer in answers.values() for status in answer if status != 204}
    assert refusals == {413, 503}, answers  # 413: this session holds enough; 503: the server does
    held_mb = SERVER_UPLOAD_FILES * FULL_FILE / 2**20
    assert peak.peak_mb - before < held_mb + 200 and after - before < held_mb + 100, (before, peak.peak_mb, after)
    assert metrics.status_code == 404 and health.status_code == 200
    text = log.read_text()
    assert "refused an upload" in text and "Traceback" not in text


@pytest.mark.timeout(400)
def test_the_uploads_of_a_closed_tab_are_freed_when_it_disconnects(tmp_path):
    """#50: five tabs that uploaded two files each and closed held the server's share for 12 minutes: every
    other student's import, and a brand-new tab's, was answered 503."""
    data = b"x" * FLOOD_FILE
    with app_process(archive=tmp_path / "archive.sqlite", log=tmp_path / "server.log") as (base, _):
        client = xsrf_client(base)
        with ExitStack() as tabs:
            held = [upload(client, base, s, data) for s in [open_session(tabs, base) for _ in range(5)] for _ in range(2)]
        with ExitStack() as tab:
            newcomer = open_session(tab, base)
            answers = [upload(client, base, newcomer, data)]
            for _ in range(20):  # the server hears of a closed socket on its own loop: a moment, not a session's life
                if answers[-1] == 204:
                    break
                time.sleep(0.5)
                answers.append(upload(client, base, newcomer, data))
    assert held == [204] * 10  # the five tabs' uploads filled the share, as the probe's did
    assert answers[-1] == 204, answers


def a_run_to_import() -> bytes:
    from specdec_core.settings import DecodeSettings
    from ui.shared.runs import cached_run

    return cached_run("tiny", "cpu", "lm", "春山", DecodeSettings(k=3, seed=41, max_new_tokens=8)).encode()


@pytest.mark.parametrize("imported", [True, False])
def test_an_import_frees_its_file_once_its_outcome_is_said(tmp_path, monkeypatch, imported):
    """#38: the archive's uploader kept its file for as long as the session lived."""
    from app_pages import open_page
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    monkeypatch.setenv("SCRIPTORIUM_ARCHIVE", str(tmp_path / "archive.sqlite"))
    freed: list[MemoryUploadedFileManager] = []
    remove = MemoryUploadedFileManager.remove_session_files

    def spy(manager, session_id):
        remove(manager, session_id)
        freed.append(manager)

    monkeypatch.setattr(MemoryUploadedFileManager, "remove_session_files", spy)
    app = open_page("archive", "en", pair="tiny")
    content = a_run_to_import() if imported else b"{not json"
    app.file_uploader[0].set_value(("run.json", content, "application/json")).run()
    assert not app.exception and len(app.success if imported else app.error) == 1, "the outcome is said"
    assert freed and all(not manager.file_storage for manager in freed)


PLOTLY_RACE = """
import sys, threading
import plotly.graph_objects as go
if sys.argv[1] == "guarded":
    from ui.shared.server_guard import install_server_guards
    install_server_guards()
errors, imported = [], threading.Event()

def import_pandas():  # as Streamlit does lazily, in one session's thread
    import pandas  # noqa: F401
    imported.set()

def draw():  # another session's figure meanwhile
    while not imported.is_set():
        try:
            go.Figure(go.Bar(x=[1, 2, 3], y=[0.1, 0.2, 0.3]))
        except AttributeError as error:
            errors.append(str(error))
            return

threads = [threading.Thread(target=draw) for _ in range(4)] + [threading.Thread(target=import_pandas)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(errors), hasattr(sys.modules["pandas"], "Series"))
"""


def test_no_figure_meets_a_half_imported_pandas():
    """#38: `partially initialized module 'pandas' has no attribute 'Series'` at 45 sessions. The unguarded run
    is the control: in a fresh interpreter the race is there, and the guards make it impossible."""
    def race(mode: str) -> str:
        done = subprocess.run([sys.executable, "-c", PLOTLY_RACE, mode], cwd=ROOT, capture_output=True, text=True,
                              timeout=120, check=True)
        return done.stdout.split()

    assert race("guarded") == ["0", "True"]
    errors, _ = race("unguarded")
    assert int(errors) > 0, "the control no longer races: this test would prove nothing"


def namespaces_permitted() -> str:
    """"" where this machine can run the no-network probe; otherwise why not."""
    if not (shutil.which("ip") and shutil.which("strace")):
        return "needs iproute2 and strace"
    from tools.no_network import namespace_without_network

    try:
        with namespace_without_network():
            return ""
    except (subprocess.CalledProcessError, OSError) as error:
        return f"network namespaces are not permitted here: {error}"


@pytest.mark.timeout(500)
def test_a_foreign_origin_websocket_is_refused_without_asking_the_network(tmp_path):
    """#38: before refusing the handshake, Streamlit asked checkip.amazonaws.com (and routed towards 8.8.8.8)
    for this machine's address. In a namespace with no route, strace sees every connect() the server tries."""
    why_not = namespaces_permitted()
    if why_not:
        pytest.skip(why_not)
    from tools.no_network import probe_without_network

    result = probe_without_network(tmp_path)
    assert result.page_error == "" and result.knock_status == 403
    assert result.outside_connects == [], json.dumps(result.outside_connects, indent=1)
    assert "Did not auto detect external IP" not in result.log and "Traceback" not in result.log


def test_the_guards_hold_before_any_page_is_opened(tmp_path):
    """Streamlit runs no app code until a first page: the launcher (serve.py) installs the guards before it listens."""
    with app_process(archive=tmp_path / "archive.sqlite", log=tmp_path / "server.log") as (base, _):
        metrics = requests.get(f"{base}/_stcore/metrics", timeout=30)
    assert metrics.status_code == 404
