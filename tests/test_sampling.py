"""The shared sampling transforms: greedy, temperature, top-k, top-p and the noise knob."""
import pytest
import torch

from specdec_core.algorithm.sampling import mix_with_uniform, probs_from_logits, sample
from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.settings import MAX_TOKENS, MIN_TEMPERATURE, DecodeSettings, SamplingConfig, SettingsError, check_fits

LOGITS = torch.log(torch.tensor([0.5, 0.25, 0.15, 0.1]))


def test_temperature_one_is_softmax():
    assert torch.allclose(probs_from_logits(LOGITS, SamplingConfig()), torch.tensor([0.5, 0.25, 0.15, 0.1]))


def test_greedy_is_one_hot_on_the_argmax():
    assert probs_from_logits(LOGITS, SamplingConfig(temperature=0)).tolist() == [1.0, 0.0, 0.0, 0.0]


def test_low_temperature_sharpens():
    probs = probs_from_logits(LOGITS, SamplingConfig(temperature=0.5))
    expected = torch.tensor([0.25, 0.0625, 0.0225, 0.01])
    assert torch.allclose(probs, expected / expected.sum())


def test_top_k_keeps_the_k_most_likely():
    probs = probs_from_logits(LOGITS, SamplingConfig(top_k=2))
    assert torch.allclose(probs, torch.tensor([2 / 3, 1 / 3, 0.0, 0.0]))


def test_top_p_keeps_the_smallest_set_reaching_p():
    # 0.5 alone is short of 0.7; 0.5 + 0.25 reaches it, so two tokens stay.
    probs = probs_from_logits(LOGITS, SamplingConfig(top_p=0.7))
    assert torch.allclose(probs, torch.tensor([2 / 3, 1 / 3, 0.0, 0.0]))
    assert probs_from_logits(LOGITS, SamplingConfig(top_p=0.1)).tolist() == [1.0, 0.0, 0.0, 0.0]


def test_top_p_works_on_batches_in_any_order():
    batch = torch.stack([LOGITS, LOGITS.flip(0)])
    probs = probs_from_logits(batch, SamplingConfig(top_p=0.7))
    assert torch.allclose(probs[1], probs[0].flip(0))


def nucleus_by_full_sort(logits: torch.Tensor, top_p: float) -> torch.Tensor:
    """The plain definition, for reference: rank every token, keep while the mass before is short of p."""
    ranked, order = logits.softmax(-1).sort(dim=-1, descending=True)
    keep_ranked = (ranked.cumsum(-1) - ranked) < top_p
    return torch.zeros_like(keep_ranked).scatter(-1, order, keep_ranked)


@pytest.mark.parametrize("scale", [4.0, 0.05])   # peaked rows (nucleus inside the ranked head) and near-flat ones (past it)
def test_top_p_on_a_large_vocabulary_matches_ranking_every_token(scale):
    logits = torch.randn((3, 5000), generator=torch.Generator().manual_seed(2)) * scale
    kept = probs_from_logits(logits, SamplingConfig(top_p=0.95)) > 0
    assert torch.equal(kept, nucleus_by_full_sort(logits, 0.95))
    assert (kept.sum(-1) > 512).all() == (scale < 1)   # the flat case did take the full sort


def test_noise_mixes_with_uniform():
    q = torch.tensor([1.0, 0.0, 0.0, 0.0])
    assert torch.allclose(mix_with_uniform(q, 0.4), torch.tensor([0.7, 0.1, 0.1, 0.1]))
    assert mix_with_uniform(q, 0.0) is q


def test_sample_is_replayed_by_the_same_seed():
    probs = torch.full((5, 10), 0.1)
    first = sample(probs, torch.Generator().manual_seed(7))
    assert torch.equal(first, sample(probs, torch.Generator().manual_seed(7)))
    assert first.shape == (5,)


@pytest.mark.parametrize("kwargs", [{"temperature": -1}, {"top_p": 0}, {"top_p": 1.5}, {"top_k": -3}])
def test_out_of_range_settings_say_which(kwargs):
    with pytest.raises(SettingsError, match=next(iter(kwargs)).replace("_", "-")):
        SamplingConfig(**kwargs)


@pytest.mark.parametrize("temperature", [1e-40, 1e-38, 1e-10, MIN_TEMPERATURE / 2])
def test_a_temperature_between_greedy_and_the_floor_is_refused_by_its_reason(temperature):
    """#38: T = 1e-40 made logits / T overflow; the pages crashed on NaN and the CLI wrote garbage."""
    with pytest.raises(SettingsError, match="temperature") as refused:
        SamplingConfig(temperature=temperature)
    assert refused.value.reason == "temperature" and refused.value.values["value"] == temperature


def test_greedy_and_the_floor_itself_are_runs_with_real_probabilities():
    assert SamplingConfig(temperature=0.0).greedy
    probs = probs_from_logits(torch.tensor([50.0, 49.99, -50.0]), SamplingConfig(temperature=MIN_TEMPERATURE))
    assert torch.isfinite(probs).all() and probs.sum().item() == pytest.approx(1.0)


def test_new_tokens_are_bounded_where_settings_are_built():
    """#38: an imported trace asked for 1,000,000,000 new tokens and its replay never ended."""
    assert DecodeSettings(max_new_tokens=MAX_TOKENS).max_new_tokens == MAX_TOKENS
    with pytest.raises(SettingsError) as refused:
        DecodeSettings(max_new_tokens=10**9, k=32, stop_at_eos=False)
    assert refused.value.reason == "max_new_tokens"


FITS = {
    "beyond the context": ([1] * 100, 29, "run_too_long"),
    "an id past the vocabulary": ([1, 15], 4, "token_outside_vocabulary"),
    "a negative id": ([-1], 4, "token_outside_vocabulary"),
    "no prompt": ([], 4, "prompt_empty"),
}


@pytest.mark.parametrize("prompt, new, reason", FITS.values(), ids=FITS.keys())
def test_a_run_must_fit_the_model_s_vocabulary_and_context(prompt, new, reason):
    with pytest.raises(SettingsError) as refused:
        check_fits(prompt, DecodeSettings(max_new_tokens=new), vocab_size=15, context_limit=128)
    assert refused.value.reason == reason


def test_a_run_that_fills_the_context_exactly_fits():
    check_fits([1] * 100, DecodeSettings(max_new_tokens=28), vocab_size=15, context_limit=128)


def test_sample_matches_its_distribution_and_never_draws_a_zero():
    probs = torch.tensor([0.0, 0.5, 0.0, 0.3, 0.2, 0.0])
    draws = sample(probs.expand(40_000, -1), torch.Generator().manual_seed(3))
    counts = torch.bincount(draws, minlength=6)
    assert counts[[0, 2, 5]].sum() == 0
    fit = goodness_of_fit(counts.numpy()[[1, 3, 4]], probs.numpy()[[1, 3, 4]])
    assert fit.p_value > 0.001


def test_sample_follows_a_skewed_distribution_negative_control():
    """The same test rejects when the draws come from another distribution."""
    draws = sample(torch.tensor([0.0, 0.45, 0.0, 0.35, 0.2, 0.0]).expand(40_000, -1), torch.Generator().manual_seed(3))
    counts = torch.bincount(draws, minlength=6)
    assert goodness_of_fit(counts.numpy()[[1, 3, 4]], [0.5, 0.3, 0.2]).p_value < 0.001
