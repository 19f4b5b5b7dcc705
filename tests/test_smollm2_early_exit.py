"""The early-exit stage (training/smollm2/early_exit.py) ships the last distill-own round's norm and head only
where the shipped draft's first layers are still that round's, to within their int8 rounding."""
import pytest
import torch

from specdec_core.runtimes.shared_embedding_draft import load_draft
from tests.test_shared_embedding_draft import llama_master
from training.smollm2.draft_files import draft_from_master, save_draft
from training.smollm2.early_exit import require_same_layers


@pytest.fixture()
def base(tiny):
    master = llama_master(tiny.vocab_size)
    vocab_ids = torch.arange(3, tiny.vocab_size)
    return master, draft_from_master(master, [0], vocab_ids), vocab_ids


def shipped_from(master, draft, vocab_ids, directory):
    save_draft(draft, vocab_ids, directory)                # the shipped form: int8 rows
    return load_draft(master, directory)[0]


def test_layers_that_differ_only_by_int8_rounding_pass(base, tmp_path):
    master, draft, vocab_ids = base
    deeper = draft_from_master(master, [0, 1], vocab_ids)  # its first layer is the base's, as after grow
    require_same_layers(draft, shipped_from(master, deeper, vocab_ids, tmp_path))


def test_layers_trained_further_are_refused(base, tmp_path):
    master, draft, vocab_ids = base
    moved = draft_from_master(master, [0, 1], vocab_ids)
    with torch.no_grad():
        moved.model.layers[0].mlp.up_proj.weight.add_(0.05)
    with pytest.raises(SystemExit, match="model.layers.0.mlp.up_proj.weight is not round 4's") as refused:
        require_same_layers(draft, shipped_from(master, moved, vocab_ids, tmp_path))
    # a finished grow leaves the shipped files alone, so the way back must name its checkpoint
    assert "delete " in str(refused.value) and str(refused.value).count("grow.pt") == 1
