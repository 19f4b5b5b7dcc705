"""The race page in AppTest: both runs measured, written out in full before a start, and the ratio named."""
import pytest
from app_pages import open_page, shown_words

from ui.race.texts import TEXT

ENDS_EARLY = dict(pair="tiny", max_new="16", seed="13")  # the master alone writes ∎ as his 9th token (tests/test_race.py)


def lanes(app) -> list[str]:
    return [h.proto.body for h in app.get("html") if "Noto Serif CJK TC" in h.proto.body]


def test_the_race_shows_both_runs_and_who_finished_first():
    app = open_page("race", "en", pair="tiny", max_new="16", seed="3")
    assert not app.exception
    verdict = app.success[0].value
    assert "times as fast" in verdict
    assert len(lanes(app)) == 2 and all("<span" in lane for lane in lanes(app))


def test_starting_the_race_runs_the_clock_from_zero():
    app = open_page("race", "zh", pair="tiny", max_new="16", seed="3")
    app.button(key="race_start").click().run()
    assert not app.exception
    assert app.session_state["race_started"] is not None or app.success  # running, or already finished


def test_a_lane_breaks_lines_where_the_text_does_instead_of_drawing_return_marks(tiny, tiny_prompt):
    """#36: a chat answer's paragraph break was drawn inline as "↵↵" in the race."""
    from dataclasses import replace

    from specdec_core.decoding.generate import plain_generate
    from specdec_core.settings import DecodeSettings
    from ui.race.track import _lane

    run = plain_generate(tiny.as_target(), tiny_prompt, DecodeSettings(max_new_tokens=3, stop_at_eos=False))
    pieces = ["psychology.", "\n\n", "<|im_end|>"]
    run = replace(run, rounds=[replace(r, next_piece=piece) for r, piece in zip(run.rounds, pieces)])
    lane = _lane(run, 3, speculative=False)
    assert "white-space:pre-wrap" in lane and ">\n\n</span>" in lane and ">⟩</span>" in lane  # the end of a chat turn has its own mark
    assert "↵" not in lane


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_race_is_the_median_of_several_runs_told_with_when_and_a_legend(language):
    """#36: one noisy, cached run was presented as "measured just now", and the lanes had no legend."""
    app = open_page("race", language, **ENDS_EARLY)
    assert not app.exception
    verdict = app.success[0].value
    assert ("3 次量測的中位數" if language == "zh" else "the median of 3 runs") in verdict
    captions = [c.value for c in app.caption]
    assert shown_words(TEXT, "legend", language, "character") in captions
    note = next(c for c in captions if c.startswith("量於" if language == "zh" else "Measured at"))
    assert TEXT.table["ago_now"][language] in note and "just now" not in note


def test_each_lane_stops_at_the_end_mark():
    """#36: the lanes ran past ∎ into new poems."""
    app = open_page("race", "en", **ENDS_EARLY)
    for lane in lanes(app):
        assert lane.count("∎") == 1 and lane.rstrip().endswith("∎</span></div>")
    assert "9 of 9 characters" in [c.value.split(",")[0] for c in app.caption]


def test_time_it_again_in_a_fresh_session_is_not_another_sessions_result():
    """The result is cached for the server: a second session's first "again" got the first session's (both heat 1)."""
    heats = []
    for _ in range(2):
        app = open_page("race", "en", **ENDS_EARLY)
        app.button(key="race_again").click().run()
        assert not app.exception
        heats.append(app.session_state["race_heat"])
    assert heats[0] != heats[1]
