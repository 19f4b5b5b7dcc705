"""分毫不差 Indistinguishable: speculative and plain samples beside the exact target distribution, live."""
from dataclasses import replace

import streamlit as st

from specdec_core.algorithm.rules import CHAIN_RULES, EXPLANATIONS, TREE_RULES
from specdec_core.decoding.proof_run import PROOF_TREES, ProofRun, run_from_dict, tree_branching
from specdec_core.pairs.pair import PairError
from specdec_core.services import recorded
from ui.proof.line import LineFull, YoursInLine
from ui.proof.results import show_results
from ui.proof.runs import cached_exact, run_live
from specdec_core.decoding.proof_scenarios import SCENARIOS, scenario_for
from ui.proof.scenarios import in_scenario, open_scenario
from ui.proof.texts import TEXT
from ui.shared.errors import explain
from ui.shared.i18n import language, utc_time
from ui.shared.persist import remembered
from ui.shared.scribes import scribe_label
from ui.shared.sidebar import current_choice
from ui.shared.texts import TEXT as COMMON

choice, pair = current_choice()
st.title(TEXT("title"))
st.write(TEXT("intro"))
left, right = st.columns(2)
sizes = [1000, recorded.PROOF_SAMPLES, 5000, 10_000, 20_000]  # 20,000 bounds the live work one press starts
total = left.select_slider(TEXT("samples"), sizes, **remembered("proof_samples", recorded.PROOF_SAMPLES, "samples", sizes))
tree_mode = left.toggle(TEXT("tree_mode"), **remembered("proof_tree", False, "tree", [True, False]))
shape = right.selectbox(TEXT("branching"), PROOF_TREES,
                        **remembered("proof_branching", "2-2", "branching", PROOF_TREES)) if tree_mode else ""
branching = tree_branching(shape) if tree_mode else ()
menu = list(TREE_RULES if tree_mode else CHAIN_RULES)
if st.session_state.get("proof_rule", "exact") not in menu:  # a rule chosen in the other mode is not on this menu
    st.session_state["proof_rule"] = "exact"
rule_names = {name: COMMON(f"rule:{name}") for name in menu}  # looked up now, in this run's language
rule = right.selectbox(TEXT("rule"), menu, format_func=rule_names.get, **remembered("proof_rule", "exact", "rule", menu))
(st.success if rule == "exact" else st.warning)(EXPLANATIONS[rule][language()])
if tree_mode:
    st.info(TEXT("tree_note", shape=shape, first=branching[0], second=branching[1]))
if choice.settings.tree:  # the page's own switch decides its draft: the sidebar's tree is not this page's
    st.caption(COMMON("tree_not_on_proof_tree", shape=choice.settings.tree, branching=shape) if tree_mode
               else COMMON("tree_not_on_proof_chain", shape=choice.settings.tree, k=choice.settings.k))
scenario = None if tree_mode or not pair.example_prompts else scenario_for(choice.pair, rule)
st.caption(TEXT("hint_tree") if tree_mode else TEXT("hint_chain", n=recorded.PROOF_SAMPLES))
if scenario is not None and in_scenario(choice, scenario, pair.example_prompts[0]):
    st.caption(TEXT("scenario_here", n=recorded.PROOF_SAMPLES) + " " + TEXT(f"why:{rule}"))
elif scenario is not None:
    st.button(TEXT("scenario_button", scribe=scribe_label(scenario.scribe), k=scenario.k, temperature=scenario.temperature),
              key="proof_scenario", on_click=open_scenario, args=(scenario, pair.example_prompts[0]))
    st.caption(TEXT(f"why:{rule}"))
if total == recorded.PROOF_SAMPLES and not tree_mode:
    st.caption(TEXT("class_size" if choice.pair in SCENARIOS else "class_size_plain", n=total))
try:
    ids = pair.encode_prompt(choice.prompt, 2)
except PairError as error:
    st.error(COMMON("cannot_run", error=explain(error)))
    st.stop()

settings = replace(choice.settings, rule=rule, tree="")  # a chain of k, or the branching above
key = (choice.pair, choice.device, choice.scribe, tuple(ids), settings, total, branching)
runs = st.session_state.setdefault("proof_runs", {})
start, stop = st.columns(2)
started = start.button(TEXT("run"), type="primary", width="stretch")
stop.button(TEXT("stop"), width="stretch")  # a click reruns the page, which interrupts the sampling
exact = cached_exact(choice.pair, choice.device, tuple(ids), settings.sampling, total)
board = st.empty()
recorded_key = recorded.key_of(choice.pair, choice.scribe, choice.prompt, settings, samples=total)
recording = None if tree_mode else recorded.matching("proof", recorded_key)  # recordings are of chains
if started:
    runs[key] = ProofRun(total)  # kept from the first batch: a Stop keeps what was drawn
    try:
        run_live(runs[key], pair, choice.scribe, ids, settings, exact, board, recorded.seconds_per_sample(recording), branching)
    except LineFull as full:
        del runs[key]
        st.warning(TEXT("line_full", ahead=full.ahead))
    except YoursInLine as yours:
        del runs[key]
        st.warning(TEXT("line_yours", yours=yours.yours))
# a broken rule that passes is told so, with where it is caught
missed = None if rule == "exact" else TEXT("not_caught", rule=rule_names[rule], n=total) + (
    " " + TEXT("not_caught_scenario") if scenario is not None and not in_scenario(choice, scenario, pair.example_prompts[0]) else "")
if key in runs:
    with board.container():
        show_results(runs[key], exact, pair.as_target().piece, final=True, missed=missed)
elif recording is not None:  # the class sees the result at once; Start sampling runs it live
    with board.container():
        st.info(COMMON("recorded", when=utc_time(recording.recorded_at), machine=recording.machine,
                       command=recording.command))
        show_results(run_from_dict(recording.result), exact, pair.as_target().piece, final=True, missed=missed)
else:
    board.info(TEXT("nothing_yet"))
