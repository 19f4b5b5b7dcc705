"""A tree round in the stepper's words and its inspector's table: the walk down the drafted tree, as recorded.

Each depth's variants are tried in the order the scribe drew them (tree_verify, SpecInfer's multi-step speculative
sampling): the first against p, each later one against the residual r the rejected ones left, accepted when
u < min(1, r/q). A tree's drafted step keeps p(x) in `p` but the test it faced, min(1, r/q), in `accept_prob`,
so these words and tables show r beside p and never offer p/q as the test.
"""
from __future__ import annotations

from specdec_core.algorithm.trace import Candidate, Round
from ui.scriptorium.moments import Moment, ended_in_draft
from ui.scriptorium.numbers import probability_text
from ui.scriptorium.sheet import display_piece
from ui.scriptorium.texts import TEXT
from specdec_core.algorithm.tree_walk import Depth, Walk, descendants, variants_per_depth
from ui.shared.i18n import language

EMPTY = "—"  # a cell of a variant never tried, or not yet revealed


def tree_story(r: Round, moment: Moment, walk: Walk, trial: str) -> str:
    """The step's story for a tree round: what was drafted, each depth's trials, where the walk ended."""
    number = r.index + 1
    if moment.stage == "draft":
        return _draft_story(walk, number)
    if moment.stage == "seal":
        return _seal_story(r, walk[moment.sealed - 1], trial, number)
    if ended_in_draft(r, moment):
        return _ended_story(r, moment, walk, number)
    good, gain = display_piece(r.next_piece), TEXT("gain_one" if r.n_accepted == 0 else "gain_many", n=r.n_accepted + 1)
    if r.next_kind == "bonus":
        return TEXT("stage_tree_bonus", round=number, depth=r.n_accepted, last=display_piece(r.drafted[-1].piece),
                    good=good, gain=gain)
    last = walk[-1]
    struck = last.tried(r.tree)
    words = dict(round=number, depth=last.depth, good=good, gain=gain)
    one = len(last.variants) == 1
    if trial == "greedy" and one:
        return TEXT("stage_tree_corrected_greedy_one", bad=display_piece(r.tree[struck[0]].piece), **words)
    if trial == "greedy":
        return TEXT("stage_tree_corrected_greedy", variants=variants_words(len(struck)), pieces=pieces_words(r, struck),
                    **words)
    source = TEXT.plain("source_plain_residual" if trial == "p" else
                        "source_last_residual_one" if one else "source_last_residual_many")
    if one:
        return TEXT("stage_tree_corrected_one", bad=display_piece(r.tree[struck[0]].piece), source=source, **words)
    return TEXT("stage_tree_corrected_many", n=len(struck), pieces=pieces_words(r, struck), source=source, **words)


def _draft_story(walk: Walk, number: int) -> str:
    counts = variants_per_depth(walk)
    variants = variants_words(sum(counts))
    if len(counts) == 1:
        return TEXT("stage_draft_tree_one", round=number, variants=variants)
    per_depth = TEXT.plain("list_sep").join(str(n) for n in counts)
    return TEXT("stage_draft_tree", round=number, variants=variants, depths=len(counts), per_depth=per_depth)


def _seal_story(r: Round, depth: Depth, trial: str, number: int) -> str:
    """The depth just sealed: the variants struck before the one that passed, and how many were never tried."""
    tree = r.tree
    words = dict(round=number, depth=depth.depth, good=display_piece(tree[depth.accepted].piece))
    only = len(depth.variants) == 1
    if trial == "greedy":  # every variant is compared with his argmax; no order, no residual
        if only:
            return TEXT("stage_seal_tree_greedy_only", **words)
        return TEXT("stage_seal_tree_greedy", variants=variants_words(len(depth.variants)), **words)
    struck = depth.struck_before(tree)
    against = TEXT.plain("against_p" if trial == "p" else
                         "against_residual_one" if len(struck) == 1 else "against_residual_many")
    if not struck:
        story = TEXT("stage_seal_tree_only" if only else "stage_seal_tree_first", **words)
    elif len(struck) == 1:
        story = TEXT("stage_seal_tree_second", bad=display_piece(tree[struck[0]].piece), against=against, **words)
    else:
        story = TEXT("stage_seal_tree_later", struck=len(struck), pieces=pieces_words(r, struck),
                     nth=depth.variants.index(depth.accepted) + 1, against=against, **words)
    untried = [i for i in depth.variants if not tree[i].tried]
    if untried:
        story += _sentence_gap() + TEXT("untried_one" if len(untried) == 1 else "untried_many", n=len(untried))
    return story


def _ended_story(r: Round, moment: Moment, walk: Walk, number: int) -> str:
    """The text ended at an end token sealed at depth `written`: nothing below it, nor his new token, is written."""
    at = moment.written
    end, gain = display_piece(r.drafted[at - 1].piece), TEXT("gain_one" if at == 1 else "gain_many", n=at)
    below = descendants(r, walk[at - 1].accepted)
    words = dict(round=number, at=at, end=end, gain=gain)
    if below:
        return TEXT("stage_tree_ended_rest", variants=variants_words(below), **words)
    return TEXT("stage_tree_ended", **words)


def variants_words(n: int) -> str:
    return TEXT.plain("variants_one" if n == 1 else "variants_many", n=n)


def pieces_words(r: Round, nodes: list[int]) -> str:
    """The variants' pieces, each quoted, as a list in the reader's language (filled in plain: the text they go into
    escapes them once)."""
    return TEXT.plain("list_sep").join(TEXT.plain("quoted", piece=display_piece(r.tree[i].piece)) for i in nodes)


def _sentence_gap() -> str:
    return "" if language() == "zh" else " "


def variant_rows(r: Round, depth: Depth, trial: str, revealed: bool) -> list[dict]:
    """A row per variant at this depth, in the order tried: its p and q; once the master's walk there is shown, the r,
    min(1, r/q), u and verdict of each one he tried ("—" for those never tried). Greedy: p, q and the verdict only."""
    rows, distinct = [], drawn_without_replacement(r, depth)
    for order, i in enumerate(depth.variants, start=1):
        node = r.tree[i]
        shown = revealed and node.tried
        row = {
            TEXT.plain("t_order"): order,
            TEXT.plain("t_variant"): display_piece(node.piece),
            "p(x)": probability_text(node.p),
            "q(x)": probability_text(node.q),
        }
        if distinct:
            row["q_i(x)"] = probability_text(node.q_drawn)
        if trial != "greedy":
            row["r(x)"] = probability_text(node.r) if shown else EMPTY
            row["min(1, r/q_i)" if distinct else "min(1, r/q)"] = probability_text(node.accept_prob) if shown else EMPTY
            row["u"] = f"{node.u:.3f}" if shown else EMPTY
        row[TEXT.plain("t_verdict")] = _verdict(node.accepted, trial) if shown else EMPTY
        rows.append(row)
    return rows


def drawn_without_replacement(r: Round, depth: Depth) -> bool:
    """Whether this depth's variants were drawn without replacement (settings siblings "distinct"): each then was
    drawn, and tested, with q_i, q without its elders' tokens, which its row shows beside q."""
    return any(r.tree[i].q_i is not None for i in depth.variants)


def _verdict(accepted: bool, trial: str) -> str:
    if trial == "greedy":
        return TEXT.plain("t_first_choice" if accepted else "t_not_first_choice")
    return TEXT.plain("t_sealed" if accepted else "t_struck")


def variant_candidates(r: Round, depth: Depth, candidates: list[Candidate]) -> list[Candidate]:
    """The position's chart rows with every variant at this depth among them: a variant outside the top of p and q
    gets its own row, with the p and q its node recorded."""
    have = {c.token for c in candidates}
    extra = {}
    for i in depth.variants:
        node = r.tree[i]
        if node.token not in have:
            extra.setdefault(node.token, Candidate(node.token, node.piece, node.p, node.q))
    return sorted([*candidates, *extra.values()], key=lambda c: -c.p)


def residuals_faced(r: Round, depth: Depth, trial: str) -> list[tuple[int, float]]:
    """(token, r(x)) of each variant tried at this depth, for the chart's markers; none at temperature 0."""
    if trial == "greedy":
        return []
    return [(r.tree[i].token, r.tree[i].r) for i in depth.tried(r.tree)]
