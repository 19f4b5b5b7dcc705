"""Draw a proof run: progress, histograms, TV over samples, and the tests' verdicts."""
from __future__ import annotations

import streamlit as st

from specdec_core.algorithm.stats import MIN_EXPECTED, FitResult
from specdec_core.decoding.proof_run import Exact, ProofRun, fit
from ui.proof.plots import histogram_figure, top_cells, tv_history_figure
from ui.proof.texts import TEXT
from ui.shared.theme import chart

WHO = ("speculative", "plain")


def show_results(run: ProofRun, exact: Exact, piece, final: bool, missed: str | None = None) -> None:
    """missed: what to say when the speculative stream passes under a broken rule (None for the exact rule)."""
    st.progress(run.done / run.total, TEXT("progress", done=run.done, total=run.total, seconds=run.seconds))
    if final and not run.finished:
        st.warning(TEXT("stopped", done=run.done))
    if not run.done:
        return
    names = {"exact": TEXT("exact"), **{who: TEXT(who) for who in WHO}, "null": TEXT("null")}
    samples = {who: run.samples(who) for who in WHO}
    tag = f"{run.done}-{final}"  # each redraw is a new element
    left, right = st.columns(2)
    left.subheader(TEXT("first"))
    chart(left, histogram_figure(top_cells(exact.first, samples, piece), names, TEXT("frequency")), key=f"first-{tag}")
    right.subheader(TEXT("joint"))
    chart(right, histogram_figure(top_cells(exact.joint, samples, piece), names, TEXT("frequency")), key=f"joint-{tag}")
    if final:
        _verdicts(run, exact, names, missed)
    st.subheader(TEXT("tv_history"))
    if len(run.history) < 2:
        st.caption(TEXT("tv_too_few"))
        return
    chart(st, tv_history_figure(run.history, names, (TEXT("n"), TEXT("tv_axis"))), key=f"tv-{tag}")
    st.caption(TEXT("tv_cells", cells=int((exact.joint.probs * run.total >= MIN_EXPECTED).sum())))


def _verdicts(run: ProofRun, exact: Exact, names: dict[str, str], missed: str | None = None) -> None:
    rows = []
    for who in WHO:
        if not len(run.samples(who)):  # nothing drawn: no verdict, rather than "cannot be told apart"
            continue
        first, joint = fit(run, who, exact)
        testable = joint.dof > 0  # with too few samples every joint cell is pooled into one
        rows.append(verdict_row(names[who], first, joint))
        worst = min(first.p_value, joint.p_value) if testable else first.p_value
        passed = worst > 0.001
        (st.success if passed else st.error)(TEXT("verdict_same" if passed else "verdict_drift", who=names[who], p=worst))
        if passed and who == "speculative" and missed is not None:
            st.warning(missed)
    st.dataframe(rows, hide_index=True, width="stretch")
    if not testable:
        st.info(TEXT("joint_untestable", n=exact.samples_to_test_joint()))
    st.caption(TEXT("test_note"))


def verdict_row(who: str, first: FitResult, joint: FitResult) -> dict[str, str]:
    """One stream's line of the verdicts table. The sample's TV sits beside the TV an exact sampler shows at
    this size (both carry the same upward noise); the 95% interval is for the true TV, so it sits beside the
    bias-corrected TV at its centre, not beside the sample's TV, which it need not hold."""
    testable = joint.dof > 0  # with too few samples every joint cell is pooled into one
    shown = lambda text: text if testable else "—"  # noqa: E731
    return {
        TEXT("table_who"): who,
        TEXT("table_p_first"): f"{first.p_value:.3g}",
        TEXT("table_p_joint"): shown(f"{joint.p_value:.3g}"),
        TEXT("table_tv"): shown(f"{joint.tv:.4f}"),
        TEXT("table_null"): shown(f"{joint.tv_null:.4f}"),
        TEXT("table_tv_corrected"): shown(f"{joint.tv_corrected:.4f}"),
        TEXT("table_ci"): shown(f"[{joint.tv_ci[0]:.4f}, {joint.tv_ci[1]:.4f}]"),
    }
