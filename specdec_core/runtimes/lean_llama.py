"""A Llama's cached forward on CPU in a few tensor operations a layer, for the draft and the target alike.

A decode feeds one token per forward (k + 1 to verify), and transformers' Llama runs each forward
through dozens of modules, dtype casts and cache bookkeeping per layer: for a small draft that is
most of the cost. This forward keeps the arithmetic up to rounding (the same linear layers or int8
kernel, float32 elsewhere, the model's own rotary tables) in few whole-tensor operations, and
writes into a preallocated key/value cache; an int8 or bfloat16 model's query, key and value
matrices are multiplied as one, and its gate and up as one. Its logits equal transformers'
(``tests/test_lean_llama.py`` checks them to 1e-5). The target takes it too, so a speedup compares
a lean draft with a lean target, not with transformers' overhead.
The timings are on the model card (assets/models/README.md).

``cached_lm_for`` gives a model this forward where it fits and transformers' (cached_lm.py)
otherwise; both offer the same calls. Only this one drafts and verifies trees (``tree_logits``,
``keep_path``); the bookkeeping of cache slots and trees it shares with the graph runtime
(slot_cache.py).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from transformers import LlamaForCausalLM, PreTrainedModel

from specdec_core.runtimes.bf16_linear import Bf16Linear
from specdec_core.runtimes.cached_lm import CachedLM
from specdec_core.runtimes.decode_linear import DecodeLinear
from specdec_core.runtimes.graph_llama import GraphLlamaLM
from specdec_core.runtimes.int8_linear import Int8Linear
from specdec_core.runtimes.silenced_head import SilencedHead
from specdec_core.runtimes.slot_cache import SlotCachedLM

FIRST_CAPACITY = 256   # positions the cache holds before it first doubles
PLAIN_LINEARS = (nn.Linear, DecodeLinear, Bf16Linear)


def cached_lm_for(model: PreTrainedModel) -> "CachedLM | LeanLlamaLM | GraphLlamaLM":
    """The model's decode graph where it has one (graph_llama.attach_graph), else the lean forward for a
    float32 Llama on CPU, else transformers' cached forward."""
    if getattr(model, "decode_graph", None) is not None:
        return GraphLlamaLM(model.decode_graph)
    return LeanLlamaLM(model) if fits(model) else CachedLM(model)


def fits(model: PreTrainedModel) -> bool:
    """A float32 Llama on CPU with silu MLPs, static rotary tables, and no biases, whose matrices are
    plain linear layers, Int8Linear or Bf16Linear."""
    if not isinstance(model, LlamaForCausalLM) or model.config.hidden_act != "silu":
        return False
    if model.device.type != "cpu" or model.model.embed_tokens.weight.dtype != torch.float32:
        return False
    rope = getattr(model.config, "rope_parameters", None) or {}
    if rope.get("rope_type", "default") != "default":
        return False
    head = model.lm_head.head if isinstance(model.lm_head, SilencedHead) else model.lm_head
    matrices = [head] + [m for layer in model.model.layers for m in _matrices(layer)]
    return all((isinstance(m, Int8Linear) or type(m) in PLAIN_LINEARS) and m.bias is None for m in matrices)


def _matrices(layer) -> list:
    a, mlp = layer.self_attn, layer.mlp
    return [a.q_proj, a.k_proj, a.v_proj, a.o_proj, mlp.gate_proj, mlp.up_proj, mlp.down_proj]


class Rows:
    """Several linear layers applied to the same input, outputs side by side (T, sum of outs).

    Int8Linear and Bf16Linear layers are joined into one matrix, one product instead of several
    (a bfloat16 target's joined copy costs half its float32 size); float32 layers keep their own
    weights (joining them would copy the target's whole size) and are applied in turn."""

    def __init__(self, *layers: nn.Module):
        self.int8 = all(isinstance(layer, Int8Linear) for layer in layers)
        self.bf16 = all(isinstance(layer, Bf16Linear) for layer in layers)
        self.layers = layers
        if (self.int8 or self.bf16) and len(layers) == 1:      # nothing to join: share the layer's own
            self.weight = layers[0].weight
        elif self.int8 or self.bf16:
            self.weight = torch.cat([layer.weight for layer in layers]).contiguous()
        if self.int8:
            self.scale = torch.cat([layer.scale for layer in layers]).contiguous()

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self.int8:
            return torch._weight_int8pack_mm(x.to(torch.bfloat16), self.weight, self.scale).float()
        if self.bf16:
            return F.linear(x, self.weight.float())     # bfloat16 weights widened exactly, as Bf16Linear multiplies
        outs = [layer(x) for layer in self.layers]
        return outs[0] if len(outs) == 1 else torch.cat(outs, -1)


class LeanLlamaLM(SlotCachedLM):
    """A Llama with its key/value cache: the calls of CachedLM, one sequence at a time."""

    def __init__(self, model: LlamaForCausalLM):
        config, body = model.config, model.model
        self.device = model.device
        self.heads, self.kv_heads, self.head_dim = config.num_attention_heads, config.num_key_value_heads, config.head_dim
        self.eps, self.mlp_width = config.rms_norm_eps, config.intermediate_size
        self.embedding, self.rotary = body.embed_tokens, body.rotary_emb
        self.layers = [_LeanLayer(layer) for layer in body.layers]
        self.norm, self.head = body.norm.weight, Rows(model.lm_head)
        self.caches = []
        super().__init__()

    def _first_capacity(self) -> int:
        return FIRST_CAPACITY

    @torch.inference_mode()
    def _forward(self, ids, begin, positions, mask, n_last) -> torch.Tensor:
        end = begin + len(ids)
        x = self.embedding(torch.tensor(ids, device=self.device))                                  # (T, H)
        rotation = per_head(self.cos[positions], self.sin[positions], self.heads, self.kv_heads)  # (T, heads + 2 kv, D)
        for layer, cache in zip(self.layers, self.caches):
            x = layer(x, self, cache, begin, rotation, mask)
        self.states[begin:end] = F.rms_norm(x, x.shape[-1:], self.norm, self.eps)    # what the head reads, kept
        return self.head(self.states[end - n_last : end])

    @torch.inference_mode()   # a cache grown inside a forward is an inference tensor: write it in that mode too
    def _move(self, source: torch.Tensor, target: slice) -> None:
        source = source.to(self.device)
        for cache in self.caches:
            cache[:, :, target] = cache[:, :, source]     # advanced indexing reads a copy first
        self.states[target] = self.states[source]

    def _grow(self, capacity: int) -> None:
        """Room for `capacity` positions, keeping what is cached, and rotary tables to match."""
        kept = self.slots_used
        grown = [torch.zeros((2, self.kv_heads, capacity, self.head_dim), device=self.device) for _ in self.layers]
        for new, old in zip(grown, self.caches):
            new[:, :, :kept] = old[:, :, :kept]
        self.caches = grown                                                # per layer (keys | values, kv, capacity, D)
        states = torch.zeros((capacity, self.norm.shape[0]), device=self.device)
        if kept:
            states[:kept] = self.states[:kept]
        self.states = states      # (capacity, H) the normed top state at each cached position: a feature scribe reads it
        self.cos, self.sin = rotary_tables(self.rotary, capacity, self.device)
        self.capacity = capacity


class _LeanLayer:
    def __init__(self, layer):
        a, mlp = layer.self_attn, layer.mlp
        self.attention_norm, self.mlp_norm = layer.input_layernorm.weight, layer.post_attention_layernorm.weight
        self.qkv, self.out = Rows(a.q_proj, a.k_proj, a.v_proj), Rows(a.o_proj)
        self.gate_up, self.down = Rows(mlp.gate_proj, mlp.up_proj), Rows(mlp.down_proj)

    def __call__(self, x, lm: LeanLlamaLM, cache, begin, rotation, mask):
        # Few, whole-tensor operations: in a one-token step each costs more in dispatch than in arithmetic.
        t, end, d, width = len(x), begin + len(x), lm.head_dim, x.shape[-1:]
        qkv = rotate(self.qkv(F.rms_norm(x, width, self.attention_norm, lm.eps)).view(t, -1, d), *rotation)
        # qkv: (T, heads + 2 kv, D), the query heads rotated, then the keys rotated, then the values
        cache[:, :, begin:end] = qkv[:, lm.heads:].view(t, 2, lm.kv_heads, d).permute(1, 2, 0, 3)
        attended = F.scaled_dot_product_attention(qkv[:, : lm.heads].transpose(0, 1)[None], cache[:1, :, :end],
                                                  cache[1:, :, :end], attn_mask=mask,
                                                  enable_gqa=True)                             # (1, heads, T, D)
        x = x + self.out(attended[0].transpose(0, 1).reshape(t, lm.heads * d))
        gate_up = self.gate_up(F.rms_norm(x, width, self.mlp_norm, lm.eps))
        return x + self.down(F.silu(gate_up[:, : lm.mlp_width]) * gate_up[:, lm.mlp_width :])   # (T, H)


def rotary_tables(rotary: nn.Module, capacity: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and signed sin (capacity, 1, D) of Llama's rotary embedding, for rotate().

    Llama rotates each query and key head by halves: x cos + (-x₂, x₁) sin. (-x₂, x₁) is x rolled
    by half a head with its first half negated, so the sign goes into the sin table.
    """
    positions = torch.arange(capacity, device=device)[None]
    cos, sin = (table[0, :, None] for table in rotary(torch.zeros(1, device=device), positions))  # (capacity, 1, D)
    half = cos.shape[-1] // 2
    return cos, torch.cat((-sin[..., :half], sin[..., half:]), -1)


def per_head(cos: torch.Tensor, signed_sin: torch.Tensor, heads: int,
             kv_heads: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The tables (T, 1, D) widened to the query, key and value heads side by side (T, heads + 2
    kv_heads, D), so that one rotate() a layer serves all three: value heads are not rotated, and cos
    1 with sin 0 leaves finite values as they were. Made per forward for its T positions, not kept:
    per head and position for a whole cache they would weigh about a third of the cache itself."""
    t, d = cos.shape[0], cos.shape[-1]
    rotated, kept = (t, heads + kv_heads, d), (t, kv_heads, d)
    return (torch.cat((cos.expand(rotated), cos.new_ones(kept)), 1),
            torch.cat((signed_sin.expand(rotated), signed_sin.new_zeros(kept)), 1))


def rotate(x: torch.Tensor, cos: torch.Tensor, signed_sin: torch.Tensor) -> torch.Tensor:
    """x (T, heads + 2 kv_heads, D) rotated by per_head's tables of the same shape."""
    return torch.addcmul(x * cos, x.roll(x.shape[-1] // 2, -1), signed_sin)
