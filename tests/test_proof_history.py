"""The proof page's TV curve (#27): on cells fixed before sampling, exact sampling falls toward its floor
while a broken rule levels off above it; a batch interrupted halfway keeps neither stream's draws."""
import pytest
import torch

from specdec_core.algorithm.stats import MIN_EXPECTED
from specdec_core.decoding.proof_run import ProofRun, draw_batch, exact_pair, fit, streams
from specdec_core.runtimes.cached_lm import last_logits
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


def test_a_flat_first_token_lists_no_joint_cell_and_forwards_no_empty_batch(tiny, tiny_prompt):
    # At one sample no first token is expected 5 times: the joint listed no x1, and its forward was
    # handed zero rows ("cannot reshape tensor of 0 elements"), the crash a class saw under load.
    settings = DecodeSettings(k=2, seed=3)
    exact = exact_pair(tiny.target, tiny_prompt, settings.sampling, n_samples=1)
    assert len(exact.joint.first_tokens) == 0 and len(exact.joint.probs) == 0
    assert exact.samples_to_test_joint() == pytest.approx(MIN_EXPECTED / exact.first.probs.max())
    run = ProofRun(total=500)
    draw_batch(run, *streams(tiny, "lm", tiny_prompt, settings), exact)
    joint = fit(run, "speculative", exact)[1]
    assert joint.dof == 0 and joint.p_value == 1.0  # nothing to test, said as such, not a crash


def test_a_forward_of_no_rows_is_refused_in_plain_words(tiny, tiny_prompt):
    with pytest.raises(ValueError, match="at least one row"):
        last_logits(tiny.target, torch.zeros((0, len(tiny_prompt)), dtype=torch.long))
