"""Model shapes: the master 墨卿 (target, p) and the scribes 阿速 (drafts, q). All Llama causal LMs.

Llama (RMSNorm, rotary positions, SwiGLU), the family of SmolLM2, so that one lean forward
(specdec_core/runtimes/lean_llama.py) serves every shipped model. The master is sized so that its
decode reads weights rather than waits on per-call overhead: its matrices are 512 wide, where a
bfloat16 product of five rows costs about what one costs on this CPU (the model card has the numbers).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ModelSpec:
    n_layer: int
    n_embd: int
    n_head: int
    mlp_width: int
    n_positions: int = 1024


@dataclass(frozen=True)
class TrainSpec:
    steps: int
    batch_size: int
    block_size: int
    lr: float
    warmup: int
    weight_decay: float
    eval_every: int
    threads: int
    distill_from: str | None = None   # teacher model name: loss = KL(p_teacher || q_student), T = 1
    start_share: float = 0.0          # share of each batch's windows opening at a poem's <s>


MODELS = {
    "master": ModelSpec(n_layer=8, n_embd=512, n_head=8, mlp_width=1024),
    "tiny": ModelSpec(n_layer=1, n_embd=128, n_head=2, mlp_width=256),
    "distilled": ModelSpec(n_layer=1, n_embd=256, n_head=4, mlp_width=512),
}

TRAINING = {
    # About three passes over the 3.1 M training characters: what two CPU cores do in an hour.
    "master": TrainSpec(steps=2400, batch_size=32, block_size=128, lr=1.5e-3, warmup=100,
                        weight_decay=0.1, eval_every=200, threads=2, start_share=0.5),
    "tiny": TrainSpec(steps=600, batch_size=32, block_size=128, lr=3e-3, warmup=50,
                      weight_decay=0.1, eval_every=100, threads=2),
    "distilled": TrainSpec(steps=1200, batch_size=32, block_size=128, lr=3e-3, warmup=50,
                           weight_decay=0.0, eval_every=200, threads=2, distill_from="master"),
}


def llama_config(spec: ModelSpec, vocab_size: int):
    from transformers import LlamaConfig
    return LlamaConfig(vocab_size=vocab_size, hidden_size=spec.n_embd, intermediate_size=spec.mlp_width,
                       num_hidden_layers=spec.n_layer, num_attention_heads=spec.n_head,
                       num_key_value_heads=spec.n_head, max_position_embeddings=spec.n_positions,
                       bos_token_id=1, eos_token_id=2, pad_token_id=0, tie_word_embeddings=True)


def build_model(name: str, vocab_size: int, seed: int):
    import torch
    from transformers import LlamaForCausalLM
    torch.manual_seed(seed)
    return LlamaForCausalLM(llama_config(MODELS[name], vocab_size))


def describe(name: str) -> dict:
    """Shape of the exported model ``name`` and how it was trained."""
    return {"model": asdict(MODELS[name]), "training": asdict(TRAINING[name])}
