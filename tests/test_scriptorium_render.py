"""The sheet and the scriptorium's figures read the trace faithfully, moment by moment."""
import pytest

from specdec_core.engine import DecodeSettings, speculative_generate
from ui.moments import moments
from ui.render import display_piece, sheet_html
from ui.scriptorium_plots import cache_figure, candidate_figure

LABELS = {key: key for key in ("p", "q", "min", "r", "axis", "master", "scribe", "before", "after", "rolled", "kept", "dropped")}


@pytest.fixture(scope="module")
def trace(tiny, tiny_prompt):
    return speculative_generate(tiny.writer(), tiny.scribe(), tiny_prompt, DecodeSettings(k=4, max_new_tokens=30, stop_at_eos=False))


def test_seals_on_the_sheet_follow_the_moments(trace):
    for moment in moments(trace):
        html = sheet_html(trace, moment)
        done = trace.rounds[: moment.round]
        expected = sum(r.n_accepted for r in done) + moment.sealed
        assert html.count('class="cell sealed') == expected


def test_the_last_moment_shows_every_written_token(trace):
    html = sheet_html(trace, moments(trace)[-1])
    written = html.count('cell sealed') + html.count('cell corrected') + html.count('cell bonus') + html.count('cell plain')
    assert written == len(trace.tokens)


def test_control_tokens_and_spaces_stay_visible():
    assert display_piece("</s>") == "∎"
    assert display_piece("\n") == "↵"
    assert display_piece(" ") == "␣"
    assert display_piece("月") == "月"


def test_candidate_bars_hold_p_q_and_their_minimum(trace):
    step = trace.rounds[0].drafted[0]
    figure = candidate_figure(step.candidates, step.token, LABELS, residual=False)
    by_name = {bar.name: list(bar.y) for bar in figure.data}
    assert by_name["p"] == [c.p for c in step.candidates]
    assert by_name["min"] == [min(c.p, c.q) for c in step.candidates]


def test_cache_bars_drop_exactly_what_the_rollback_drops(trace):
    r = next(r for r in trace.rounds if r.n_accepted < len(r.drafted))
    figure = cache_figure(r, LABELS)
    dropped = dict(zip(figure.data[1].y, figure.data[1].x))
    assert dropped["master · after"] == r.target_cache[1] - r.target_cache[2] == len(r.drafted) - r.n_accepted


def test_a_long_prompt_shows_its_end(trace):
    from dataclasses import replace

    long = replace(trace, prompt_text="序" * 100 + "春山")
    html = sheet_html(long, moments(long)[0])
    assert html.count('class="cell prompt') == 31 and "…" in html
