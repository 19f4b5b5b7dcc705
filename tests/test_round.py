"""One round for every page: the sheet (one row, caches), the proof (many rows, a shared prompt) and the
iron rule (k = 1, a fixed position) all run round.speculative_round, and its shapes agree."""
import numpy as np
import pytest
import torch

from specdec_core.algorithm import round as round_module
from specdec_core.algorithm.round import speculative_round
from specdec_core.decoding import generate as engine
from specdec_core.decoding import one_position, proof
from specdec_core.decoding.generate import speculative_generate
from specdec_core.decoding.round_models import ManyRowDraft, OneRowDraft, OneRowTarget, SharedPrefixTarget
from specdec_core.runtimes.cached_lm import CachedLM, SharedPrefix
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.iron_rule import runs as iron_rule_data


def one_row_round(tiny, prompt, settings, seed):
    lm, scribe = CachedLM(tiny.target), tiny.draft("lm")
    scribe.start()
    lm.logits(prompt[:-1])
    scribe.prefill(prompt[:-1])
    generator = torch.Generator().manual_seed(seed)
    return speculative_round(OneRowTarget(lm), OneRowDraft(scribe), torch.tensor([prompt]), settings.k, settings, generator)


def many_row_round(tiny, prompt, settings, seed, rows):
    target = SharedPrefixTarget(SharedPrefix(tiny.target, prompt[:-1]))
    generator = torch.Generator().manual_seed(seed)
    contexts = torch.tensor([prompt] * rows)
    return speculative_round(target, ManyRowDraft(tiny.draft("lm")), contexts, settings.k, settings, generator)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_one_row_gives_the_same_round_through_caches_and_through_a_shared_prompt(tiny, tiny_prompt, seed):
    """The same seed at B = 1: the sheet's cached models and the proof's batched ones draw the same round."""
    settings = DecodeSettings(k=4, seed=seed)
    cached = one_row_round(tiny, tiny_prompt, settings, seed)
    batched = many_row_round(tiny, tiny_prompt, settings, seed, rows=1)
    assert cached.new_tokens() == batched.new_tokens()
    assert torch.equal(cached.verdict.uniforms, batched.verdict.uniforms)
    assert torch.allclose(cached.p, batched.p, atol=1e-5) and torch.allclose(cached.q, batched.q, atol=1e-6)


@pytest.mark.parametrize("seed", [0, 5])
def test_greedy_rows_of_a_batch_each_write_what_one_row_writes(tiny, tiny_prompt, seed):
    """At temperature 0 nothing is left to chance, so B = 8 rows write the B = 1 round's tokens."""
    settings = DecodeSettings(k=3, seed=seed, sampling=SamplingConfig(temperature=0.0))
    alone = one_row_round(tiny, tiny_prompt, settings, seed).new_tokens()[0]
    assert many_row_round(tiny, tiny_prompt, settings, seed, rows=8).new_tokens() == [alone] * 8


def test_the_sheet_the_proof_and_the_iron_rule_all_run_the_one_round(tiny, tiny_prompt, monkeypatch):
    callers = []
    real = round_module.speculative_round

    def spy(*args, **kwargs):
        callers.append(args[2].shape[0])  # the batch size each caller asked for
        return real(*args, **kwargs)

    for module in (engine, proof, one_position):
        monkeypatch.setattr(module, "speculative_round", spy)
    speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(max_new_tokens=6))
    sheet = len(callers)
    proof.sample_continuations(tiny.target, tiny.draft(), tiny_prompt, 300, 2, DecodeSettings(k=2))
    in_proof = len(callers) - sheet
    position = iron_rule_data.toy_position(iron_rule_data.TOY)
    one_position.run_rule(position, "exact", 500, seed=0)
    assert sheet >= 1 and callers[:sheet] == [1] * sheet
    assert in_proof >= 1 and max(callers[sheet : sheet + in_proof]) > 1
    assert callers[-1] == 500


def test_the_iron_rule_writes_p_through_the_round(tiny):
    """k = 1 at one fixed position: the written tokens follow p, the scribe's sealed rate is alpha."""
    position = iron_rule_data.toy_position(iron_rule_data.TOY)
    dists = one_position.distributions(position)
    draws = one_position.run_rule(position, "exact", 20_000, seed=3)
    frequencies = np.bincount(draws.written, minlength=len(dists.p)) / len(draws.written)
    assert 0.5 * np.abs(frequencies - dists.p).sum() < 0.02
    assert abs(draws.sealed.mean() - dists.alpha) < 0.02
