"""One round worked by hand: the round's own numbers laid out as the rule reads them, step by step.

For each drafted token: q(x), p(x), min(1, p/q) and the uniform u it was compared with; the first
token whose u is not below min(1, p/q) is struck. Then where the new token came from: the residual
norm(max(0, p - q)) at a rejection, or p itself for the bonus. A tree round lists every variant tried, depth by
depth, with the residual r each one faced (min(1, r/q) is its test), then the last residual or p. Every number is
the trace's.
"""
from __future__ import annotations

from specdec_core.algorithm.trace import Round
from ui.scriptorium.numbers import table_number
from ui.scriptorium.sheet import display_piece
from ui.scriptorium.texts import TEXT
from specdec_core.algorithm.tree_walk import Depth

RESIDUAL_SHOWN = 5  # candidates of the new token's distribution listed
TREE_INTRO = {"residual": "worked_intro_tree", "p": "worked_intro_tree_p", "greedy": "worked_intro_tree_greedy"}


def draft_rows(r: Round, written: int | None = None) -> list[dict]:
    """A row per drafted token the master's glance reached: the numbers and the verdict. written: where
    the text ended at an end token among the drafts, the rows stop there (nothing after it is written)."""
    rows = []
    for i, step in enumerate(r.reached[:written]):
        rows.append({
            TEXT.plain("w_position"): i + 1,
            TEXT.plain("w_token"): display_piece(step.piece),
            "q(x)": table_number(step.q),
            "p(x)": table_number(step.p),
            "min(1, p/q)": table_number(step.accept_prob),
            "u": table_number(step.u),
            TEXT.plain("w_verdict"): TEXT.plain("w_sealed" if step.accepted else "w_struck"),
        })
    return rows


def tree_rows(r: Round, walk: list[Depth], trial: str, written: int | None = None) -> list[dict]:
    """A row per variant the master tried, in the order he tried them: depth by depth, each depth's in drawing
    order. written: where the text ended at an end token sealed at that depth, the rows stop there."""
    rows = []
    for depth in walk[:written]:
        for i in depth.tried(r.tree):
            node = r.tree[i]
            row = {
                TEXT.plain("w_depth"): depth.depth,
                TEXT.plain("w_order"): depth.variants.index(i) + 1,
                TEXT.plain("w_token"): display_piece(node.piece),
                "q(x)": table_number(node.q),
                "p(x)": table_number(node.p),
            }
            if node.q_i is not None:  # drawn without replacement: drawn, and tested, with q_i
                row["q_i(x)"] = table_number(node.q_i)
            if trial == "greedy":
                row[TEXT.plain("w_verdict")] = TEXT.plain("t_first_choice" if node.accepted else "t_not_first_choice")
            else:
                test = "min(1, r/q)" if node.q_i is None else "min(1, r/q_i)"
                row |= {"r(x)": table_number(node.r), test: table_number(node.accept_prob), "u": table_number(node.u)}
                row[TEXT.plain("w_verdict")] = TEXT.plain("w_tree_sealed" if node.accepted else "w_tree_struck")
            rows.append(row)
    return rows


def new_token_rows(r: Round, tree_trial: str | None = None) -> list[dict]:
    """The new token's distribution, top candidates: p, q and the residual r that the correction uses.
    tree_trial: in a tree round, how its variants were tried (walk.TRIALS): after several variants were struck
    the last residual is no longer max(0, p - q) normalised, so that column is left out, and at temperature 0
    the master writes the argmax of p, with no residual."""
    residual = r.next_kind == "corrected" and tree_trial != "greedy"
    plain_residual = tree_trial in (None, "p")
    ranked = sorted(r.next_dist_top, key=lambda c: -(c.r if residual else c.p))[:RESIDUAL_SHOWN]
    return [{
        TEXT.plain("w_token"): display_piece(c.piece) + (" ◀" if c.token == r.next_token else ""),
        "p(x)": table_number(c.p),
        "q(x)": table_number(c.q),
        **({"max(0, p − q)": table_number(max(c.p - c.q, 0.0))} if plain_residual else {}),
        **({"r(x)": table_number(c.r)} if residual else {}),
    } for c in ranked]


def tree_new_token_words(r: Round, walk: list[Depth], trial: str) -> str:
    depth = walk[-1].depth
    if r.next_kind != "corrected":
        return TEXT("w_tree_from_p", depth=depth, last=display_piece(r.drafted[-1].piece))
    if trial == "greedy":
        return TEXT("w_tree_greedy_new", depth=depth)
    return TEXT("w_tree_from_plain_residual" if trial == "p" else "w_tree_from_residual", depth=depth)


def new_token_words(r: Round) -> str:
    if r.next_kind == "corrected":
        return TEXT("w_from_residual", at=r.n_accepted + 1)
    return TEXT("w_from_p")
