"""The speed lab page's sections: one measurement beside the theory, and the k × temperature sweep."""
from __future__ import annotations

import streamlit as st

from specdec_core.pairs.pair import PairError
from specdec_core.settings import SettingsError
from ui.shared.errors import explain
from ui.shared.i18n import utc_time
from ui.shared.models import cached_pair
from ui.shared.run_slots import long_work
from ui.shared.texts import TEXT as COMMON
from ui.shared.theme import chart
from specdec_core.services.bench import headline
from ui.speed_lab.plots import (
    breakdown_figure,
    cell_value,
    clearly_best,
    glance_note,
    position_alpha_figure,
    position_trend,
    speedup_figure,
    sweep_best,
    sweep_heatmap,
    temperature_lesson,
    temperature_rows,
    theory_best,
    twice_as_fast,
    verdict,
)
from ui.shared.measurements import REPEATS, Run, latest, measured, recording_of
from ui.shared.when import when_measured
from ui.speed_lab.runs import measure_settings, sweep_cells
from ui.speed_lab.texts import TEXT

RUN_ERRORS = (PairError, SettingsError, ValueError)  # the engine's messages are sentences a student can read


def show_measurement(choice, prompts: tuple[str, ...], pressed: bool) -> None:
    """One measurement of the sidebar's settings: the numbers, the curve over k, where the time goes, a verdict.

    The server's latest measurement of these settings (the race's too) shows at once, or the shipped recording
    of them; Measure measures again, for everyone. New settings wait for Measure: a class should not wait on
    every slider move."""
    settings = measure_settings(choice.settings)
    run = Run(choice.pair, choice.device, choice.scribe, settings, prompts)
    recording = recording_of(run)
    result = latest(run)
    if pressed:
        try:
            with st.spinner(TEXT("measuring", n=len(prompts), tokens=settings.max_new_tokens)), long_work():
                result = measured(run, again=True)
        except RUN_ERRORS as error:
            st.error(COMMON("cannot_run", error=explain(error)))
            return
        st.session_state["speed_lab_pressed"] = True
    if result is not None:
        st.caption(when_measured(result["measured_at"]))
    elif recording is not None:
        result = recording.result
        st.info(COMMON("recorded", when=utc_time(recording.recorded_at), machine=recording.machine, command=recording.command))
    else:
        st.info(TEXT("measure_again" if st.session_state.get("speed_lab_pressed") else "press_measure"))
        return
    sampling = settings.sampling
    runs = TEXT.plain("runs_one") if REPEATS == 1 else TEXT.plain("runs_many", n=REPEATS)
    st.caption(TEXT("measured_on", n=len(prompts), tokens=settings.max_new_tokens, runs=runs, device=result["device"],
                    scribe=result["scribe"], k=settings.k, temperature=sampling.temperature, noise=settings.noise, seed=settings.seed))
    show_metrics(result)
    # Earlier measurements that differ only in k go on the same chart: that is the trade k makes.
    same_but_k = repr((choice.pair, choice.device, choice.scribe, prompts, settings.sampling, settings.noise, settings.seed, settings.max_new_tokens))
    earlier = st.session_state.setdefault("speed_lab_points", {}).setdefault(same_but_k, {})
    earlier[settings.k] = headline(result)["speedup"]
    best, best_speedup = theory_best(result["alpha"], result["c"], result["verify_cost"])
    left, right = st.columns([3, 2])
    with left:
        chart(st, speedup_figure(result, earlier, curve_labels(best)), key="speed_curve")
        st.caption(TEXT("curve_caption", k=settings.k, best=best, best_speedup=best_speedup))
    with right:
        chart(st, breakdown_figure(result["time_split"], split_labels()), key="time_split")
        st.caption(TEXT("split_caption", tokens=settings.max_new_tokens))
    show_alpha_by_position(result)
    show_verdict(result, choice, settings)
    teaching_notes(result, settings)


def show_alpha_by_position(result: dict) -> None:
    """α at the 1st, 2nd, … drafted token of this run, beside all positions together, and what it teaches."""
    alphas = result.get("alpha_by_drafted_position")
    if alphas is None:  # a recording made before the bench counted positions
        st.caption(TEXT("position_not_recorded"))
        return
    if not alphas:  # no round drafted a token (a scribe with nothing to propose)
        return
    labels = {name: TEXT.plain(key) for name, key in
              (("title", "position_title"), ("position", "position_axis"), ("alpha", "position_alpha"), ("bars", "position_bars"))}
    labels["overall"] = TEXT.plain("position_overall", alpha=result["alpha_all_positions"])
    chart(st, position_alpha_figure(alphas, result["alpha_all_positions"], labels), key="alpha_by_position")
    key, numbers = position_trend(alphas, result["rounds_by_drafted_position"])
    st.caption(TEXT("position_caption", overall=result["alpha_all_positions"]) + " " + TEXT(key, **numbers) + " "
               + TEXT("position_lesson"))


# The plain decoding a headline divides by: its tokens/s in the report, its metric labels, and what stands beside it.
BASELINES = {
    "fastest_plain": ("fastest_plain", "m_tps_plain", "m_measured", "beside_headline"),
    "traced_plain": ("plain", "m_tps_traced", "m_measured_traced", "recorded_before_fastest"),  # a recording made before
}


def show_metrics(result: dict) -> None:
    tps, measured = result["tokens_per_s"], headline(result)
    plain, tps_label, measured_label, beside = BASELINES[measured["baseline"]]
    cards = [
        ("m_alpha", f"{result['alpha']:.2f}", "m_alpha_help"),
        ("m_c", f"{result['c']:.3f}", "m_c_help"),
        ("m_verify", f"{result['verify_cost']:.2f}", "m_verify_help"),
        ("m_tokens", f"{result['tokens_per_target_forward']:.2f}", "m_tokens_help"),
        ("m_tps_spec", f"{tps['speculative']:.1f}", None),
        (tps_label, f"{tps[plain]:.1f}", tps_label + "_help"),
        (measured_label, TEXT("times", x=measured["speedup"]), measured_label + "_help"),
        ("m_predicted", TEXT("times", x=result["predicted_speedup"]), "m_predicted_help"),
    ]
    for row in (cards[:4], cards[4:]):
        for column, (label, value, help_key) in zip(st.columns(4), row):
            column.metric(TEXT(label), value, help=TEXT(help_key) if help_key else None)
    # the headline's interval and the forwards alone stand beside it; the theory is set against the interval
    low, high = measured["interval"] or (measured["speedup"], measured["speedup"])
    st.caption(TEXT(beside, low=low, high=high, forwards=result["speedup_forwards_only"]))
    predicted = result["predicted_speedup"]
    if predicted is not None and not low <= predicted <= high:
        st.warning(TEXT("theory_outside", predicted=predicted, low=low, high=high, overhead=result["overhead_fraction"]))


def teaching_notes(result: dict, settings) -> None:
    """What a lecturer says next, with this measurement's own numbers."""
    with st.expander(TEXT("notes")):
        st.markdown(TEXT("note_greedy"))
        st.markdown(TEXT("note_verify", rows=settings.k + 1, v=result["verify_cost"], device=result["device"]))
        st.markdown(TEXT("note_cost", c=result["c"], alpha=result["alpha"], predicted=result["predicted_speedup"],
                         measured=headline(result)["speedup"]))
        key, numbers = twice_as_fast(result["alpha"], result["c"], result["verify_cost"])
        st.markdown(TEXT(key, **numbers))


def show_verdict(result: dict, choice, settings) -> None:
    best_scribe = result["scribe"] == list(cached_pair(choice.pair, choice.device).drafts)[-1]  # the slider's right end
    faster, numbers, reasons = verdict(result, best_scribe, settings.noise, settings.sampling.temperature)
    # the theory's characters per glance always stands beside the measured one, with why they differ
    glance = TEXT(glance_note(numbers), **numbers)
    if faster:
        st.success(TEXT("fast", **numbers) + " " + glance)
        return
    lines = [TEXT("slow", **numbers), ""] + ["- " + TEXT(reason, **numbers) for reason in reasons] + ["", glance]
    st.warning("\n".join(lines))


def curve_labels(best: int) -> dict[str, str]:
    keys = {"title": "curve_title", "k": "axis_k", "speedup": "axis_speedup", "theory": "curve_theory", "paper": "curve_paper",
            "measured": "curve_measured", "earlier": "curve_earlier", "plain": "curve_plain"}
    return {name: TEXT(key) for name, key in keys.items()} | {"best": TEXT("curve_best", k=best)}


def split_labels() -> dict[str, str]:
    keys = {"title": "split_title", "ms": "split_ms", "speculative": "split_speculative", "plain": "split_plain",
            "draft": "split_draft", "verify": "split_verify", "other": "split_other"}
    return {name: TEXT(key) for name, key in keys.items()}


def show_sweep(choice, prompts: tuple[str, ...]) -> None:
    """The k × temperature sweep, run on request; every other setting is the sidebar's."""
    cells = sweep_cells(choice.settings)
    tokens = cells[0][2].max_new_tokens
    st.header(TEXT("sweep_header"))
    st.markdown(TEXT("sweep_intro", n=len(prompts), tokens=tokens))
    # The sweep is long, so it runs only on request; k and temperature are swept, every other setting is its key.
    key = repr((choice.pair, choice.device, choice.scribe, prompts, [s for _, _, s in cells]))
    if st.button(TEXT("sweep_button", cells=len(cells)), key="sweep"):
        st.session_state["speed_lab_sweep"] = key
    if st.session_state.get("speed_lab_sweep") is None:
        return
    if st.session_state["speed_lab_sweep"] != key:
        st.info(TEXT("sweep_stale"))
        return
    progress, cells_measured = st.progress(0.0), {}
    try:
        with long_work():
            for i, (k, t, settings) in enumerate(cells):
                progress.progress(i / len(cells), text=TEXT("sweep_progress", k=k, t=t, i=i + 1, n=len(cells)))
                cells_measured[(k, t)] = measured(Run(choice.pair, choice.device, choice.scribe, settings, prompts))
    except RUN_ERRORS as error:
        st.error(COMMON("cannot_run", error=explain(error)))
        return
    progress.progress(1.0, text=TEXT("sweep_done", n=len(cells)))
    ks, temperatures = sorted({k for k, _, _ in cells}), sorted({t for _, t, _ in cells})
    labels = {"title": TEXT("sweep_title"), "k": TEXT("axis_k"), "temperature": TEXT("sweep_temperature"), "speedup": TEXT("sweep_speedup")}
    chart(st, sweep_heatmap(cells_measured, ks, temperatures, labels), key="sweep_heatmap")
    k, t, s = sweep_best(cells_measured)
    low, high = cell_value(cells_measured[(k, t)], "interval")
    st.caption(TEXT("sweep_best", k=k, t=t, s=s) + " " + TEXT("sweep_sure" if clearly_best(cells_measured) else "sweep_unsure",
                                                              low=low, high=high))
    show_temperature_lesson(cells_measured, ks, temperatures)


def show_temperature_lesson(measured: dict, ks: list[int], temperatures: list[float]) -> None:
    """Each temperature's alpha, characters per glance and speedup, and what they say about cooling."""
    rows = temperature_rows(measured, ks, temperatures)
    st.markdown("\n".join(TEXT("sweep_row", **row) for row in rows))
    lesson = temperature_lesson(rows)
    if lesson is not None:
        key, numbers = lesson
        st.markdown(TEXT(key, **numbers))
