"""Presenter mode in a real browser at a projector's 1280 × 720 (#27): the story, the sheet and the step
buttons fit on one screen without scrolling, the sidebar is gone, and the keys step through the run."""
from __future__ import annotations

import pytest

from tools.browser import CHROMIUM, EXCEPTION, app_server, chromium, open_page, wait_ready

pytest.importorskip("playwright", reason="playwright is in requirements.txt; run `make test` to install it")
from playwright.sync_api import expect  # noqa: E402

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)"),
    pytest.mark.timeout(300),
]

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


# What one screen must hold at every step (#36.10): the story, the sheet, the five buttons and the four counters.
BUTTONS = {"zh": ("⏮ 從頭", "◀ 上一步", "▶ 播放", STEP, "寫到底 ⏭"), "en": ("⏮ Start", "◀ Back", "▶ Play", "Step ▶", "To the end ⏭")}
ONE_LINE = """el => el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).fontSize)"""
NOT_CUT = "el => el.scrollWidth <= el.clientWidth + 1"
FONT = "el => parseFloat(getComputedStyle(el).fontSize)"
# the window shows the sheet's newest cell: its last cell's box lies within the window's
NEWEST_SHOWN = """el => { const w = el.getBoundingClientRect(), cells = el.querySelectorAll('.sheet > *');
  const last = cells[cells.length - 1].getBoundingClientRect(); return last.bottom <= w.bottom + 1 && last.top >= w.top - 1; }"""


def step_labels(tab, lang: str) -> None:
    """Each step button's label on one line (no "上一/步", no "寫到底" over "⏭")."""
    for label in BUTTONS[lang]:
        words = tab.get_by_role("button", name=label).locator('[data-testid="stMarkdownContainer"] p')
        assert words.evaluate(ONE_LINE), f"{label!r} wraps"


def counters_read(tab) -> None:
    """A counter's value is larger than its label, and no label is cut short with an ellipsis."""
    for metric in tab.locator('[data-testid="stMetric"]').all()[:4]:
        label = metric.locator('[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"]')
        value = metric.locator('[data-testid="stMetricValue"] p')
        assert value.evaluate(FONT) > label.locator("p").evaluate(FONT), label.inner_text()
        assert label.evaluate(NOT_CUT), f"{label.inner_text()!r} is cut"


def step_through(tab, lang: str, at_each_step, most: int | None = None) -> int:
    """Press → until the last step (or `most` steps), calling at_each_step(tab) at every step; returns how many
    steps there were."""
    forward = BUTTONS[lang][3]
    steps = 1
    at_each_step(tab)
    while tab.get_by_role("button", name=forward).is_enabled() and (most is None or steps < most):
        before = tab.locator('[data-testid="stAlert"]').first.inner_text()
        tab.locator("body").press("ArrowRight")
        tab.wait_for_function(STORY_CHANGED, arg=before, timeout=30_000)
        wait_ready(tab, forward)
        assert tab.locator(EXCEPTION).count() == 0, tab.locator(EXCEPTION).first.inner_text()
        at_each_step(tab)
        steps += 1
    return steps


def whole_screen(tab, lang: str) -> None:
    assert on_screen(tab, tab.locator('[data-testid="stAlert"]').first), "the story"
    assert on_screen(tab, tab.locator(".sheet-window").first), "the sheet's window"
    assert tab.locator(".sheet-window").first.evaluate(NEWEST_SHOWN), "the sheet's newest line"
    for label in BUTTONS[lang]:
        assert on_screen(tab, tab.get_by_role("button", name=label)), label
    metrics = tab.locator('[data-testid="stMetric"]').all()[:4]
    assert len(metrics) == 4 and all(on_screen(tab, metric) for metric in metrics), "the counters"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_step_of_the_default_run_fits_one_projector_screen(server, lang):
    """#36.10: at the end of a run the counters fell below the fold; now every step is checked, in both languages."""
    base, browser = server
    page = browser.new_context(viewport=PROJECTOR).new_page()
    open_page(page, base, "scriptorium", expect=BUTTONS[lang][3], presenter="true", language=lang)
    step_labels(page, lang)
    counters_read(page)
    steps = step_through(page, lang, lambda tab: whole_screen(tab, lang))
    step_labels(page, lang)
    counters_read(page)
    assert steps > 3  # the default run has several rounds
    assert page.locator(EXCEPTION).count() == 0


def test_presenter_mode_has_a_page_strip_that_keeps_presenter_mode(server):
    """#36.10: with the sidebar folded there was no way to another page; a strip of page links stays on top."""
    base, browser = server
    page = browser.new_context(viewport=PROJECTOR).new_page()
    open_page(page, base, "scriptorium", expect=STEP, presenter="true")
    strip = page.locator(".st-key-presenter_strip")
    for title in ("寓言：墨卿與阿速", "御筆樓：逐輪抄寫", "鐵律", "分毫不差", "賽跑", "速度實驗室", "卷宗"):
        link = strip.get_by_text(title, exact=True)
        assert on_screen(page, link), title
        assert link.evaluate(NOT_CUT), f"{title} is cut"
    strip.get_by_text("鐵律", exact=True).click()
    page.wait_for_url("**/iron_rule**")
    wait_ready(page, "鐵律")
    assert not page.locator('[data-testid="stSidebar"]').is_visible()
    assert page.locator(".st-key-presenter_strip").is_visible()  # still presenting
    assert page.locator(EXCEPTION).count() == 0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_large_type_keeps_words_whole(server, lang):
    """#36.10: large type at 1400 x 1000 broke buttons mid-word ("上一/步") and cut the page names in the sidebar."""
    base, browser = server
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    open_page(page, base, "scriptorium", expect=BUTTONS[lang][3], large="true", language=lang)
    step_labels(page, lang)
    counters_read(page)
    for name in page.locator('[data-testid="stSidebarNavLink"] [data-testid="stMarkdownContainer"]').all():
        assert name.evaluate(NOT_CUT), f"{name.inner_text()!r} is cut"
    assert page.locator(EXCEPTION).count() == 0


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_smollm2_run_fits_one_projector_screen_at_every_step(server, lang):
    """#49 defect 3: from step 17 of SmolLM2's default run the buttons and counters fell below 720 px (at the end
    they sat at 1,032 and 1,142 px)."""
    base, browser = server
    page = browser.new_context(viewport=PROJECTOR).new_page()
    open_page(page, base, "scriptorium", expect=BUTTONS[lang][3], presenter="true", language=lang, pair="smollm2")
    steps = step_through(page, lang, lambda tab: whole_screen(tab, lang), most=None if lang == "zh" else 18)
    to_the_end = page.get_by_role("button", name=BUTTONS[lang][4])
    if to_the_end.is_enabled():  # the end, where the sheet is longest (the Chinese pass has stepped there)
        to_the_end.click()
        expect(page.get_by_role("button", name=BUTTONS[lang][3])).to_be_disabled(timeout=30_000)
    whole_screen(page, lang)
    assert steps > 17  # the run reaches the steps where the sheet used to push the buttons off the screen
    assert page.locator(EXCEPTION).count() == 0
