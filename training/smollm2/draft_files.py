"""Writing a shared-embedding draft's files: a draft started from the master's own layers, saved in
the shipped form (int8 rows) or exactly. The reading side is specdec_core/runtimes/shared_embedding_draft.py.
"""
from __future__ import annotations

from pathlib import Path

import torch
from safetensors.torch import save_file
from transformers import LlamaForCausalLM, PreTrainedModel

from specdec_core.runtimes.int8_linear import int8_rows
from specdec_core.runtimes.shared_embedding_draft import CONFIG, EMBEDDING, LAYERS, ROW_SCALE, WEIGHTS, draft_shell


def draft_from_master(master: PreTrainedModel, layer_ids: list[int], vocab_ids: torch.Tensor) -> LlamaForCausalLM:
    """A draft initialised from the master: the chosen layers, its final norm and its head rows."""
    draft = draft_shell(master, len(layer_ids), len(vocab_ids))
    for i, j in enumerate(layer_ids):
        draft.model.layers[i].load_state_dict(master.model.layers[j].state_dict())
    draft.model.norm.load_state_dict(master.model.norm.state_dict())
    draft.lm_head.weight.data = master.lm_head.weight.data[vocab_ids].clone()
    return draft


def save_draft(draft: LlamaForCausalLM, vocab_ids: torch.Tensor, directory: Path, int8: bool = True,
               layers: bool = True) -> None:
    """int8 matrices with float16 vectors (what ships), or every weight in float32 (exact); with
    layers=False, an early exit's file: the final norm and head only.

    Per-row int8 costs the four-layer draft almost nothing (held-back alpha 0.5776 -> 0.5772) and
    halves the file, which lets twice the layers fit the pair's 40 MiB.
    """
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {}
    for name, value in draft.state_dict().items():
        if name == EMBEDDING or (not layers and name.startswith(LAYERS)):
            continue
        value = value.detach().float()
        if int8 and value.dim() == 2:
            tensors[name], tensors[name + ROW_SCALE] = int8_rows(value)
        else:
            tensors[name] = value.to(torch.float16 if int8 else torch.float32).contiguous()
    tensors["vocab_ids"] = vocab_ids.to(torch.int32)
    save_file(tensors, str(directory / WEIGHTS))
    draft.config.to_json_file(directory / CONFIG)
