"""The sheet as HTML: the scribe's light ink, the master's red seals, red-brush corrections, bonus marks.

Each character sits in a cell of manuscript paper. The renderer only reads the trace: which tokens
were drafted, sealed, struck and written, up to the moment the class is looking at. A round that drafted
a tree holds on its line only what the class may know: the scribe's first reading at each depth until the
master's seals reach it, then the path he sealed. Its other variants are written in the margin above the line,
each at its depth: struck where the master tried and rejected it, faint and dotted where his walk down the tree
never reached it, light and dashed while he has not judged that depth.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from specdec_core.algorithm.trace import Round, Trace
from ui.scriptorium.margin_texts import TEXT as MARGIN_TEXT
from ui.scriptorium.moments import Moment, end_depth, ended_in_draft
from specdec_core.algorithm.tree_walk import NODE_STATES, Walk, tree_walk
from ui.shared.i18n import without_bidi
from ui.shared.theme import INK, LIGHT_INK, PAPER, VERMILION

CELL_KINDS = ("prompt", "draft", "sealed", "struck", "discarded", "corrected", "bonus", "plain")  # the style's classes
PROMPT_SHOWN = 30  # characters of the prompt's end drawn before the run
SPECIAL = re.compile(r"^<[^<>\s]{1,24}>$")  # </s>, <|im_end|>: control tokens, not writing
CONTROL_MARKS = {  # each control token's own mark, as the legend names it; no two meanings share one
    "<s>": "▷",  # the start of a text
    "</s>": "∎",  # the end of a text: the poetry pair's end mark
    "<|endoftext|>": "∎",
    "<|im_start|>": "⟨",  # a chat turn begins
    "<|im_end|>": "⟩",  # a chat turn ends
}
OTHER_CONTROL_MARK = "◇"  # <pad>, <unk> and any control token not listed
MARGIN_SHOWN = 5  # variants written above one cell; the rest are counted in one "+n"
# Presenter mode's sheet (compact): fewer variants a cell, in smaller type, so the story, the sheet and the step
# buttons still fit a 1280 x 720 projector with a tree round's margin above the line (tests/test_browser_tree.py)
MARGIN_SHOWN_COMPACT = 3
VARIANT_CHARS = 6  # a longer variant is cut, "…" at its end (its whole piece in the tooltip)

STYLE = f"""
<style>
.sheet {{ font-family: "Noto Serif CJK TC", "Noto Serif TC", serif; line-height: 1; background: {PAPER};
  padding: .6em; border: 1px solid #d8cbb0; border-radius: 4px; }}
.sheet .cell {{ display: inline-flex; align-items: center; justify-content: center; position: relative;
  min-width: 1.5em; height: 1.5em; margin: 2px 1px; padding: 0 .1em; border: 1px solid #e3d8bf;
  font-size: var(--sheet-size, 1.9rem); color: {INK}; vertical-align: middle; }}
.sheet .prompt {{ color: #6d6659; background: #efe6d2; }}
.sheet .draft {{ color: {LIGHT_INK}; border: 1px dashed {LIGHT_INK}; }}
.sheet .sealed::after {{ content: ""; position: absolute; right: -3px; bottom: -3px; width: .42em; height: .42em;
  background: {VERMILION}; border-radius: 2px; }}
.sheet .new-seal::after {{ animation: stamp .45s ease-out; }}
@keyframes stamp {{ from {{ transform: scale(3); opacity: 0; }} to {{ transform: scale(1); opacity: 1; }} }}
.sheet .struck {{ color: {LIGHT_INK}; }}
.sheet .discarded {{ color: #8f8676; border-style: dotted; }}
/* a strike from corner to corner: a level line through "，" or "、" would read as 一. Drawn as a gradient inside
   the cell's own box, so a long word's strike stays in its cell (a rotated line ran over its neighbours) */
.sheet .struck::before, .sheet .discarded::before {{ content: ""; position: absolute; inset: 6% 4%; pointer-events: none;
  background: linear-gradient(to top right, transparent calc(50% - 1.5px), {VERMILION} calc(50% - 1.5px),
  {VERMILION} calc(50% + 1.5px), transparent calc(50% + 1.5px)); }}
.sheet .discarded::before {{ background: linear-gradient(to top right, transparent calc(50% - 1px), #8f8676 calc(50% - 1px),
  #8f8676 calc(50% + 1px), transparent calc(50% + 1px)); }}
.sheet .corrected {{ color: {VERMILION}; font-weight: 700; border-color: {VERMILION}; }}
.sheet .bonus {{ color: {INK}; font-weight: 700; border: 2px solid {INK}; }}
.sheet .plain {{ color: {INK}; }}
.sheet .current {{ background: #fff8e6; }}
</style>
"""
# Only a sheet with a margin carries these rules, so a chain's sheet stays as it was, byte for byte.
MARGIN_STYLE = f"""
<style>
.sheet .cell, .sheet .col {{ vertical-align: bottom; }}
.sheet .col {{ display: inline-flex; flex-direction: column; align-items: center; }}
.sheet .margin {{ display: flex; flex-direction: column-reverse; align-items: center; gap: 2px; }}
.sheet .variant {{ position: relative; font-size: calc(var(--sheet-size, 1.9rem) * .52); line-height: 1.2;
  padding: 0 .2em; border: 1px solid transparent; white-space: pre; }}
.sheet .v-unjudged {{ color: {LIGHT_INK}; border: 1px dashed {LIGHT_INK}; }}
.sheet .v-struck {{ color: {LIGHT_INK}; }}
.sheet .v-struck::before {{ content: ""; position: absolute; left: 4%; right: 4%; top: 50%;
  border-top: 2px solid {VERMILION}; transform: rotate(-30deg); }}
.sheet .v-untried {{ color: #b3aa98; border: 1px dotted #b3aa98; }}
.sheet .v-more {{ color: #8f8676; }}
.sheet .cell.gap {{ min-width: .6em; border: 1px dotted #c9bfa8; }}
.sheet.compact .margin {{ gap: 0; }}
.sheet.compact .variant {{ font-size: calc(var(--sheet-size, 1.9rem) * .4); line-height: 1.05; }}
</style>
"""


@dataclass(frozen=True)
class Variant:
    """A drafted node in the margin: another character the scribe offered at that depth of the tree."""

    piece: str
    state: str  # "unjudged", "struck" or "untried" (Walk.states): the line's own node is never one
    node: int  # its index in the round's tree


@dataclass(frozen=True)
class Column:
    """A cell of the line and the variants above it; cell None: a depth the walk never reached, margin only."""

    cell: tuple[str, str, bool, bool] | None
    margin: tuple[Variant, ...] = ()


def sheet_html(trace: Trace, moment: Moment, show_struck: bool = True, compact: bool = False) -> str:
    """compact: presenter mode's sheet, whose margin (where it has one) is shorter, in smaller type."""
    columns = sheet_columns(trace, moment, show_struck)
    if not any(column.margin for column in columns):
        cells = [_cell(piece, kind, current, new_seal) for piece, kind, current, new_seal in _cells(columns)]
        return STYLE + '<div class="sheet">' + "".join(cells) + "</div>"
    most = MARGIN_SHOWN_COMPACT if compact else MARGIN_SHOWN
    sheet = '<div class="sheet compact">' if compact else '<div class="sheet">'
    return STYLE + MARGIN_STYLE + sheet + "".join(_column(column, most) for column in columns) + "</div>"


def sheet_cells(trace: Trace, moment: Moment, show_struck: bool = True) -> list[tuple[str, str, bool, bool]]:
    """(piece, kind, in the current round, sealed at this very moment) for every cell up to the moment."""
    return _cells(sheet_columns(trace, moment, show_struck))


def sheet_columns(trace: Trace, moment: Moment, show_struck: bool = True) -> list[Column]:
    """Every cell up to the moment, each with its margin: a tree round's other variants at the cell's depth.

    A tree round's line is what the class may know at the moment (line_nodes): before the verdict the path sealed
    so far and the scribe's first reading below it, never the variants the master will choose. The current round's
    margin holds every other node of its tree (its depths past the line in columns of their own, before the
    master's character, where a chain shows its discarded drafts); a past round keeps only the variants the master
    struck, and only while struck characters are kept (show_struck)."""
    columns = [Column((piece, "prompt", False, False)) for piece in prompt_tail(trace)]
    written = 0
    for i, r in enumerate(trace.rounds[: moment.round + 1]):
        now = i == moment.round
        at, walk = moment if now else None, tree_walk(r)
        line = [s.piece for s in r.drafted] if walk is None else [walk.nodes[n].piece for n in line_nodes(walk, at)]
        kinds = _round_kinds(r, line, at)
        margins = round_margins(r, at, walk) if (show_struck or now) else []
        for j, (piece, kind) in enumerate(kinds):  # the line's cells first, in order, then the master's
            if written >= len(trace.tokens) and kind not in ("draft", "discarded", "struck"):
                break
            if kind in ("struck", "discarded") and not (show_struck or now):
                continue
            cell = (piece, kind, now, now and moment.stage == "seal" and j == moment.sealed - 1)
            columns.append(Column(cell, margins[j] if j < min(len(line), len(margins)) else ()))
            written += kind in ("sealed", "corrected", "bonus", "plain")
            if now and j == len(line) - 1:  # the depths the line never reached, before the master's character
                columns += [Column(None, margin) for margin in margins[j + 1 :] if margin]
    return columns


def line_nodes(walk: Walk, moment: Moment | None) -> tuple[int, ...]:
    """The nodes a tree round's line holds at the moment (None: a past round). Once judged, the drafted steps: the
    accepted path, then the last variant struck where the walk ended. Before the verdict, the path sealed so far
    and below it the scribe's first reading (Walk.line_at): at the draft stage, the first child drawn at every
    depth, the line a chain would have drafted."""
    if moment is None or moment.stage == "verdict":
        return walk.line
    return walk.line_at(moment.sealed)


def judged_depth(moment: Moment | None) -> int | None:
    """How deep the master's walk is judged at the moment: None once the verdict is given (or for a past round),
    the depths sealed so far before it (none at the draft stage)."""
    return None if moment is None or moment.stage == "verdict" else moment.sealed


def round_margins(r: Round, moment: Moment | None, walk: Walk | None = None) -> list[tuple[Variant, ...]]:
    """The margin at each depth of a tree round (index d - 1 for depth d; empty for a chain): the nodes
    off the line, the siblings of the line's node first, in the order drawn. moment None: a past round,
    whose margin keeps only the struck variants, as the line keeps its struck character but not its discarded."""
    walk = tree_walk(r) if walk is None else walk
    if walk is None:
        return []
    states, line = walk.states(judged_depth(moment), end_depth(r, moment)), line_nodes(walk, moment)
    margins = []
    for depth in range(1, max(walk.depth_of) + 1):
        at_line = line[depth - 1] if depth <= len(line) else None
        nodes = [i for i, d in enumerate(walk.depth_of) if d == depth and i != at_line]
        if at_line is not None:  # the ones the master tried before or after it come first
            nodes.sort(key=lambda i: r.tree[i].parent != r.tree[at_line].parent)
        margins.append(tuple(Variant(r.tree[i].piece, states[i], i) for i in nodes
                             if moment is not None or states[i] == "struck"))
    return margins


def _cells(columns: list[Column]) -> list[tuple[str, str, bool, bool]]:
    return [column.cell for column in columns if column.cell is not None]


def prompt_tail(trace: Trace) -> list[str]:
    """The question's end, about PROMPT_SHOWN characters: a token per cell where the trace lists its
    pieces (the reader's own text, without a chat template's turns around it), one character per cell
    for traces written before it did. "…" leads when the question goes on further back."""
    pieces = trace.extra.get("prompt_pieces")
    whole = trace.extra.get("question_tokens")
    if not isinstance(whole, int) or isinstance(whole, bool):  # traces written before runs counted the question
        whole = len(trace.prompt_tokens)
    if not (isinstance(pieces, list) and all(isinstance(p, str) for p in pieces)):
        pieces, whole = list(trace.prompt_text), len(trace.prompt_text)
    shown, width = [], 0
    for piece in reversed(pieces):
        width += len(display_piece(piece))
        if width > PROMPT_SHOWN and shown:
            break
        shown.append(piece)
    return (["…"] if len(shown) < whole else []) + shown[::-1]


def display_piece(piece: str) -> str:
    """How a token looks on paper: a control token becomes its own mark, whitespace stays visible, and a
    bidi control (from an imported trace) is dropped rather than reverse the rest of the line."""
    if SPECIAL.match(piece):
        return CONTROL_MARKS.get(piece, OTHER_CONTROL_MARK)
    piece = without_bidi(piece).replace("\n", "↵")
    return piece if piece.strip() else "␣" * max(len(piece), 1)


def prose_piece(piece: str) -> str:
    """How a token reads in running text (the race's lanes): a control token becomes its own mark, line
    breaks and spaces stay as written, for a lane that keeps them (white-space: pre-wrap)."""
    return CONTROL_MARKS.get(piece, OTHER_CONTROL_MARK) if SPECIAL.match(piece) else piece


def chart_piece(piece: str) -> str:
    """A token as a chart label: plotly reads tags such as <a href> in labels, so they are escaped."""
    return html.escape(display_piece(piece), quote=False)


def _round_kinds(r: Round, drafted: list[str], moment: Moment | None) -> list[tuple[str, str]]:
    """(piece, kind) of a round's line (`drafted`: its pieces) and the master's character, complete (moment None)
    or as far as the moment has gone."""
    if moment is not None and moment.stage != "verdict":
        return [(p, "sealed") for p in drafted[: moment.sealed]] + [(p, "draft") for p in drafted[moment.sealed :]]
    if moment is not None and ended_in_draft(r, moment):  # the text ends at the end token: the rest goes unwritten
        return [(p, "sealed") for p in drafted[: moment.written]] + [(p, "discarded") for p in drafted[moment.written :]]
    out = [(p, "sealed") for p in drafted[: r.n_accepted]]
    if r.n_accepted < len(drafted):
        out.append((drafted[r.n_accepted], "struck"))
        if moment is not None:  # the rest of the line is discarded unread; shown only while current
            out += [(p, "discarded") for p in drafted[r.n_accepted + 1 :]]
    return out + [(r.next_piece, r.next_kind)]


def _column(column: Column, most: int = MARGIN_SHOWN) -> str:
    """A cell alone, or a cell (an empty one at a depth off the line) with its variants above it."""
    cell = _cell(*column.cell) if column.cell is not None else '<span class="cell gap"></span>'
    if not column.margin:
        return cell
    shown, rest = column.margin[:most], len(column.margin) - most
    more = html.escape(MARGIN_TEXT.plain("m_more", n=rest), quote=True)
    variants = [_variant(v) for v in shown]
    if rest > 0:
        variants.append(f'<span class="variant v-more" title="{more}">+{rest}</span>')
    return f'<span class="col"><span class="margin">{"".join(variants)}</span>{cell}</span>'


def _variant(variant: Variant) -> str:
    state = variant.state if variant.state in NODE_STATES else "unjudged"
    return (f'<span class="variant v-{state}" title="{html.escape(without_bidi(variant.piece), quote=True)}">'
            f"{html.escape(variant_text(variant.piece))}</span>")


def variant_text(piece: str) -> str:
    """A variant as the margin writes it: as on the line, cut to VARIANT_CHARS characters."""
    shown = display_piece(piece)
    return shown if len(shown) <= VARIANT_CHARS else shown[: VARIANT_CHARS - 1] + "…"


def _cell(piece: str, kind: str, current: bool = False, new_seal: bool = False) -> str:
    """One cell; a kind outside CELL_KINDS (a hand-made file) is drawn as plain ink, never written as markup."""
    kind = kind if kind in CELL_KINDS else "plain"
    classes = " ".join(["cell", kind] + (["current"] if current else []) + (["new-seal"] if new_seal else []))
    title = html.escape(without_bidi(piece), quote=True)  # an imported piece's bidi control reverses no tooltip
    return f'<span class="{classes}" title="{title}">{html.escape(display_piece(piece))}</span>'
