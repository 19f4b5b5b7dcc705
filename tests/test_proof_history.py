"""The proof page's TV curve (#27): on cells fixed before sampling, exact sampling falls toward its floor
while a broken rule levels off above it; a batch interrupted halfway keeps neither stream's draws."""
import pytest

from specdec_core.decoding.proof_run import ProofRun, draw_batch, exact_pair, streams
from specdec_core.settings import DecodeSettings

TOTAL = 6000


def history(tiny, tiny_prompt, rule: str) -> list[dict]:
    settings = DecodeSettings(k=2, seed=3, rule=rule)
    exact = exact_pair(tiny.target, tiny_prompt, settings.sampling, TOTAL)
    run = ProofRun(TOTAL)
    speculative, plain = streams(tiny, "lm", tiny_prompt, settings)
    while run.done < run.total:
        draw_batch(run, speculative, plain, exact)
    return run.history


def test_exact_sampling_falls_toward_its_floor(tiny, tiny_prompt):
    points = history(tiny, tiny_prompt, "exact")
    assert points[-1]["speculative"] < 0.6 * points[0]["speculative"]      # about 1 / sqrt(12) of the way
    assert points[-1]["null"] < points[0]["null"]
    assert points[-1]["speculative"] < 2 * points[-1]["null"]


def test_a_broken_rule_levels_off_above_the_floor(tiny, tiny_prompt):
    """The negative control: the same curve must show resample-p's bias at the page's sample sizes."""
    points = history(tiny, tiny_prompt, "resample-p")
    assert points[-1]["speculative"] > 3 * points[-1]["null"]
    assert points[-1]["plain"] < 2 * points[-1]["null"]


def test_a_batch_stopped_between_the_two_streams_keeps_neither(tiny, tiny_prompt):
    settings = DecodeSettings(k=2, seed=3)
    exact = exact_pair(tiny.target, tiny_prompt, settings.sampling, 2000)
    run = ProofRun(2000)
    speculative, plain = streams(tiny, "lm", tiny_prompt, settings)
    plain.draw = lambda size: (_ for _ in ()).throw(KeyboardInterrupt("Stop pressed"))
    with pytest.raises(KeyboardInterrupt):
        draw_batch(run, speculative, plain, exact)
    assert run.speculative == [] and run.plain == [] and run.done == 0
