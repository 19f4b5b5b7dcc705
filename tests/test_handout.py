"""Handouts (#27): the sheet as an SVG drawn from the same cells as the screen, and charts that save SVG."""
from xml.etree import ElementTree

import pytest

from specdec_core.algorithm.trace import summarize
from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.scriptorium.handout import LEGEND, handout_svg, sheet_svg
from ui.scriptorium.handout_texts import TEXT as HANDOUT_TEXT
from ui.scriptorium.moments import moments
from ui.scriptorium.sheet import CELL_KINDS, CONTROL_MARKS, OTHER_CONTROL_MARK, display_piece, sheet_cells
from ui.shared.theme import HANDOUT


def test_the_sheets_svg_is_well_formed_and_holds_every_cell(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=4, max_new_tokens=20))
    moment = moments(trace)[-1]
    svg = ElementTree.fromstring(sheet_svg(trace, moment))
    texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert texts == [display_piece(piece) for piece, *_ in sheet_cells(trace, moment)]
    seals = [r for r in svg.iter("{http://www.w3.org/2000/svg}rect") if r.get("width") == "10"]
    assert len(seals) == sum(kind == "sealed" for _, kind, *_ in sheet_cells(trace, moment))


def test_markup_in_a_piece_stays_text(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=3, seed=4, max_new_tokens=8))
    trace.rounds[0].next_piece = "<script>alert(1)</script>"
    svg = sheet_svg(trace, moments(trace)[-1])
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_charts_save_svg():
    assert HANDOUT["toImageButtonOptions"]["format"] == "svg"


# --- #36: a handout that stands alone: title, settings, counters, legend and the share link -------------------

def handout_texts(svg: str) -> list[str]:
    return [t.text for t in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


def run_with_a_correction(tiny, tiny_prompt):
    """A tiny run whose master corrects a draft and seals others (a shaky scribe), so every mark is drawn."""
    settings = DecodeSettings(k=3, seed=4, noise=0.5, max_new_tokens=20, sampling=SamplingConfig(temperature=0.7, top_p=0.9))
    return speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings)


LINK = "http://class.example:8501/scriptorium?language=en&pair=tiny&k=3&seed=4"


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_handout_carries_title_settings_counters_legend_and_link(tiny, tiny_prompt, language):
    import streamlit as st

    st.session_state["language"] = language
    try:
        trace = run_with_a_correction(tiny, tiny_prompt)
        last = moments(trace)[-1]
        texts = handout_texts(handout_svg(trace, last, LINK))
    finally:
        st.session_state.pop("language", None)
    steps = len(moments(trace))
    summary = summarize(trace)
    title, settings, counters = texts[:3]
    expected = {
        "zh": (f"第 {steps} / {steps} 步", ["模型組 tiny", "抄寫員 小模型", "k = 3", "溫度 0.7", "top-p 0.9", "手抖 0.5",
                                          "種子 4", "最多寫 20 個字"],
               [f"已寫 {summary['tokens']} 個字", f"墨卿看了 {summary['target_forwards']} 眼", f"α = {summary['alpha']:.2f}",
                f"每看一眼得 {summary['tokens_per_target_forward']:.2f} 個字"],
               "打開這一次抄寫："),
        "en": (f"step {steps} of {steps}", ["Pair tiny", "scribe Small model", "k = 3", "temperature 0.7", "top-p 0.9", "shaky hand 0.5",
                                            "seed 4", "at most 20 characters"],
               [f"{summary['tokens']} characters written", f"{summary['target_forwards']} glances",
                f"α = {summary['alpha']:.2f}", f"{summary['tokens_per_target_forward']:.2f} characters per glance"],
               "Open this run:"),
    }[language]
    assert expected[0] in title and ("御筆樓" if language == "zh" else "The scriptorium") in title
    assert all(part in settings for part in expected[1]), settings
    assert all(part in counters for part in expected[2]), counters  # the last step's counters are the run's own
    legend = [HANDOUT_TEXT.table["h_" + kind][language] for kind in ("prompt", "draft", "sealed", "struck", "discarded",
                                                                       "corrected", "bonus", "marks")]
    assert all(words in texts for words in legend)
    assert all(mark in texts[-3 - len(LINK) // 120] for mark in [*set(CONTROL_MARKS.values()), OTHER_CONTROL_MARK])
    assert texts[-2:] == [expected[3], LINK]


def test_the_handouts_legend_draws_every_kind_of_cell_the_sheet_draws(tiny, tiny_prompt, in_english):
    trace = run_with_a_correction(tiny, tiny_prompt)
    svg = handout_svg(trace, moments(trace)[-1], LINK)
    assert set(LEGEND) == set(CELL_KINDS) - {"plain"}  # "plain": a master's own token with no draft, drawn as ink
    kinds_written = {kind for _, kind, *_ in sheet_cells(trace, moments(trace)[-1])}
    assert {"sealed", "struck", "corrected"} <= kinds_written  # this run shows the marks the legend explains
    strikes = [line for line in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}line")]
    assert len(strikes) >= 2  # the legend's struck and discarded samples, beside the sheet's own


def test_a_chat_runs_handout_counts_tokens(tiny, tiny_prompt, in_english):
    trace = run_with_a_correction(tiny, tiny_prompt)
    trace.pair = "smollm2"  # the unit is the run's pair's, whatever the sidebar holds
    settings, counters = handout_texts(handout_svg(trace, moments(trace)[-1], LINK))[1:3]
    assert "at most 20 tokens" in settings and "tokens written" in counters and "character" not in settings + counters


def test_every_text_in_the_handout_is_escaped(tiny, tiny_prompt, in_english):
    """A link, a prompt, a pair or a scribe named by a visitor or an imported trace stays text."""
    trace = run_with_a_correction(tiny, tiny_prompt)
    hostile = "<script>alert(1)</script>&"
    trace.pair, trace.scribe = hostile, hostile
    trace.rounds[0].next_piece = hostile
    svg = handout_svg(trace, moments(trace)[-1], "http://x/?prompt=" + hostile)
    assert "<script>" not in svg and svg.count("&lt;script&gt;") >= 3
    texts = handout_texts(svg)  # well-formed: the parser reads every text back as written
    assert any(hostile in text for text in texts[1:2]) and any(text.endswith(hostile) for text in texts[-2:])


def test_the_scriptorium_offers_the_handout():
    """The page builds the handout with its link on every step (outside a browser st.context.url is None)."""
    from app_pages import open_page

    app = open_page("scriptorium", "en", pair="tiny", k="3", seed="4", max_new="20")
    assert not app.exception
    assert any(e.proto.label == "Download this sheet (SVG)" for e in app.get("download_button"))
