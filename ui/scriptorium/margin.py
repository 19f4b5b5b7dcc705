"""The current round's drafted tree as a diagram: the context at the left, each depth a column, every node
in the state the master's walk left it at this moment (sealed path, struck, never reached, not judged yet),
and the master's own character at the end of the path.

Drawn from the trace alone (walk.tree_walk, Walk.states), as an SVG in an <img> (st.html keeps only
HTML's own tags, so an inline <svg> would be dropped in the browser); every piece is escaped. A large tree
folds: a node the walk never went beneath keeps its subtree as "+n", and where the unjudged tree is still
taller than MAX_ROWS rows, the depths below a cut are folded the same way.
"""
from __future__ import annotations

import base64
import html
import re
import unicodedata
from dataclasses import dataclass

from specdec_core.algorithm.trace import Round, Trace
from specdec_core.settings import DecodeSettings
from ui.scriptorium.margin_texts import TEXT
from ui.scriptorium.moments import Moment, end_depth, ended_in_draft
from ui.scriptorium.sheet import display_piece, judged_depth, variant_text
from specdec_core.algorithm.tree_walk import Walk, tree_walk
from ui.shared.i18n import without_bidi
from ui.shared.theme import INK, LIGHT_INK, PAPER, VERMILION

MAX_ROWS = 16  # rows the diagram draws before it folds: 16 rows of 36 px fit a projector's 720 lines with the caption
ROW, BOX, FONT_SIZE, BADGE_SIZE = 36, 28, 18, 13  # px
GAP, PAD = 40, 12  # between depth columns (room for a "+n"), around the drawing
FAINT, PROMPT_PAPER = "#b3aa98", "#efe6d2"
FONT = "Noto Serif CJK TC, Noto Serif TC, serif"
LEGEND_ORDER = ("sealed", "struck", "untried", "unjudged", "corrected", "bonus", "more")

STYLE = f"""
<style>
.tree-diagram {{ background: {PAPER}; border: 1px solid #d8cbb0; border-radius: 4px; padding: .5em .7em; }}
.tree-diagram img {{ display: block; max-width: 100%; height: auto; margin: .3em 0; }}
.tree-diagram .summary {{ margin: 0; color: {INK}; }}
.tree-diagram .legend {{ font-size: .85rem; color: #5b5446; }}
.tree-diagram .legend span {{ margin-right: 1.2em; white-space: nowrap; }}
</style>
"""


@dataclass(frozen=True)
class Placed:
    """A node where the diagram draws it: `node` its index in the tree, -1 for the context, -2 for the new token."""

    node: int
    parent: int
    depth: int
    row: float
    piece: str
    state: str  # Walk.states' words, "root", "corrected" or "bonus"
    folded: int  # nodes of its subtree folded into its "+n"


def tree_html(trace: Trace, moment: Moment) -> str:
    """The diagram of the moment's round with its caption and legend; "" for a chain's round."""
    r = trace.rounds[moment.round]
    if not r.tree:
        return ""
    walk = tree_walk(r)
    if walk is None:
        refusal = html.escape(TEXT.plain("t_unreadable"))
        return STYLE + f'<div class="tree-diagram"><p class="summary">{refusal}</p></div>'
    states = walk.states(judged_depth(moment), end_depth(r, moment))  # below a sealed end mark nothing is written
    placed, cut = layout(r, walk, states, _new_token(r, walk, moment))
    drawn = {p.state for p in placed} | ({"more"} if any(p.folded for p in placed) else set())
    legend = "".join(f"<span>{html.escape(TEXT.plain('l_' + state))}</span>" for state in LEGEND_ORDER
                     if state in drawn)
    lines = [TEXT.plain("t_title", round=r.index + 1), *_summary(r, walk, states, moment, trace),
             TEXT.plain("t_margin")]
    if cut is not None:
        lines.append(TEXT.plain("t_folded", depth=cut))
    summary = "".join(f'<p class="summary">{html.escape(line)}</p>' for line in lines)
    picture = base64.b64encode(tree_svg(placed).encode()).decode()
    alt = html.escape(lines[0], quote=True)
    figure = f'<img src="data:image/svg+xml;base64,{picture}" alt="{alt}">'
    return STYLE + f'<div class="tree-diagram">{summary}{figure}<div class="legend">{legend}</div></div>'


def diagram_svg(markup: str) -> str:
    """The SVG inside tree_html's picture ("" where it drew none)."""
    found = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', markup)
    return base64.b64decode(found[1]).decode() if found else ""


def show_tree(trace: Trace, moment: Moment) -> None:
    """Draw the diagram on the page, for a tree round only."""
    import streamlit as st

    markup = tree_html(trace, moment)
    if markup:
        st.html(markup)


def _summary(r: Round, walk: Walk, states: list[str], moment: Moment, trace: Trace) -> list[str]:
    """What the caption says: only what the class has seen by this moment, counted from the states drawn."""
    count = {state: states.count(state) for state in ("sealed", "struck", "untried", "unjudged")}
    lines = [TEXT.plain("t_drafted", nodes=len(r.tree), depth=max(walk.depth_of))]
    if moment.stage == "draft":
        return lines + [TEXT.plain("t_not_yet")]
    if moment.stage == "seal":
        lines.append(TEXT.plain("t_down_to", depth=moment.sealed))
    counts = TEXT.plain("t_counts", **count) + (TEXT.plain("t_counts_unjudged", **count) if count["unjudged"] else "")
    lines.append(counts)
    greedy = DecodeSettings.from_dict(trace.settings).sampling.temperature == 0
    lines.append(TEXT.plain("t_order_greedy" if greedy else "t_order_sampled"))
    new = _new_token(r, walk, moment)
    if new == "corrected":
        lines.append(TEXT.plain("t_corrected", depth=r.n_accepted + 1, good=display_piece(r.next_piece)))
    elif new == "bonus":
        lines.append(TEXT.plain("t_bonus", good=display_piece(r.next_piece)))
    return lines


def _new_token(r: Round, walk: Walk, moment: Moment) -> str | None:
    """The master's own character at the end of the path, once the verdict is given and the text reaches it."""
    if moment.stage != "verdict" or ended_in_draft(r, moment) or r.next_kind not in ("corrected", "bonus"):
        return None
    return r.next_kind


def layout(r: Round, walk: Walk, states: list[str], new: str | None) -> tuple[list[Placed], int | None]:
    """Every drawn node with its depth and row (leaves one a row in drawing order, a parent level with the
    middle of its children), and the depth below which the unjudged tree was folded (None: not folded)."""
    children: dict[int, list[int]] = {-1: []}
    for i, node in enumerate(r.tree):
        children.setdefault(node.parent, []).append(i)
    on_path = {i for i, state in enumerate(states) if state == "sealed"}
    path_end = max(on_path, key=lambda i: walk.depth_of[i], default=-1)

    def opened(i: int, cut: int) -> list[int]:
        """The children drawn under node i: none under a node the walk did not go beneath, or past the cut."""
        if i >= 0 and i not in on_path and (states[i] in ("struck", "untried") or walk.depth_of[i] >= cut):
            return []
        return children.get(i, [])

    def rows(cut: int) -> int:
        stack, leaves = [-1], 0
        while stack:
            below = opened(node := stack.pop(), cut)
            leaves += not below and not (node == path_end and new)
            stack += below
        return leaves + bool(new)

    deepest = max(walk.depth_of)
    cut = deepest
    while cut > 1 and rows(cut) > MAX_ROWS:
        cut -= 1
    placed: list[Placed] = []
    _place(-1, -1, 0, r, walk, states, lambda i: opened(i, cut), (path_end, new), placed, [0])
    folded = cut if cut < deepest and any(p.folded and p.state == "unjudged" for p in placed) else None
    return placed, folded


def _place(i, parent, depth, r, walk, states, opened, new_at, placed, next_row) -> float:
    """Place node i and what is drawn under it (depth first, in drawing order); its row."""
    below = opened(i)
    rows = [_place(c, i, depth + 1, r, walk, states, opened, new_at, placed, next_row) for c in below]
    if i == new_at[0] and new_at[1]:  # the master's character, after the siblings he rejected, or past the leaf
        rows.append(next_row[0])
        placed.append(Placed(-2, i, depth + 1, next_row[0], r.next_piece, new_at[1], 0))
        next_row[0] += 1
    if rows:
        row = (rows[0] + rows[-1]) / 2
    else:
        row, next_row[0] = next_row[0], next_row[0] + 1
    if i == -1:
        placed.append(Placed(-1, -1, 0, row, TEXT.plain("t_root"), "root", 0))
    else:
        hidden = _subtree_size(i, r) - 1 if not below else 0
        placed.append(Placed(i, parent, depth, row, r.tree[i].piece, states[i], hidden))
    return row


def _subtree_size(i: int, r: Round) -> int:
    """Node i and everything beneath it (parents come before their children, so one pass counts them)."""
    inside = {i}
    for j in range(i + 1, len(r.tree)):
        if r.tree[j].parent in inside:
            inside.add(j)
    return len(inside)


def text_width(text: str, size: float) -> float:
    """An estimate of the drawn width: a CJK character is about a square, other characters about 0.6 of one."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else 0.6 * size for c in text)


def tree_svg(placed: list[Placed]) -> str:
    """The placed nodes as SVG: an edge from each parent's right side to its child's left, then the boxes."""
    labels = {p.node: _label(p) for p in placed}
    widths = {p.node: max(BOX, text_width(labels[p.node], FONT_SIZE if p.state != "root" else 15) + 12) for p in placed}
    depths = max(p.depth for p in placed) + 1
    column = [max((widths[p.node] for p in placed if p.depth == d), default=BOX) for d in range(depths)]
    left = [PAD + sum(column[:d]) + GAP * d for d in range(depths)]
    by_node = {p.node: p for p in placed}
    centre = lambda p: PAD + p.row * ROW + ROW / 2  # noqa: E731
    parts = []
    for p in placed:
        if p.node == -1:
            continue
        up = by_node[p.parent]
        parts.append(_edge(left[up.depth] + widths[up.node], centre(up), left[p.depth], centre(p), p.state))
    for p in placed:
        parts += _node(left[p.depth], centre(p) - BOX / 2, widths[p.node], labels[p.node], p)
    width = left[-1] + column[-1] + GAP
    height = PAD * 2 + (max(p.row for p in placed) + 1) * ROW
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img">' + "".join(parts) + "</svg>")


def _label(p: Placed) -> str:
    return p.piece if p.state == "root" else variant_text(p.piece)


def _edge(x1: float, y1: float, x2: float, y2: float, state: str) -> str:
    colour, width, dash = {"sealed": (INK, 2, ""), "corrected": (VERMILION, 2, ""), "bonus": (INK, 2, ""),
                           "untried": (FAINT, 1, ' stroke-dasharray="2 3"')}.get(state, (LIGHT_INK, 1, ""))
    middle = (x1 + x2) / 2
    return (f'<path d="M{x1:.1f},{y1:.1f} C{middle:.1f},{y1:.1f} {middle:.1f},{y2:.1f} {x2:.1f},{y2:.1f}" fill="none" '
            f'stroke="{colour}" stroke-width="{width}"{dash}/>')


def _node(x: float, y: float, width: float, label: str, p: Placed) -> list[str]:
    """One node's box, its text (escaped), its mark (seal, strike) and its "+n"; the whole piece as a tooltip."""
    stroke, fill, text_colour, stroke_width, dash, weight = {
        "root": ("#d8cbb0", PROMPT_PAPER, "#6d6659", 1, "", ""),
        "sealed": (INK, "none", INK, 1, "", ""),
        "struck": ("#e3d8bf", "none", LIGHT_INK, 1, "", ""),
        "untried": (FAINT, "none", FAINT, 1, ' stroke-dasharray="2 3"', ""),
        "corrected": (VERMILION, "none", VERMILION, 2, "", ' font-weight="700"'),
        "bonus": (INK, "none", INK, 2, "", ' font-weight="700"'),
    }.get(p.state, (LIGHT_INK, "none", LIGHT_INK, 1, ' stroke-dasharray="4 3"', ""))  # unjudged
    size = 15 if p.state == "root" else FONT_SIZE
    out = [f'<g class="node {p.state}"><title>{html.escape(without_bidi(p.piece))}</title>',
           f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{BOX}" rx="3" fill="{fill}" stroke="{stroke}" '
           f'stroke-width="{stroke_width}"{dash}/>',
           f'<text x="{x + width / 2:.1f}" y="{y + BOX * 0.72:.1f}" text-anchor="middle" font-size="{size}" '
           f'font-family="{FONT}" fill="{text_colour}"{weight}>{html.escape(label)}</text>']
    if p.state == "sealed":
        out.append(f'<rect x="{x + width - 8:.1f}" y="{y + BOX - 8:.1f}" width="9" height="9" fill="{VERMILION}"/>')
    if p.state == "struck":
        out.append(f'<line x1="{x + 3:.1f}" y1="{y + BOX - 3:.1f}" x2="{x + width - 3:.1f}" y2="{y + 3:.1f}" '
                   f'stroke="{VERMILION}" stroke-width="2.5"/>')
    if p.folded:
        out.append(f'<text class="more" x="{x + width + 4:.1f}" y="{y + BOX * 0.7:.1f}" font-size="{BADGE_SIZE}" '
                   f'font-family="{FONT}" fill="#8f8676">+{p.folded}</text>')
    return out + ["</g>"]
