"""The sheet as HTML: the scribe's light ink, the master's red seals, red-brush corrections, bonus marks.

Each character sits in a cell of manuscript paper. The renderer only reads the trace: which tokens
were drafted, sealed, struck and written, up to the moment the class is looking at.
"""
from __future__ import annotations

import html
import re

from specdec_core.algorithm.trace import Round, Trace
from ui.scriptorium.moments import Moment, ended_in_draft
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
/* a strike from corner to corner: a level line through "，" or "、" would read as 一 */
.sheet .struck::before, .sheet .discarded::before {{ content: ""; position: absolute; left: 8%; right: 8%; top: 50%;
  border-top: 3px solid {VERMILION}; transform: rotate(-45deg); }}
.sheet .discarded::before {{ border-top: 2px solid #8f8676; }}
.sheet .corrected {{ color: {VERMILION}; font-weight: 700; border-color: {VERMILION}; }}
.sheet .bonus {{ color: {INK}; font-weight: 700; border: 2px solid {INK}; }}
.sheet .plain {{ color: {INK}; }}
.sheet .current {{ background: #fff8e6; }}
</style>
"""


def sheet_html(trace: Trace, moment: Moment, show_struck: bool = True) -> str:
    cells = [_cell(piece, kind, current, new_seal) for piece, kind, current, new_seal in sheet_cells(trace, moment, show_struck)]
    return STYLE + '<div class="sheet">' + "".join(cells) + "</div>"


def sheet_cells(trace: Trace, moment: Moment, show_struck: bool = True) -> list[tuple[str, str, bool, bool]]:
    """(piece, kind, in the current round, sealed at this very moment) for every cell up to the moment."""
    cells = [(piece, "prompt", False, False) for piece in prompt_tail(trace)]
    written = 0
    for i, r in enumerate(trace.rounds[: moment.round + 1]):
        now = i == moment.round
        kinds = _round_kinds(r, moment if now else None)
        for j, (piece, kind) in enumerate(kinds):
            if written >= len(trace.tokens) and kind not in ("draft", "discarded", "struck"):
                break
            if kind in ("struck", "discarded") and not (show_struck or now):
                continue
            cells.append((piece, kind, now, now and moment.stage == "seal" and j == moment.sealed - 1))
            written += kind in ("sealed", "corrected", "bonus", "plain")
    return cells


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


def _round_kinds(r: Round, moment: Moment | None) -> list[tuple[str, str]]:
    """(piece, kind) of a round, complete (moment None) or as far as the moment has gone."""
    drafted = [s.piece for s in r.drafted]
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


def _cell(piece: str, kind: str, current: bool = False, new_seal: bool = False) -> str:
    """One cell; a kind outside CELL_KINDS (a hand-made file) is drawn as plain ink, never written as markup."""
    kind = kind if kind in CELL_KINDS else "plain"
    classes = " ".join(["cell", kind] + (["current"] if current else []) + (["new-seal"] if new_seal else []))
    title = html.escape(piece, quote=True)
    return f'<span class="{classes}" title="{title}">{html.escape(display_piece(piece))}</span>'
