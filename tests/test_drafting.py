"""Drafting from scores that allow part of the vocabulary: computed on the allowed tokens alone, it
draws the same tokens from the same generator state and gives q equal to rounding; dense rows,
batches and noise take the whole-vocabulary path."""
import torch

from specdec_core.algorithm import drafting
from specdec_core.algorithm.drafting import draft_token, small_support
from specdec_core.algorithm.rules import rule_named
from specdec_core.settings import DecodeSettings, SamplingConfig

V = 4096


def part_vocabulary_scores(seed=0, allowed=512):
    ids = torch.randperm(V, generator=torch.Generator().manual_seed(seed))[:allowed]
    logits = torch.full((V,), -torch.inf)
    logits[ids] = torch.randn(allowed, generator=torch.Generator().manual_seed(seed + 1)) * 3
    return logits


def draws(logits, settings, rule, share, monkeypatch, n=200):
    monkeypatch.setattr(drafting, "SMALL_SUPPORT", share)
    generator = torch.Generator().manual_seed(9)
    picked = [draft_token(logits, settings, rule, generator) for _ in range(n)]
    return [int(t) for t, _, _ in picked], picked[0][1]


def test_the_allowed_tokens_alone_give_the_same_draws_and_q(monkeypatch):
    logits = part_vocabulary_scores()
    for sampling, rule in ((SamplingConfig(0.7, top_p=0.95), "exact"), (SamplingConfig(1.0, top_k=20), "exact"),
                           (SamplingConfig(0.0), "exact"), (SamplingConfig(0.8), "greedy-soft-q"), (SamplingConfig(0.9), "raw-q")):
        settings = DecodeSettings(sampling=sampling, rule=rule)
        on_support = draws(logits, settings, rule_named(rule), 0.5, monkeypatch)
        whole = draws(logits, settings, rule_named(rule), 0.0, monkeypatch)
        assert on_support[0] == whole[0], sampling
        torch.testing.assert_close(on_support[1], whole[1], atol=1e-6, rtol=0)
        assert on_support[1].shape == (V,) and on_support[1][logits == -torch.inf].eq(0).all()


def test_dense_rows_batches_and_noise_take_the_whole_vocabulary():
    sparse = part_vocabulary_scores()
    assert len(small_support(sparse, 0.0)) == 512
    assert small_support(sparse, 0.1) is None                     # noise spreads q over every token
    assert small_support(torch.randn(V), 0.0) is None
    assert small_support(torch.stack([sparse, sparse]), 0.0) is None
