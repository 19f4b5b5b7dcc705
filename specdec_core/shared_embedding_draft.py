"""A draft that borrows the master's token embedding: a few Llama layers and a head over part of the vocabulary.

The master's embedding (49,152 x 576 for SmolLM2-135M) is most of a small draft's weights, so the
draft reads tokens through the master's own embedding module, shared in memory, and ships only its
layers, final norm and head (EAGLE, Li et al. 2024, likewise reuses the target's embedding). Its
head has a row per token of ``vocab_ids`` only (see scribes/subset_lm.py).

On disk: ``config.json`` (a LlamaConfig whose ``vocab_size`` is the head's size) and
``model.safetensors`` (every weight but the embedding, plus ``vocab_ids``).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedModel

WEIGHTS = "model.safetensors"
CONFIG = "config.json"
EMBEDDING = "model.embed_tokens.weight"


def draft_from_master(master: PreTrainedModel, layer_ids: list[int], vocab_ids: torch.Tensor) -> LlamaForCausalLM:
    """A draft initialised from the master: the chosen layers, its final norm and its head rows."""
    draft = _shell(master, len(layer_ids), len(vocab_ids))
    for i, j in enumerate(layer_ids):
        draft.model.layers[i].load_state_dict(master.model.layers[j].state_dict())
    draft.model.norm.load_state_dict(master.model.norm.state_dict())
    draft.lm_head.weight.data = master.lm_head.weight.data[vocab_ids].clone()
    return draft


def save_draft(draft: LlamaForCausalLM, vocab_ids: torch.Tensor, directory: Path, dtype=torch.float16) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.detach().to(dtype).contiguous() for k, v in draft.state_dict().items() if k != EMBEDDING}
    tensors["vocab_ids"] = vocab_ids.to(torch.int32)
    save_file(tensors, str(directory / WEIGHTS))
    draft.config.to_json_file(directory / CONFIG)


def load_draft(master: PreTrainedModel, directory: Path) -> tuple[LlamaForCausalLM, torch.Tensor]:
    """(draft on the master's device in float32, vocab_ids); raises ValueError on a mismatched file."""
    config = LlamaConfig.from_dict(json.loads((directory / CONFIG).read_text()))
    if config.hidden_size != master.config.hidden_size:
        raise ValueError(f"{directory} was built for hidden size {config.hidden_size}, the master has {master.config.hidden_size}")
    tensors = load_file(str(directory / WEIGHTS))
    vocab_ids = tensors.pop("vocab_ids").long()
    draft = _shell(master, config.num_hidden_layers, len(vocab_ids))
    missing, unexpected = draft.load_state_dict({k: v.float() for k, v in tensors.items()}, strict=False)
    if unexpected or set(missing) != {EMBEDDING}:
        raise ValueError(f"{directory}: unexpected weights {unexpected}, missing {sorted(set(missing) - {EMBEDDING})}")
    return draft.to(master.device).eval(), vocab_ids


def _shell(master: PreTrainedModel, n_layers: int, head_size: int) -> LlamaForCausalLM:
    config = copy.deepcopy(master.config)
    config.num_hidden_layers, config.vocab_size, config.tie_word_embeddings = n_layers, head_size, False
    config.architectures = ["LlamaForCausalLM"]
    draft = LlamaForCausalLM(config)
    draft.model.embed_tokens = master.get_input_embeddings()     # shared with the master, not copied
    return draft
