"""Accepted drafts per round beside the geometric law: the law, its cut-off per round, what is left out, the chart."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from app_pages import open_page, shown_words

from specdec_core.algorithm.theory import accepted_length_law, expected_tokens_per_round
from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings
from ui.scriptorium.accepted import accepted_figure, judged_rounds, observed_and_expected
from ui.scriptorium.accepted_texts import TEXT


@pytest.mark.parametrize("alpha, k", [(0.0, 3), (0.5, 1), (0.8, 6), (1.0, 4)])
def test_the_law_is_cut_off_at_k_and_agrees_with_the_papers_mean(alpha, k):
    law = accepted_length_law(alpha, k)
    assert len(law) == k + 1 and sum(law) == pytest.approx(1.0)
    assert law[k] == pytest.approx(alpha**k)  # the whole line: no (1 - alpha), there is no next draft to reject
    assert sum(i * p for i, p in enumerate(law)) + 1 == pytest.approx(expected_tokens_per_round(alpha, k))


def test_each_round_adds_its_own_law(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(k=3, max_new_tokens=20, seed=0))
    rounds, undrafted, cut = judged_rounds(trace)
    assert rounds and len(rounds) + undrafted + cut == len(trace.rounds)
    short = replace(rounds[0], drafted=rounds[0].drafted[:1], n_accepted=min(rounds[0].n_accepted, 1))  # a round near the limit
    observed, expected = observed_and_expected([rounds[0], short], 0.5)
    assert sum(observed) == 2 and sum(expected) == pytest.approx(2.0)
    assert expected == pytest.approx([0.5 + 0.5, 0.25 + 0.5] + [0.125, 0.125][: len(rounds[0].drafted) - 1])


def test_a_round_the_text_leaves_at_an_end_mark_is_left_out(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(k=3, max_new_tokens=20, seed=0))
    first = trace.rounds[0]
    if not first.n_accepted:
        pytest.skip("this seed's first round accepted nothing")
    ended = replace(trace, tokens=trace.tokens[: first.n_accepted])  # as if its last accepted draft were the end mark
    rounds, _, cut = judged_rounds(ended)
    assert first.index not in {r.index for r in rounds} and cut >= 1


def test_the_chart_draws_the_counts_and_the_law():
    figure = accepted_figure([1, 0, 3], [0.8, 0.7, 2.5], {key: key for key in ("observed", "law", "accepted", "rounds")})
    bars, law = figure.data
    assert list(bars.y) == [1, 0, 3] and list(law.y) == [0.8, 0.7, 2.5] and list(bars.x) == [0, 1, 2]
    json.loads(figure.to_json())


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_scriptorium_shows_the_run_against_the_law(language):
    app = open_page("scriptorium", language, pair="tiny", k="3", max_new="24")
    assert not app.exception
    assert shown_words(TEXT, "a_title", language, "character") in [e.label for e in app.expander]
    figure = json.loads(next(e for e in app.get("plotly_chart") if e.proto.id.endswith("accepted_chart")).proto.spec)
    bars = figure["data"][0]
    shown = [c.value for c in app.caption]
    assert any(f"{sum(bars['y'])}" in caption for caption in shown)
