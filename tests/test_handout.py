"""Handouts (#27): the sheet as an SVG drawn from the same cells as the screen, and charts that save SVG."""
from xml.etree import ElementTree

from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings
from ui.scriptorium.handout import sheet_svg
from ui.scriptorium.moments import moments
from ui.scriptorium.sheet import display_piece, sheet_cells
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
