"""The calibrate stage: the grid search finds how much flatter q is than p, and scaling the draft's
head rows scales its logits exactly (no bias, the norm comes before the head)."""
import pytest
import torch

from specdec_core.settings import SamplingConfig
from tests.test_shared_embedding_draft import llama_master
from training.smollm2.calibrate import SCALES, SETTING, overlap_by_scale
from training.smollm2.draft_files import draft_from_master


def master_logits(positions: int = 40, vocab: int = 60) -> torch.Tensor:
    return 3 * torch.randn(positions, vocab, generator=torch.Generator().manual_seed(0))


@pytest.mark.parametrize("flatter", [1.0, 1.3])
def test_the_chosen_scale_undoes_a_flattened_draft(flatter):
    p = master_logits()
    alphas = overlap_by_scale([(p / flatter, p)], SCALES, SETTING)
    assert max(alphas, key=alphas.get) == flatter
    assert alphas[flatter] == pytest.approx(1.0, abs=1e-5)
    assert min(alphas.values()) < 0.97                    # the other scales do overlap less


def test_overlap_is_measured_after_the_shared_temperature_and_top_p():
    p = master_logits()
    greedy = overlap_by_scale([(p.roll(1, dims=1), p)], (1.0,), SamplingConfig(0.0))[1.0]
    assert greedy == pytest.approx((p.roll(1, dims=1).argmax(1) == p.argmax(1)).float().mean().item())


def test_scaling_the_head_rows_scales_the_logits():
    master = llama_master(60)
    vocab_ids = torch.arange(0, 60, 2)
    draft = draft_from_master(master, [0], vocab_ids).eval()
    ids = torch.tensor([[1, 5, 7, 9, 3]])
    with torch.no_grad():
        before = draft(input_ids=ids).logits
        draft.lm_head.weight.mul_(1.2)
        after = draft(input_ids=ids).logits
    assert torch.allclose(after, 1.2 * before, atol=1e-5)
