"""One round worked by hand: the round's own numbers laid out as the rule reads them, step by step.

For each drafted token: q(x), p(x), min(1, p/q) and the uniform u it was compared with; the first
token whose u is not below min(1, p/q) is struck. Then where the new token came from: the residual
norm(max(0, p - q)) at a rejection, or p itself for the bonus. Every number is the trace's.
"""
from __future__ import annotations

from specdec_core.algorithm.trace import Round
from ui.scriptorium.sheet import display_piece
from ui.scriptorium.texts import TEXT

RESIDUAL_SHOWN = 5  # candidates of the new token's distribution listed


def draft_rows(r: Round, written: int | None = None) -> list[dict]:
    """A row per drafted token the master's glance reached: the numbers and the verdict. written: where
    the text ended at an end token among the drafts, the rows stop there (nothing after it is written)."""
    rows = []
    for i, step in enumerate(r.reached[:written]):
        rows.append({
            TEXT.plain("w_position"): i + 1,
            TEXT.plain("w_token"): display_piece(step.piece),
            "q(x)": round(step.q, 4),
            "p(x)": round(step.p, 4),
            "min(1, p/q)": round(step.accept_prob, 4),
            "u": round(step.u, 4),
            TEXT.plain("w_verdict"): TEXT.plain("w_sealed" if step.accepted else "w_struck"),
        })
    return rows


def new_token_rows(r: Round) -> list[dict]:
    """The new token's distribution, top candidates: p, q and the residual r that the correction uses."""
    residual = r.next_kind == "corrected"
    ranked = sorted(r.next_dist_top, key=lambda c: -(c.r if residual else c.p))[:RESIDUAL_SHOWN]
    return [{
        TEXT.plain("w_token"): display_piece(c.piece) + (" ◀" if c.token == r.next_token else ""),
        "p(x)": round(c.p, 4),
        "q(x)": round(c.q, 4),
        "max(0, p − q)": round(max(c.p - c.q, 0.0), 4),
        **({"r(x)": round(c.r, 4)} if residual else {}),
    } for c in ranked]


def new_token_words(r: Round) -> str:
    if r.next_kind == "corrected":
        return TEXT("w_from_residual", at=r.n_accepted + 1)
    return TEXT("w_from_p")
