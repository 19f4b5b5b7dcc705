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
