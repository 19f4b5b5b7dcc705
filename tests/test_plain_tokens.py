"""The fastest plain decoding (the bench's honest baseline) writes what the traced plain decoding writes."""
from dataclasses import replace

import pytest

from specdec_core.decoding.generate import plain_generate, plain_tokens
from specdec_core.runtimes.lean_llama import LeanLlamaLM, cached_lm_for
from specdec_core.settings import DecodeSettings, SamplingConfig
from tests.test_shared_embedding_draft import llama_master

SAMPLINGS = {
    "greedy": SamplingConfig(temperature=0.0),
    "sampled": SamplingConfig(temperature=1.0),
    "nucleus": SamplingConfig(temperature=0.8, top_k=6, top_p=0.9),
}


@pytest.mark.parametrize("sampling", SAMPLINGS.values(), ids=SAMPLINGS.keys())
@pytest.mark.parametrize("seed", [0, 7])
def test_the_fastest_plain_decoding_writes_the_traced_plain_tokens(tiny, tiny_prompt, sampling, seed):
    settings = DecodeSettings(sampling=sampling, seed=seed, max_new_tokens=40, stop_at_eos=False)
    traced = plain_generate(tiny.as_target(), tiny_prompt, settings).tokens
    assert len(traced) == 40
    assert plain_tokens(tiny.as_target(), tiny_prompt, settings) == traced


def test_it_stops_at_the_end_mark_where_the_traced_decoding_stops(tiny, tiny_prompt):
    runs = [DecodeSettings(seed=seed, max_new_tokens=60, sampling=SamplingConfig(temperature=2.0)) for seed in range(12)]
    traced = [plain_generate(tiny.as_target(), tiny_prompt, s).tokens for s in runs]
    assert any(len(tokens) < 60 and tokens[-1] == tiny.as_target().eos_token_id for tokens in traced)  # the rule is exercised
    assert [plain_tokens(tiny.as_target(), tiny_prompt, s) for s in runs] == traced


def test_on_a_llama_it_takes_the_lean_forward_and_still_writes_the_same(tiny, tiny_prompt):
    target = replace(tiny.as_target(), model=llama_master(tiny.vocab_size))
    assert isinstance(cached_lm_for(target.model), LeanLlamaLM)
    for sampling in SAMPLINGS.values():
        settings = DecodeSettings(sampling=sampling, seed=3, max_new_tokens=30, stop_at_eos=False)
        assert plain_tokens(target, tiny_prompt, settings) == plain_generate(target, tiny_prompt, settings).tokens
