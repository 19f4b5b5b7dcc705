"""The sheet as an SVG for handouts: the same cells as on screen (ink, seals, the red brush, the bonus)."""
from __future__ import annotations

from xml.sax.saxutils import escape

from specdec_core.algorithm.trace import Trace
from ui.scriptorium.moments import Moment
from ui.scriptorium.sheet import display_piece, sheet_cells
from ui.shared.theme import INK, LIGHT_INK, PAPER, VERMILION

CELL, PER_LINE, MARGIN = 48, 20, 12  # px a cell, cells a line
COLOURS = {"prompt": "#6d6659", "draft": LIGHT_INK, "struck": LIGHT_INK, "discarded": "#8f8676", "corrected": VERMILION}


def sheet_svg(trace: Trace, moment: Moment, show_struck: bool = True) -> str:
    cells = sheet_cells(trace, moment, show_struck)
    lines = max(1, -(-len(cells) // PER_LINE))
    width, height = 2 * MARGIN + PER_LINE * CELL, 2 * MARGIN + lines * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
             f'<rect width="{width}" height="{height}" fill="{PAPER}"/>']
    for i, (piece, kind, _, _) in enumerate(cells):
        x, y = MARGIN + (i % PER_LINE) * CELL, MARGIN + (i // PER_LINE) * CELL
        parts += _cell(x, y, display_piece(piece), kind)
    return "".join(parts) + "</svg>"


def _cell(x: int, y: int, text: str, kind: str) -> list[str]:
    border = VERMILION if kind == "corrected" else INK if kind == "bonus" else "#e3d8bf"
    dash = ' stroke-dasharray="4 3"' if kind in ("draft", "discarded") else ""
    weight = ' font-weight="700"' if kind in ("corrected", "bonus") else ""
    out = [f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="none" stroke="{border}"'
           f' stroke-width="{2 if kind == "bonus" else 1}"{dash}/>',
           f'<text x="{x + CELL / 2}" y="{y + CELL * 0.7}" text-anchor="middle" font-size="{CELL * 0.6:.0f}"'
           f' font-family="Noto Serif CJK TC, serif" fill="{COLOURS.get(kind, INK)}"{weight}>{escape(text)}</text>']
    if kind == "sealed":
        out.append(f'<rect x="{x + CELL - 12}" y="{y + CELL - 12}" width="10" height="10" fill="{VERMILION}"/>')
    if kind in ("struck", "discarded"):
        # corner to corner, as on screen: a level line through "，" would read as 一
        out.append(f'<line x1="{x + 8}" y1="{y + CELL - 8}" x2="{x + CELL - 8}" y2="{y + 8}" stroke="{VERMILION}" stroke-width="3"/>')
    return out
