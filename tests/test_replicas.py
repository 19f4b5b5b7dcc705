"""Two replicas behind nginx, one archive in PostgreSQL, all on this machine's loopback (#52).

The recipe itself runs: deploy/replicas.py starts the replicas and writes nginx's site file from deploy/'s
template, Debian's nginx serves it (tools/nginx_front.py) and a throwaway cluster holds the archive. Clients
speak Streamlit's websocket protocol and upload endpoint as a browser tab does; one test drives Chromium.
"""
from __future__ import annotations

import os
import signal
import time

import pytest
import requests

from specdec_core.services.archive import Archive, RunFilter

pytest.importorskip("playwright", reason="playwright is in requirements.txt; run `make test` to install it")
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402  (after the skip)
from streamlit.proto.Alert_pb2 import Alert  # noqa: E402
from tools.browser import CHROMIUM, chromium, open_page, wait_ready
from tools.classroom_load import STEP_LABEL
from tools.nginx_front import NoNginx, nginx_program
from tools.replica_set import ReplicaSet, replica_pid, replicas_behind_nginx
from tools.worst_visitor import FULL_FILE, Tab, upload
from ui.shared.warm_start import READY_PATH

pytestmark = pytest.mark.timeout(600)
SCRIPTORIUM = "scriptorium"


class Front:
    """A browser's view of the replica set: cookie jars, which replica a jar reaches, tabs that send its cookies."""

    def __init__(self, replicas: ReplicaSet):
        self.replicas, self.base, self.ports, self.archive = replicas, replicas.base, replicas.ports, replicas.archive

    def client(self) -> requests.Session:
        """A browser's cookie jar: its first answer sets the replica's cookie and Streamlit's XSRF one."""
        client = requests.Session()
        client.get(f"{self.base}/_stcore/health", timeout=30)
        return client

    def replica_of(self, client: requests.Session) -> int:
        answer = client.get(f"{self.base}{READY_PATH}", timeout=30)
        assert answer.status_code == 200, answer.text
        return int(answer.text.split()[-1])

    def tab(self, client: requests.Session) -> Tab:
        cookies = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        return Tab(self.base, time.monotonic() + 300, headers={"Cookie": cookies})

    def log(self, port: int) -> str:
        return self.replicas.log(port)


@pytest.fixture(scope="module")
def front(postgres, tmp_path_factory):
    try:
        nginx_program()
    except NoNginx as missing:
        pytest.skip(f"{missing} (.ci/run installs it)")
    logs = tmp_path_factory.mktemp("replicas")
    with replicas_behind_nginx(2, postgres.new_database(), logs) as replicas:
        yield Front(replicas)
        assert "[emerg]" not in (replicas.nginx_folder / "error.log").read_text()
    assert "Traceback" not in (logs / "launcher.log").read_text()
    for port in replicas.ports:
        assert "Traceback" not in replicas.log(port)


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
        assert steps_again(tab, within_s=120)  # its socket is live on the other replica
        wait_ready(tab)
        assert tab.locator(".sheet").count() >= 1 and tab.locator('[data-testid="stException"]').count() == 0
    assert filed <= {r.id for r in Archive(front.archive).list()}  # no filed run lost
    assert wait_until_ready(before, 300)  # the launcher started the killed replica again, warmed


def steps_again(tab, within_s: float) -> bool:
    """Press Step until the page changes: a press while the page is still reconnecting reaches no server and
    changes nothing, as it would for a person, who presses again."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        shown = tab.inner_text("body")
        tab.get_by_role("button", name=STEP_LABEL).click(timeout=within_s * 1000)
        try:
            tab.wait_for_function("shown => document.body.innerText !== shown", arg=shown, timeout=10_000)
            return True
        except PlaywrightTimeout:
            continue
    return False


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
