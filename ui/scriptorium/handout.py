"""The sheet as an SVG for handouts: the same cells as on screen (ink, seals, the red brush, the bonus, and a
tree round's variants in the margin above them), and the handout around it, which stands alone on paper: a
title, the run's settings, its counters at this step, a legend of every mark the sheet draws, and the link
that reopens the run."""
from __future__ import annotations

from textwrap import wrap
from xml.sax.saxutils import escape

from specdec_core.algorithm.trace import Trace
from specdec_core.algorithm.tree_walk import counts_first_variants
from specdec_core.pairs.registry import writing_unit
from specdec_core.settings import DecodeSettings
from ui.scriptorium.handout_texts import TEXT
from ui.scriptorium.moments import Moment, moments, progress_at
from ui.scriptorium.sheet import MARGIN_SHOWN, Column, Variant, display_piece, sheet_cells, sheet_columns, variant_text
from ui.shared.i18n import language
from ui.shared.scribes import scribe_label
from ui.shared.theme import INK, LIGHT_INK, PAPER, VERMILION
from ui.shared.units import unit_words

CELL, PER_LINE, MARGIN = 48, 20, 12  # px a cell, cells a line
WIDTH = 2 * MARGIN + PER_LINE * CELL
COLOURS = {"prompt": "#6d6659", "draft": LIGHT_INK, "struck": LIGHT_INK, "discarded": "#8f8676",
           "corrected": VERMILION}
PROMPT_PAPER = "#efe6d2"
FONT = "Noto Serif CJK TC, serif"
LEGEND = ("prompt", "draft", "sealed", "struck", "discarded", "corrected", "bonus")  # every kind of cell the sheet draws
LEGEND_CELL, LEGEND_COLUMNS = 32, 2
LINK_CHARACTERS = 120  # a long link (a long prompt) is broken over lines: SVG text does not wrap
VARIANT_ROW, VARIANT_SIZE = 22, 13  # px a variant's row in the margin, and its type
VARIANT_LEGEND = ("v_unjudged", "v_struck", "v_untried")  # the margin's marks, in the legend of a sheet that has one
FAINT = "#b3aa98"


def sheet_svg(trace: Trace, moment: Moment, show_struck: bool = True) -> str:
    """The sheet alone."""
    parts, height = _sheet(trace, moment, show_struck, top=0)
    return _svg(height, parts)


def handout_svg(trace: Trace, moment: Moment, link: str, show_struck: bool = True) -> str:
    """The handout in the reader's language: title, settings, counters, the sheet, the legend, the link."""
    words = unit_words(language(), writing_unit(trace.pair))  # the unit of the run on paper, not of the sidebar
    steps = moments(trace)
    step = steps.index(moment) + 1
    parts, y = [], MARGIN
    for text, size in ((TEXT.plain("h_title", step=step, steps=len(steps)), 22), (_settings(trace, words), 14),
                       (_counters(trace, moment, words), 14)):
        y += size + 8
        parts.append(_text(MARGIN, y, text, size))
    sheet, height = _sheet(trace, moment, show_struck, top=y + 8)
    parts += sheet
    y += 8 + height
    legend, y = _legend(trace, moment, y + 8, _margin_states(trace, moment, show_struck))
    parts += legend
    y += 10
    for line in [TEXT.plain("h_link"), *wrap(link, LINK_CHARACTERS, break_on_hyphens=False)]:
        y += 18
        parts.append(_text(MARGIN, y, line, 12, family="monospace"))
    return _svg(y + MARGIN, parts)


def _settings(trace: Trace, words: dict) -> str:
    """The settings line; a tree run names its tree where a chain gives its k (a tree's shape sets its depth)."""
    settings = DecodeSettings.from_dict(trace.settings)  # a trace's settings are checked when it is read
    values = dict(pair=trace.pair, scribe=scribe_label(trace.scribe), k=settings.k, tree=settings.tree,
                  temperature=settings.sampling.temperature, top_p=settings.sampling.top_p, noise=settings.noise,
                  seed=settings.seed, length=settings.max_new_tokens, **words)
    return TEXT.plain("h_settings_tree" if settings.tree else "h_settings", **values)


def _counters(trace: Trace, moment: Moment, words: dict) -> str:
    """The screen's counters at this step (at the last step, the run's own: summarize's numbers)."""
    now = progress_at(trace, moment)
    per_glance = f"{now.tokens / now.target_forwards:.2f}" if now.target_forwards else "—"
    alpha = "—" if now.alpha is None else f"{now.alpha:.2f}"
    key = "h_counters_tree" if counts_first_variants(trace) else "h_counters"  # a tree's α as the stepper names it
    return TEXT.plain(key, tokens=now.text_tokens, glances=now.target_forwards, alpha=alpha, per_glance=per_glance, **words)


def _legend(trace: Trace, moment: Moment, top: int, margin: set[str] = frozenset()) -> tuple[list[str], int]:
    """A sample cell of every kind, named, in two columns; the margin's marks where the sheet has a margin
    (`margin`: the variants' states it draws); then the control tokens' marks."""
    sample = next((display_piece(p) for p, kind, *_ in sheet_cells(trace, moment) if kind != "prompt"), "·")
    parts, column_width = [], (WIDTH - 2 * MARGIN) // LEGEND_COLUMNS
    entries = [*LEGEND, *(key for key in VARIANT_LEGEND if key[2:] in margin)]
    for i, kind in enumerate(entries):
        x = MARGIN + (i % LEGEND_COLUMNS) * column_width
        y = top + (i // LEGEND_COLUMNS) * (LEGEND_CELL + 6)
        if kind in VARIANT_LEGEND:
            centre, bottom = x + LEGEND_CELL / 2, y + LEGEND_CELL / 2 + VARIANT_ROW / 2
            parts += _variant(centre, bottom, Variant(sample, kind[2:], -1), "sample")
        else:
            parts += _cell(x, y, sample, kind, LEGEND_CELL)
        parts.append(_text(x + LEGEND_CELL + 10, y + LEGEND_CELL * 0.7, TEXT.plain("h_" + kind), 14))
    y = top + -(-len(entries) // LEGEND_COLUMNS) * (LEGEND_CELL + 6) + 16
    parts.append(_text(MARGIN, y, TEXT.plain("h_marks"), 14))
    return parts, y


def _margin_states(trace: Trace, moment: Moment, show_struck: bool) -> set[str]:
    return {v.state for column in sheet_columns(trace, moment, show_struck) for v in column.margin}


def _sheet(trace: Trace, moment: Moment, show_struck: bool, top: int) -> tuple[list[str], int]:
    """The cells PER_LINE a line; a line whose cells have variants is lowered to make room for them above."""
    columns = sheet_columns(trace, moment, show_struck)
    parts, y = [], top + MARGIN
    for start in range(0, max(len(columns), 1), PER_LINE):
        line = columns[start : start + PER_LINE]
        y += max((_margin_rows(column) for column in line), default=0) * VARIANT_ROW
        for i, column in enumerate(line):
            parts += _column(MARGIN + i * CELL, y, column)
        y += CELL
    return parts, y + MARGIN - top


def _margin_rows(column: Column) -> int:
    return min(len(column.margin), MARGIN_SHOWN + 1)


def _column(x: int, y: float, column: Column) -> list[str]:
    """A cell (a dotted empty one at a depth off the line) and its variants stacked above it, nearest first."""
    if column.cell is None:
        out = [f'<rect class="gap" x="{x + 1}" y="{y + 1:.0f}" width="{CELL - 2}" height="{CELL - 2}" fill="none"'
               f' stroke="{FAINT}" stroke-dasharray="2 3"/>']
    else:
        piece, kind, *_ = column.cell
        out = _cell(x, y, display_piece(piece), kind)
    shown = column.margin[:MARGIN_SHOWN]
    for row, variant in enumerate(shown, start=1):
        out += _variant(x + CELL / 2, y - (row - 1) * VARIANT_ROW, variant)
    if len(column.margin) > MARGIN_SHOWN:
        out.append(f'<text class="variant more" x="{x + CELL / 2}" y="{y - MARGIN_SHOWN * VARIANT_ROW - 6:.0f}"'
                   f' text-anchor="middle" font-size="{VARIANT_SIZE}" font-family="{FONT}" fill="#8f8676">'
                   f'+{len(column.margin) - MARGIN_SHOWN}</text>')
    return out


def _variant(centre: float, bottom: float, variant: Variant, role: str = "variant") -> list[str]:
    """A variant in the margin, its row ending at `bottom`: light ink in a dashed box before it is judged,
    struck in red once rejected, faint in a dotted box where the master's walk never reached it. role: its class,
    "sample" for the legend's."""
    width, top = CELL - 8, bottom - VARIANT_ROW + 2
    colour = FAINT if variant.state == "untried" else LIGHT_INK
    dash = {"unjudged": ' stroke-dasharray="3 2"', "untried": ' stroke-dasharray="1 2"'}.get(variant.state)
    out = [] if dash is None else [f'<rect x="{centre - width / 2:.0f}" y="{top:.0f}" width="{width}"'
                                   f' height="{VARIANT_ROW - 4}" fill="none" stroke="{colour}"{dash}/>']
    text = escape(variant_text(variant.piece))
    out.append(f'<text class="{role} {variant.state}" x="{centre:.0f}" y="{bottom - 6:.0f}" text-anchor="middle"'
               f' font-size="{VARIANT_SIZE}" font-family="{FONT}" fill="{colour}">{text}</text>')
    if variant.state == "struck":
        out.append(f'<line x1="{centre - width / 2 + 2:.0f}" y1="{bottom - 4:.0f}" x2="{centre + width / 2 - 2:.0f}"'
                   f' y2="{top + 2:.0f}" stroke="{VERMILION}" stroke-width="2"/>')
    return out


def _svg(height: float, parts: list[str]) -> str:
    size = f'width="{WIDTH}" height="{height:.0f}"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" {size} viewBox="0 0 {WIDTH} {height:.0f}">'
            f'<rect {size} fill="{PAPER}"/>' + "".join(parts) + "</svg>")


def _text(x: float, y: float, text: str, size: int, family: str = FONT) -> str:
    return f'<text x="{x}" y="{y:.0f}" font-size="{size}" font-family="{family}" fill="{INK}">{escape(text)}</text>'


def _cell(x: int, y: int, text: str, kind: str, size: int = CELL) -> list[str]:
    border = VERMILION if kind == "corrected" else INK if kind == "bonus" else "#e3d8bf"
    dash = ' stroke-dasharray="4 3"' if kind in ("draft", "discarded") else ""
    weight = ' font-weight="700"' if kind in ("corrected", "bonus") else ""
    seal, inset = size * 10 // CELL, size // 6
    fill = PROMPT_PAPER if kind == "prompt" else "none"  # the prompt on grey, as on screen
    out = [f'<rect x="{x + 1}" y="{y + 1}" width="{size - 2}" height="{size - 2}" fill="{fill}" stroke="{border}"'
           f' stroke-width="{2 if kind == "bonus" else 1}"{dash}/>',
           f'<text x="{x + size / 2}" y="{y + size * 0.7}" text-anchor="middle" font-size="{size * 0.6:.0f}"'
           f' font-family="{FONT}" fill="{COLOURS.get(kind, INK)}"{weight}>{escape(text)}</text>']
    if kind == "sealed":
        corner = size - seal - 2
        out.append(f'<rect x="{x + corner}" y="{y + corner}" width="{seal}" height="{seal}" fill="{VERMILION}"/>')
    if kind in ("struck", "discarded"):
        # corner to corner, as on screen: a level line through "，" would read as 一
        out.append(f'<line x1="{x + inset}" y1="{y + size - inset}" x2="{x + size - inset}" y2="{y + inset}"'
                   f' stroke="{VERMILION}" stroke-width="3"/>')
    return out
