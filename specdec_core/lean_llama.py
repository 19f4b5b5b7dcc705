"""A Llama draft's cached forward in a few tensor operations a layer, for int8 drafts on CPU.

A draft writes one token per forward, and transformers' Llama runs each forward through dozens of
modules, dtype casts and cache bookkeeping per layer: on 2 CPU cores the smollm2 early exit (4
layers, int8 products) took about 4 ms a token through transformers, of which its matrix products
are under 2. This forward keeps the same arithmetic (the same int8 kernel, float32 elsewhere, the
model's own rotary tables) with the query, key and value matrices multiplied as one, and gate and
up as one, into a preallocated key/value cache: about 2 ms for the same token with the same
logits (``tests/test_lean_llama.py``). Re-measure: ``python -m tools.lean_draft``.

``cached_lm_for`` gives a model this forward where it fits (a Llama whose every matrix is an
Int8Linear) and transformers' (cached_lm.py) otherwise; both offer the same calls.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from transformers import LlamaForCausalLM, PreTrainedModel

from .cached_lm import CachedLM
from .int8_linear import Int8Linear

FIRST_CAPACITY = 256   # positions the cache holds before it first doubles


def cached_lm_for(model: PreTrainedModel) -> "CachedLM | LeanLlamaLM":
    """The lean forward for an int8 Llama, transformers' cached forward for anything else."""
    return LeanLlamaLM(model) if fits(model) else CachedLM(model)


def fits(model: PreTrainedModel) -> bool:
    """A Llama with silu MLPs, static rotary tables, no biases, and every matrix an Int8Linear."""
    if not isinstance(model, LlamaForCausalLM) or model.config.hidden_act != "silu":
        return False
    rope = getattr(model.config, "rope_parameters", None) or {}
    if rope.get("rope_type", "default") != "default":
        return False
    matrices = [model.lm_head] + [m for layer in model.model.layers for m in _matrices(layer)]
    return all(isinstance(m, Int8Linear) and m.bias is None for m in matrices)


def _matrices(layer) -> list:
    a, mlp = layer.self_attn, layer.mlp
    return [a.q_proj, a.k_proj, a.v_proj, a.o_proj, mlp.gate_proj, mlp.up_proj, mlp.down_proj]


class Int8Rows:
    """Several Int8Linear layers' rows as one int8 matrix: one product instead of several."""

    def __init__(self, *layers: Int8Linear):
        if len(layers) == 1:                                   # nothing to join: share the layer's own
            self.weight, self.scale = layers[0].weight, layers[0].scale
        else:
            self.weight = torch.cat([layer.weight for layer in layers]).contiguous()
            self.scale = torch.cat([layer.scale for layer in layers]).contiguous()

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return torch._weight_int8pack_mm(x.to(torch.bfloat16), self.weight, self.scale).float()   # (T, out)


class LeanLlamaLM:
    """An int8 Llama with its key/value cache: the calls of CachedLM, one sequence at a time."""

    def __init__(self, model: LlamaForCausalLM):
        config, body = model.config, model.model
        self.model, self.device = model, model.device
        self.heads, self.kv_heads, self.head_dim = config.num_attention_heads, config.num_key_value_heads, config.head_dim
        self.eps, self.mlp_width = config.rms_norm_eps, config.intermediate_size
        self.embedding, self.rotary = body.embed_tokens, body.rotary_emb
        self.layers = [_LeanLayer(layer) for layer in body.layers]
        self.norm, self.head = body.norm.weight, Int8Rows(model.lm_head)
        self.capacity = 0
        self.start()

    @property
    def cache_len(self) -> int:
        return len(self.cached)

    def start(self) -> None:
        """Forget everything: a new sequence begins."""
        self.cached: list[int] = []
        if not self.capacity:
            self._grow(FIRST_CAPACITY)

    @torch.inference_mode()
    def logits(self, tokens: list[int], n_last: int = 1) -> torch.Tensor:
        """Logits (n_last, head) after each of the last n_last positions of `tokens`.

        Feeds tokens[cache_len:] in one forward; the cache must hold a prefix of `tokens`.
        """
        if tokens[: self.cache_len] != self.cached:
            raise RuntimeError("cache out of step with the sequence: roll it back first")
        begin, end = self.cache_len, len(tokens)
        if not 1 <= n_last <= end - begin:
            raise ValueError(f"need 1..{end - begin} new positions for n_last, got {n_last}")
        if end > self.capacity:
            self._grow(max(end, 2 * self.capacity))
        x = self.embedding(torch.tensor(tokens[begin:], device=self.device))              # (T, H)
        rotation = self.cos[begin:end], self.sin[begin:end]
        # each new position sees the cache and the new positions up to itself
        mask = None if end - begin == 1 else torch.ones(end - begin, end, dtype=torch.bool).tril(begin)
        for layer, keys, values in zip(self.layers, self.keys, self.values):
            x = layer(x, self, keys, values, begin, rotation, mask)
        self.cached = list(tokens)
        return self.head(rms_norm(x[-n_last:], self.norm, self.eps))

    def rollback(self, n_keep: int) -> None:
        """Drop cached positions past n_keep; the next forward writes over them."""
        del self.cached[n_keep:]

    def _grow(self, capacity: int) -> None:
        """Room for `capacity` positions, keeping what is cached, and rotary tables to match."""
        shape, kept = (1, self.kv_heads, capacity, self.head_dim), self.cache_len
        grown = [[torch.zeros(shape, device=self.device) for _ in self.layers] for _ in range(2)]
        if kept:
            for new, old in zip(grown[0] + grown[1], self.keys + self.values):
                new[:, :, :kept] = old[:, :, :kept]
        self.keys, self.values = grown
        positions = torch.arange(capacity, device=self.device)[None]
        cos, sin = self.rotary(torch.zeros(1, device=self.device), positions)
        self.cos, self.sin, self.capacity = cos[0], sin[0], capacity                       # (capacity, D)


class _LeanLayer:
    def __init__(self, layer):
        a, mlp = layer.self_attn, layer.mlp
        self.attention_norm, self.mlp_norm = layer.input_layernorm.weight, layer.post_attention_layernorm.weight
        self.qkv, self.out = Int8Rows(a.q_proj, a.k_proj, a.v_proj), Int8Rows(a.o_proj)
        self.gate_up, self.down = Int8Rows(mlp.gate_proj, mlp.up_proj), Int8Rows(mlp.down_proj)

    def __call__(self, x, lm: LeanLlamaLM, keys, values, begin, rotation, mask):
        t, end, d = len(x), begin + len(x), lm.head_dim
        q, k, v = self.qkv(rms_norm(x, self.attention_norm, lm.eps)).split(
            (lm.heads * d, lm.kv_heads * d, lm.kv_heads * d), dim=-1)
        q = rotate(q.view(t, lm.heads, d).transpose(0, 1), *rotation)                     # (heads, T, D)
        keys[0, :, begin:end] = rotate(k.view(t, lm.kv_heads, d).transpose(0, 1), *rotation)
        values[0, :, begin:end] = v.view(t, lm.kv_heads, d).transpose(0, 1)
        attended = F.scaled_dot_product_attention(q[None], keys[:, :, :end], values[:, :, :end],
                                                  attn_mask=mask, enable_gqa=True)        # (1, heads, T, D)
        x = x + self.out(attended[0].transpose(0, 1).reshape(t, lm.heads * d))
        gate, up = self.gate_up(rms_norm(x, self.mlp_norm, lm.eps)).split(lm.mlp_width, dim=-1)
        return x + self.down(F.silu(gate) * up)                                           # (T, H)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding as Llama applies it: halves of each head rotated together."""
    half = x.shape[-1] // 2
    return x * cos + torch.cat((-x[..., half:], x[..., :half]), -1) * sin
