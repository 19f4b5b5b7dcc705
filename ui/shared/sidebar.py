"""The shared sidebar: every setting that defines a run, mirrored in the URL so a link reopens it.

Each setting's value lives under its own name in session state, and its widget under "w_" + name,
copied in before the widget is drawn and out by its on_change: Streamlit forgets a widget's state
on a page switch, the plain entry survives (Streamlit's documented pattern for keeping widget
values across pages). A session's first run takes the values from the URL (checked: a value out of
range is dropped with a note); every run writes them back, so the address bar names the run on
screen.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import streamlit as st

from specdec_core.pairs.pair import ModelPair, PairError
from specdec_core.pairs.registry import RunDefaults, run_defaults
from specdec_core.settings import MIN_TEMPERATURE, DecodeSettings, SamplingConfig, tree_nodes, tree_shape
from ui.shared.errors import explain
from ui.shared.i18n import DEFAULT_LANGUAGE, LANGUAGES
from ui.shared.models import cached_pair, device_names, other_pairs_allowed, pair_names, tree_refusal
from ui.shared.scribes import scribe_label, scribe_labels
from ui.shared.texts import TEXT
from ui.shared.units import keep_unit_of


@dataclass(frozen=True)
class Knob:
    """One sidebar setting: how to read it from the URL and the values it may take."""

    parse: Callable[[str], object]
    default: object = None  # None: the first of the options the sidebar offers
    low: float | None = None
    high: float | None = None
    options: tuple[str, ...] = ()  # a fixed menu (pairs, scribes and devices depend on the machine)
    shown: str = ""  # the values allowed, in words, where low–high does not say it all

    def read(self, text: str):
        value = self.parse(text)
        if self.options and value not in self.options:
            raise ValueError(value)
        if self.low is not None and not self.low <= value <= self.high:  # NaN is never in range
            raise ValueError(value)
        return value

    def allowed(self) -> str:
        if self.shown:
            return self.shown
        if self.options:
            return ", ".join(self.options)
        if self.low is not None:
            return f"{_number(self.low)}–{_number(self.high)}"
        return "true, false" if self.parse is _flag else ""


def _number(value: float) -> str:
    """A bound as a reader writes it: whole numbers in full (a seed's 2147483647, not 2.14748e+09)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _temperature(text: str) -> float:
    """A temperature the core runs (SamplingConfig is the one judge): a tiny one is refused like any bad value."""
    return SamplingConfig(temperature=float(text)).temperature


def _shape(text: str) -> str:
    """A tree's name the core runs (settings.tree_shape is the one judge), written plainly; "" a chain of k."""
    shape = tree_shape(text)
    if shape is None:
        return ""
    return f"dynamic-{shape.width}-{shape.budget}" if shape.width else "-".join(map(str, shape.branching))


def _flag(text: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise ValueError(text)
    return text.lower() == "true"


# The draft's shapes the sidebar offers, chain first: a few static trees (children per depth) and EAGLE-2's growth.
# A link or a replayed run may name any other the core runs; the menu then offers it too.
SHAPES = ("", "2-1", "2-2", "2-1-1", "2-2-1", "3-2-1-1", "2-2-2-1", "dynamic-2-8", "dynamic-3-16")
KNOBS = {
    "language": Knob(str, DEFAULT_LANGUAGE, options=tuple(LANGUAGES)),
    "large": Knob(_flag, False),
    "presenter": Knob(_flag, False),
    "pair": Knob(str),
    "other": Knob(str, ""),
    "device": Knob(str),
    "max_new": Knob(int, RunDefaults.max_new_tokens, 8, 128),
    "scribe": Knob(str),
    "noise": Knob(float, 0.0, 0.0, 1.0),
    "k": Knob(int, RunDefaults.k, 1, 12),
    "shape": Knob(_shape, "", shown=", ".join(SHAPES[1:]) + " …"),  # not "tree": the proof page's own switch is
    "temperature": Knob(_temperature, RunDefaults.temperature, 0.0, 2.0, shown=f"0, {MIN_TEMPERATURE:g}–2"),
    "top_p": Knob(float, RunDefaults.top_p, 0.05, 1.0),
    "seed": Knob(int, 0, 0, 2**31 - 1),
    "prompt": Knob(str),
}
LINK_VALUE_SHOWN = 40  # characters of a refused link value quoted back in the note


@dataclass(frozen=True)
class RunChoice:
    """What the sidebar chose: enough to reproduce a run exactly."""

    pair: str
    device: str
    scribe: str
    prompt: str
    settings: DecodeSettings


def shared_sidebar() -> RunChoice | None:
    """Render the sidebar; the choice (None when the pair cannot load) also goes to session state."""
    _adopt_url()
    bar = st.sidebar
    _keep_choice("language", list(LANGUAGES))
    bar.radio(TEXT("language"), list(LANGUAGES), format_func=LANGUAGES.get, horizontal=True, **_widget("language"))
    bar.toggle(TEXT("large_type"), **_widget("large"))
    bar.toggle(TEXT("presenter"), help=TEXT("presenter_help"), **_widget("presenter"))
    bar.subheader(TEXT("settings"))
    pair_name = bar.selectbox(TEXT("pair"), _keep_choice("pair", pair_names()), **_widget("pair"))
    _pair_defaults(pair_name)
    other_pair = (st.session_state.get("other", "") if other_pairs_allowed() else "").strip()
    keep_unit_of(other_pair or pair_name)  # before any label names the unit
    with bar.expander(TEXT("advanced")):
        device = st.selectbox(TEXT("device"), _keep_choice("device", device_names()), **_widget("device"))
        max_new = st.slider(TEXT("max_new"), 8, 128, **_widget("max_new"))
        other = _other_pair_input()
    if other.strip():  # two models of the teacher's own, instead of a shipped pair
        pair_name = other.strip()
        bar.caption(TEXT("using_other", pair=pair_name))
    pair = _load(pair_name, device)
    choice = _run_widgets(bar, pair, pair_name, device, max_new) if pair else None
    st.session_state["choice"] = choice
    for note in st.session_state.get("url_notes", []):
        bar.warning(note)
    bar.caption(TEXT("share"))
    st.session_state["from_url"] = set()  # the link's values are checked on the first run only
    _write_url()
    return choice


def _pair_defaults(pair_name: str) -> None:
    """A pair's own length, k, temperature and top-p when the pair changes (a chat answer needs more than a
    verse; the poetry scribe drafts a line), each unless the link set it; drawn before the sliders,
    which then show them."""
    if st.session_state.get("defaults_of") == pair_name:
        return
    first = "defaults_of" not in st.session_state
    st.session_state["defaults_of"] = pair_name
    defaults = run_defaults(pair_name)
    wanted = {"max_new": defaults.max_new_tokens, "k": defaults.k, "temperature": defaults.temperature, "top_p": defaults.top_p}
    for key, default in wanted.items():
        if not (first and key in st.session_state.get("from_url", set())):
            st.session_state[key] = default


def _other_pair_input() -> str:
    """Two folders of models, named by their folder names, only where whoever started the server
    allowed it: otherwise a link or a visitor could make the server read any folder or a hub."""
    if not other_pairs_allowed():
        if st.session_state.get("other"):
            st.session_state["other"] = ""
            _note_refused("other", TEXT("other_not_allowed"))
        return ""
    return st.text_input(TEXT("other_pair"), placeholder="TARGET,DRAFT", help=TEXT("other_pair_help"), **_widget("other"))


def adopt_run_settings(trace, run_key: str) -> bool:
    """Set the sidebar to a replayed run's own settings (once per run), so the sheet and the settings on
    screen agree; values this sidebar cannot show are left as they are. True when anything changed."""
    if st.session_state.get("settings_of_run") == run_key:
        return False
    st.session_state["settings_of_run"] = run_key
    settings, sampling = trace.settings, trace.settings.get("sampling") or {}
    wanted = {"pair": trace.pair, "scribe": trace.scribe, "k": settings.get("k"), "seed": settings.get("seed"),
              "noise": settings.get("noise"), "max_new": settings.get("max_new_tokens"),
              "temperature": sampling.get("temperature"), "top_p": sampling.get("top_p"),
              "shape": settings.get("tree", "")}  # a chain's trace has no tree
    if trace.pair not in pair_names():
        return False
    changed = False
    for key, value in wanted.items():
        if value is not None and st.session_state.get(key) != value and _fits(key, value):
            st.session_state[key] = value
            changed = True
    typed = trace.extra.get("prompt_as_typed")
    st.session_state.update(prompt_of=trace.pair, defaults_of=trace.pair)
    if isinstance(typed, str) and st.session_state.get("prompt") != typed:
        st.session_state["prompt"], changed = typed, True
    return changed


def _fits(key: str, value) -> bool:
    """Whether the sidebar's widget for `key` can show `value`."""
    knob = KNOBS[key]
    if knob.low is None:
        return isinstance(value, str) and _reads(knob, value)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and knob.low <= value <= knob.high


def _reads(knob: Knob, value: str) -> bool:
    try:
        return knob.read(value) == value
    except ValueError:
        return False


def presenter_strip(pages: list) -> None:
    """Presenter mode folds the sidebar away, page list and all: one short line of the pages instead (the
    session keeps every setting, presenter mode included), and the way back to the sidebar (Esc)."""
    with st.container(horizontal=True, vertical_alignment="center", key="presenter_strip"):
        for page in pages:
            st.page_link(page)
        st.button(TEXT("leave_presenter"), key="leave_presenter", on_click=_leave_presenter, shortcut="Esc", type="tertiary")


def _leave_presenter() -> None:
    st.session_state["presenter"] = False


def current_choice() -> tuple[RunChoice, ModelPair]:
    """For pages: the sidebar's choice and its loaded pair, or a polite stop when there is none."""
    choice = st.session_state.get("choice")
    if choice is None:
        st.info(TEXT("no_pair"))
        st.stop()
    return choice, cached_pair(choice.pair, choice.device)


def _adopt_url() -> None:
    """On a session's first run, the defaults, then whatever the link it was opened with says."""
    if st.session_state.get("url_adopted"):
        return
    st.session_state["url_adopted"] = True
    st.session_state["url_notes"] = []
    st.session_state["from_url"] = set()
    for key, knob in KNOBS.items():
        if knob.default is not None:
            st.session_state[key] = knob.default
        if key in st.query_params:
            try:
                st.session_state[key] = knob.read(st.query_params[key])
                st.session_state["from_url"].add(key)
            except ValueError:
                _note_refused(key, knob.allowed())


def _note_refused(key: str, allowed: str) -> None:
    refused_link_note(key, allowed)


def refused_link_note(key: str, allowed: str) -> str:
    """Say that the link's value for `key` was not used, and what would have been: kept with the link's
    other notes, which the sidebar shows on every run from the next on. Returns the note, for a page
    that refuses a value of its own after the sidebar was drawn to show it now."""
    value = st.query_params.get(key, "")
    shown = value if len(value) <= LINK_VALUE_SHOWN else value[:LINK_VALUE_SHOWN] + "…"
    note = TEXT("bad_link", key=key, value=shown) + (TEXT("bad_link_allowed", allowed=allowed) if allowed else "")
    st.session_state.setdefault("url_notes", []).append(note)
    st.session_state.get("from_url", set()).discard(key)
    return note


def _widget(key: str) -> dict:
    """Arguments that tie a widget to its setting: drawn with the setting's value, written back on change."""
    if key in st.session_state:
        st.session_state["w_" + key] = st.session_state[key]
    return {"key": "w_" + key, "on_change": _keep, "args": (key,)}


def _keep(key: str) -> None:
    st.session_state[key] = st.session_state["w_" + key]


def _write_url() -> None:
    """Settle every setting under its own name (widgets drawn with defaults included), then mirror it."""
    for key in KNOBS:
        if "w_" + key in st.session_state:
            st.session_state[key] = st.session_state["w_" + key]
    st.query_params.update({key: str(st.session_state[key]) for key in KNOBS if key in st.session_state})


def _keep_choice(key: str, options: list[str]) -> list[str]:
    """Drop a value the options lack (a link to a pair this machine does not have, say), with a note."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
        if key in st.session_state.get("from_url", set()):
            _note_refused(key, ", ".join(options))
    return options


def _load(pair_name: str, device: str) -> ModelPair | None:
    try:
        with st.spinner(TEXT("loading_pair")):
            return cached_pair(pair_name, device)
    except (PairError, OSError) as error:
        st.sidebar.error(TEXT("cannot_load", error=explain(error)))
        return None


def _run_widgets(bar, pair: ModelPair, pair_name: str, device: str, max_new: int) -> RunChoice:
    ladder = list(pair.drafts)
    if st.session_state.get("scribe") not in ladder:  # a new pair has its own ladder
        if st.session_state.get("scribe") is not None and "scribe" in st.session_state.get("from_url", set()):
            _note_refused("scribe", ", ".join(ladder))
        st.session_state["scribe"] = pair.default_draft
    names = scribe_labels(ladder)  # the id stays the value (links, traces); the reader sees a name in their language
    scribe = bar.select_slider(TEXT("scribe"), ladder, format_func=names.get, help=TEXT("scribe_help"), **_widget("scribe"))
    noise = bar.slider(TEXT("noise"), 0.0, 1.0, step=0.05, help=TEXT("noise_help"), **_widget("noise"))
    refusal = _tree_refused(pair_name, device, scribe)
    tree_chosen = bool(st.session_state.get("shape")) and refusal is None
    k = bar.slider(TEXT("k"), 1, 12, disabled=tree_chosen, help=TEXT("k_help_tree") if tree_chosen else None, **_widget("k"))
    tree = _shape_widget(bar, k, refusal)
    temperature = bar.slider(TEXT("temperature"), 0.0, 2.0, step=0.05, **_widget("temperature"))
    top_p = bar.slider(TEXT("top_p"), 0.05, 1.0, step=0.05, **_widget("top_p"))
    seed = bar.number_input(TEXT("seed"), 0, 2**31 - 1, **_widget("seed"))
    example = pair.example_prompts[0] if pair.example_prompts else ""
    if "prompt_of" not in st.session_state:  # the first run: the link's prompt, or the pair's example
        st.session_state["prompt_of"] = pair_name
        st.session_state.setdefault("prompt", example)
    elif st.session_state["prompt_of"] != pair_name:  # another pair may lack the old prompt's characters
        st.session_state.update(prompt_of=pair_name, prompt=example)
    prompt = bar.text_input(TEXT("prompt"), **_widget("prompt"))
    bar.pills(TEXT("examples"), pair.example_prompts, key="example", on_change=_use_example)
    sampling = SamplingConfig(temperature=temperature, top_k=0, top_p=top_p)
    settings = DecodeSettings(k=k, sampling=sampling, seed=int(seed), max_new_tokens=max_new, noise=noise, tree=tree)
    return RunChoice(pair_name, device, scribe, prompt, settings)


def _tree_refused(pair_name: str, device: str, scribe: str) -> str | None:
    """Why these models draft a chain instead of the chosen tree, in the reader's language: the question the run
    itself asks (models.tree_refusal). None where no tree is chosen or they can draw it."""
    shape = st.session_state.get("shape", "")
    refusal = tree_refusal(pair_name, device, scribe, DecodeSettings(tree=shape)) if shape else None
    if refusal is None:
        return None
    values = {**refusal.values, "scribe": scribe_label(scribe)} if "scribe" in refusal.values else refusal.values
    return TEXT.plain(f"error_{refusal.reason}", **values)


def _shape_widget(bar, k: int, refusal: str | None) -> str:
    """The draft's shape: the tree the run draws, or "" for a chain of k. A tree run drafts to the tree's depth,
    so k is not used; where these models cannot draw a tree the run is a chain of k, said plainly, and the shape
    stays chosen for the next scribe that can."""
    chosen = st.session_state.get("shape", "")
    menu = list(SHAPES) + ([chosen] if chosen not in SHAPES else [])  # a link's or a replayed run's own tree
    labels = {shape: shape_label(shape) for shape in menu}  # read now, in this run's language
    shape = bar.selectbox(TEXT("shape"), menu, format_func=labels.get, help=TEXT("shape_help"), **_widget("shape"))
    if not shape:
        return ""
    if refusal is not None:
        bar.warning(TEXT("tree_refused", k=k, why=refusal))
        return ""
    tree = tree_shape(shape)
    if tree.width:
        bar.caption(TEXT("shape_grows", width=tree.width, budget=tree.budget))
    else:
        bar.caption(TEXT("shape_depths", depths=tree.max_depth, nodes=tree_nodes(tree.branching)))
    return shape


def shape_label(shape: str) -> str:
    """A draft's shape in words, read from its name (no Markdown: for menus and filled texts)."""
    tree = tree_shape(shape)
    if tree is None:
        return TEXT.plain("shape_chain")
    if tree.width:
        return TEXT.plain("shape_dynamic", width=tree.width, budget=tree.budget)
    return TEXT.plain("shape_static", shape=shape, depths=tree.max_depth, nodes=tree_nodes(tree.branching))


def _use_example() -> None:
    if st.session_state.get("example"):
        st.session_state["prompt"] = st.session_state["example"]
        st.session_state["example"] = None
