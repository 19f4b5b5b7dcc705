"""The speed lab's pure builders: the theory's curve and best k, the time split, the sweep, the verdict."""
import json
from string import Formatter

import pytest

from specdec_core.algorithm.theory import alpha_needed, best_k, expected_tokens_per_round, most_tokens_per_round, speedup
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.services.bench import speedup_interval, time_split
from specdec_core.settings import DecodeSettings
from ui.speed_lab.plots import (
    K_MAX,
    best_label_position,
    breakdown_figure,
    clearly_best,
    glance_note,
    position_alpha_figure,
    position_trend,
    speedup_figure,
    sweep_best,
    sweep_grid,
    sweep_heatmap,
    temperature_lesson,
    temperature_rows,
    theory_best,
    theory_curve,
    top_with_headroom,
    twice_as_fast,
    verdict,
)
from ui.shared.units import unit_words
from ui.speed_lab.texts import TEXT

CURVE_LABELS = {key: key for key in ("title", "k", "speedup", "theory", "paper", "measured", "earlier", "best", "plain")}
SPLIT_LABELS = {key: key for key in ("title", "ms", "speculative", "plain", "draft", "verify", "other")}
SWEEP_LABELS = {key: key for key in ("title", "k", "temperature", "speedup")}


def bench_result(k=4, alpha=0.8, c=0.1, verify_cost=1.3, measured=1.5, overhead=0.05, tokens=24) -> dict:
    """A report shaped like run_bench's, with hand-picked numbers."""
    return {
        "k": k, "alpha": alpha, "c": c, "verify_cost": verify_cost, "speedup_vs_plain": measured, "tokens": tokens,
        "predicted_speedup": speedup(alpha, k, c, verify_cost), "overhead_fraction": overhead,
        "tokens_per_target_forward": expected_tokens_per_round(alpha, k), "tokens_per_s": {"speculative": 30.0, "plain": 20.0},
    }


def traces_of(fig) -> dict:
    return {trace.name: trace for trace in fig.data}


@pytest.mark.parametrize("alpha, c, verify_cost", [(0.9, 0.05, 1.0), (0.6, 0.2, 1.4), (0.3, 0.7, 1.1), (0.97, 0.01, 2.0)])
def test_best_k_is_the_theory_module_s(alpha, c, verify_cost):
    assert theory_best(alpha, c, verify_cost) == best_k(alpha, c, lambda k: verify_cost, k_max=K_MAX)
    curve = theory_curve(alpha, c, verify_cost)
    assert list(curve) == list(range(1, K_MAX + 1))
    assert max(curve, key=curve.get) == theory_best(alpha, c, verify_cost)[0]


def test_speedup_figure_draws_the_theory_the_measurement_and_the_best_k():
    result = bench_result(k=3, alpha=0.85, c=0.08, verify_cost=1.2, measured=1.7)
    fig = traces_of(speedup_figure(result, {1: 1.2, 3: 9.9, 6: 1.5}, CURVE_LABELS))
    assert list(fig["theory"].y) == pytest.approx([speedup(0.85, k, 0.08, 1.2) for k in range(1, K_MAX + 1)])
    assert list(fig["paper"].y) == pytest.approx([speedup(0.85, k, 0.08, 1.0) for k in range(1, K_MAX + 1)])
    assert (list(fig["measured"].x), list(fig["measured"].y)) == ([3], [1.7])
    assert list(fig["earlier"].x) == [1, 6]  # the current k is the measured point, not an earlier one
    k, s = best_k(0.85, 0.08, lambda k: 1.2, k_max=K_MAX)
    assert (list(fig["best"].x), list(fig["best"].y)) == ([k], [pytest.approx(s)])


@pytest.mark.parametrize("s_measured, position", [
    (1.6, "bottom center"),   # measured above the star: the label goes below, off the measured point
    (1.4, "bottom center"),
    (1.2, "top center"),
])
def test_the_best_k_label_stands_off_the_measured_point(s_measured, position):
    assert best_label_position(1.4, s_measured) == position


def test_the_figure_places_the_best_k_label_by_the_measured_point():
    result = bench_result(k=2, alpha=0.55, c=0.1, verify_cost=1.0, measured=1.7)     # the theory's best: k = 3, 1.55x
    fig = traces_of(speedup_figure(result, {}, CURVE_LABELS))
    assert list(fig["best"].x) == [3] and fig["best"].textposition == "bottom center"


def test_the_best_k_label_above_the_highest_point_has_room():
    """The label over a star at the top of the curve was cut off by the plot's edge ("Theory's best k = 12")."""
    result = bench_result(k=6, alpha=0.99, c=0.5, verify_cost=1.2, measured=1.5)
    figure = speedup_figure(result, {2: 1.1}, CURVE_LABELS)
    highest = max(max(trace.y) for trace in figure.data)
    assert traces_of(figure)["best"].textposition.startswith("top")
    assert figure.layout.yaxis.range[0] == 0 and figure.layout.yaxis.range[1] >= 1.1 * highest


def test_an_axis_top_ignores_values_that_are_not_finite():
    assert top_with_headroom([float("nan"), 2.0, float("inf")]) == pytest.approx(2.3)
    assert top_with_headroom([float("nan")]) == pytest.approx(1.0)


def test_speedup_figure_without_earlier_points_has_no_earlier_trace():
    assert "earlier" not in traces_of(speedup_figure(bench_result(), {4: 1.5}, CURVE_LABELS))


def test_time_split_adds_up_to_the_wall_time(tiny, tiny_prompt):
    settings = DecodeSettings(k=3, max_new_tokens=12, stop_at_eos=False)
    spec = [speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings)]
    plain = [plain_generate(tiny.as_target(), tiny_prompt, settings)]
    for traces in (spec, plain):
        split = time_split(traces)
        assert split["tokens"] == 12
        assert split["draft"] + split["verify"] + split["other"] == pytest.approx(1000 * traces[0].wall_s / 12)
    assert time_split(plain)["draft"] == 0.0 and time_split(spec)["draft"] > 0.0


def test_breakdown_figure_stacks_draft_verify_and_the_rest():
    split = {
        "speculative": {"draft": 1.0, "verify": 2.0, "other": 0.5, "tokens": 10},
        "plain": {"draft": 0.0, "verify": 4.0, "other": 0.25, "tokens": 10},
    }
    fig = breakdown_figure(split, SPLIT_LABELS)
    assert fig.layout.barmode == "stack"
    bars = {trace.name: list(trace.y) for trace in fig.data if trace.type == "bar"}
    assert bars == {"draft": [1.0, 0.0], "verify": [2.0, 4.0], "other": [0.5, 0.25]}
    totals = [trace for trace in fig.data if trace.type == "scatter"][0]
    assert list(totals.text) == ["3.50", "4.25"]


def test_sweep_heatmap_annotates_every_measured_cell():
    ks, temperatures = [1, 2, 4], [0.0, 1.0]
    cells = {(k, t): {"speedup_vs_plain": k / 2 + t / 4, "alpha": 0.5} for k in ks for t in temperatures if (k, t) != (4, 1.0)}
    heat = sweep_heatmap(cells, ks, temperatures, SWEEP_LABELS).data[0]
    assert [list(row) for row in heat.z] == [[0.5, 1.0, 2.0], [0.75, 1.25, None]]
    assert [list(row) for row in heat.text] == [["0.50×", "1.00×", "2.00×"], ["0.75×", "1.25×", ""]]
    assert heat.zmid == 1.0
    assert sweep_grid(cells, ks, temperatures, "alpha")[0] == [0.5, 0.5, 0.5]
    assert sweep_best(cells) == (4, 0.0, 2.0)


def test_verdict_when_faster_names_no_reason():
    faster, numbers, reasons = verdict(bench_result(measured=1.4))
    assert faster and reasons == []
    assert numbers["cost"] == pytest.approx(4 * 0.1 + 1.3)
    assert numbers["tokens"] == pytest.approx(expected_tokens_per_round(0.8, 4))


def test_verdict_of_a_poor_slow_scribe_on_a_costly_device():
    faster, numbers, reasons = verdict(bench_result(k=6, alpha=0.2, c=0.5, verify_cost=1.6, measured=0.4, overhead=0.3))
    assert not faster
    assert reasons == ["slow_ratio", "reason_poor", "reason_slow", "reason_verify", "reason_overhead"]
    assert numbers["predicted"] < 1


def test_a_poor_scribe_at_the_ladder_s_top_gets_the_advice_left_to_give():
    """#36: "choose a scribe who resembles the master more (slider to the right)" with the slider at its right end."""
    poor = bench_result(k=6, alpha=0.3, c=0.05, verify_cost=1.1, measured=0.8)
    _, numbers, top = verdict(poor, best_scribe=True, noise=0.0, temperature=1.0)
    assert top[1:4] == ["reason_poor_best", "advice_k", "advice_temperature"]  # right after the round's balance
    assert numbers["best_k"] < 6
    _, _, cold = verdict(poor | {"k": 1}, best_scribe=True, noise=0.2, temperature=0.0)
    assert "reason_poor_best" in cold and "advice_noise" in cold
    assert "advice_k" not in cold and "advice_temperature" not in cold   # k = 1 is shortest; T = 0 is coolest
    _, _, lower = verdict(poor, best_scribe=False, noise=0.0, temperature=1.0)
    assert "reason_poor" in lower and "advice_noise" not in lower          # no shake to lower
    assert "slider to the right" in TEXT.table["reason_poor"]["en"] and "slider" not in TEXT.table["advice_k"]["en"]


def test_verdict_when_the_theory_promised_a_gain_the_run_lost():
    faster, _, reasons = verdict(bench_result(alpha=0.9, c=0.02, verify_cost=1.0, measured=0.9))
    assert not faster
    assert reasons == ["gain_on_paper", "reason_gap"]


def test_twice_as_fast_names_the_alpha_the_theory_needs_with_this_runs_costs():
    key, numbers = twice_as_fast(0.66, 0.15, 1.15)
    assert key == "note_twice_needs"
    assert theory_best(numbers["need"], 0.15, 1.15)[1] >= 2.0 > theory_best(numbers["need"] - 1e-3, 0.15, 1.15)[1]
    assert numbers["need_free"] < numbers["need"]
    assert theory_best(numbers["need_free"] - 1e-3, 0.0, 1.15)[1] < 2.0  # even a free scribe falls short below it
    for language in ("zh", "en"):
        TEXT.table[key][language].format(unit="u", units="us", **numbers)


def test_twice_as_fast_when_the_alpha_suffices_and_when_no_alpha_can():
    key, numbers = twice_as_fast(0.95, 0.05, 1.0)
    assert key == "note_twice_allowed" and numbers["need"] <= 0.95
    key, numbers = twice_as_fast(0.99, 0.5, 1.0)  # (k + 1) / (k/2 + 1) < 2 for every k
    assert key == "note_twice_out_of_reach" and alpha_needed(2.0, 0.5, lambda k: 1.0, K_MAX) is None
    assert theory_best(1.0, 0.5, 1.0)[1] < 2.0
    for language in ("zh", "en"):
        TEXT.table[key][language].format(unit="u", units="us", **numbers)


def test_every_sentence_exists_in_both_languages_and_fills_in():
    numbers = verdict(bench_result(alpha=0.2, c=0.5, measured=0.4, overhead=0.3))[1]
    for key, words in TEXT.table.items():
        assert set(words) == {"zh", "en"}, key
        for text in words.values():
            fields = {name for _, name, _, _ in Formatter().parse(text) if name}
            if fields <= set(numbers):
                text.format(**numbers)  # the verdict's sentences take exactly the verdict's numbers


def test_figures_serialise_for_the_browser():
    json.loads(speedup_figure(bench_result(), {}, CURVE_LABELS).to_json())


def test_each_sweep_cell_says_how_sure_it_is():
    """#27: neighbouring cells read 0.65x / 2.20x / 0.73x and 2.20x was announced as the fastest."""
    cells = {(k, 1.0): {"speedup_vs_plain": s, "alpha": 0.5, "speedup_interval": i}
             for k, s, i in ((1, 0.65, [0.4, 0.9]), (2, 2.20, [0.7, 3.1]), (4, 0.73, [0.5, 1.0]))}
    figure = sweep_heatmap(cells, [1, 2, 4], [1.0], {key: key for key in ("title", "k", "temperature", "speedup")})
    assert figure.data[0].text[0][1] == "2.20×<br>0.70–3.10"
    assert not clearly_best(cells)
    cells[(2, 1.0)]["speedup_interval"] = [1.9, 2.5]
    assert clearly_best(cells)


def test_the_bench_interval_holds_the_measured_speedup_and_widens_with_few_units():
    plain, spec = [2.0, 2.2, 1.8, 2.1], [1.0, 1.2, 0.9, 1.1]
    low, high = speedup_interval(plain, spec)
    assert low <= sum(plain) / sum(spec) <= high
    few_low, few_high = speedup_interval(plain[:2], [1.0, 1.6])
    assert few_high - few_low > high - low


def test_labels_stay_inside_the_plot_at_either_end_of_k():
    assert best_label_position(1.4, 1.0, k_best=1).endswith("right")
    assert best_label_position(1.4, 1.0, k_best=12).endswith("left")
    figure = speedup_figure(bench_result(), {}, CURVE_LABELS)
    assert "plain" in [trace.name for trace in figure.data] and not figure.layout.annotations


@pytest.mark.parametrize("k, length, cap", [(6, 24, 6.0), (2, 24, 3.0), (4, 24, 24 / 5), (8, 24, 8.0), (6, 7, 7.0), (6, 8, 4.0)])
def test_a_run_of_some_length_caps_the_characters_per_glance(k, length, cap):
    assert most_tokens_per_round(k, length) == pytest.approx(cap)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_verdict_sets_the_capped_measurement_beside_the_theory(language):
    """#36: "characters per glance 6.00" stood beside "a glance yields 6.89 characters on average": 24-character runs
    at k = 6 take at least 4 glances (7 + 7 + 7 + 3), so no run of that length can measure more than 6.00."""
    result = bench_result(k=6, alpha=0.9948, c=0.506, verify_cost=1.398, measured=1.47) | {"tokens_per_target_forward": 6.0}
    numbers = verdict(result)[1]
    assert numbers["cap"] == 6.0 and numbers["glances"] == 4 and numbers["tokens"] == pytest.approx(6.89, abs=0.005)
    assert glance_note(numbers) == "glance_capped"
    sentence = TEXT.table[glance_note(numbers)][language].format(**numbers, **unit_words(language, "character"))
    assert all(figure in sentence for figure in ("6.00", "6.89", "24", "= 7", " 4 "))
    fast = TEXT.table["fast"][language].format(**numbers, **unit_words(language, "character"))
    assert "6.89" in fast and ("照定理" if language == "zh" else "By the theory") in fast


def test_the_verdict_names_no_cap_where_the_length_allows_the_theory():
    numbers = verdict(bench_result(k=2, alpha=0.8) | {"tokens_per_target_forward": 2.3})[1]
    assert numbers["cap"] == 3.0 > numbers["tokens"]
    assert glance_note(numbers) == "glance_measured"


def sweep_of(alpha_by_t: dict[float, float]) -> dict:
    return {(k, t): {"alpha": a, "tokens_per_target_forward": 5 * a, "speedup_vs_plain": 1.2 * a}
            for t, a in alpha_by_t.items() for k in (1, 2)}


def test_the_sweep_says_greedy_rejected_more_when_its_alpha_was_lower():
    """#36: the sweep showed T = 0 slower than T = 0.8 at every k under "the cooler, the easier". The int8 scribe's
    alpha was about 0.97 at T = 0 against 0.99 at 0.8: greedy acceptance is all or nothing, and his argmax differs at near-ties."""
    rows = temperature_rows(sweep_of({0.0: 0.97, 0.8: 0.995, 1.0: 0.99}), [1, 2], [0.0, 0.8, 1.0])
    assert [row["t"] for row in rows] == [0.0, 0.8, 1.0] and rows[0]["alpha"] == pytest.approx(0.97)
    key, numbers = temperature_lesson(rows)
    assert key == "sweep_cold_rejects"
    assert (numbers["a_cold"], numbers["t_other"], numbers["a_other"]) == pytest.approx((0.97, 0.8, 0.995))
    assert numbers["g_cold"] < numbers["g_other"]


def test_the_sweep_says_cooling_helped_only_when_its_alpha_was_higher():
    key, numbers = temperature_lesson(temperature_rows(sweep_of({0.0: 0.6, 1.0: 0.4}), [1, 2], [0.0, 1.0]))
    assert key == "sweep_cold_agrees" and numbers["a_cold"] > numbers["a_other"]
    assert temperature_lesson(temperature_rows(sweep_of({0.8: 0.6, 1.0: 0.4}), [1, 2], [0.8, 1.0])) is None


def test_the_sweep_intro_claims_nothing_about_temperature_that_a_run_decides():
    for text in TEXT.table["sweep_intro"].values():
        assert "越低，墨卿與阿速越容易" not in text and "The cooler the temperature, the more often" not in text


def test_the_lab_quotes_the_speedup_against_the_fastest_plain_decoding_where_the_report_has_it():
    """Issue 34, item 4: the traced plain decoding pays the sheet's tables once a token, so its ratio runs high."""
    result = bench_result(k=3, alpha=0.85, c=0.08, verify_cost=1.2, measured=1.9) | {
        "speedup_vs_fastest_plain": 0.8, "speedup_interval_vs_fastest_plain": [0.7, 0.9]}
    assert list(traces_of(speedup_figure(result, {}, CURVE_LABELS))["measured"].y) == [0.8]
    faster, numbers, reasons = verdict(result)
    assert not faster and numbers["measured"] == 0.8 and reasons  # against the traced one it would read 1.9x, faster
    cells = {(1, 1.0): result, (2, 1.0): bench_result(measured=1.0) | {"speedup_vs_fastest_plain": 0.95,
                                                                       "speedup_interval_vs_fastest_plain": [0.92, 0.98]}}
    assert sweep_best(cells) == (2, 1.0, 0.95) and clearly_best(cells)
    assert sweep_heatmap(cells, [1, 2], [1.0], SWEEP_LABELS).data[0].text[0] == ["0.80×<br>0.70–0.90", "0.95×<br>0.92–0.98"]


@pytest.mark.parametrize("alphas, key", [
    ([0.93, 0.85, 0.71], "position_falls"),
    ([0.60, 0.70], "position_rises"),
    ([0.801, 0.5, 0.799], "position_holds"),  # equal as shown to two decimals: neither falls nor rises
    ([0.4], "position_one"),
])
def test_the_trend_sentence_is_what_the_run_s_own_numbers_did(alphas, key):
    rounds = list(range(10, 10 - len(alphas), -1))
    assert position_trend(alphas, rounds) == (key, {"first": alphas[0], "last": alphas[-1], "m": len(alphas), "n": rounds[-1]})


def test_the_position_chart_draws_each_position_s_alpha_and_the_overall_line():
    labels = {key: key for key in ("title", "position", "alpha", "bars", "overall")}
    fig = traces_of(position_alpha_figure([0.9, 0.8, 0.6], 0.82, labels))
    assert list(fig["bars"].x) == [1, 2, 3] and list(fig["bars"].y) == [0.9, 0.8, 0.6]
    assert list(fig["bars"].text) == ["0.90", "0.80", "0.60"]
    assert list(fig["overall"].y) == [0.82, 0.82] and list(fig["overall"].x) == [0.5, 3.5]
