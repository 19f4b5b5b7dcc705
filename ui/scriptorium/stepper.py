"""The scriptorium's stepper: controls, sheet, counters and one position's details, as a fragment.

Stepping reruns only this fragment, so a class clicking through a run never waits on the models.
"""
from __future__ import annotations

import hashlib
import json
from urllib.parse import urlencode

import streamlit as st

from specdec_core.algorithm.trace import Round, Trace, between_prompt_and_text, prompt_and_text
from specdec_core.drafts.feature import reads_master_notes
from ui.archive.store import keep_run
from ui.scriptorium import worked
from ui.scriptorium.handout import handout_svg
from ui.scriptorium.margin import show_tree
from ui.scriptorium.moments import Moment, correction_steps, ended_in_draft, moments, next_correction, positions, progress_at
from ui.scriptorium.numbers import probability_text, ratio_text  # noqa: F401  (the inspector's tests read them here)
from ui.scriptorium.plots import cache_figure, candidate_figure
from ui.scriptorium.sheet import display_piece, line_nodes, sheet_html
from ui.scriptorium.texts import TEXT
from ui.scriptorium.tree_view import drawn_without_replacement, residuals_faced, tree_story, variant_candidates, variant_rows, variants_words
from specdec_core.algorithm.tree_walk import Walk, tree_walk, trial_of
from ui.shared.i18n import markdown_literal
from ui.shared.sidebar import refused_link_note
from ui.shared.texts import TEXT as COMMON
from ui.shared.theme import chart

PLAY_SECONDS = 0.8


def show_run(trace: Trace, presenter: bool = False, file_run: bool = False) -> None:
    """file_run: file the run in the archive once the reader steps into it (a fresh run, not a replay)."""
    _reset_if_new(trace)
    every = PLAY_SECONDS if st.session_state.get("playing") else None
    st.fragment(run_every=every)(_stepper)(trace, presenter, file_run)


def _identity(trace: Trace) -> str:
    """The run, timings aside."""
    what = json.dumps([trace.pair, trace.scribe, trace.settings, trace.prompt_tokens, trace.tokens])
    return hashlib.sha1(what.encode()).hexdigest()


def _reset_if_new(trace: Trace) -> None:
    """A different run starts from its first moment; the same run (timings aside) keeps its place."""
    identity = _identity(trace)
    if st.session_state.get("moment_of") != identity:
        st.session_state.update(moment_of=identity, moment=1, playing=False)
    if st.session_state.pop("land_on", None) == "correction":  # a scenario asked to open on the red brush
        st.session_state["moment"] = (correction_steps(trace) or [1])[0]
    _step_from_link(len(moments(trace)))


STEP = "step"  # the URL's step: a link can open a run on the moment a lecturer is showing


def _step_from_link(steps: int) -> None:
    """Once a session: the link's ?step=N (1 to the run's steps) opens the run there; a step it does not have is
    refused with a note, as any other link value is."""
    if st.session_state.get("step_link_read"):
        return
    st.session_state["step_link_read"] = True  # from now on the URL's step is the one this page wrote
    if STEP not in st.query_params:
        return
    text = st.query_params[STEP]
    if text.isdigit() and 1 <= int(text) <= steps:
        st.session_state["moment"] = int(text)
    else:
        st.warning(refused_link_note(STEP, f"1–{steps}"))


def _stepper(trace: Trace, presenter: bool, file_run: bool) -> None:
    steps = moments(trace)
    if st.session_state.get("playing"):
        _advance(len(steps))
    if file_run and st.session_state["moment"] > 1:
        _file_once(trace)
    moment = steps[st.session_state["moment"] - 1]
    st.query_params[STEP] = str(st.session_state["moment"])  # the address bar names the step on screen
    r, trial = trace.rounds[moment.round], trial_of(trace.settings)
    if presenter:  # one screen: the story, the sheet, the buttons; the rest below the fold
        st.info(_story(r, moment, trial))
        sheet = sheet_html(trace, moment, st.session_state.get("show_struck", True), compact=True)
        st.html(f'<div class="sheet-window">{sheet}</div>')  # presenter's CSS: a window that scrolls, newest line shown
        _controls(len(steps), slider=False)
        _counters(trace, moment)
    else:
        _controls(len(steps))
        _correction_jump(trace)
        show_struck = st.toggle(TEXT("show_struck"), value=True, key="show_struck")
        st.html(sheet_html(trace, moment, show_struck))
        st.caption(TEXT("legend"))
        if tree_run(trace):  # the margin's marks; a chain's sheet has none
            st.caption(TEXT("legend_margin"))
        _counters(trace, moment)
        st.info(_story(r, moment, trial))
    show_tree(trace, moment)  # a tree round's drafted tree, as the walk has judged it so far (#35)
    if moment.stage == "verdict" or r.drafted:
        _position_details(r, moment, trial)
    if moment.stage == "verdict":  # the numbers of a judged round, worked as the rule reads them
        _worked_round(r, moment, trial)
    with st.expander(TEXT("caches")):
        scribe_cache = any(r.draft_cache)  # a count scribe (n-gram, prompt lookup) reads no network and keeps no cache
        labels = _labels("master", "scribe", "before", "after", "rolled", "kept", "dropped") | {"axis": TEXT("cache_axis")}
        chart(st, cache_figure(r, labels, scribe_cache))
        note = "cache_note_feature" if reads_master_notes(trace.scribe) else "cache_note" if scribe_cache else "cache_note_no_scribe"
        st.caption(TEXT(note))
    handout = handout_svg(trace, moment, _share_link(), st.session_state.get("show_struck", True))
    st.download_button(TEXT("handout"), handout, file_name=f"sheet-step-{st.session_state['moment']}.svg",
                       mime="image/svg+xml", key="sheet_svg", help=TEXT("handout_help"))
    with st.expander(TEXT("full_text")):
        st.markdown(markdown_literal(whole_text(trace)))


def _share_link() -> str:
    """The page's address with the query that reopens this run: the sidebar writes every setting there, and a
    replay its run's number (st.context.url has no query; it is None outside a browser)."""
    return f"{st.context.url or ''}?{urlencode(st.query_params.to_dict())}"


def _file_once(trace: Trace) -> None:
    """File a run in the archive the first time its reader steps into it: each tick of a sidebar slider makes
    a run on the way to the one wanted, and the archive holds the runs people looked at, not every tick."""
    identity = _identity(trace)
    if st.session_state.get("filed") != identity:
        problem = keep_run(trace.to_json())
        st.session_state["filed"] = identity
        st.session_state["not_filed"] = problem
    if st.session_state.get("not_filed"):
        st.warning(COMMON("not_archived", error=st.session_state["not_filed"]))


def _worked_round(r: Round, moment: Moment, trial: str = "residual") -> None:
    ended, walk = ended_in_draft(r, moment), tree_walk(r)
    with st.expander(TEXT("worked")):
        if walk is not None:  # a tree: every variant tried, depth by depth
            st.caption(TEXT(worked.TREE_INTRO[trial]))
            st.dataframe(worked.tree_rows(r, walk, trial, moment.written if ended else None), hide_index=True)
        else:
            st.caption(TEXT("worked_intro"))
            if r.drafted:
                st.dataframe(worked.draft_rows(r, moment.written if ended else None), hide_index=True)
        if ended:  # no new token: the text ended among the drafts
            st.write(TEXT("w_ended", at=moment.written, end=display_piece(r.drafted[moment.written - 1].piece)))
            return
        if walk is not None:
            st.write(worked.tree_new_token_words(r, walk, trial))
            st.dataframe(worked.new_token_rows(r, tree_trial=trial), hide_index=True)
            return
        st.write(worked.new_token_words(r))
        st.dataframe(worked.new_token_rows(r), hide_index=True)


def whole_text(trace: Trace) -> str:
    """The prompt as the reader typed it (a chat pair's model reads it inside a template whose system
    turn is no part of the text), then what was written: a chat answer a blank line below its question,
    a continuation straight after its opening (the CLI's prompt_and_text)."""
    typed = trace.extra.get("prompt_as_typed")
    if not isinstance(typed, str):
        return prompt_and_text(trace)
    return typed + between_prompt_and_text(trace) + trace.text


def _advance(total: int) -> None:
    if st.session_state["moment"] < total:
        st.session_state["moment"] += 1
    if st.session_state["moment"] >= total:
        st.session_state["playing"] = False
        st.rerun()  # the whole page, so the fragment stops its timer


def _controls(total: int, slider: bool = True) -> None:
    """The five buttons, each with its key (Home, ←, Space, →, End), and the step slider."""
    cols = st.columns(5)
    at = st.session_state["moment"]
    step = dict(width="stretch", wrap=True)
    cols[0].button(TEXT("start"), on_click=_go, args=(1,), disabled=at <= 1, shortcut="Home", **step)
    cols[1].button(TEXT("back"), on_click=_go, args=(at - 1,), disabled=at <= 1, shortcut="Left", **step)
    playing = st.session_state.get("playing", False)
    pause_or_play = TEXT("pause" if playing else "play")
    if cols[2].button(pause_or_play, disabled=at >= total and not playing, shortcut="Space", **step):
        st.session_state["playing"] = not playing
        st.rerun()
    cols[3].button(TEXT("forward"), on_click=_go, args=(at + 1,), disabled=at >= total, shortcut="Right", **step)
    cols[4].button(TEXT("end"), on_click=_go, args=(total,), disabled=at >= total, shortcut="End", **step)
    if slider and total > 1:  # the slider's own key, copied both ways: "moment" must outlive a run without it
        st.session_state["w_moment"] = st.session_state["moment"]
        st.slider(TEXT("moment"), 1, total, key="w_moment", on_change=_slid)


def _correction_jump(trace: Trace) -> None:
    """One click to the next red brush; in a run the master never corrected, a disabled button that says so."""
    target = next_correction(trace, st.session_state["moment"])
    left, right = st.columns([1, 3], vertical_alignment="center")
    left.button(TEXT("next_correction"), on_click=_go, args=(target or 1,), disabled=target is None,
                key="next_correction", width="stretch")
    count = len(correction_steps(trace))
    right.caption(TEXT("no_correction") if target is None else TEXT("corrections_one" if count == 1 else "corrections_many", n=count))


def _slid() -> None:
    _go(st.session_state["w_moment"])


def _go(index: int) -> None:
    st.session_state["moment"] = index
    st.session_state["playing"] = False


def _counters(trace: Trace, moment: Moment) -> None:
    now = progress_at(trace, moment)
    cols = st.columns(4)
    cols[0].metric(TEXT("tokens"), now.text_tokens, help=TEXT("tokens_help"))
    cols[1].metric(TEXT("forwards"), now.target_forwards)
    cols[2].metric(TEXT("per_forward"), f"{now.tokens / now.target_forwards:.2f}" if now.target_forwards else "—")
    alpha = "—" if now.alpha is None else f"{now.alpha:.2f}"
    if tree_run(trace):  # a tree run counts the first variant at each depth
        cols[3].metric(TEXT("alpha_tree"), alpha, help=TEXT("alpha_tree_help"))
    else:
        cols[3].metric(TEXT("alpha"), alpha, help=TEXT("alpha_help", judged=now.judged, sealed=now.sealed))


def tree_run(trace: Trace) -> bool:
    """A run with a tree round its record tells (a tree that contradicts its round is drawn as a chain)."""
    return any(tree_walk(r) is not None for r in trace.rounds)


def _story(r: Round, moment: Moment, trial: str = "residual") -> str:
    """What the step shows, in words; trial: how the run's master tried a tree's variants (walk.trial_of)."""
    walk = tree_walk(r)
    if walk is not None:
        return tree_story(r, moment, walk, trial)
    number, n = r.index + 1, len(r.drafted)
    if moment.stage == "draft":
        return TEXT("stage_draft", round=number, n=n)
    if moment.stage == "seal":
        return TEXT("stage_seal", round=number, sealed=moment.sealed)
    if ended_in_draft(r, moment):
        return _story_ended(r, moment)
    story = _verdict_story(r, number, n)
    # the master's own token closed the text: a correction or bonus that is the end mark
    return story + " " + TEXT("new_is_end", end=display_piece(r.next_piece)) if r.stopped_at_eos else story


def _verdict_story(r: Round, number: int, n: int) -> str:
    """The verdict of a line the text did not end in: the correction, the bonus, or the master's own token."""
    good, gain = display_piece(r.next_piece), TEXT("gain_one" if r.n_accepted == 0 else "gain_many", n=r.n_accepted + 1)
    if r.next_kind == "corrected":
        bad = display_piece(r.drafted[r.n_accepted].piece)
        last = r.n_accepted + 1 == n  # the struck draft was the line's last: nothing after it to discard
        return TEXT("stage_corrected_last" if last else "stage_corrected", round=number, at=r.n_accepted + 1, bad=bad,
                    good=good, gain=gain)
    if r.next_kind == "bonus" and n:
        return TEXT("stage_bonus", round=number, n=n, good=good, gain=gain)
    if r.next_kind == "bonus" and r.k == 0:  # one token left to write: no room for a draft
        return TEXT("stage_last", round=number, good=good)
    return TEXT("stage_plain", round=number, good=good)


def _story_ended(r: Round, moment: Moment) -> str:
    """A line whose sealed drafts include the end token: the text stops there, whatever the verdict drew after it."""
    at, rest = moment.written, len(r.drafted) - moment.written
    end, gain = display_piece(r.drafted[at - 1].piece), TEXT("gain_one" if at == 1 else "gain_many", n=at)
    words = dict(round=r.index + 1, at=at, end=end, rest=rest, gain=gain)
    return TEXT("stage_ended_rest" if rest else "stage_ended", **words)


def _position_details(r: Round, moment: Moment, trial: str = "residual") -> None:
    walk = tree_walk(r)
    line = None if walk is None else line_nodes(walk, moment)  # a tree's depths as its sheet's line holds them now
    slots = positions(r, moment) if line is None or moment.stage == "verdict" else list(range(len(line) + 1))
    default = slots[-1] if ended_in_draft(r, moment) else r.n_accepted if moment.stage == "verdict" else max(moment.sealed - 1, 0)
    label = lambda i: _slot_label(r, i, moment.stage == "verdict", line=line)  # noqa: E731
    title = TEXT("position" if walk is None else "position_tree")
    at = st.segmented_control(title, slots, format_func=label, default=default, key=f"position_{r.index}_{moment.stage}")
    at = default if at is None else at
    labels = _labels("p", "q", "min", "r") | {"axis": TEXT("axis")}
    revealed = moment.stage == "verdict" or at < moment.sealed  # no spoilers ahead of the seals
    if line is not None and at < len(line):
        _variants(r, walk, line, at, moment, trial, revealed, labels)
    elif at < len(r.drafted):
        step = r.drafted[at]
        chart(st, candidate_figure(step.candidates, step.token, labels, residual=False))
        _decision(step, checked=at <= r.n_accepted, revealed=revealed)
    elif moment.stage != "verdict":  # the master has not looked yet: his character stays unseen
        st.caption(TEXT("new_not_yet"))
    elif walk is not None:
        _tree_new_token(r, walk, trial, labels)
    else:
        chart(st, candidate_figure(r.next_dist_top, r.next_token, labels, residual=r.next_kind == "corrected"))
        st.caption(TEXT("from_residual" if r.next_kind == "corrected" else "from_p"))


def _variants(r: Round, walk: Walk, line: tuple[int, ...], at: int, moment: Moment, trial: str, revealed: bool,
              labels: dict[str, str]) -> None:
    """A tree's depth: the variants under the line's node above it, on the chart (with the residual each one tried
    faced), then one row each, in the order tried. Before the verdict the line below the seals is the scribe's first
    reading, so a depth there shows the variants under it, and the position's top of p and q only where the node
    above is sealed (the recorded position lies on the path the master will take: showing it sooner would tell it)."""
    depth = walk.under(line[at - 1] if at else -1)
    known = moment.stage == "verdict" or at <= moment.sealed
    candidates = r.drafted[at].candidates if known and at < len(r.drafted) else []
    faced = residuals_faced(r, depth, trial) if revealed else []
    rows = variant_candidates(r, depth, candidates)
    token = r.tree[line[at]].token
    chart(st, candidate_figure(rows, token, labels | {"faced": TEXT("r_faced")}, residual=False, faced=faced))
    st.dataframe(variant_rows(r, depth, trial, revealed), hide_index=True)
    st.caption(TEXT(f"variants_caption_{trial}" if revealed else "tree_not_yet"))
    if revealed and trial == "residual" and drawn_without_replacement(r, depth):
        st.caption(TEXT("variants_caption_distinct"))


def _tree_new_token(r: Round, walk, trial: str, labels: dict[str, str]) -> None:
    """Where a tree's walk ended: the bonus from p after a leaf, or the new token from the last residual."""
    residual = r.next_kind == "corrected" and trial != "greedy"
    last = {"r": TEXT("r_last")} if trial == "residual" else {}  # the broken rule draws from max(0, p - q) itself
    chart(st, candidate_figure(r.next_dist_top, r.next_token, labels | last, residual=residual))
    if r.next_kind != "corrected":
        st.caption(TEXT("from_p"))
    elif trial == "greedy":
        st.caption(TEXT("tree_greedy_new"))
    elif trial == "p":
        st.caption(TEXT("from_residual"))
    else:
        depth = walk[-1]
        st.caption(TEXT("tree_from_residual", depth=depth.depth, variants=variants_words(len(depth.tried(r.tree)))))


def _slot_label(r: Round, i: int, judged: bool, line: tuple[int, ...] | None = None) -> str:
    """A position's tab: drafted ones by number (in a tree, by depth, with the piece its line holds now: line, the
    nodes), the new token as "new" (its piece only once the master has judged the line); the piece escaped (tabs
    draw Markdown)."""
    if line is not None and i < len(line):
        return TEXT("depth_slot", depth=i + 1, piece=display_piece(r.tree[line[i]].piece))
    if i < len(r.drafted) and line is None:
        return f"{i + 1} · {markdown_literal(display_piece(r.drafted[i].piece))}"
    return f"{TEXT('new_slot')} · {markdown_literal(display_piece(r.next_piece)) if judged else TEXT('unjudged')}"


def _decision(step, checked: bool, revealed: bool) -> None:
    cols = st.columns(5)
    cols[0].metric(TEXT("p_x"), probability_text(step.p))
    cols[1].metric(TEXT("q_x"), probability_text(step.q))
    cols[2].metric(TEXT("ratio"), ratio_text(step.p / step.q) if step.q > 0 else "∞")
    cols[3].metric(TEXT("u"), f"{step.u:.3f}")
    if not revealed:
        st.caption(TEXT("not_yet"))
    elif checked:
        cols[4].metric(TEXT("decision"), "✔" if step.accepted else "✘")
        st.caption(TEXT("accepted" if step.accepted else "rejected"))
    else:
        st.caption(TEXT("unchecked"))


def _labels(*keys: str) -> dict[str, str]:
    return {key: TEXT(key) for key in keys}
