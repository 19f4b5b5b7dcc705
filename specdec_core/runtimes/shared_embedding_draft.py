"""A draft that borrows the target's token embedding: a few Llama layers and a head over part of the vocabulary.

The target's embedding (49,152 x 576 for SmolLM2-135M) is most of a small draft's weights, so the
draft reads tokens through the target's own embedding module, shared in memory, and ships only its
layers, final norm and head (EAGLE, Li et al. 2024, likewise reuses the target's embedding). Its
head has a row per token of ``vocab_ids`` only (see drafts/subset_lm.py).

On disk: ``config.json`` (a LlamaConfig whose ``vocab_size`` is the head's size) and
``model.safetensors`` (every weight but the embedding, plus ``vocab_ids``). Shipped drafts keep each
weight matrix as int8 with one float32 scale per row (weight-only): dequantised on load, or on CPU
kept and multiplied as int8 (``int8_matmul``, int8_linear.py); float32 files load as they are.

An early exit is a draft whose file holds only a final norm and head: it reads the first layers of
another draft (``layers_from``), sharing them in memory, and stops there. A deep draft grown on a
frozen shallow one (training/smollm2/grow.py) so offers a cheaper rung for a few MB.
Training writes these files (training/smollm2/draft_files.py); the app only reads them.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedModel
from transformers.initialization import no_init_weights

from specdec_core.runtimes.device import place
from specdec_core.runtimes.int8_linear import use_int8_matrices

WEIGHTS = "model.safetensors"
CONFIG = "config.json"
EMBEDDING = "model.embed_tokens.weight"
ROW_SCALE = ".row_scale"     # suffix of an int8 matrix's per-row scales
LAYERS = "model.layers."


def load_draft(target: PreTrainedModel, directory: Path, layers_from: LlamaForCausalLM | None = None,
               int8_matmul: bool = False) -> tuple[LlamaForCausalLM, torch.Tensor]:
    """(draft on the target's device in float32, vocab_ids); raises ValueError on a mismatched file.

    An early exit's file (no layer weights) takes its layers from ``layers_from``, shared, not copied.
    With int8_matmul on a CPU target, the file's int8 matrices stay int8 and are multiplied as they
    are (int8_linear.py): faster decoding, but no float weights to train or compare.
    """
    config = LlamaConfig.from_dict(json.loads((directory / CONFIG).read_text()))
    if config.hidden_size != target.config.hidden_size:
        raise ValueError(f"{directory} was built for hidden size {config.hidden_size}, the target has {target.config.hidden_size}")
    tensors = load_file(str(directory / WEIGHTS))
    vocab_ids = tensors.pop("vocab_ids").long()
    draft = draft_shell(target, config.num_hidden_layers, len(vocab_ids))
    borrowed = not any(name.startswith(LAYERS) for name in tensors)
    if borrowed:
        _borrow_layers(draft, layers_from, directory)
    missing, unexpected = draft.load_state_dict(dequantised(tensors), strict=False)
    missing = {name for name in missing if name != EMBEDDING and not (borrowed and name.startswith(LAYERS))}
    if unexpected or missing:
        raise ValueError(f"{directory}: unexpected weights {unexpected}, missing {sorted(missing)}")
    draft = place(draft, target.device)
    if int8_matmul and target.device.type == "cpu":
        use_int8_matrices(draft, int8_matrices(tensors))
    return draft, vocab_ids


def _borrow_layers(draft: LlamaForCausalLM, layers_from: LlamaForCausalLM | None, directory: Path) -> None:
    n = len(draft.model.layers)
    if layers_from is None or len(layers_from.model.layers) < n:
        raise ValueError(f"{directory} is an early exit: it needs a draft with at least {n} layers to read them from")
    draft.model.layers = torch.nn.ModuleList(layers_from.model.layers[:n])


def int8_matrices(tensors: dict[str, torch.Tensor]) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """A file's int8 matrices by module name: (int8 matrix, row scales)."""
    return {name.removesuffix(".weight"): (value, tensors[name + ROW_SCALE])
            for name, value in tensors.items() if name + ROW_SCALE in tensors}


def dequantised(tensors: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """float32 weights from a file's tensors: int8 matrices times their row scales, the rest as they
    are. A row scale without its matrix stays under its own name, so loading reports it as unexpected."""
    return {name: value.float() * tensors[name + ROW_SCALE] if name + ROW_SCALE in tensors else value.float()
            for name, value in tensors.items() if not (name.endswith(ROW_SCALE) and name.removesuffix(ROW_SCALE) in tensors)}


def draft_shell(target: PreTrainedModel, n_layers: int, head_size: int) -> LlamaForCausalLM:
    config = copy.deepcopy(target.config)
    config.num_hidden_layers, config.vocab_size, config.tie_word_embeddings = n_layers, head_size, False
    config.architectures = ["LlamaForCausalLM"]
    with no_init_weights():  # both callers overwrite or share every weight; random init took 0.2-0.7 s a rung
        draft = LlamaForCausalLM(config)
    draft.model.embed_tokens = target.get_input_embeddings()     # shared with the target, not copied
    return draft
