"""Recorded results (#27): the proof page and the speed lab show the default pair's recorded runs at once,
labelled as recorded with the date, the machine and the command; other settings show none."""
import time

from app_pages import open_page

from specdec_core.services import recorded


def test_the_shipped_recordings_read_back_and_say_what_they_are():
    for kind in ("proof", "speed"):
        recording = recorded.load(kind, "poetry")
        assert recording is not None and recording.kind == kind
        assert recording.command == "python -m specdec_core record --pair poetry" and recording.machine and recording.recorded_at


def test_the_proof_page_shows_the_recording_at_once():
    started = time.perf_counter()
    app = open_page("proof", "en")
    seconds = time.perf_counter() - started
    assert not app.exception
    assert any("A recorded result" in i.value for i in app.info)
    assert len([s for s in app.success if "cannot be told apart" in s.value]) == 2  # both streams' verdicts
    print(f"\nrecorded proof page: {seconds:.2f} s")


def test_the_speed_lab_shows_the_recording_at_once():
    app = open_page("speed_lab", "zh")
    assert not app.exception
    assert any("錄好的結果" in i.value for i in app.info)
    assert len(app.metric) == 8


def test_other_settings_show_no_recording():
    app = open_page("proof", "en", seed="5")
    assert not any("A recorded result" in i.value for i in app.info)
    assert any("Start sampling" in i.value for i in app.info)
