"""The speed lab's chain-against-tree section: the sidebar's line and a tree, run side by side, and what they show.

Both runs are the lab's own measurement (the server's board, ui/shared/measurements.py: the same prompts, seed,
temperature and length, each interleaved with the master alone), so a chain run is the one the page's measurement
above made, and the race's. The
glance's cost by size is the glance section's measurement (the same glance.cached_glance call; a second one
only for a tree whose glance checks more positions than that measurement's largest). The
verdict is computed from the two reports by `tree_verdict`, a pure function, so a test can hand it numbers.
"""
from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from specdec_core.pairs.pair import PairError
from specdec_core.services.bench import headline
from specdec_core.services.glance import GLANCE_SIZES, GlanceTimes
from specdec_core.settings import DecodeSettings
from ui.shared.errors import explain
from ui.shared.i18n import utc_time
from ui.shared.models import tree_refusal
from ui.shared.run_slots import long_work
from ui.shared.sidebar import SHAPES, shape_label
from ui.shared.texts import TEXT as COMMON
from ui.shared.theme import chart
from ui.speed_lab.glance import cached_glance
from ui.speed_lab.glance_plot import FLAT
from ui.shared.measurements import REPEATS, Run, measured
from ui.speed_lab.runs import measure_settings
from ui.speed_lab.sections import RUN_ERRORS
from ui.speed_lab.texts import TEXT as LAB
from ui.speed_lab.trees_plot import glance_points, verify_cost_figure
from ui.speed_lab.trees_texts import TEXT

# the sidebar's trees, without its chain; first the one the README measured closest to the best chain
TREE_SHAPES = ("2-1-1", *(shape for shape in SHAPES if shape not in ("", "2-1-1")))
SAME = 0.005  # characters a glance within half a per cent read as "as many" (the figures are shown to two places)


def run_settings(settings: DecodeSettings, shape: str) -> tuple[DecodeSettings, DecodeSettings]:
    """(chain, tree): the lab's measurement settings as a line of the sidebar's k, and the same as the tree."""
    chain = measure_settings(replace(settings, tree=""))
    return chain, replace(chain, tree=shape)


def show_trees(choice, prompts: tuple[str, ...]) -> None:
    """The chain and the tree measured when asked, side by side; a scribe that cannot draft a tree is told so."""
    st.header(TEXT("tv_header"))
    st.markdown(TEXT("tv_intro"))
    # the run's own question (generate.check_drafts_trees), asked before a button offers a run it would refuse
    refusal = tree_refusal(choice.pair, choice.device, choice.scribe, replace(choice.settings, tree=TREE_SHAPES[0]))
    if refusal is not None:
        st.info(TEXT("tv_cannot_scribe" if refusal.reason == "tree_scribe" else "tv_cannot_master", why=explain(refusal)))
        return
    if choice.settings.tree:
        shape = choice.settings.tree
        st.caption(TEXT("tv_sidebar_tree", tree=shape_label(shape)))
    else:
        labels = {shape: shape_label(shape) for shape in TREE_SHAPES}  # read now, in this run's language (as the sidebar)
        shape = st.selectbox(TEXT("tv_shape"), TREE_SHAPES, key="tree_lab_shape", format_func=labels.get,
                             help=TEXT("tv_shape_help"))
    chain, tree = run_settings(choice.settings, shape)
    key = repr((choice.pair, choice.device, choice.scribe, chain, tree, prompts))
    asked = st.session_state.setdefault("tree_lab_measured", set())
    if st.button(TEXT("tv_button"), key="tree_lab_measure", help=TEXT("tv_button_help")):
        asked.add(key)
    if key not in asked:
        st.info(TEXT("tv_stale" if asked else "tv_press"))
        return
    try:
        with st.spinner(TEXT("tv_measuring", tree=shape, n=len(prompts), tokens=chain.max_new_tokens)), long_work():
            runs = {name: measured(Run(choice.pair, choice.device, choice.scribe, settings, prompts))
                    for name, settings in (("chain", chain), ("tree", tree))}
            glance = timed_glance(choice, prompts[0], runs)
    except (PairError, *RUN_ERRORS) as error:
        st.error(COMMON("cannot_run", error=explain(error)))
        return
    show_runs(runs, shape, chain, len(prompts))
    show_glance_cost(runs, glance)
    st.markdown(" ".join(TEXT(key, **numbers) for key, numbers in tree_verdict(runs["chain"], runs["tree"])))


def glance_sizes(most_positions: int) -> tuple[int, ...] | None:
    """The glance's sizes when its usual ones stop short of the largest round: 1, 2, 4, … and that round's size."""
    if most_positions <= GLANCE_SIZES[-1]:
        return None  # the glance section's own measurement serves
    doubling = [2**i for i in range(most_positions.bit_length())]
    return tuple(sorted(set(GLANCE_SIZES) | set(doubling) | {most_positions}))


def timed_glance(choice, prompt: str, runs: dict[str, dict]) -> GlanceTimes:
    sizes = glance_sizes(max(run["most_nodes"] + 1 for run in runs.values()))
    if sizes is None:  # the same call as the glance section's: its measurement, cached for the server
        return cached_glance(choice.pair, choice.device, prompt)
    return cached_glance(choice.pair, choice.device, prompt, sizes)


def show_runs(runs: dict[str, dict], shape: str, chain: DecodeSettings, prompts: int) -> None:
    tree = runs["tree"]
    runs_done = LAB.plain("runs_one") if REPEATS == 1 else LAB.plain("runs_many", n=REPEATS)
    st.caption(TEXT("tv_measured_on", n=prompts, tokens=chain.max_new_tokens, runs=runs_done, device=tree["device"],
                    scribe=tree["scribe"], temperature=chain.sampling.temperature, noise=chain.noise, seed=chain.seed))
    columns = {TEXT.plain("tv_col_chain", k=chain.k): runs["chain"],
               TEXT.plain("tv_col_tree", tree=shape, nodes=tree["most_nodes"]): tree}
    rows = {TEXT.plain(key): [cell(key, run) for run in columns.values()] for key in ROWS}
    st.table(pd.DataFrame(rows, index=list(columns)).T)


ROWS = ("tv_row_tpf", "tv_row_speedup", "tv_row_tps", "tv_row_forwards", "tv_row_nodes", "tv_row_verify",
        "tv_row_draft_ms", "tv_row_verify_ms")


def cell(row: str, run: dict) -> str:
    """One figure of a run's report as the table shows it."""
    split = run["time_split"]["speculative"]
    if row == "tv_row_speedup":
        measured = headline(run)  # a live run's: against the fastest plain decoding, with its interval
        low, high = measured["interval"]
        return TEXT.plain("tv_times", x=measured["speedup"], low=low, high=high)
    value = {
        "tv_row_tpf": run["tokens_per_target_forward"],
        "tv_row_tps": run["tokens_per_s"]["speculative"],
        "tv_row_forwards": run["draft_forwards_per_round"],
        "tv_row_nodes": run["nodes_per_round"],
        "tv_row_verify": run["verify_cost"],
        "tv_row_draft_ms": split["draft"],
        "tv_row_verify_ms": split["verify"],
    }[row]
    return f"{value:.2f}"


def show_glance_cost(runs: dict[str, dict], glance: GlanceTimes) -> None:
    """The glance's cost by size on this machine, the two runs' rounds on it, and what it says of the tree's size."""
    sizes = {name: run["most_nodes"] + 1 for name, run in runs.items()}
    labels = {key: TEXT.plain("tv_fig_" + key) for key in ("title", "glance", "chain", "tree", "positions", "cost")}
    rounds = {name: (run["nodes_per_round"] + 1, run["verify_cost"]) for name, run in runs.items()}
    chart(st, verify_cost_figure(glance_points(glance, max(sizes.values())), rounds, labels), key="tree_glance")
    st.caption(TEXT("tv_fig_caption", when=utc_time(glance.measured_at), repeats=glance.repeats))
    missing = [n for n in sizes.values() if n not in glance.sizes]
    if missing:
        st.caption(TEXT("tv_glance_unmeasured", n=max(missing)))
        return
    st.markdown(" ".join(TEXT(key, **numbers) for key, numbers in glance_sentences(glance, sizes["chain"], sizes["tree"])))


def glance_sentences(glance: GlanceTimes, chain_n: int, tree_n: int) -> list[tuple[str, dict]]:
    """The tree's glance against one position, the chain's where its size differs, and whether the tree's still
    costs about one forward (FLAT, as the glance section reads it)."""
    numbers = dict(tree_n=tree_n, chain_n=chain_n, tree_ms=glance.low_ms[glance.sizes.index(tree_n)],
                   one_ms=glance.low_ms[0], tree_ratio=glance.ratio(tree_n), chain_ratio=glance.ratio(chain_n))
    said = ["tv_glance_tree"] + (["tv_glance_chain"] if chain_n != tree_n else [])
    said.append("tv_glance_cheap" if numbers["tree_ratio"] <= FLAT else "tv_glance_dearer")
    return [(key, numbers) for key in said]


def tree_verdict(chain: dict, tree: dict) -> list[tuple[str, dict]]:
    """What the two bench reports show, as (text key, numbers) sentences: characters a glance, the clock, and,
    where the tree's speedup fell below the chain's, which costs it paid more of (each named only where its
    number is higher; the loop's bookkeeping where neither model's is)."""
    numbers = verdict_numbers(chain, tree)
    glance = numbers["glance"]
    said = [("tv_more" if glance >= 1 + SAME else "tv_fewer" if glance <= 1 - SAME else "tv_as_many", numbers)]
    clock = clock_outcome(headline(chain), headline(tree))
    said.append((clock, numbers))
    if numbers["speed"] >= 1:  # nothing the tree paid more of needs telling
        return said
    reasons = [("tv_reason_glance", numbers["tree_verify"] > numbers["chain_verify"]),
               ("tv_reason_scribe", numbers["tree_draft_ms"] > numbers["chain_draft_ms"])]
    said += [(key, numbers) for key, holds in reasons if holds]
    if not any(holds for _, holds in reasons) and numbers["tree_other_ms"] > numbers["chain_other_ms"]:
        said.append(("tv_reason_other", numbers))
    return said


def clock_outcome(chain: dict, tree: dict) -> str:
    """"tv_faster" or "tv_slower" where the two speedups' intervals are apart, else "tv_tied"."""
    if tree["interval"][0] > chain["interval"][1]:
        return "tv_faster"
    if tree["interval"][1] < chain["interval"][0]:
        return "tv_slower"
    return "tv_tied"


def verdict_numbers(chain: dict, tree: dict) -> dict:
    numbers = {"glance": tree["tokens_per_target_forward"] / chain["tokens_per_target_forward"],
               "speed": headline(tree)["speedup"] / headline(chain)["speedup"]}
    for name, run in (("chain", chain), ("tree", tree)):
        split = run["time_split"]["speculative"]
        numbers |= {f"{name}_tpf": run["tokens_per_target_forward"], f"{name}_speedup": headline(run)["speedup"],
                    f"{name}_verify": run["verify_cost"], f"{name}_positions": run["nodes_per_round"] + 1,
                    f"{name}_nodes": run["nodes_per_round"], f"{name}_forwards": run["draft_forwards_per_round"],
                    f"{name}_draft_ms": split["draft"], f"{name}_other_ms": split["other"]}
    return numbers
