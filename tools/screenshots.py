"""Save a screenshot of every page, showing real content, for the README: the app in Debian's Chromium.

Usage: .venv/bin/python -m tools.screenshots [out_dir] [--only tree]   (default docs/screenshots; needs `apt-get install chromium
fonts-noto-cjk fonts-noto-color-emoji`, which .ci/run does). The scriptorium is shown a few steps into its run, the
proof after a finished run (and, for the TV chart, a run of a broken rule with a poor scribe, whose bias shows), the
speed lab after one measurement, presenter mode at a projector's 1280 x 720, the race mid-way, and a tree run (its
margin and its round's tree) at 1400 x 1000 and in presenter mode (`--only tree` takes just those); runs are archived into
a temporary file, so the archive page shows this session's runs and the user's own archive is never touched.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from tools.browser import EXCEPTION, ROOT, VIEWPORT, app_server, choose_language, chromium, open_page, wait_ready

WORDS = {  # the words the tool waits for and clicks, as the pages show them
    "zh": {"home": "御筆樓：墨卿與阿速", "counter": "已寫字數", "step": "下一步 ▶",
           "race": "賽跑：墨卿獨寫，對上師徒合寫", "start": "▶ 開跑", "again": "再量一次"},
    "en": {"home": "The Scriptorium: Mo Qing and A-Su", "counter": "Characters written", "step": "Step ▶",
           "iron_rule": "The iron rule:", "sample": "Start sampling", "verdict": "cannot be told apart from the exact distribution",
           "measure": "Measure", "measured": "Cost ratio c", "archive": "The archive",
           "tv": "More samples, less noise: TV as samples grow"},
}
PROJECTOR = {"width": 1280, "height": 720}
RACE_SHOWN_AT = 0.3  # of master and scribe's characters written, not all: the race part-way through its replay
# each lane's count under it, as the race page writes it in Chinese: "{n} / {total} 字，{s} 秒"
RACE_COUNTS = """() => [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
    .map(c => c.innerText.match(/^(\\d+) \\/ (\\d+) 字/)).filter(m => m).map(m => [+m[1], +m[2]])"""
BROKEN = {"rule": "resample-p", "scribe": "bigram"}  # a broken rule with a poor scribe: its bias shows by 10,000
STEPS = 5  # into the scriptorium's run: far enough to show seals, a correction and counters that moved
# A tree run (#35): the distilled scribe (α about 0.5) at T = 1.0 pencils variants the master often strikes
TREE_RUN = dict(pair="poetry", scribe="distilled", shape="2-2-1", temperature="1.0", max_new="24", seed="3")
STRUCK = ".sheet .variant.v-struck"  # a variant in the margin the master tried and struck


def main(out_dir: Path, only: str = "") -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    en = WORDS["en"]
    with tempfile.TemporaryDirectory() as folder, app_server(archive=Path(folder) / "archive.sqlite") as base:
        with chromium() as browser:
            _tree(browser, base, out_dir)
            if only == "tree":
                return
            for lang in ("zh", "en"):
                tab = browser.new_context(viewport=VIEWPORT).new_page()
                _open(tab, base, "", lang, WORDS[lang]["home"], timeout=300)
                _save(tab, out_dir / f"parable-{lang}.png")
                _open(tab, base, "scriptorium", lang, WORDS[lang]["counter"], timeout=300)
                for _ in range(STEPS):
                    tab.get_by_role("button", name=WORDS[lang]["step"]).click()
                    wait_ready(tab, WORDS[lang]["counter"])
                _save(tab, out_dir / f"scriptorium-{lang}.png")
            _open(tab, base, "iron_rule", "en", en["iron_rule"])
            _save(tab, out_dir / "iron_rule-en.png")
            _open(tab, base, "proof", "en", en["sample"], samples="10000", rule="exact")
            tab.get_by_role("button", name=en["sample"]).click()
            tab.get_by_text(en["verdict"]).first.wait_for(timeout=600_000)
            wait_ready(tab, en["verdict"])
            _save(tab, out_dir / "proof-en.png", scroll_to=tab.get_by_text(en["verdict"]).first)
            _open(tab, base, "speed_lab", "en", en["measure"])
            tab.get_by_role("button", name=en["measure"], exact=True).click()
            wait_ready(tab, en["measured"], timeout=600)
            _save(tab, out_dir / "speed_lab-en.png", scroll_to=tab.locator('[data-testid="stMetric"]').first)
            _open(tab, base, "proof", "en", en["sample"], samples="10000", **BROKEN)
            tab.get_by_role("button", name=en["sample"]).click()
            tab.get_by_text(en["tv"]).first.wait_for(timeout=600_000)
            wait_ready(tab, en["tv"], timeout=600)
            _save(tab, out_dir / "proof-tv-en.png", scroll_to=tab.get_by_text(en["tv"]).first)
            _open(tab, base, "archive", "en", en["archive"])
            _save(tab, out_dir / "archive-en.png")
            _presenter_and_race(browser, base, out_dir)


def _presenter_and_race(browser, base: str, out_dir: Path) -> None:
    """Presenter mode five steps into its run, at a projector's size; the race, timed a second time, part-way
    through its replay."""
    zh = WORDS["zh"]
    tab = browser.new_context(viewport=PROJECTOR).new_page()
    _open(tab, base, "scriptorium", "zh", zh["step"], presenter="true", large="true")
    for _ in range(STEPS):
        tab.get_by_role("button", name=zh["step"]).click()
        wait_ready(tab, zh["step"])
    _save(tab, out_dir / "presenter-zh.png")
    tab = browser.new_context(viewport=VIEWPORT).new_page()
    _open(tab, base, "race", "zh", zh["race"], timeout=300)
    tab.get_by_role("button", name=zh["again"]).click()   # timed again: the page's first runs pay for warming up
    wait_ready(tab, zh["race"], timeout=300)
    tab.get_by_role("button", name=zh["start"]).click()
    part_way = f"lanes[1][0] >= {RACE_SHOWN_AT} * lanes[1][1] && lanes[1][0] < lanes[1][1]"  # lane 1: master and scribe
    tab.wait_for_function(f"() => {{ const lanes = ({RACE_COUNTS})(); return lanes.length == 2 && {part_way}; }}",
                          timeout=60_000)
    _save(tab, out_dir / "race-zh.png", settle_s=0.0)


def _tree(browser, base: str, out_dir: Path) -> None:
    """A tree run at the first verdict whose margin holds a struck variant, at 1400 x 1000 in English and in
    presenter mode at a projector's size in Chinese, the same step in both."""
    tab = browser.new_context(viewport=VIEWPORT).new_page()
    _open(tab, base, "scriptorium", "en", WORDS["en"]["step"], timeout=300, language="en", **TREE_RUN)
    steps = 0
    while not (tab.locator(STRUCK).count() and tab.locator(".tree-diagram img").count()):
        tab.get_by_role("button", name=WORDS["en"]["step"]).click()
        wait_ready(tab, WORDS["en"]["counter"])
        steps += 1
    _save(tab, out_dir / "tree-en.png", scroll_to=tab.locator(".tree-diagram").first)
    tab = browser.new_context(viewport=PROJECTOR).new_page()
    _open(tab, base, "scriptorium", "zh", WORDS["zh"]["step"], presenter="true", large="true", **TREE_RUN)
    for _ in range(steps):
        tab.get_by_role("button", name=WORDS["zh"]["step"]).click()
        wait_ready(tab, WORDS["zh"]["step"])
    _save(tab, out_dir / "tree-presenter-zh.png")


def _open(tab, base: str, page: str, lang: str, expect: str, timeout: float = 120, **query) -> None:
    """A fresh session on the page (Chinese, the default), then switched to `lang` with the sidebar's radio."""
    open_page(tab, base, page, timeout=timeout, **query)
    if lang != "zh":
        choose_language(tab, lang, expect)
    wait_ready(tab, expect, timeout)


def _save(tab, path: Path, scroll_to=None, settle_s: float = 1.0) -> None:
    """One view at the tab's size; a traceback on the page stops the tool rather than going into the README."""
    if tab.locator(EXCEPTION).count():
        raise RuntimeError(f"{tab.url} shows an exception: {tab.locator(EXCEPTION).first.inner_text()}")
    if scroll_to is not None:
        scroll_to.scroll_into_view_if_needed()
    size = tab.viewport_size
    tab.mouse.move(size["width"] - 5, size["height"] - 5)  # no tooltip from the last button clicked
    time.sleep(settle_s)  # plotly draws its charts after the script is done
    tab.screenshot(path=str(path))
    print(f"{path}  ({tab.url})")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tools.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--only", choices=["tree"], default="", help="take only the tree's pictures")
    options = parser.parse_args()
    main(options.folder, options.only)
