"""The race page in AppTest: both runs measured, written out in full before a start, and the ratio named."""
from app_pages import open_page


def test_the_race_shows_both_runs_and_who_finished_first():
    app = open_page("race", "en", pair="tiny", max_new="16", seed="3")
    assert not app.exception
    verdict = app.success[0].value
    assert "times as fast" in verdict
    lanes = [h.proto.body for h in app.get("html") if "Noto Serif CJK TC" in h.proto.body]
    assert len(lanes) == 2 and all("<span" in lane for lane in lanes)


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
    assert "white-space:pre-wrap" in lane and ">\n\n</span>" in lane and ">∎</span>" in lane
    assert "↵" not in lane
