"""The lecture's waits, measured as a class meets them: in Chromium against the real server.

Usage: .venv/bin/python -m tools.lecture_timings   (a few minutes; needs /usr/bin/chromium)

Prints: seconds per step in the scriptorium (button to new story), seconds until the proof page's
and the speed lab's recorded results show (first visit, which seats the models, then warm), and a
live proof on the page in class mode (2,000 samples, the page's default) and at 10,000. Run it on quiet cores: other work on the machine slows all of it.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from specdec_core.services import recorded
from tools.browser import VIEWPORT, app_server, chromium, open_page, wait_ready

STORY_CHANGED = "old => document.querySelector('[data-testid=stAlert]').innerText !== old"
RECORDED = "A recorded result"


def steps(browser, base: str, n: int = 6) -> list[float]:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    open_page(page, base, "scriptorium", expect="Characters written", language="en")
    seconds = []
    for _ in range(n):
        before = page.locator('[data-testid="stAlert"]').first.inner_text()
        started = time.monotonic()
        page.get_by_role("button", name="Step ▶").click()
        page.wait_for_function(STORY_CHANGED, arg=before, timeout=60_000)
        seconds.append(time.monotonic() - started)
        wait_ready(page, "Characters written")
    return seconds


def recorded_shown(browser, base: str, name: str) -> float:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    started = time.monotonic()
    page.goto(f"{base}/{name}?language=en")
    page.get_by_text(RECORDED).first.wait_for(timeout=120_000)
    seconds = time.monotonic() - started
    page.context.close()  # a visitor's tab closed: its session no longer shares the server
    return seconds


def live_proof(browser, base: str, samples: int) -> float:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    open_page(page, base, "proof", expect="Start sampling", language="en", samples=str(samples))
    started = time.monotonic()
    page.get_by_role("button", name="Start sampling").click()
    page.get_by_text(RECORDED).first.wait_for(state="detached", timeout=60_000)  # the live run took its place
    page.get_by_text(f"{samples:,} of {samples:,} samples").first.wait_for(timeout=300_000)
    page.get_by_text("cannot be told apart from the exact distribution").first.wait_for(timeout=300_000)
    return time.monotonic() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, app_server(archive=Path(folder) / "a.sqlite") as base, chromium() as browser:
        for visit in ("first visit", "warm", "warm"):
            shown = {name: recorded_shown(browser, base, name) for name in ("proof", "speed_lab")}
            print(f"recorded results shown ({visit}): proof {shown['proof']:.2f} s, speed lab {shown['speed_lab']:.2f} s")
        print("scriptorium steps:", " ".join(f"{s:.2f}" for s in steps(browser, base)), "s")
        for samples in (recorded.PROOF_SAMPLES, 10_000):
            print(f"live {samples:,}-sample proof on the page: {live_proof(browser, base, samples):.1f} s")


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(prog="python -m tools.lecture_timings", description=__doc__.splitlines()[0]).parse_args()
    main()
