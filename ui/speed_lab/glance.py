"""The speed lab's glance section: the master's forward time against positions checked, measured on this server."""
from __future__ import annotations

import streamlit as st

from specdec_core.pairs.pair import PairError
from specdec_core.services.cost import Pace, Work
from specdec_core.services.glance import BUDGET_S, GLANCE_SIZES, MIN_REPEATS, GlanceTimes, measure_glance
from specdec_core.settings import SettingsError
from ui.shared.errors import explain
from ui.shared.i18n import utc_time
from ui.shared.fair_share import fair_run, pace
from ui.shared.measurements import Board
from ui.shared.models import cached_pair
from ui.shared.run_slots import long_work
from ui.shared.texts import TEXT as COMMON
from ui.shared.theme import chart
from ui.speed_lab.glance_plot import glance_figure, glance_verdict
from ui.speed_lab.glance_texts import TEXT


@st.cache_resource(show_spinner=False)
def glance_board() -> Board:
    """The server's latest glance of each pair, device, prompt and sizes: every visitor sees it with its time, and
    "Time the glance" measures it again for all."""
    return Board()


def glance_key(pair_name: str, device: str, prompt: str, sizes: tuple[int, ...] = GLANCE_SIZES) -> str:
    return repr((pair_name, device, prompt, sizes))


def cached_glance(pair_name: str, device: str, prompt: str, sizes: tuple[int, ...] = GLANCE_SIZES,
                  again: bool = False) -> GlanceTimes:
    """The latest glance, measured now if there is none or `again`. The sizes are the usual ones unless a tree's
    glance checks more positions (ui/speed_lab/trees.py)."""
    return glance_board().fresh(glance_key(pair_name, device, prompt, sizes),
                                lambda: _measured_glance(pair_name, device, prompt, sizes), again)


def _measured_glance(pair_name: str, device: str, prompt: str, sizes: tuple[int, ...]) -> GlanceTimes:
    pair = cached_pair(pair_name, device)
    context = pair.encode_prompt(prompt)
    with fair_run(glance_seconds(pace(pair_name, device, None), len(context), sizes)):
        return measure_glance(pair, context, sizes)


def glance_seconds(pace: Pace, context: int, sizes: tuple[int, ...]) -> float:
    """The most measure_glance may take: the prefill, a warm-up, and its repeats of every size until its budget
    is spent (at least MIN_REPEATS), each position charged as a checked one."""
    every_size = pace.seconds(Work(target_forwards=len(sizes), checked_positions=sum(sizes)))
    prefill = pace.seconds(Work(target_forwards=1, prompt_positions=context))
    return prefill + 2 * every_size + max(MIN_REPEATS * every_size, BUDGET_S + every_size)


def show_glance(choice, prompt: str) -> None:
    """Measured when asked (a few seconds in a run slot), then shown with its label; nothing typed in."""
    st.subheader(TEXT("glance_title"))
    st.write(TEXT("glance_intro"))
    run = (choice.pair, choice.device, prompt)
    pressed = st.button(TEXT("glance_measure"), key="glance_measure", help=TEXT("glance_measure_help"))
    if not pressed and glance_board().results.get(glance_key(*run)) is None:
        st.info(TEXT("glance_press"))
        return
    try:
        with st.spinner(TEXT("glance_measuring")), long_work():
            times = cached_glance(*run, again=pressed)
    except (PairError, SettingsError) as error:  # a refusal (a Refusal is a ValueError too)
        st.error(COMMON("cannot_run", error=explain(error)))
        return
    except ValueError:  # the prompt leaves the model no room for one more position
        pair = cached_pair(choice.pair, choice.device)
        st.error(TEXT("glance_no_room", context=len(pair.encode_prompt(prompt)), limit=pair.context_limit))
        return
    checked = choice.settings.k + 1
    chart(st, glance_figure(times, checked, chart_labels(checked)), key="glance_chart")
    runtime = TEXT.plain(f"runtime_{times.runtime}", threads=times.threads)
    st.caption(TEXT("glance_measured", when=utc_time(times.measured_at), device=times.device,
                    runtime=runtime, context=times.context, repeats=times.repeats))
    st.markdown("\n\n".join(glance_sentences(times, choice.settings.k)))


NEAR_ROOF = 1.5   # a one-position step within 1.5 times the weights' read time is bound by memory (issue 48's bar)


def chart_labels(checked: int) -> dict[str, str]:
    return {key: TEXT.plain("g_" + key) for key in ("title", "forward", "weights", "positions", "ms")} | {
        "round": TEXT.plain("g_round", n=checked)}


def glance_sentences(times: GlanceTimes, k: int) -> list[str]:
    """What the measurement says, each number from it: the largest size against one, the sidebar's round, the weights."""
    last = times.sizes[-1]
    words = [TEXT(f"glance_{glance_verdict(times)}", last=last, t_last=times.low_ms[-1], t_one=times.low_ms[0],
                  ratio=times.ratio(last))]
    if k + 1 in times.sizes:
        words.append(TEXT("glance_round", k=k, n=k + 1, t=times.low_ms[times.sizes.index(k + 1)], ratio=times.ratio(k + 1)))
    words.append(TEXT("glance_weights", mb=times.weight_bytes / 1e6, gb_s=times.copy_gb_s, read=times.read_weights_ms))
    roof = times.low_ms[0] / times.read_weights_ms
    words.append(TEXT("glance_roof_near" if roof <= NEAR_ROOF else "glance_roof_far", t_one=times.low_ms[0],
                      read=times.read_weights_ms, ratio=roof))
    words.append(TEXT("glance_gpu", mb=times.weight_bytes / 1e6, read=times.read_weights_ms, t_one=times.low_ms[0]))
    if glance_verdict(times) != "costly":  # the glance is cheap here too: say why, in both cases
        words.append(TEXT("glance_cheap_both"))
    return words
