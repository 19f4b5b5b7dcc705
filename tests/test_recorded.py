"""Recorded results (#27): the proof page and the speed lab show the default pair's recorded runs at once,
labelled as recorded with the date, the machine and the command; other settings show none."""
import time

from app_pages import open_page

from specdec_core.algorithm.rules import CHAIN_RULES
from specdec_core.decoding.proof_run import exact_pair, fit, run_from_dict
from specdec_core.decoding.proof_scenarios import scenario_for
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


def test_the_class_mode_recordings_catch_every_broken_rule_in_its_scenario():
    """#49 defect 2: with the poorest scribe exact-match gave p = 0.461 and raw-q p = 0.090 under a page that
    promised to catch them. The recordings hold the default scribe under the exact rule and each broken rule in
    the scenario the page's button opens; here the verdicts are recomputed from the recorded samples."""
    pair = load_pair("poetry", "cpu")
    verdicts = {}
    for recording in recorded.load_all("proof", "poetry"):
        key = recording.key
        assert key["samples"] == recorded.PROOF_SAMPLES and key["prompt"] == pair.example_prompts[0]
        ids = pair.encode_prompt(key["prompt"], 2)
        exact = exact_pair(pair.target, ids, SamplingConfig(**key["settings"]["sampling"]), key["samples"])
        run = run_from_dict(recording.result)
        settings = key["settings"]
        verdicts[settings["rule"]] = (key["draft"], settings["k"], settings["sampling"]["temperature"],
                                      *[min(f.p_value for f in fit(run, who, exact)) for who in ("speculative", "plain")])
    assert set(verdicts) == set(CHAIN_RULES)
    assert all(plain > 0.001 for *_, plain in verdicts.values())  # the master alone is never flagged
    assert verdicts["exact"][0] == pair.default_draft and verdicts["exact"][3] > 0.001
    for rule in set(CHAIN_RULES) - {"exact"}:
        scenario = scenario_for("poetry", rule)
        scribe, k, temperature, speculative, _ = verdicts[rule]
        assert (scribe, k, temperature) == (scenario.scribe, scenario.k, scenario.temperature), rule
        assert speculative < 0.001, (rule, speculative)
