"""鐵律 The iron rule: one position, p against q, and the rule run many times until it reproduces p."""
import numpy as np
import pandas as pd
import streamlit as st

from specdec_core.algorithm.rules import EXPLANATIONS, RULES
from specdec_core.pairs.pair import PairError
from specdec_core.settings import SettingsError
from ui import iron_rule_data as data
from ui import iron_rule_plots as plots
from ui.i18n import language
from ui.persist import remembered
from ui.settings import current_choice
from ui.texts.common import TEXT as COMMON
from ui.texts.iron_rule import TEXT

choice, pair = current_choice()
seed = choice.settings.seed


def toy_position() -> data.Position:
    st.caption(TEXT("toy_help", low=data.MIN_TOKENS, high=data.MAX_TOKENS))
    columns = {
        "token": st.column_config.TextColumn(TEXT("col_token")),
        "p": st.column_config.NumberColumn(TEXT("col_p")),
        "q": st.column_config.NumberColumn(TEXT("col_q")),
    }
    table = st.data_editor(data.TOY, key="iron_toy", num_rows="dynamic", hide_index=True, column_config=columns)
    try:
        position = data.toy_position(table)
    except data.ToyTableError as error:
        values = error.values | ({"column": TEXT(f"col_{error.values['column']}")} if "column" in error.values else {})
        st.error(TEXT(error.key, **values) + " " + TEXT("toy_kept"))
        return data.toy_position(pd.DataFrame(st.session_state.get("iron_toy_good", data.TOY)))
    st.session_state["iron_toy_good"] = table.to_dict("list")  # what the page falls back on
    return position


def real_position() -> data.Position:
    run = (choice.pair, choice.device, choice.scribe, choice.prompt, choice.settings)
    try:
        with st.spinner(COMMON("running")):
            _, tokens = data.real_run_tokens(*run)
    except (PairError, SettingsError) as error:
        st.error(COMMON("cannot_run", error=error))
        st.stop()
    last = len(tokens) - 1
    if st.session_state.get("iron_position", 0) > last:  # a shorter run than the slider remembers
        st.session_state["iron_position"] = last
    at = st.slider(TEXT("position"), 0, last, key="iron_position") if last > 0 else 0
    position = data.real_position(*run, at)
    st.write(TEXT("context", context=position.context, written=position.written))
    if position.scribe_logits is None:
        st.warning(TEXT("no_proposal", scribe=choice.scribe))
        st.stop()
    sampling = choice.settings.sampling
    st.caption(TEXT("real_caption", temperature=sampling.temperature, top_p=sampling.top_p,
                    noise=choice.settings.noise, vocab=position.vocab_size))
    return position


st.title(TEXT("title"))
st.write(TEXT("story"))
st.subheader(TEXT("rule_head"))
st.write(TEXT("rule_text"))
seal, write = TEXT("tex_seal"), TEXT("tex_write")
st.latex(rf"\Pr[\,\text{{{seal}}} \mid x\,] = \min\Bigl(1, \frac{{p(x)}}{{q(x)}}\Bigr), \qquad "
         r"r(x) = \frac{\max(0,\ p(x) - q(x))}{\sum_y \max(0,\ p(y) - q(y))}")
st.write(TEXT("why"))
st.latex(rf"\Pr[\,\text{{{write}}} = x\,] = \min(p(x), q(x)) + \max(0,\ p(x) - q(x)) = p(x), \qquad "
         r"\alpha = \sum_x \min(p(x), q(x))")
st.caption(TEXT("one_position"))

# option names are looked up now, in this run's language (a format_func may be called after the run)
modes = {mode: TEXT(f"mode_{mode}") for mode in ("toy", "real")}
mode = st.radio(TEXT("mode"), list(modes), format_func=modes.get, horizontal=True, **remembered("iron_mode", "toy"))
position = toy_position() if mode == "toy" else real_position()

# 1. p against q at this position: the overlap is alpha, the rest decides the red brush
dists = data.distributions(position)
ids = data.shown_tokens(dists)
labels = [position.labels[i] for i in ids]
pooled = len(ids) < position.vocab_size  # the rest of a large vocabulary is summed, not drawn


def shown(values):
    return values[ids].tolist()


def rest(values) -> float:
    return data.collapse(values, ids)[-1]


left, right = st.columns(2)
left.metric(TEXT("alpha"), f"{dists.alpha:.3f}", help=TEXT("alpha_help"))
right.metric(TEXT("reject"), f"{1 - dists.alpha:.3f}")
st.subheader(TEXT("overlap_head"))
words = {"p": TEXT("legend_p"), "q": TEXT("legend_q"), "overlap": TEXT("legend_overlap"), "axis": TEXT("axis_prob")}
st.plotly_chart(plots.overlap_figure(labels, shown(dists.p), shown(dists.q), words))
if pooled:
    st.caption(TEXT("others_mass", n=position.vocab_size - len(ids), p=rest(dists.p), q=rest(dists.q),
                    overlap=rest(dists.sealed)))
left, right = st.columns(2)
with left:
    st.subheader(TEXT("residual_head"))
    st.caption(TEXT("residual_text"))
    words = {"excess": TEXT("legend_excess"), "r": TEXT("legend_r"), "axis": TEXT("axis_prob")}
    st.plotly_chart(plots.residual_figure(labels, shown(dists.corrected), shown(dists.residual), words))
with right:
    st.subheader(TEXT("paths_head"))
    st.caption(TEXT("paths_text"))
    words = {"sealed": TEXT("legend_sealed"), "corrected": TEXT("legend_corrected"), "p": TEXT("legend_p"),
             "axis": TEXT("axis_prob")}
    st.plotly_chart(plots.paths_figure(labels, shown(dists.sealed), shown(dists.corrected), shown(dists.p), words))
with st.expander(TEXT("numbers")):
    columns = {"p": dists.p, "q": dists.q, TEXT("col_accept"): dists.accept_prob, TEXT("col_sealed"): dists.sealed,
               TEXT("col_corrected"): dists.corrected, TEXT("col_r"): dists.residual}
    st.dataframe(pd.DataFrame({TEXT("col_token"): [position.labels[i] for i in ids]}
                              | {name: values[ids] for name, values in columns.items()}).round(4), hide_index=True)

# 2. the rule itself, run n times with the engine's code, against the master writing alone
st.subheader(TEXT("mc_head"))
st.write(TEXT("mc_text", seed=seed))
cap = data.max_draws(position.vocab_size)
if st.session_state.get("iron_draws", 0) > cap:  # a larger vocabulary than the slider remembers
    st.session_state["iron_draws"] = cap
left, right = st.columns(2)
rule_names = {name: TEXT(f"rule:{name}") for name in RULES}
rule = left.selectbox(TEXT("rule"), list(rule_names), format_func=rule_names.get, **remembered("iron_rule", "exact"))
n = right.slider(TEXT("draws"), 100, cap, min(10_000, cap), step=100, key="iron_draws")
left.caption(EXPLANATIONS[rule][language()])
if cap < data.MAX_DRAWS:
    right.caption(TEXT("draws_cap", vocab=position.vocab_size, cap=cap))
if mode == "toy" and rule == "raw-q":
    st.info(TEXT("raw_q_toy"))
with st.spinner(COMMON("running")):
    draws = data.cached_draws(position, rule, n, seed)
# TV over the drawn tokens plus one pooled cell: sampling noise over thousands of rare tokens would drown it
p_cells = np.array(data.collapse(dists.p, ids))
ns, tv_rule = data.tv_curve(data.cells(draws.written, ids, position.vocab_size), p_cells)
_, tv_alone = data.tv_curve(data.cells(draws.alone, ids, position.vocab_size), p_cells)
first, second, third = st.columns(3)
first.metric(TEXT("tv_rule"), f"{tv_rule[-1]:.4f}", help=TEXT("tv_help"))
second.metric(TEXT("tv_alone"), f"{tv_alone[-1]:.4f}")
third.metric(TEXT("sealed_rate", alpha=dists.alpha), f"{draws.sealed.mean():.3f}")
if pooled:
    st.caption(TEXT("tv_pooled", n=len(ids)))
left, right = st.columns(2)
with left:
    st.subheader(TEXT("convergence_head"))
    st.caption(TEXT("convergence_text"))
    words = {"rule": TEXT.plain("legend_rule", rule=rule_names[rule]), "alone": TEXT("legend_alone"),
             "x": TEXT("axis_draws"), "y": TEXT("axis_tv")}
    st.plotly_chart(plots.convergence_figure(ns, tv_rule, tv_alone, words))
with right:
    st.subheader(TEXT("histogram_head", n=n))
    written = data.frequencies(draws.written, position.vocab_size)
    words = {"written": TEXT("legend_written"), "p": TEXT("legend_p"), "q": TEXT("legend_q"), "axis": TEXT("axis_prob")}
    st.plotly_chart(plots.histogram_figure(labels, shown(written), shown(dists.p), shown(dists.q), words))
