"""Recorded results (#27): the proof page and the speed lab show the default pair's recorded runs at once,
labelled as recorded with the date, the machine and the command; other settings show none."""
import time

from app_pages import open_page

from specdec_core.algorithm.rules import CHAIN_RULES
from specdec_core.decoding.proof_run import exact_pair, fit, run_from_dict
from specdec_core.pairs.registry import load_pair
from specdec_core.services import recorded
from specdec_core.settings import SamplingConfig


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


def test_the_class_mode_recordings_pass_the_exact_rule_and_catch_resample_p_with_the_poorest_scribe():
    # The page's default (2,000 samples) must still decide: recorded for the default scribe and for the
    # poorest one under every rule; here the verdicts are recomputed from the recorded samples.
    pair = load_pair("poetry", "cpu")
    verdicts = {}
    for recording in recorded.load_all("proof", "poetry"):
        key = recording.key
        assert key["samples"] == recorded.PROOF_SAMPLES
        ids = pair.encode_prompt(key["prompt"], 2)
        exact = exact_pair(pair.target, ids, SamplingConfig(**key["settings"]["sampling"]), key["samples"])
        run = run_from_dict(recording.result)
        verdicts[key["draft"], key["settings"]["rule"]] = [min(f.p_value for f in fit(run, who, exact))
                                                          for who in ("speculative", "plain")]
    poorest = next(iter(pair.drafts))
    assert set(verdicts) == {(pair.default_draft, "exact")} | {(poorest, rule) for rule in CHAIN_RULES}
    assert all(plain > 0.001 for _, plain in verdicts.values())
    assert verdicts[pair.default_draft, "exact"][0] > 0.001 and verdicts[poorest, "exact"][0] > 0.001
    assert verdicts[poorest, "resample-p"][0] < 0.001
