"""The speed lab's figures and verdicts: pure functions of measured numbers, never calling st.*.

Every label arrives as an argument (the page looks it up in the chosen language), so these
functions are testable alone and the charts show only what a measurement gave them.
"""
from __future__ import annotations

import math

import plotly.graph_objects as go

from specdec_core.algorithm.theory import alpha_needed, best_k, expected_tokens_per_round, most_tokens_per_round, speedup
from specdec_core.services.bench import headline
from ui.shared.theme import INK, LIGHT_INK, PAPER, VERMILION, on_paper

K_MAX = 12  # the sidebar's k slider goes to 12
SEALED_GREEN = "#1f6f43"  # the sealed-character colour of ui/scriptorium/sheet.py: faster than the master alone

# Thresholds for naming a reason the run was slow. They only choose which sentences to show;
# the sentences themselves carry the measured numbers.
POOR_ALPHA = 0.5  # below this the master usually stops within the first two drafted characters
SLOW_DRAFT = 0.3  # k drafts costing over 0.3 of a master pass eat most of a small gain
COSTLY_VERIFY = 1.2  # a (k+1)-token pass 20% dearer than a 1-token pass: compute-bound, not memory-bound
HEAVY_OVERHEAD = 0.15  # share of each round spent outside both models' forwards
HEADROOM = 1.15  # the y axis reaches this far past the highest value: room for a label above it


def theory_curve(alpha: float, c: float, verify_cost: float, k_max: int = K_MAX) -> dict[int, float]:
    """Predicted speedup for k = 1..k_max, verify cost held at its measured value."""
    return {k: speedup(alpha, k, c, verify_cost) for k in range(1, k_max + 1)}


def theory_best(alpha: float, c: float, verify_cost: float, k_max: int = K_MAX) -> tuple[int, float]:
    return best_k(alpha, c, lambda k: verify_cost, k_max=k_max)


def twice_as_fast(alpha: float, c: float, verify_cost: float, k_max: int = K_MAX) -> tuple[str, dict]:
    """Whether the theory lets this run's costs reach 2x, the parable's "almost twice as fast": the note's key and
    numbers. need: the least alpha that reaches it at the best k (verify cost held at its measured value);
    need_free: the same for a scribe who costs nothing, where only alpha's 1/(1 - alpha) limits a glance."""
    numbers = dict(alpha=alpha, c=c, v=verify_cost, k_max=k_max)
    need = alpha_needed(2.0, c, lambda k: verify_cost, k_max)
    if need is None:
        return "note_twice_out_of_reach", numbers
    numbers |= dict(need=need, need_free=alpha_needed(2.0, 0.0, lambda k: verify_cost, k_max))
    return ("note_twice_allowed" if alpha >= need else "note_twice_needs"), numbers


def round_cost(k: int, c: float, verify_cost: float) -> float:
    """One round in master passes: k scribe drafts (c each) plus one verifying glance."""
    return k * c + verify_cost


def speedup_figure(result: dict, earlier: dict[int, float], labels: dict[str, str]) -> go.Figure:
    """The theory's curve over k from the measured alpha, c and verify cost, with the measured point(s).

    result: run_bench's report, whose headline speedup is the measured point; earlier: measured speedup by k
    from other measurements that share every other setting; labels: title, k, speedup, theory, paper,
    measured, earlier, best, plain.
    """
    alpha, c, cost, measured = result["alpha"], result["c"], result["verify_cost"], headline(result)["speedup"]
    curve = theory_curve(alpha, c, cost)
    paper = theory_curve(alpha, c, 1.0)
    k_best, s_best = theory_best(alpha, c, cost)
    fig = go.Figure()
    # the master alone as a legend entry, not a label on the plot, where the curve would run over it
    fig.add_scatter(x=[0.5, K_MAX + 0.5], y=[1.0, 1.0], name=labels["plain"], mode="lines", line=dict(color=LIGHT_INK, dash="dot"))
    fig.add_scatter(x=list(paper), y=list(paper.values()), name=labels["paper"], mode="lines", line=dict(color=LIGHT_INK, dash="dash"))
    fig.add_scatter(x=list(curve), y=list(curve.values()), name=labels["theory"], mode="lines+markers", line=dict(color=INK, width=3))
    others = {k: s for k, s in earlier.items() if k != result["k"]}
    if others:
        fig.add_scatter(
            x=list(others), y=list(others.values()), name=labels["earlier"], mode="markers",
            marker=dict(color=PAPER, size=12, line=dict(color=VERMILION, width=2)),
        )
    fig.add_scatter(
        x=[result["k"]], y=[measured], name=labels["measured"], mode="markers",
        marker=dict(color=VERMILION, size=16, symbol="square"),
    )
    fig.add_scatter(
        x=[k_best], y=[s_best], name=labels["best"], mode="markers+text", text=[labels["best"]],
        textposition=best_label_position(s_best, measured, k_best),
        marker=dict(color=INK, size=18, symbol="star"), showlegend=False,
    )
    fig.update_xaxes(title=labels["k"], dtick=1, range=[0.5, K_MAX + 0.5])
    values = [*curve.values(), *paper.values(), *others.values(), measured, 1.0]
    fig.update_yaxes(title=labels["speedup"], range=[0, top_with_headroom(values)])  # the best k's label may stand on top
    return _paper_look(fig, labels["title"])


def best_label_position(s_best: float, s_measured: float, k_best: int | None = None) -> str:
    """Where the theory's best-k label goes: below its star when the measured point stands higher
    (above, the wide label would cover it at a neighbouring k), else above; and leaning inwards at
    either end of the axis, where a centred label was cut off ("heory's best k")."""
    vertical = "bottom" if s_measured >= s_best else "top"
    side = "right" if k_best is not None and k_best <= 2 else "left" if k_best is not None and k_best >= K_MAX - 1 else "center"
    return f"{vertical} {side}"


def breakdown_figure(split: dict[str, dict[str, float]], labels: dict[str, str]) -> go.Figure:
    """Stacked bars of time per token: speculative (draft, verify, rest) beside plain decoding.

    split: {"speculative": time_split(...), "plain": time_split(...)}; labels: title, ms,
    speculative, plain, draft, verify, other.
    """
    bars = [labels["speculative"], labels["plain"]]
    parts = [("draft", LIGHT_INK), ("verify", INK), ("other", VERMILION)]
    fig = go.Figure()
    for part, colour in parts:
        values = [split["speculative"][part], split["plain"][part]]
        fig.add_bar(
            x=bars, y=values, name=labels[part], marker_color=colour,
            text=[f"{v:.2f}" if v > 0 else "" for v in values], textposition="inside",
        )
    totals = [sum(split[mode][part] for part, _ in parts) for mode in ("speculative", "plain")]
    fig.add_scatter(x=bars, y=totals, mode="text", text=[f"{t:.2f}" for t in totals], textposition="top center", showlegend=False)
    fig.update_layout(barmode="stack")
    fig.update_yaxes(title=labels["ms"], range=[0, top_with_headroom(totals)])  # the totals stand above the bars
    return _paper_look(fig, labels["title"])


def position_alpha_figure(alphas: list[float], overall: float, labels: dict[str, str]) -> go.Figure:
    """Bars of α at the 1st, 2nd, … drafted token (acceptance.alpha_by_position, in order from 1) and a line
    at all positions together. labels: title, position, alpha, bars, overall."""
    positions = list(range(1, len(alphas) + 1))
    fig = go.Figure()
    fig.add_bar(x=positions, y=alphas, name=labels["bars"], marker_color=INK,
                text=[f"{a:.2f}" for a in alphas], textposition="outside")
    fig.add_scatter(x=[0.5, len(alphas) + 0.5], y=[overall, overall], name=labels["overall"], mode="lines",
                    line=dict(color=VERMILION, dash="dash", width=3))
    fig.update_xaxes(title=labels["position"], dtick=1, range=[0.5, len(alphas) + 0.5])
    fig.update_yaxes(title=labels["alpha"], range=[0, top_with_headroom([*alphas, overall, 1.0])])  # the labels stand above
    return _paper_look(fig, labels["title"])


def position_trend(alphas: list[float], rounds: list[int]) -> tuple[str, dict[str, float]]:
    """Which sentence tells what this run's α did from the 1st drafted token to the last one reached, and
    its numbers. Compared as shown, to two decimals, so the sentence never says "falls" of two equal numbers."""
    numbers = {"first": alphas[0], "last": alphas[-1], "m": len(alphas), "n": rounds[-1]}
    if len(alphas) == 1:
        return "position_one", numbers
    first, last = round(alphas[0], 2), round(alphas[-1], 2)
    return ("position_falls" if last < first else "position_rises" if last > first else "position_holds"), numbers


def top_with_headroom(values: list[float]) -> float:
    """The top of a y axis from 0: HEADROOM past the highest finite value (a value a broken recording
    made NaN or infinite is left out rather than spoiling the axis); 1 when none is finite."""
    finite = [v for v in values if math.isfinite(v)]
    return max(finite, default=1.0 / HEADROOM) * HEADROOM


def sweep_grid(cells: dict[tuple[int, float], dict], ks: list[int], temperatures: list[float], key: str = "speedup") -> list[list[float | None]]:
    """Rows by temperature, columns by k: the chosen number of each measured cell (None if missing)."""
    return [[cell_value(cells[(k, t)], key) if (k, t) in cells else None for k in ks] for t in temperatures]


def cell_value(cell: dict, key: str):
    """A measurement's number: "speedup" and "interval" are its headline's (bench.headline, against the
    master's fastest plain decoding), any other key the field as measured."""
    return headline(cell)[key] if key in ("speedup", "interval") else cell.get(key)


def sweep_heatmap(cells: dict[tuple[int, float], dict], ks: list[int], temperatures: list[float], labels: dict[str, str]) -> go.Figure:
    """Measured speedup over k x temperature, each cell annotated; red below 1x, green above.

    labels: title, k, temperature, speedup.
    """
    speedups = sweep_grid(cells, ks, temperatures)
    alphas = sweep_grid(cells, ks, temperatures, "alpha")
    intervals = sweep_grid(cells, ks, temperatures, "interval")
    text = [[_cell_text(s, i) for s, i in zip(row, interval_row)] for row, interval_row in zip(speedups, intervals)]
    fig = go.Figure(
        go.Heatmap(
            z=speedups, x=[str(k) for k in ks], y=[f"{t:g}" for t in temperatures], customdata=alphas,
            text=text, texttemplate="%{text}", textfont=dict(size=16),
            colorscale=[[0.0, VERMILION], [0.5, PAPER], [1.0, SEALED_GREEN]], zmid=1.0,
            colorbar=dict(title=labels["speedup"]),
            hovertemplate=f"k = %{{x}}<br>{labels['temperature']} = %{{y}}<br>{labels['speedup']} = %{{z:.2f}}×<br>α = %{{customdata:.2f}}<extra></extra>",
        )
    )
    fig.update_xaxes(title=labels["k"], type="category")
    fig.update_yaxes(title=labels["temperature"], type="category")
    return _paper_look(fig, labels["title"])


def _cell_text(speedup_value: float | None, interval: list[float] | None) -> str:
    """A cell's speedup and, beneath it, its 90% interval: how sure so few prompts can make it."""
    if speedup_value is None:
        return ""
    return f"{speedup_value:.2f}×" + (f"<br>{interval[0]:.2f}–{interval[1]:.2f}" if interval else "")


def sweep_best(cells: dict[tuple[int, float], dict]) -> tuple[int, float, float]:
    """(k, temperature, measured speedup) of the fastest measured cell."""
    (k, t), cell = max(cells.items(), key=lambda item: cell_value(item[1], "speedup"))
    return k, t, cell_value(cell, "speedup")


def clearly_best(cells: dict[tuple[int, float], dict]) -> bool:
    """Whether the fastest cell's interval lies above every other cell's: only then is it the fastest
    for sure, not just the luckiest measurement."""
    k, t, _ = sweep_best(cells)
    low = (cell_value(cells[(k, t)], "interval") or [0.0, 0.0])[0]
    return all((cell_value(cell, "interval") or [0.0, float("inf")])[1] < low for key, cell in cells.items() if key != (k, t))


def verdict(result: dict, best_scribe: bool = False, noise: float = 0.0, temperature: float = 0.0) -> tuple[bool, dict[str, float], list[str]]:
    """Whether the run beat plain decoding, the numbers that explain it, and the reasons to name.

    The reasons are keys of the page's texts, in the order a reader should meet them: the round's
    balance (characters per glance against the round's cost), then the scribe's resemblance
    (alpha) with what would raise it, his speed (k*c), the glance's price on this device, the
    loop's overhead, and, when the theory promised a gain the run did not deliver, that gap.
    best_scribe: the run's scribe is the ladder's top rung (the slider at its right end), so a
    closer scribe is no advice; noise and temperature: the run's, so advice to lower them is given
    only where they are above 0.
    """
    k, alpha, c, cost, length = result["k"], result["alpha"], result["c"], result["verify_cost"], result["tokens"]
    numbers = {
        "k": k,
        "alpha": alpha,
        "c": c,
        "verify_cost": cost,
        "kc": k * c,
        "tokens": expected_tokens_per_round(alpha, k),
        "measured_tokens": result["tokens_per_target_forward"],
        "length": length,
        "line": k + 1,
        "glances": math.ceil(length / (k + 1)),
        "cap": most_tokens_per_round(k, length),
        "cost": round_cost(k, c, cost),
        "predicted": result["predicted_speedup"],
        "measured": headline(result)["speedup"],
        "overhead": result["overhead_fraction"],
        "best_k": theory_best(alpha, c, cost)[0],
        "noise": noise,
        "temperature": temperature,
    }
    if numbers["measured"] >= 1.0:
        return True, numbers, []
    # First the round's balance: characters out against breaths in, which the theory's ratio is.
    reasons = ["slow_ratio" if result["predicted_speedup"] < 1.0 else "gain_on_paper"]
    if alpha < POOR_ALPHA:
        reasons += _poor_scribe_advice(numbers, best_scribe)
    if k * c > SLOW_DRAFT:
        reasons.append("reason_slow")
    if cost > COSTLY_VERIFY:
        reasons.append("reason_verify")
    if result["overhead_fraction"] > HEAVY_OVERHEAD:
        reasons.append("reason_overhead")
    if result["predicted_speedup"] >= 1.0:
        reasons.append("reason_gap")
    return False, numbers, reasons


def _poor_scribe_advice(numbers: dict[str, float], best_scribe: bool) -> list[str]:
    """Why a poor scribe loses, and only the remedies this run has left: a closer scribe unless he is the
    best there is; then less shake, a shorter line where the theory's best k is shorter, a cooler hand."""
    advice = ["reason_poor_best" if best_scribe else "reason_poor"]
    if numbers["noise"] > 0:
        advice.append("advice_noise")
    if best_scribe and numbers["best_k"] < numbers["k"]:
        advice.append("advice_k")
    if best_scribe and numbers["temperature"] > 0:
        advice.append("advice_temperature")
    return advice


def glance_note(numbers: dict[str, float]) -> str:
    """Which sentence sets the measured characters per glance beside the theory's: when the run's length
    caps the measurement below the theory's expectation (every run's last glance gets only what is left),
    the one that says so with the cap's arithmetic."""
    return "glance_capped" if numbers["cap"] < numbers["tokens"] else "glance_measured"


def temperature_rows(cells: dict[tuple[int, float], dict], ks: list[int], temperatures: list[float]) -> list[dict[str, float]]:
    """Per temperature, averaged over the sweep's k: alpha, characters per glance and the speedup."""
    rows = []
    for t in temperatures:
        row = [cells[(k, t)] for k in ks if (k, t) in cells]
        if row:
            rows.append({"t": t, **{name: sum(cell_value(cell, key) for cell in row) / len(row) for name, key in
                                    (("alpha", "alpha"), ("tokens", "tokens_per_target_forward"), ("speedup", "speedup"))}})
    return rows


def temperature_lesson(rows: list[dict[str, float]]) -> tuple[str, dict[str, float]] | None:
    """What the sweep's own alphas say about temperature: the key of the sentence and its numbers.

    At temperature 0 the master accepts a draft only if it is his own likeliest character (min(1, p/q)
    is 1 or 0); above 0 a near-tie costs little. Which of the two suits a scribe is measured, not assumed:
    "sweep_cold_rejects" when alpha at 0 is below another temperature's, else "sweep_cold_agrees".
    None when the sweep has no greedy row or nothing to compare it with.
    """
    cold = next((row for row in rows if row["t"] == 0.0), None)
    warm = [row for row in rows if row["t"] > 0.0]
    if cold is None or not warm:
        return None
    other = max(warm, key=lambda row: row["alpha"])
    numbers = {"a_cold": cold["alpha"], "g_cold": cold["tokens"], "t_other": other["t"], "a_other": other["alpha"],
               "g_other": other["tokens"]}
    return ("sweep_cold_rejects" if cold["alpha"] < other["alpha"] else "sweep_cold_agrees"), numbers


def _paper_look(fig: go.Figure, title: str) -> go.Figure:
    """The house look, titled, with the legend below (the speed lab's charts carry their own titles)."""
    on_paper(fig).update_layout(
        title=title, font=dict(color=INK, size=15), legend=dict(orientation="h", yanchor="top", y=-0.2),
        margin=dict(t=60, b=40, l=60, r=20), height=420,
    )
    return fig
