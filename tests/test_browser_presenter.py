"""Presenter mode in a real browser at a projector's 1280 × 720 (#27): the story, the sheet and the step
buttons fit on one screen without scrolling, the sidebar is gone, and the keys step through the run."""
from __future__ import annotations

import pytest

from tools.browser import CHROMIUM, EXCEPTION, app_server, chromium, open_page, wait_ready

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)"),
    pytest.mark.timeout(300),
]
pytest.importorskip("playwright", reason="playwright is in requirements.txt; run `make test` to install it")

PROJECTOR = {"width": 1280, "height": 720}
STEP = "下一步 ▶"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("presenter")
    with app_server(archive=folder / "archive.sqlite") as base, chromium() as browser:
        yield base, browser


@pytest.fixture(scope="module")
def tab(server):
    base, browser = server
    page = browser.new_context(viewport=PROJECTOR).new_page()
    open_page(page, base, "scriptorium", expect=STEP, presenter="true", large="true")
    yield page
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()


def on_screen(tab, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PROJECTOR["height"]


def test_the_sheet_the_story_and_the_buttons_fit_on_one_screen(tab):
    assert on_screen(tab, tab.locator(".sheet").first)
    assert on_screen(tab, tab.locator('[data-testid="stAlert"]').first)  # the one-line story
    for label in ("⏮ 從頭", "◀ 上一步", "▶ 播放", STEP, "寫到底 ⏭"):
        assert on_screen(tab, tab.get_by_role("button", name=label)), label
    assert not tab.locator('[data-testid="stSidebar"]').is_visible()


STORY_CHANGED = "old => document.querySelector('[data-testid=stAlert]').innerText !== old"


def press_and_wait(tab, key: str) -> str:
    """Press a key on the page, wait for the story to change, and return the new story."""
    before = tab.locator('[data-testid="stAlert"]').first.inner_text()
    tab.locator("body").press(key)
    tab.wait_for_function(STORY_CHANGED, arg=before, timeout=30_000)
    wait_ready(tab, STEP)
    return tab.locator('[data-testid="stAlert"]').first.inner_text()


def test_the_arrow_keys_step(tab):
    story = tab.locator('[data-testid="stAlert"]').first.inner_text()
    assert press_and_wait(tab, "ArrowRight") != story
    assert press_and_wait(tab, "ArrowLeft") == story


def test_large_type_alone_also_keeps_the_sheet_and_the_buttons_above_the_fold(server):
    """#27: at 1280 x 720 with large type the sheet was below the fold even with the sidebar folded."""
    base, browser = server
    page = browser.new_context(viewport=PROJECTOR).new_page()
    open_page(page, base, "scriptorium", expect=STEP, large="true")
    assert on_screen(page, page.locator(".sheet").first)
    assert on_screen(page, page.get_by_role("button", name=STEP))
    assert page.locator('[data-testid="stSidebar"]').is_visible()  # the sidebar stays where it is
