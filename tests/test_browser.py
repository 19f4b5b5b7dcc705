"""The app in a real browser (Playwright over Debian's Chromium): first screen time, stepping, a small proof.

AppTest runs the page scripts without a browser; this is what catches what only a browser sees (the websocket,
fragments, URL-bound widgets, tracebacks drawn on the page). .ci/run installs chromium and fonts-noto-cjk.
"""
from __future__ import annotations


import pytest

from tools.browser import CHROMIUM, EXCEPTION, VIEWPORT, app_server, choose_language, chromium, open_page, wait_ready

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)"),
    pytest.mark.timeout(300),
]
pytest.importorskip("playwright", reason="playwright is in requirements.txt; run `make test` to install it")
from playwright.sync_api import expect  # noqa: E402  (after the skip: only this test needs playwright)

HOME_TITLE = {"en": "The Scriptorium: Mo Qing and A-Su", "zh": "御筆樓：墨卿與阿速"}
FIRST_SCREEN_LIMIT_S = 60  # a sanity bound only: the shared CI machine is noisy; the figure itself is printed


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    with app_server(archive=folder / "archive.sqlite", log=folder / "streamlit.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser(base):
    with chromium() as browser:
        yield browser


@pytest.fixture
def tab(browser):
    """A fresh browser tab, so a fresh Streamlit session; fails the test if the page drew a traceback."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    yield page
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()
    context.close()


def test_first_screen_is_interactive_soon_with_the_default_pair_cached(browser, base, capsys):
    cold = _fresh_load(browser, base)  # loads the default poetry pair into the server's cache
    warm = [_fresh_load(browser, base) for _ in range(2)]
    with capsys.disabled():
        print(f"\nfirst screen: {cold:.2f} s with the pair loading, {min(warm):.2f} s with it cached (best of 2)")
    assert min(warm) < FIRST_SCREEN_LIMIT_S


def _fresh_load(browser, base) -> float:
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        seconds = open_page(page, base, "", expect=HOME_TITLE["zh"], timeout=180)  # Chinese is the default
        assert page.locator(EXCEPTION).count() == 0
        return seconds
    finally:
        context.close()


def test_home_page_speaks_the_chosen_language(tab, base):
    open_page(tab, base, "", expect=HOME_TITLE["zh"])
    assert tab.locator("h1").first.inner_text().strip() == HOME_TITLE["zh"]
    choose_language(tab, "en", HOME_TITLE["en"])
    assert tab.locator("h1").first.inner_text().strip() == HOME_TITLE["en"]
    choose_language(tab, "zh", HOME_TITLE["zh"])
    assert tab.locator("h1").first.inner_text().strip() == HOME_TITLE["zh"]


# no part of the label cut short (the emoji icon overhangs its box by design)
WHOLE = "el => [el, ...el.querySelectorAll('*:not([data-testid=stIconEmoji])')].every(e => e.scrollWidth <= e.clientWidth + 1)"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_parables_links_to_the_pages_read_whole(tab, base, lang):
    """Each act's links to its pages sat in a quarter or a fifth of the page, and "See it on real models: The spe" was cut."""
    from ui.parable.texts import TEXT

    open_page(tab, base, "", expect=TEXT.table["coda_title"][lang], language=lang)  # the last part drawn
    # five acts, the epilogue and the coda: drawn a moment after their text
    # Acts 3 and 4 open their pages on a moment (#49), through buttons that read like the links
    tab.wait_for_function("() => document.querySelectorAll('[data-testid=stPageLink]').length >= 9", timeout=30_000)
    links = tab.locator('[data-testid="stPageLink"]').all() + tab.locator('[class*="st-key-act"] button').all()
    assert len(links) >= 11
    for link in links:
        assert link.evaluate(WHOLE), link.inner_text()


def test_stepping_through_the_scriptorium_moves_the_counters(tab, base):
    open_page(tab, base, "scriptorium", expect="已寫字數", pair="tiny", k="3")
    choose_language(tab, "en", "Characters written")
    seen = [_counters(tab)]
    for _ in range(4):
        tab.get_by_role("button", name="Step ▶").click()
        wait_ready(tab, "Characters written")
        seen.append(_counters(tab))
    assert len(set(seen)) > 1, seen  # a step that changes nothing on screen would be a broken stepper
    tab.get_by_role("button", name="To the end ⏭").click()
    wait_ready(tab, "Characters written")
    # the rerun may start later than wait_ready allows on a busy machine: wait for the buttons themselves
    expect(tab.get_by_role("button", name="To the end ⏭")).to_be_disabled(timeout=30_000)
    expect(tab.get_by_role("button", name="Step ▶")).to_be_disabled(timeout=30_000)
    assert _counters(tab) != seen[-1]


def _counters(tab) -> str:
    return " | ".join(tab.locator('[data-testid="stMetric"]').all_inner_texts()[:4])


def test_a_small_proof_finds_the_exact_rule_indistinguishable(tab, base):
    open_page(tab, base, "proof", expect="開始取樣", pair="tiny", samples="1000", rule="exact")
    choose_language(tab, "en", "Start sampling")
    tab.get_by_role("button", name="Start sampling").click()
    verdict = "cannot be told apart from the exact distribution"  # not the intro's "cannot be told apart"
    tab.get_by_text(verdict).first.wait_for(timeout=120_000)
    wait_ready(tab, verdict)
    expect(tab.get_by_text(verdict)).to_have_count(2)  # speculative and plain, both sound


@pytest.mark.parametrize("page, title", [
    ("iron_rule", {"zh": "鐵律", "en": "The iron rule"}),
    ("speed_lab", {"zh": "速度實驗室", "en": "The speed lab"}),
    ("archive", {"zh": "卷宗", "en": "The archive"}),
], ids=["iron_rule", "speed_lab", "archive"])
def test_the_other_pages_open_in_both_languages_without_a_traceback(tab, base, page, title):
    open_page(tab, base, page, expect=title["zh"], pair="tiny")
    expect(tab.locator("h1").first).to_contain_text(title["zh"])
    choose_language(tab, "en", title["en"])
    expect(tab.locator("h1").first).to_contain_text(title["en"])
