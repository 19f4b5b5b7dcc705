"""The iron rule page's sections: the rule in symbols, p against q at one position, two variants, the rule run N times
(one variant: the one round, k = 1; two: tree_verify)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from specdec_core.algorithm.rules import CHAIN_RULES, EXPLANATIONS
from specdec_core.decoding import one_position as core
from specdec_core.decoding.one_position import Distributions, Position
from ui.iron_rule import plots, runs
from ui.iron_rule.texts import TEXT
from ui.scriptorium.sheet import chart_piece
from ui.shared.i18n import language
from ui.shared.persist import remembered
from ui.shared.scribes import scribe_label
from ui.shared.texts import TEXT as COMMON
from ui.shared.theme import chart


def rule_in_symbols() -> None:
    st.subheader(TEXT("rule_head"))
    st.write(TEXT("rule_text"))
    seal, write = TEXT("tex_seal"), TEXT("tex_write")
    st.latex(rf"\Pr[\,\text{{{seal}}} \mid x\,] = \min\Bigl(1, \frac{{p(x)}}{{q(x)}}\Bigr), \qquad "
             r"r(x) = \frac{\max(0,\ p(x) - q(x))}{\sum_y \max(0,\ p(y) - q(y))}")
    st.write(TEXT("why"))
    st.latex(rf"\Pr[\,\text{{{write}}} = x\,] = \min(p(x), q(x)) + \max(0,\ p(x) - q(x)) = p(x), \qquad "
             r"\alpha = \sum_x \min(p(x), q(x))")
    st.caption(TEXT("one_position"))


class Shown:
    """The tokens a chart draws (all of a small vocabulary, else the top of p, q and r) and the pooled rest."""

    def __init__(self, position: Position, dists: Distributions):
        self.ids = core.shown_tokens(dists)
        self.labels = chart_labels(position.labels, self.ids)
        self.pooled = len(self.ids) < position.vocab_size

    def __call__(self, values: np.ndarray) -> list[float]:
        return values[self.ids].tolist()

    def rest(self, values: np.ndarray) -> float:
        return core.collapse(values, self.ids)[-1]


def chart_labels(labels: tuple[str, ...], ids) -> list[str]:
    """Tokens as every page draws them (a control token as its mark, markup escaped), kept distinct: plotly
    merges bars that share a label."""
    shown, seen = [], set()
    for i in ids:
        label = chart_piece(labels[i])
        label = f"{label}#{i}" if label in seen else label
        seen.add(label)
        shown.append(label)
    return shown


def p_against_q(position: Position, dists: Distributions, shown: Shown) -> None:
    """1. p against q at this position: the overlap is alpha, the rest decides the red brush."""
    left, right = st.columns(2)
    left.metric(TEXT("alpha"), f"{dists.alpha:.3f}", help=TEXT("alpha_help"))
    right.metric(TEXT("reject"), f"{1 - dists.alpha:.3f}")
    st.subheader(TEXT("overlap_head"))
    words = {"p": TEXT("legend_p"), "q": TEXT("legend_q"), "overlap": TEXT("legend_overlap"), "axis": TEXT("axis_prob")}
    chart(st, plots.overlap_figure(shown.labels, shown(dists.p), shown(dists.q), words))
    if shown.pooled:
        st.caption(TEXT("others_mass", n=position.vocab_size - len(shown.ids), p=shown.rest(dists.p),
                        q=shown.rest(dists.q), overlap=shown.rest(dists.sealed)))
    left, right = st.columns(2)
    with left:
        st.subheader(TEXT("residual_head"))
        st.caption(TEXT("residual_text"))
        words = {"excess": TEXT("legend_excess"), "r": TEXT("legend_r"), "axis": TEXT("axis_prob")}
        chart(st, plots.residual_figure(shown.labels, shown(dists.corrected), shown(dists.residual), words))
    with right:
        st.subheader(TEXT("paths_head"))
        st.caption(TEXT("paths_text"))
        words = {"sealed": TEXT("legend_sealed"), "corrected": TEXT("legend_corrected"), "p": TEXT("legend_p"),
                 "axis": TEXT("axis_prob")}
        chart(st, plots.paths_figure(shown.labels, shown(dists.sealed), shown(dists.corrected), shown(dists.p), words))
    _numbers(position, dists, shown)


def _numbers(position: Position, dists: Distributions, shown: Shown) -> None:
    with st.expander(TEXT("numbers")):
        columns = {"p": dists.p, "q": dists.q, TEXT("col_accept"): dists.accept_prob, TEXT("col_sealed"): dists.sealed,
                   TEXT("col_corrected"): dists.corrected, TEXT("col_r"): dists.residual}
        table = {TEXT("col_token"): shown.labels} | {name: values[shown.ids] for name, values in columns.items()}
        st.dataframe(pd.DataFrame(table).round(4), hide_index=True)


def two_variants(dists: Distributions, shown: Shown) -> None:
    """1b. Two variants: the second faces the residual the first left, and the three paths add up to p."""
    st.subheader(TEXT("two_head"))
    st.write(TEXT("two_text"))
    st.write(TEXT("two_why"))
    write = TEXT("tex_write")
    st.latex(rf"\Pr[\,\text{{{write}}} = x\,] = \min(p(x), q(x)) + (1 - \alpha)\min(r_1(x), q(x)) "
             r"+ (1 - \alpha)(1 - \alpha_2)\, r_2(x) = p(x), \qquad \alpha_2 = \sum_x \min(r_1(x), q(x))")
    paths = core.two_variant_paths(dists)
    st.subheader(TEXT("two_paths_head"))
    st.caption(TEXT("two_paths_text", alpha=dists.alpha, alpha2=paths.alpha2))
    words = {"first": TEXT("legend_first"), "second": TEXT("legend_second"), "brush": TEXT("legend_brush"),
             "p": TEXT("legend_p"), "axis": TEXT("axis_prob")}
    chart(st, plots.two_variant_paths_figure(shown.labels, shown(paths.first), shown(paths.second), shown(paths.brush),
                                             shown(dists.p), words))


def rule_run_many_times(position: Position, dists: Distributions, shown: Shown, toy: bool, seed: int,
                        poorest: str | None = None, variants: int = 1) -> None:
    """2. the rule itself, run n times (one variant or two), against the master writing alone."""
    st.subheader(TEXT("mc_head"))
    st.write(TEXT("mc_text" if variants == 1 else "mc_text_two", seed=seed))
    rule, n, rule_name = _rule_and_draws(position, toy, variants)
    with st.spinner(COMMON("running")):
        draws = runs.cached_draws(position, rule, n, seed, variants)
    # TV over the drawn tokens plus one pooled cell: sampling noise over thousands of rare tokens would drown it
    p_cells = np.array(core.collapse(dists.p, shown.ids))
    ns, tv_rule = core.tv_curve(core.cells(draws.written, shown.ids, position.vocab_size), p_cells)
    _, tv_alone = core.tv_curve(core.cells(draws.alone, shown.ids, position.vocab_size), p_cells)
    first, second, third = st.columns(3)
    first.metric(TEXT("tv_rule"), f"{tv_rule[-1]:.4f}", help=TEXT("tv_help"))
    second.metric(TEXT("tv_alone"), f"{tv_alone[-1]:.4f}")
    _seal_rate(third, dists, draws)
    if shown.pooled:
        st.caption(TEXT("tv_pooled", n=len(shown.ids)))
    bound = runs.hidden_by_good_scribe(rule, dists.alpha, tv_rule[-1], tv_alone[-1])
    if bound is not None:
        _hidden_by_good_scribe(dists.alpha, bound, tv_rule[-1], tv_alone[-1], n, poorest, variants)
    left, right = st.columns(2)
    with left:
        st.subheader(TEXT("convergence_head"))
        st.caption(TEXT("convergence_text"))
        words = {"rule": TEXT.plain("legend_rule", rule=rule_name), "alone": TEXT("legend_alone"),
                 "x": TEXT("axis_draws"), "y": TEXT("axis_tv")}
        chart(st, plots.convergence_figure(ns, tv_rule, tv_alone, words))
    with right:
        st.subheader(TEXT("histogram_head", n=n))
        written = core.frequencies(draws.written, position.vocab_size)
        words = {"written": TEXT("legend_written"), "p": TEXT("legend_p"), "q": TEXT("legend_q"), "axis": TEXT("axis_prob")}
        chart(st, plots.histogram_figure(shown.labels, shown(written), shown(dists.p), shown(dists.q), words))


def _seal_rate(column, dists: Distributions, draws: core.Draws) -> None:
    """The observed seal rate beside the iron rule's; with two variants also how often each way was taken."""
    if draws.variant is None:
        column.metric(TEXT("sealed_rate", alpha=dists.alpha), f"{draws.sealed.mean():.3f}")
        return
    paths = core.two_variant_paths(dists)
    expected = [float(way.sum()) for way in (paths.first, paths.second, paths.brush)]
    column.metric(TEXT("sealed_rate_two", expected=expected[0] + expected[1]), f"{draws.sealed.mean():.3f}")
    observed = [float((draws.variant == kept).mean()) for kept in (1, 2, 0)]
    st.caption(TEXT("outcomes_two", n=len(draws.variant), first=observed[0], second=observed[1], brush=observed[2],
                    e_first=expected[0], e_second=expected[1], e_brush=expected[2]))


def _hidden_by_good_scribe(alpha: float, bound: float, tv_rule: float, tv_alone: float, n: int, poorest: str | None,
                           variants: int) -> None:
    """Why a broken rule reads as sound here, from this position's own alpha, and the poorest scribe a click away."""
    note = "hidden_bug" if variants == 1 else "hidden_bug_two"
    st.warning(TEXT(note, alpha=alpha, bound=bound, tv_rule=tv_rule, tv_alone=tv_alone, n=n))
    if poorest is not None:
        st.button(TEXT("use_poorest", scribe=scribe_label(poorest)), on_click=_use_scribe, args=(poorest,), key="iron_poorest")


def _use_scribe(name: str) -> None:
    st.session_state["scribe"] = name  # the sidebar draws its scribe from here on the next run


def _rule_and_draws(position: Position, toy: bool, variants: int) -> tuple[str, int, str]:
    """The rule's menu and the draws' slider: (rule, draws, the rule's name in the reader's language).

    Each number of variants has its own menu, remembered apart: neither holds a rule the other lacks.
    """
    cap = runs.max_draws(position.vocab_size)
    # the slider's value lives in session state alone: a default beside a value set here would make
    # Streamlit log a warning with a stack trace on the server (a larger vocabulary caps the draws)
    st.session_state["iron_draws"] = min(st.session_state.get("iron_draws", runs.DEFAULT_DRAWS), cap)
    left, right = st.columns(2)
    offered, remembered_as = (CHAIN_RULES, "iron_rule") if variants == 1 else (runs.TWO_VARIANT_RULES, "iron_tree_rule")
    rule_names = {name: COMMON(f"rule:{name}") for name in offered}
    rule = left.selectbox(TEXT("rule"), list(rule_names), format_func=rule_names.get,
                          **remembered(remembered_as, "exact"))
    n = right.slider(TEXT("draws"), 100, cap, step=100, key="iron_draws")
    left.caption(EXPLANATIONS[rule][language()])
    if cap < runs.MAX_DRAWS:
        right.caption(TEXT("draws_cap", vocab=position.vocab_size, cap=cap))
    if toy and rule == "raw-q":
        st.info(TEXT("raw_q_toy"))
    return rule, n, rule_names[rule]
