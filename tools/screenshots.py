"""Start the app, open it in Debian's Chromium through Playwright, and save a screenshot per page.

Usage: .venv/bin/python -m tools.screenshots [out_dir]   (needs `apt-get install chromium` and
`pip install playwright`; Playwright's own browser download does not work offline).
"""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"]
READY = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            for language, label in (("zh", "繁體中文"), ("en", "English")):
                _open(page, port)
                page.get_by_text(label, exact=True).click()
                page.wait_for_selector(READY, timeout=120_000)
                time.sleep(1)
                page.screenshot(path=str(out_dir / f"scriptorium-{language}.png"), full_page=True)
            browser.close()
    finally:
        server.terminate()


def _open(page, port: int) -> None:
    for _ in range(60):
        try:
            page.goto(f"http://127.0.0.1:{port}/", timeout=5000)
            break
        except Exception:  # the server is still starting
            time.sleep(1)
    page.wait_for_selector(READY, timeout=120_000)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
