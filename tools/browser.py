"""Start the app on a free port and drive it in Debian's Chromium: shared by tools.screenshots and the browser test.

Playwright's own browser download does not work offline, so both use /usr/bin/chromium (`apt-get install
chromium fonts-noto-cjk`, which .ci/run does); fonts-noto-cjk is what makes the Chinese text render.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"]
VIEWPORT = {"width": 1400, "height": 1000}
# Streamlit marks its root element with the script's state; "notRunning" means the page is drawn and waiting.
READY = '[data-testid="stApp"][data-test-script-state="notRunning"]'
RUNNING = '[data-testid="stApp"][data-test-script-state="running"]'
EXCEPTION = '[data-testid="stException"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def app_server(archive: Path | None = None, log: Path | None = None, timeout: float = 120) -> Iterator[str]:
    """Run `streamlit run app.py` until the block ends; yields its base URL once /_stcore/health answers.

    archive: the SQLite file the app saves runs to (SCRIPTORIUM_ARCHIVE), so tests never touch the user's own.
    """
    with app_process(archive, log, timeout) as (url, _):
        yield url


@contextmanager
def app_process(
    archive: Path | None = None, log: Path | None = None, timeout: float = 120, wrapper: tuple[str, ...] = ()
) -> Iterator[tuple[str, int]]:
    """app_server's server, yielding its base URL and process id (to read its memory).

    wrapper: a command the server runs under (strace, say); the process id is then the wrapper's.
    """
    port = free_port()
    env = dict(os.environ)
    if archive is not None:
        env["SCRIPTORIUM_ARCHIVE"] = str(archive)
    command = [
        *wrapper, sys.executable, "serve.py",  # streamlit run app.py, the guards installed before it listens
        "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]
    out = open(log, "w") if log else subprocess.DEVNULL
    # its own process group, ended whole: a wrapper such as strace passes no signal on, and its server outlived it
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, server, timeout)
        yield url, server.pid
    finally:
        _end_group(server)
        if log:
            out.close()


def wait_for_line(log: Path, line: str, timeout: float = 120) -> bool:
    """Whether the server's log shows `line` within `timeout` seconds (the warm start's "loaded and timed", say)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if line in log.read_text():
            return True
        time.sleep(0.5)
    return False


def _end_group(leader: subprocess.Popen) -> None:
    """SIGTERM to the leader's whole process group, SIGKILL to what is left after 10 s."""
    _signal_group(leader.pid, signal.SIGTERM)
    try:
        leader.wait(10)
    except subprocess.TimeoutExpired:
        pass
    for _ in range(100):  # the group outlives its leader while a member still runs
        if not _signal_group(leader.pid, 0):
            break
        time.sleep(0.1)
    _signal_group(leader.pid, signal.SIGKILL)
    leader.wait()


def _signal_group(group: int, signum: int) -> bool:
    """Send signum to a process group; False when no process of it is left."""
    try:
        os.killpg(group, signum)
        return True
    except ProcessLookupError:
        return False


def _wait_healthy(url: str, server: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {server.returncode} before answering")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:  # not listening yet
            pass
        time.sleep(0.3)
    raise TimeoutError(f"streamlit did not answer at {url} within {timeout:.0f} s")


@contextmanager
def chromium() -> Iterator:
    """A headless Debian Chromium under Playwright (imported here so the app itself never needs it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def page_url(base: str, page: str = "", **query) -> str:
    """The address of one page with its settings as URL query parameters (the app binds them to widgets)."""
    return f"{base}/{page}" + (f"?{urlencode(query)}" if query else "")


def open_page(tab, base: str, page: str = "", expect: str = "", timeout: float = 120, **query) -> float:
    """Go to a page and wait until its script is idle with `expect` on screen; returns the seconds that took."""
    start = time.monotonic()
    tab.goto(page_url(base, page, **query))
    wait_ready(tab, expect, timeout)
    return time.monotonic() - start


# Idle alone is not enough: before the first run starts, and between a run and the rerun it asks for, the app is
# briefly idle too. So "ready" is idle with the expected text on screen.
_READY_WITH = """text => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.dataset.testScriptState === "notRunning" && (!text || document.body.innerText.includes(text));
}"""


def wait_ready(tab, expect: str = "", timeout: float = 120) -> None:
    """Wait until the script is idle and `expect` shows. A rerun may start a moment after a click: allow for it."""
    try:
        tab.wait_for_selector(RUNNING, timeout=300)
    except Exception:  # already finished, or a fragment rerun too quick to see
        pass
    tab.wait_for_function(_READY_WITH, arg=expect, timeout=timeout * 1000, polling=50)


LANGUAGE_LABELS = {"zh": "繁體中文", "en": "English"}


def choose_language(tab, lang: str, expect: str = "") -> None:
    """Pick the language with the sidebar's radio, as a reader would, and wait for `expect` in it.

    Clicking, rather than a URL parameter, keeps the tools independent of how the URL spells a language.
    """
    tab.get_by_test_id("stSidebar").get_by_text(LANGUAGE_LABELS[lang], exact=True).click()
    wait_ready(tab, expect)
