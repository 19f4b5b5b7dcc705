"""Two replicas behind nginx, one archive in PostgreSQL, all on this machine's loopback (#52).

The recipe itself runs: deploy/replicas.py starts the replicas and writes nginx's site file from deploy/'s
template, Debian's nginx serves it (tools/nginx_front.py) and a throwaway cluster holds the archive. Clients
speak Streamlit's websocket protocol and upload endpoint as a browser tab does; one test drives Chromium.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
import requests

from specdec_core.services.archive import Archive, RunFilter
from tools.browser import CHROMIUM, ROOT, chromium, free_port, open_page, wait_for_line, wait_ready
from tools.classroom_load import STEP_LABEL
from tools.nginx_front import NoNginx, nginx_in_front, nginx_program
from streamlit.proto.Alert_pb2 import Alert
from tools.worst_visitor import FULL_FILE, Tab, upload
from ui.shared.warm_start import READY_PATH

pytestmark = pytest.mark.timeout(600)
SCRIPTORIUM = "scriptorium"


def consecutive_free_ports(n: int) -> int:
    """The first of n free ports in a row."""
    while True:
        first = free_port()
        if first + n < 65_000 and all(_free(first + i) for i in range(1, n)):
            return first


def _free(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def replica_pid(port: int) -> int | None:
    """The process serving `port` (serve.py with --server.port port), if one runs."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                arguments = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"serve.py" in arguments and arguments[arguments.index(b"--server.port") + 1] == str(port).encode():
                return int(entry.name)
    return None


class Front:
    """The launcher's replicas behind nginx: `base` is the proxy; `ports` the replicas'; `archive` the database."""

    def __init__(self, base: str, ports: list[int], archive: str, logs: Path):
        self.base, self.ports, self.archive, self.logs = base, ports, archive, logs

    def client(self) -> requests.Session:
        """A browser's cookie jar: its first answer sets the replica's cookie and Streamlit's XSRF one."""
        client = requests.Session()
        client.get(f"{self.base}/_stcore/health", timeout=30)
        return client

    def replica_of(self, client: requests.Session) -> int:
        answer = client.get(f"{self.base}{READY_PATH}", timeout=30)
        assert answer.status_code == 200, answer.text
        return int(answer.text.split()[-1])

    def tab(self, client: requests.Session, base: str | None = None) -> Tab:
        cookies = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        return Tab(base or self.base, time.monotonic() + 300, headers={"Cookie": cookies})

    def log(self, port: int) -> str:
        return (self.logs / f"replica-{port}.log").read_text()


@pytest.fixture(scope="module")
def front(postgres, tmp_path_factory):
    try:
        nginx_program()
    except NoNginx as missing:
        pytest.skip(f"{missing} (.ci/run installs it)")
    folder = tmp_path_factory.mktemp("replicas")
    first, listen = consecutive_free_ports(2), free_port()
    archive, site = postgres.new_database(), folder / "scriptorium.conf"
    launcher_log = folder / "launcher.log"
    command = [sys.executable, "deploy/replicas.py", "--replicas", "2", "--first-port", str(first), "--archive", archive,
               "--logs", str(folder), "--nginx-site", str(site), "--listen", f"127.0.0.1:{listen}", "--restart-after", "2"]
    with open(launcher_log, "w") as out:
        launcher = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    ports = [first, first + 1]
    try:
        assert wait_for_line(launcher_log, "all replicas ready", 400), launcher_log.read_text()
        with nginx_in_front(site.read_text(), listen) as nginx:
            yield Front(f"http://127.0.0.1:{listen}", ports, archive, folder)
            assert "[emerg]" not in (nginx / "error.log").read_text()
    finally:
        launcher.send_signal(signal.SIGTERM)
        launcher.wait(60)
        for port in ports:  # the launcher stops its replicas; one it could not would outlive the test
            if (pid := replica_pid(port)) is not None:
                os.kill(pid, signal.SIGKILL)
    assert "Traceback" not in launcher_log.read_text()
    for port in ports:
        assert "Traceback" not in (folder / f"replica-{port}.log").read_text()


def step_through(tab: Tab, seed: int, steps: int = 2) -> list:
    """Open the scriptorium at `seed` and press Step ▶: the first step files the run in the archive."""
    query = f"language=en&pair=poetry&seed={seed}"
    pages = [tab.run(SCRIPTORIUM, query=query)]
    for _ in range(steps):
        step = next(id_ for id_, label in pages[-1].buttons.items() if label == STEP_LABEL)
        pages.append(tab.press(SCRIPTORIUM, step, query=query))
    return pages


def test_a_browser_stays_on_its_replica_across_its_requests_and_steps(front):
    seen = set()
    for _ in range(6):  # six browsers: each keeps to one replica, and between them they use both
        client = front.client()
        replicas = {front.replica_of(client) for _ in range(5)}
        assert len(replicas) == 1
        seen |= replicas
    assert seen == set(front.ports)
    client = front.client()
    with front.tab(client) as tab:
        pages = step_through(tab, seed=701)
        # an upload names the session: it is accepted only by the replica that holds it, the browser's
        assert upload(client, front.base, tab.session_id, b"{}") == 204
        stranger = front.client()
        while front.replica_of(stranger) == front.replica_of(client):
            stranger = front.client()
        assert upload(stranger, front.base, tab.session_id, b"{}") != 204  # the other replica has no such session
    assert len(pages) == 3 and not [body for page in pages for kind, body in page.alerts if kind == Alert.ERROR]


def test_a_run_filed_through_one_replica_is_listed_by_the_other(front):
    client = front.client()
    mine = front.replica_of(client)
    with front.tab(client) as tab:
        step_through(tab, seed=702, steps=1)
    (row,) = [r for r in Archive(front.archive).list(RunFilter(pair="poetry")) if r.seed == 702]
    other = next(port for port in front.ports if port != mine)
    with Tab(f"http://127.0.0.1:{other}", time.monotonic() + 300) as tab:
        archive_page = tab.run("archive", query="language=en")
    assert any(option.startswith(f"#{row.id} ") for options in archive_page.menus.values() for option in options)


def test_the_guards_hold_behind_the_proxy(front):
    assert requests.get(f"{front.base}/_stcore/metrics", timeout=30).status_code == 404
    client = front.client()
    port = front.replica_of(client)
    with front.tab(client) as tab:
        tab.run("parable")
        answers = [upload(client, front.base, tab.session_id, b"x" * (FULL_FILE - 1000)) for _ in range(3)]
        tab.clear_cache()
        tab.run("parable")  # the server has read the message before it answers this
    assert answers == [204, 204, 413]  # a session holds two files at most, behind the proxy as in front of it
    assert "refused a browser's request to clear the shared caches" in front.log(port)
    too_big = front.client()
    with front.tab(too_big) as tab:
        tab.run("parable")
        assert upload(too_big, front.base, tab.session_id, b"x" * (10 * 2**20)) == 413  # nginx's own bound


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)")
def test_after_kill_9_a_browser_reconnects_to_the_other_replica_and_no_run_is_lost(front):
    pytest.importorskip("playwright", reason="playwright is in requirements.txt; run `make test` to install it")
    with chromium() as browser:
        context = browser.new_context()
        tab = context.new_page()
        open_page(tab, front.base, SCRIPTORIUM, language="en", pair="poetry", seed=703)
        tab.get_by_role("button", name=STEP_LABEL).click()
        wait_ready(tab)
        filed = {r.id for r in Archive(front.archive).list() if r.seed == 703}
        assert filed  # the step filed this browser's run
        before = replica_answering(context, front)
        os.kill(replica_pid(before), signal.SIGKILL)
        # Streamlit's page reconnects by itself; nginx finds the replica gone and hashes the cookie to the other
        deadline = time.monotonic() + 120
        while (after := replica_answering(context, front)) in (before, None) and time.monotonic() < deadline:
            time.sleep(1)
        assert after in front.ports and after != before
        wait_ready(tab)
        shown = tab.inner_text("body")
        tab.get_by_role("button", name=STEP_LABEL).click(timeout=120_000)
        # the page steps: its socket is live on the other replica (a dead one would leave the page as it was)
        tab.wait_for_function("shown => document.body.innerText !== shown", arg=shown, timeout=60_000)
        wait_ready(tab)
        assert tab.locator(".sheet").count() >= 1 and tab.locator('[data-testid="stException"]').count() == 0
    assert filed <= {r.id for r in Archive(front.archive).list()}  # no filed run lost
    assert wait_until_ready(before, 300)  # the launcher started the killed replica again, warmed


def replica_answering(context, front: Front) -> int | None:
    """Which replica the browser's cookie reaches now (through the proxy), None while none answers."""
    answer = context.request.get(f"{front.base}{READY_PATH}")
    return int(answer.text().split()[-1]) if answer.ok else None


def wait_until_ready(port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}{READY_PATH}", timeout=5).status_code == 200:
                return True
        except requests.RequestException:  # not listening yet
            pass
        time.sleep(1)
    return False
