"""The archive page's sections: filters, the table of runs, one run opened, and the import of a file."""
from __future__ import annotations

import streamlit as st

from specdec_core.algorithm.trace import MAX_TRACE_BYTES, Trace, TraceError, summarize
from specdec_core.algorithm.tree_walk import counts_first_variants
from specdec_core.pairs.pair import PairError
from specdec_core.services.archive import Archive, ArchiveError, RunFilter, RunRow
from specdec_core.services.replay import replay_check
from specdec_core.settings import DecodeSettings, SettingsError
from ui.archive.store import delete_run, import_file, may_delete, replay_in_scriptorium
from ui.archive.texts import TEXT
from ui.scriptorium.sheet import display_piece
from ui.shared.errors import explain
from ui.shared.i18n import language, markdown_literal, without_bidi
from ui.shared.models import cached_pair, device_names, pair_names
from ui.shared.fair_share import fair_run, run_seconds
from ui.shared.scribes import scribe_label
from ui.shared.server_guard import free_session_uploads
from ui.shared.visitors import claim_operator, is_operator, operator_token_set

CHOSEN = "archive_run"  # the selectbox's key; a click on the table's row sets it too
KEPT = "archive_kept"  # the chosen run, kept past a visit to another page (Streamlit forgets a widget's state there)
TO_OPEN = "archive_open"  # a run to open on the next pass (a widget's key cannot change after it is drawn)


def runs_count(n: int) -> str:
    return TEXT.plain("runs_one") if n == 1 else TEXT.plain("runs_many", n=n)


def scribe_name(row: RunRow) -> str:
    return scribe_label(row.scribe) if row.scribe else TEXT("plain_scribe")


def choice_label(row: RunRow) -> str:
    time = row.created_at.strftime("%m-%d %H:%M")
    facts = dict(id=row.id, time=time, pair=row.pair, scribe=scribe_name(row), shape=shape_name(row))
    return TEXT.plain("choice_label", prompt=row.prompt_preview[:12], **facts)  # a menu's options draw no Markdown


def shape_name(row: RunRow) -> str:
    """How the run drafted: its tree's shape, or k for a chain."""
    return TEXT.plain("tree_shape", shape=row.tree) if row.tree else f"k={row.k}"


def table(rows: list[RunRow]) -> dict[str, list]:
    """Columns named in the reader's language, straight from the stored rows."""
    return {
        TEXT("col_id"): [r.id for r in rows],
        TEXT("col_created"): [r.created_at.strftime("%m-%d %H:%M") for r in rows],
        TEXT("pair"): [r.pair for r in rows],
        TEXT("scribe"): [scribe_name(r) for r in rows],
        "k": [str(r.k) if r.k is not None else "—" for r in rows],   # a tree run has no k: its shape is beside it
        TEXT("col_tree"): [r.tree or TEXT.plain("chain") for r in rows],
        TEXT("col_temperature"): [r.temperature for r in rows],
        TEXT("col_seed"): [r.seed for r in rows],
        TEXT("col_prompt"): [without_bidi(r.prompt_preview) for r in rows],
        TEXT("col_tokens"): [r.tokens for r in rows],
        TEXT("col_alpha"): [r.alpha for r in rows],
        TEXT("col_per_forward"): [r.tokens_per_target_forward for r in rows],
        TEXT("col_source"): [TEXT(f"source_{r.source}") for r in rows],
    }


def table_columns(trees: bool = False) -> dict:
    """Narrow columns and short headers (help on hover), so every column fits beside the sidebar; where tree runs
    are listed (`trees`), α's help says whose α a tree run's is."""
    helps = {"col_alpha": "col_alpha_help_trees" if trees else "col_alpha_help",
             "col_per_forward": "col_per_forward_help"}
    numbers = {c: st.column_config.NumberColumn(TEXT.plain(c), format="%.2f", help=TEXT.plain(helps[c]), width="small")
               for c in helps}
    narrow = {c: st.column_config.Column(TEXT.plain(c), width="small")
              for c in ("col_id", "col_temperature", "col_seed", "col_tokens", "col_created", "col_source", "col_tree")}
    return {TEXT.plain(c): config for c, config in (numbers | narrow).items()} | {"k": st.column_config.Column("k", width="small")}


def pick_row(ids: list[int]) -> None:
    """Table click → the selectbox, so both ways of choosing agree."""
    rows = st.session_state["runs_table"].selection.rows
    if rows:
        st.session_state[CHOSEN] = ids[rows[0]]


def menu(where, label: str, options: list, format_func, key: str):
    """A filter; keyed per language, since a switch would leave the old "all" label (or none) showing."""
    key = f"{key}_{language()}"
    if st.session_state.get(key) not in options:  # its last value was deleted from the archive: back to "all"
        st.session_state[key] = None
    return where.selectbox(label, options, format_func=format_func, key=key)


def filters(choices: dict[str, list]) -> RunFilter:
    st.subheader(TEXT("filters"))
    everything = TEXT("any")  # read now: AppTest calls format_func after the run, outside the session
    shown = {name: {None: everything} | {value: str(value) for value in choices[name]} for name in ("pair", "k")}
    shown["scribe"] = {None: everything} | {v: scribe_label(v) if v else TEXT.plain("plain_scribe") for v in choices["scribe"]}
    columns = st.columns(5)
    pair, scribe, k = (
        menu(column, TEXT(name), [None, *choices[name]], shown[name].get, f"archive_{name}")
        for column, name in zip(columns, ("pair", "scribe", "k"))
    )
    date_from = columns[3].date_input(TEXT("date_from"), value=None, key="archive_from")
    date_to = columns[4].date_input(TEXT("date_to"), value=None, key="archive_to")
    if date_from and date_to and date_from > date_to:
        st.warning(TEXT("bad_dates"))
    return RunFilter(pair, scribe, k, date_from, date_to)


def show_run(store: Archive, row: RunRow) -> None:
    st.subheader(TEXT("run_title", id=row.id))
    source = TEXT(f"source_{row.source}")
    time = row.created_at.strftime("%Y-%m-%d %H:%M:%S")
    facts = dict(time=time, pair=row.pair, scribe=scribe_name(row), shape=shape_name(row), temperature=row.temperature, seed=row.seed)
    st.caption(TEXT("run_facts", source=source, **facts))
    try:
        trace_json = store.get(row.id)
        trace = Trace.from_json(trace_json)
    except (ArchiveError, TraceError) as error:
        st.error(TEXT("unreadable", id=row.id, error=error))
        return
    summary = summarize(trace)
    prompt, text = markdown_literal(trace.prompt_text), markdown_literal(trace.text)  # the row holds previews
    st.markdown(f"**{TEXT('prompt_label')}**　{prompt}\n\n**{TEXT('text_label')}**　{text}")
    metrics = st.columns(4)
    metrics[0].metric(TEXT("tokens"), summary["tokens"])
    metrics[1].metric(TEXT("forwards"), summary["target_forwards"])
    metrics[2].metric(TEXT("per_forward"), f"{summary['tokens_per_target_forward']:.2f}")
    alpha = "—" if summary["alpha"] is None else f"{summary['alpha']:.2f}"
    if counts_first_variants(trace):  # summarize counts a tree's alpha over its first variants
        metrics[3].metric(TEXT("alpha_tree"), alpha, help=TEXT("alpha_tree_help"))
    else:
        metrics[3].metric(TEXT("alpha"), alpha)
    actions = st.columns(4)
    if actions[0].button(TEXT("replay"), help=TEXT("replay_help"), type="primary", key="archive_replay"):
        replay_in_scriptorium(row.id)
    if actions[3].button(TEXT("check"), help=TEXT("check_help"), key="archive_check"):
        check_by_replay(trace)
    name = f"scriptorium-run-{row.id}.json"
    actions[1].download_button(TEXT("export"), trace_json, file_name=name, mime="application/json", key="archive_export")
    if not may_delete(row):
        actions[2].caption(TEXT("delete_not_yours"))
        return
    with actions[2].popover(TEXT("delete")):
        if st.button(TEXT("delete_confirm", id=row.id), key="archive_delete"):
            st.toast(TEXT("deleted" if delete_run(row) else "not_deleted", id=row.id))
            st.rerun()


def check_by_replay(trace: Trace) -> None:
    """Write the run again with its own settings on this server and say whether it comes out the same."""
    if trace.pair not in pair_names():
        st.info(TEXT("check_no_pair", pair=trace.pair))
        return
    device = trace.settings.get("device", "cpu")
    device = device.split(":")[0] if isinstance(device, str) and device.split(":")[0] in device_names() else "auto"
    try:
        pair = cached_pair(trace.pair, device)
        settings = DecodeSettings.from_dict(trace.settings)
        seconds = run_seconds(trace.pair, device, trace.scribe or None, settings, len(trace.prompt_tokens),
                              speculative=trace.mode != "plain")
        with st.spinner(TEXT("checking")), fair_run(seconds):
            check = replay_check(pair, trace)
    except (PairError, SettingsError) as error:
        st.error(TEXT("check_cannot", error=explain(error)))
        return
    if check.reproduces:
        st.success(TEXT("check_same", n=len(trace.tokens)))
    else:
        piece = pair.as_target().piece
        shown = {key: token_shown(piece, token) for key, token in (("stored", check.stored), ("replayed", check.replayed))}
        st.error(TEXT("check_differs", at=check.first_difference + 1, **shown))


def token_shown(piece, token: int | None) -> str:
    """A token as the sheet draws it (control tokens as their marks), its id beside it; past a text's end, says so."""
    if token is None:
        return TEXT.plain("check_no_token")
    return TEXT.plain("check_token", piece=display_piece(piece(token)), id=token)


def import_section() -> None:
    st.subheader(TEXT("import"))
    limit_mb = MAX_TRACE_BYTES // 1_000_000
    uploaded = st.file_uploader(TEXT("upload"), type=["json"], help=TEXT("import_help", mb=limit_mb))
    # The uploader keeps its file across reruns: import each file once and keep saying what happened.
    if uploaded is not None and st.session_state.get("archive_imported") != uploaded.file_id:
        st.session_state["archive_imported"] = uploaded.file_id
        outcome = st.session_state["archive_outcome"] = import_file(uploaded.getvalue())
        if outcome.run_id is not None:  # open the run and list it: the table above was drawn before the import
            st.session_state[TO_OPEN] = outcome.run_id
            st.rerun()
    # said once, on the run the import made: a later action (choosing, checking, deleting) imported nothing
    outcome = st.session_state.pop("archive_outcome", None)
    if outcome is not None and uploaded is not None:
        (st.success if outcome.ok else st.error)(outcome.message)
        free_session_uploads()  # the file is in the archive or refused: the server holds it no longer (#38)


def operator_section() -> None:
    """Where whoever started the server gives its operator token (only when one is set), to delete any run."""
    if not operator_token_set():
        return
    with st.expander(TEXT("operator")):
        if is_operator():
            st.caption(TEXT("operator_yes"))
            return
        token = st.text_input(TEXT("operator_token"), type="password", key="archive_operator_token", max_chars=200)
        if token:
            (st.success if claim_operator(token) else st.error)(TEXT("operator_yes" if is_operator() else "operator_no"))


def runs_section(store: Archive, choices: dict[str, list], total: int) -> None:
    """The filters, the table of runs they leave, and the run chosen from it."""
    rows = store.list(filters(choices))
    if not rows:
        st.info(TEXT("no_match" if total else "empty"))
        return
    ids = [r.id for r in rows]
    st.caption(TEXT("shown", shown=len(rows), runs=runs_count(total)))
    st.dataframe(
        table(rows),
        hide_index=True,
        on_select=lambda: pick_row(ids),
        selection_mode="single-row",
        key="runs_table",
        column_config=table_columns(any(r.tree for r in rows)),
    )
    if st.session_state.get(TO_OPEN) in ids:
        st.session_state[CHOSEN] = st.session_state.pop(TO_OPEN)
    elif CHOSEN not in st.session_state:  # back from another page: the reader's choice, not the newest
        st.session_state[CHOSEN] = st.session_state.get(KEPT)
    if st.session_state.get(CHOSEN) not in ids:  # filtered out or deleted: open the newest instead
        st.session_state[CHOSEN] = ids[0]
    labels = {r.id: choice_label(r) for r in rows}
    chosen = st.selectbox(TEXT("choose"), ids, format_func=labels.get, key=CHOSEN)
    st.session_state[KEPT] = chosen
    show_run(store, next(r for r in rows if r.id == chosen))
