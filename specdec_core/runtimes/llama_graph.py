"""A Llama's cached forward as one ONNX graph, built from its weights, for ONNX Runtime.

On two CPU cores the lean torch forward spends most of a one-position step on the fixed cost of
about 150 small operations, not on reading the weights (issue 48). A graph runtime runs the whole
step in one call with fused kernels, so the step's cost comes down towards the weights' read time, as
onnxruntime-genai's model builder does for served models. This module writes that graph:

- per layer, RMSNorm (fused with the residual add), one product for q, k and v, ORT's
  GroupQueryAttention with rotary embedding, the key/value cache as one buffer that the step writes in
  place (past and present bound to the same memory), an additive mask for trees, and a SwiGLU MLP;
- the head reads only the last rows a caller asks for;
- matrices in float32 (the master: his stored weights exactly, his arithmetic in float32), in 4-bit
  blocks (``MatMulNBits``: the same weights rounded to 16 levels per block of 32, the scribe a serving
  engine would quantize), or as an int8 copy's own rows and scales (the int8 scribe).

Graphs are built on first use and kept on disk, named by a hash of the weights and of this builder's
version, so a changed model or builder builds anew.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from transformers import LlamaForCausalLM

from specdec_core.runtimes.bf16_linear import Bf16Linear
from specdec_core.runtimes.int4_blocks import BLOCK, int4_blocks
from specdec_core.runtimes.int8_linear import Int8Linear
from specdec_core.runtimes.silenced_head import SilencedHead

BUILDER_VERSION = 2   # change when the graph changes: graphs kept on disk under another version are rebuilt
CACHE_DIR = Path(os.environ.get("SCRIPTORIUM_GRAPH_CACHE", Path.home() / ".cache" / "scriptorium" / "graphs"))
OPSETS = [helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)]


@dataclass(frozen=True)
class GraphShape:
    """What a runtime needs to know of the graph: its cache and its head."""

    layers: int
    kv_heads: int
    head_dim: int
    hidden: int
    head_size: int              # logits per position
    max_positions: int          # rotary tables' length
    silenced: tuple[int, ...]   # token ids whose logits the head sets far below the rest


def graph_fits(model, bits: int | None = None) -> bool:
    """A Llama on CPU whose every matrix has no bias and is a plain or bfloat16 linear layer (float32 or 4-bit
    graphs) or an Int8Linear (8-bit graphs: its rows as they are)."""
    if not isinstance(model, LlamaForCausalLM) or model.config.hidden_act != "silu" or model.device.type != "cpu":
        return False
    rope = getattr(model.config, "rope_parameters", None) or {}
    if rope.get("rope_type", "default") != "default" or model.config.head_dim % 16:   # GroupQueryAttention's heads
        return False
    kinds = (Int8Linear,) if bits == 8 else (torch.nn.Linear, Bf16Linear)
    matrices = [_head(model)] + [m for layer in model.model.layers for m in _layer_matrices(layer)]
    return all(type(m) in kinds and m.bias is None for m in matrices)


def graph_shape(model: LlamaForCausalLM) -> GraphShape:
    config = model.config
    silenced = model.lm_head.token_ids.tolist() if isinstance(model.lm_head, SilencedHead) else []
    return GraphShape(config.num_hidden_layers, config.num_key_value_heads, config.head_dim, config.hidden_size,
                      _head(model).out_features, config.max_position_embeddings, tuple(silenced))


def graph_read_bytes(model: LlamaForCausalLM, bits: int | None = None) -> int:
    """Bytes of the matrices one step of the graph reads in full (the embedding reads only its tokens' rows):
    float32 weights, or codes and their float32 scales."""
    matrices = [_head(model)] + [m for layer in model.model.layers for m in _layer_matrices(layer)]
    total = 0
    for m in matrices:
        n, k = m.weight.shape
        total += {None: 4 * n * k, 4: n * k // 2 + 4 * n * k // BLOCK, 8: n * k + 4 * n}[bits]
    return total


def graph_file(model: LlamaForCausalLM, bits: int | None = None) -> Path:
    """The graph of `model` (float32 matrices; 4: its weights in 4-bit blocks; 8: its Int8Linear rows as they
    are), built now unless kept on disk."""
    name = f"{_weights_hash(model, bits)}.onnx"
    path = CACHE_DIR / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        onnx.save(llama_graph(model, bits), partial)
        partial.replace(path)     # whole or absent: two processes building at once both write a whole file
    return path


def llama_graph(model: LlamaForCausalLM, bits: int | None = None) -> onnx.ModelProto:
    """The decode step of `model` as an ONNX graph (inputs and outputs in runtimes/graph_llama.py)."""
    config, body, builder = model.config, model.model, _Builder(bits)
    eps = config.rms_norm_eps
    x = builder.node("Gather", [builder.weight("embedding", body.embed_tokens.weight), "input_ids"])   # (1, T, H)
    cos, sin = rotary_halves(model)
    builder.constant("cos_cache", cos)
    builder.constant("sin_cache", sin)
    normed = builder.node("SimplifiedLayerNormalization",
                          [x, builder.weight("norm_in_0", body.layers[0].input_layernorm.weight)], axis=-1, epsilon=eps)
    residual = x
    for i, layer in enumerate(body.layers):
        next_norm = body.layers[i + 1].input_layernorm.weight if i + 1 < len(body.layers) else body.norm.weight
        normed, residual = _layer(builder, i, layer, config, normed, residual, next_norm)
    builder.node("Identity", [normed], out="states")
    last = builder.node("Slice", [normed, "head_from", builder.constant("to_end", np.array([1 << 40])),
                                  builder.constant("axis_1", np.array([1]))])
    builder.matrix(last, [_head(model)], "head", out="logits")
    return builder.model(_inputs_outputs(config))


def _layer(builder, i: int, layer, config, normed, residual, next_norm):
    """One decoder layer: returns the next layer's normed input and the residual stream."""
    a, mlp, eps = layer.self_attn, layer.mlp, config.rms_norm_eps
    qkv = builder.matrix(normed, [a.q_proj, a.k_proj, a.v_proj], f"qkv_{i}")
    attended, _, _ = builder.node(
        "GroupQueryAttention",
        [qkv, "", "", f"past_keys_{i}", f"past_values_{i}", "seqlens_k", "total_length", "cos_cache", "sin_cache",
         "position_ids", "attention_bias"],
        out=[f"attended_{i}", f"present_keys_{i}", f"present_values_{i}"], domain="com.microsoft",
        num_heads=config.num_attention_heads, kv_num_heads=config.num_key_value_heads, do_rotary=1)
    out = builder.matrix(attended, [a.o_proj], f"o_{i}")
    mlp_in, _, _, residual = builder.node(
        "SkipSimplifiedLayerNormalization", [out, residual, builder.weight(f"norm_mlp_{i}", layer.post_attention_layernorm.weight)],
        out=4, domain="com.microsoft", epsilon=eps)
    gate, up = builder.node("Split", [builder.matrix(mlp_in, [mlp.gate_proj, mlp.up_proj], f"gate_up_{i}"),
                                      builder.constant(f"halves_{i}", np.array([config.intermediate_size] * 2))], out=2, axis=-1)
    swiglu = builder.node("Mul", [builder.node("Mul", [gate, builder.node("Sigmoid", [gate])]), up])
    down = builder.matrix(swiglu, [mlp.down_proj], f"down_{i}")
    normed, _, _, residual = builder.node(
        "SkipSimplifiedLayerNormalization", [down, residual, builder.weight(f"norm_in_{i + 1}", next_norm)],
        out=4, domain="com.microsoft", epsilon=eps)
    return normed, residual


class _Builder:
    """Nodes and initializers of one graph, with fresh names; matrices in float32, 4-bit blocks or int8 rows."""

    def __init__(self, bits: int | None):
        if bits not in (None, 4, 8):
            raise ValueError("graphs hold matrices in float32, 4-bit blocks or int8 rows")
        self.bits, self.nodes, self.initializers, self.count = bits, [], [], 0

    def node(self, op: str, inputs: list[str], out: str | int | list[str] = 1, domain: str = "", **attributes):
        """Add a node; returns its output's name, or the names of its `out` outputs."""
        names = out if isinstance(out, list) else [out] if isinstance(out, str) else [self._fresh(op) for _ in range(out)]
        self.nodes.append(helper.make_node(op, inputs, names, domain=domain, **attributes))
        return names[0] if len(names) == 1 else names

    def constant(self, name: str, array: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def weight(self, name: str, tensor: torch.Tensor) -> str:
        return self.constant(name, tensor.detach().float().numpy())

    def matrix(self, x: str, layers: list, name: str, out: str | int = 1) -> str:
        """x Wᵀ for the layers' matrices W (N, K) side by side: MatMul over float32 Wᵀ, or MatMulNBits over W in
        4-bit blocks of 32 or over an Int8Linear's own int8 rows (one block a row, so its codes and scales as they are)."""
        if self.bits is None:
            weight = torch.cat([_weight(layer) for layer in layers])
            return self.node("MatMul", [x, self.constant(name, weight.T.contiguous().numpy())], out=out)
        if self.bits == 4:
            weight = torch.cat([_weight(layer) for layer in layers])
            (packed, scales), block = int4_blocks(weight), BLOCK
        else:
            codes = torch.cat([layer.weight for layer in layers])                              # (N, K) int8
            packed = (codes.to(torch.int16) + 128).to(torch.uint8)[:, None]                  # (N, 1, K), zero point 128
            scales, block = torch.cat([layer.scale for layer in layers]).float(), codes.shape[1]
        n, k = packed.shape[0], packed.shape[1] * block
        return self.node("MatMulNBits", [x, self.constant(name, packed.numpy()), self.constant(f"{name}_scales", scales.numpy())],
                         out=out, domain="com.microsoft", K=k, N=n, bits=self.bits, block_size=block, accuracy_level=4)

    def model(self, inputs_outputs) -> onnx.ModelProto:
        inputs, outputs = inputs_outputs
        graph = helper.make_graph(self.nodes, "llama_decode_step", inputs, outputs, self.initializers)
        return helper.make_model(graph, opset_imports=OPSETS)

    def _fresh(self, op: str) -> str:
        self.count += 1
        return f"{op.lower()}_{self.count}"


def _inputs_outputs(config):
    kv, d, layers = config.num_key_value_heads, config.head_dim, config.num_hidden_layers
    tensor = helper.make_tensor_value_info
    inputs = [tensor("input_ids", TensorProto.INT64, [1, "T"]), tensor("position_ids", TensorProto.INT64, [1, "T"]),
              tensor("seqlens_k", TensorProto.INT32, [1]), tensor("total_length", TensorProto.INT32, []),
              tensor("attention_bias", TensorProto.FLOAT, [1, 1, "T", "S"]), tensor("head_from", TensorProto.INT64, [1])]
    outputs = [tensor("logits", TensorProto.FLOAT, [1, "N", None]), tensor("states", TensorProto.FLOAT, [1, "T", config.hidden_size])]
    for i in range(layers):
        for kind in ("keys", "values"):
            inputs.append(tensor(f"past_{kind}_{i}", TensorProto.FLOAT, [1, kv, "C", d]))
            outputs.append(tensor(f"present_{kind}_{i}", TensorProto.FLOAT, [1, kv, "C", d]))
    return inputs, outputs


def rotary_halves(model: LlamaForCausalLM) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin (max positions, D/2) of the model's own rotary embedding, as GroupQueryAttention reads them."""
    positions = torch.arange(model.config.max_position_embeddings)[None]
    cos, sin = model.model.rotary_emb(torch.zeros(1), positions)                         # (1, P, D), halves repeated
    half = cos.shape[-1] // 2
    return cos[0, :, :half].float().numpy(), sin[0, :, :half].float().numpy()


def _head(model) -> torch.nn.Module:
    return model.lm_head.head if isinstance(model.lm_head, SilencedHead) else model.lm_head


def _weight(linear: torch.nn.Module) -> torch.Tensor:
    return linear.weight.detach().float()


def _layer_matrices(layer) -> list:
    a, mlp = layer.self_attn, layer.mlp
    return [a.q_proj, a.k_proj, a.v_proj, a.o_proj, mlp.gate_proj, mlp.up_proj, mlp.down_proj]


def _weights_hash(model: LlamaForCausalLM, bits: int | None) -> str:
    """Names a graph by what it computes: the weights, the config, the matrices' format, the builder."""
    digest = hashlib.sha256(f"{BUILDER_VERSION}/{bits}/{model.config.to_json_string()}".encode())
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().cpu().contiguous().view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()[:24]
