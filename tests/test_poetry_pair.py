"""The shipped default pair: it loads offline, speaks one vocabulary, and stays exact."""
import pytest

from specdec_core.engine import DecodeSettings, plain_generate, speculative_generate
from specdec_core.pairs import PairError, load_pair
from specdec_core.proof import run_proof
from specdec_core.sampling import SamplingConfig

PROMPT = "床前明月光，"


@pytest.fixture(scope="module")
def poetry():
    return load_pair("poetry", device="cpu")


def test_the_ladder_is_complete_and_the_distilled_scribe_is_default(poetry):
    assert list(poetry.scribes) == ["unigram", "bigram", "trigram", "tiny", "distilled"]
    assert poetry.default_scribe == "distilled"
    assert poetry.vocab_size == poetry.target.config.vocab_size


@pytest.mark.parametrize("scribe", ["trigram", "distilled"])
def test_greedy_speculative_equals_the_masters_greedy(poetry, scribe):
    settings = DecodeSettings(k=4, sampling=SamplingConfig(temperature=0), max_new_tokens=48, stop_at_eos=False)
    ids = poetry.encode_prompt(PROMPT)
    plain = plain_generate(poetry.writer(), ids, settings)
    assert speculative_generate(poetry.writer(), poetry.scribe(scribe), ids, settings).tokens == plain.tokens


def test_characters_outside_the_vocabulary_are_named(poetry):
    with pytest.raises(PairError, match="lacks these characters: Q"):
        poetry.encode_prompt("床前Q月光")


@pytest.mark.parametrize("scribe, rule, passes", [("distilled", "exact", True), ("trigram", "exact", True), ("trigram", "resample-p", False)])
def test_two_token_proof_on_the_trained_pair(poetry, scribe, rule, passes):
    """High-entropy p: the enumerated cells cover only part of the mass, the rest is pooled.

    The broken rule's bias grows with 1 - alpha, so a poor scribe shows it at 10,000 samples.
    """
    settings = DecodeSettings(k=4, seed=5, rule=rule)
    report = run_proof(poetry.target, poetry.scribe(scribe), poetry.encode_prompt(PROMPT), 10_000, 2, settings, batch_size=2000)
    assert report.exact.probs.sum() < 0.99  # the case that needs n to count every sample
    assert (report.fit.p_value > 0.001) == passes
