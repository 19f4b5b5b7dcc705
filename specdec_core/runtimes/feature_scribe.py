"""A scribe that drafts from the master's own top-layer state: one decoder layer over (state, next token).

EAGLE (Li et al. 2024, arXiv 2401.15077): the master's normed top state f_t is what its head reads
to write token t+1. The scribe reads f_t with the embedding of the token t+1 that was written, fuses
the two through one linear map, passes them through one Llama decoder layer of the master's shape
(attending over its own earlier positions), and predicts f_{t+1}; the master's own head turns that
into q. To draft a second token it reads its own prediction in place of the master's state, which
is where its guesses lose acceptance. Its head is the master's, cut to the frequent tokens
(FR-Spec, Zhao et al. 2025): rows of the master's tied embedding, so the scribe ships no head.

On disk (``config.json``, ``model.safetensors``): the fuse map and the layer as int8 rows with a
scale per row, and ``vocab_ids``. The master's embedding, rotary tables and head rows are borrowed.
Training writes these files (training/eagle/train.py); the app only reads them.
"""
from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file
from torch import nn
from transformers import PreTrainedModel
from transformers.models.llama.modeling_llama import LlamaDecoderLayer

from specdec_core.runtimes.int8_linear import Int8Linear, int8_rows, use_int8_matrices
from specdec_core.runtimes.lean_llama import Rows, _LeanLayer, per_head, rotary_tables
from specdec_core.runtimes.silenced_head import SilencedHead

WEIGHTS, CONFIG = "model.safetensors", "config.json"
ROW_SCALE = ".row_scale"
FORMAT = 1
FIRST_CAPACITY = 256


class FeatureScribe(nn.Module):
    """The weights: fuse (H, 2H) over [embedding of token t+1, f_t], one decoder layer, the head's token ids."""

    def __init__(self, master: PreTrainedModel, vocab_ids: torch.Tensor):
        super().__init__()
        hidden = master.config.hidden_size
        self.fuse = nn.Linear(2 * hidden, hidden, bias=False)
        self.layer = LlamaDecoderLayer(master.config, layer_idx=0)
        self.register_buffer("vocab_ids", vocab_ids.long())


def save_scribe(scribe: FeatureScribe, directory: Path, about: dict) -> None:
    """Write the scribe's matrices as int8 rows (norms as float32) and its config."""
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {"vocab_ids": scribe.vocab_ids.to(torch.int32)}
    for name, value in scribe.state_dict().items():
        if name == "vocab_ids":
            continue
        if value.dim() == 2:
            tensors[name], tensors[name + ROW_SCALE] = int8_rows(value.detach().float())
        else:
            tensors[name] = value.detach().float().contiguous()
    save_file(tensors, str(directory / WEIGHTS))
    (directory / CONFIG).write_text(json.dumps({"format": FORMAT, "head_size": len(scribe.vocab_ids), **about}, indent=1))


def load_scribe(master: PreTrainedModel, directory: Path, int8_matmul: bool = True) -> FeatureScribe:
    """The scribe of `directory` for this master; raises ValueError on a file built for another shape."""
    config = json.loads((directory / CONFIG).read_text())
    if config.get("format") != FORMAT or config.get("hidden_size") != master.config.hidden_size:
        raise ValueError(f"{directory} was not built for this master (format {config.get('format')}, "
                         f"hidden size {config.get('hidden_size')} against {master.config.hidden_size})")
    tensors = load_file(str(directory / WEIGHTS))
    scribe = FeatureScribe(master, tensors["vocab_ids"])
    matrices = {name.removesuffix(".weight"): (value, tensors[name + ROW_SCALE])
                for name, value in tensors.items() if name + ROW_SCALE in tensors}
    floats = {name: value.float() * tensors[name + ROW_SCALE] if name + ROW_SCALE in tensors else value
              for name, value in tensors.items() if not name.endswith(ROW_SCALE)}
    missing, unexpected = scribe.load_state_dict(floats, strict=False)
    if missing or unexpected:
        raise ValueError(f"{directory}: missing {missing}, unexpected {unexpected}")
    scribe = scribe.to(master.device).eval()
    if int8_matmul and master.device.type == "cpu":
        use_int8_matrices(scribe, matrices)
    return scribe


def head_weight(master: PreTrainedModel) -> torch.Tensor:
    """The master's head matrix (V, H) in float32: through a head that silences tokens, from bfloat16 rows."""
    head = master.get_output_embeddings()
    head = head.head if isinstance(head, SilencedHead) else head
    return head.weight.detach().float()


def head_rows(master: PreTrainedModel, vocab_ids: torch.Tensor, int8: bool) -> nn.Module:
    """The master's head cut to vocab_ids: float32 rows, or int8 rows on CPU."""
    rows = head_weight(master)[vocab_ids]
    if int8:
        return Int8Linear(*int8_rows(rows))
    head = nn.Linear(rows.shape[1], rows.shape[0], bias=False)
    head.weight = nn.Parameter(rows, requires_grad=False)
    return head


class FeatureScribeLM:
    """The scribe's cached forward for one sequence, in the lean forward's few operations a step.

    Position j of its cache reads (f_j, token j+1); ``read`` feeds positions in order and returns
    the predicted states (T, H) after each. ``rollback(n)`` keeps the first n positions.
    """

    def __init__(self, scribe: FeatureScribe, master: PreTrainedModel):
        config = master.config
        self.device = master.device
        self.heads, self.kv_heads, self.head_dim = config.num_attention_heads, config.num_key_value_heads, config.head_dim
        self.eps, self.mlp_width = config.rms_norm_eps, config.intermediate_size
        self.embedding, self.rotary = master.get_input_embeddings(), master.model.rotary_emb
        self.fuse, self.layer = Rows(scribe.fuse), _LeanLayer(scribe.layer)
        self.head = Rows(head_rows(master, scribe.vocab_ids, int8=isinstance(scribe.fuse, Int8Linear)))
        self.vocab_ids = scribe.vocab_ids
        self.length, self.capacity = 0, 0
        self._grow(FIRST_CAPACITY)

    @torch.inference_mode()
    def read(self, states: torch.Tensor, next_tokens: list[int], positions: torch.Tensor | None = None,
             mask: torch.Tensor | None = None) -> torch.Tensor:
        """Feed slots length … length+T-1, slot j reading (states[j - length], next_tokens[j - length]).

        A sequence's slot is its position, attending the slots before it. A tree's nodes give their own
        positions (T,) by depth and the mask (T, length+T) of what each attends (slot_cache.tree_mask).
        """
        begin, end = self.length, self.length + len(next_tokens)
        if end > self.capacity:
            self._grow(max(end, 2 * self.capacity))
        embedded = self.embedding(torch.tensor(next_tokens, device=self.device))              # (T, H)
        x = self.fuse(torch.cat([embedded, states.to(embedded.dtype)], dim=-1))              # (T, H)
        if positions is None:
            rotation = per_head(self.cos[begin:end], self.sin[begin:end], self.heads, self.kv_heads)
            mask = None if end - begin == 1 else (
                torch.ones(end - begin, end, dtype=torch.bool, device=self.device).tril(begin))
        else:
            rotation = per_head(self.cos[positions], self.sin[positions], self.heads, self.kv_heads)
        self.length = end
        return self.layer(x, self, self.cache, begin, rotation, mask)                        # (T, H)

    def logits(self, predicted: torch.Tensor) -> torch.Tensor:
        """Scores over the head's tokens (…, S) for predicted states (…, H)."""
        flat = predicted.reshape(-1, predicted.shape[-1])            # int8 rows multiply matrices only
        return self.head(flat).reshape(*predicted.shape[:-1], -1)

    def rollback(self, n_keep: int) -> None:
        self.length = min(self.length, n_keep)

    def _grow(self, capacity: int) -> None:
        grown = torch.zeros((2, self.kv_heads, capacity, self.head_dim), device=self.device)
        if self.capacity:
            grown[:, :, : self.length] = self.cache[:, :, : self.length]
        self.cache, self.capacity = grown, capacity
        self.cos, self.sin = rotary_tables(self.rotary, capacity, self.device)


def master_states(master: PreTrainedModel, sequences: torch.Tensor) -> torch.Tensor:
    """The master's normed top state (B, L, H) at every position of equal-length rows (B, L), no cache."""
    return master.model(input_ids=sequences.to(master.device), use_cache=False).last_hidden_state


def scribe_forward(scribe: FeatureScribe, master: PreTrainedModel, states: torch.Tensor,
                   next_tokens: torch.Tensor) -> torch.Tensor:
    """Predicted states (B, L, H) for whole rows without a cache: position j reads (states[:, j], next_tokens[:, j])."""
    x = scribe.fuse(torch.cat([master.get_input_embeddings()(next_tokens), states], dim=-1))
    positions = torch.arange(x.shape[1], device=x.device)[None].expand(x.shape[0], -1)
    cos_sin = master.model.rotary_emb(x, positions)
    return scribe.layer(x, attention_mask=None, position_ids=positions, position_embeddings=cos_sin)

