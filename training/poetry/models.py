"""Model shapes: the master 墨卿 (target, p) and the scribes 阿速 (drafts, q). All GPT-2 causal LMs.

GPT-2 rather than Llama because it has residual/embedding dropout, which this small corpus
(~0.2 M characters) needs; both support ``DynamicCache``. Per-token CPU cost of these sizes is
dominated by per-layer overhead, so depth sets the master/scribe cost ratio.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ModelSpec:
    n_layer: int
    n_embd: int
    n_head: int
    dropout: float
    n_positions: int = 256


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
    init_from: str | None = None      # start from this stage's best checkpoint (a later phase)
    export_as: str | None = None      # directory name under assets/ (default: the stage name)
    stop_after: int | None = None     # end early on the ``steps``-long schedule (time budget)
    verse_share: float = 0.0          # share of each batch's windows opening at a verse entry


MODELS = {
    "master": ModelSpec(n_layer=8, n_embd=256, n_head=8, dropout=0.2),
    "master_small_batches": ModelSpec(n_layer=8, n_embd=256, n_head=8, dropout=0.1),
    "master_verse_form": ModelSpec(n_layer=8, n_embd=256, n_head=8, dropout=0.1),
    "tiny": ModelSpec(n_layer=1, n_embd=128, n_head=4, dropout=0.1),
    # Wider than tiny at no cost in depth: on CPU a token's cost is mostly per-layer overhead.
    "distilled": ModelSpec(n_layer=1, n_embd=256, n_head=8, dropout=0.0),
}

TRAINING = {
    "master": TrainSpec(steps=560, batch_size=16, block_size=256, lr=1.5e-3, warmup=40,
                        weight_decay=0.1, eval_every=50, threads=2),
    # Phase 2: many more, smaller updates (the 8-layer model is update-limited after phase 1).
    "master_small_batches": TrainSpec(steps=600, batch_size=4, block_size=256, lr=6e-4, warmup=20,
                               weight_decay=0.1, eval_every=100, threads=2,
                               init_from="master", export_as="master", stop_after=400),
    # Phase 3: half of every batch opens at a regular-verse entry, so the master learns the form
    # (five or seven characters, then the comma or full stop) that uniform windows rarely show it.
    # Stopped at 1100 of the 1400-step schedule: validation loss was rising after step 800.
    "master_verse_form": TrainSpec(steps=1400, batch_size=16, block_size=128, lr=5e-4, warmup=20,
                               weight_decay=0.1, eval_every=100, threads=1, init_from="master_small_batches",
                               export_as="master", verse_share=0.5, stop_after=1100),
    "tiny": TrainSpec(steps=600, batch_size=32, block_size=128, lr=2e-3, warmup=100,
                      weight_decay=0.1, eval_every=50, threads=1),
    "distilled": TrainSpec(steps=1500, batch_size=32, block_size=128, lr=2e-3, warmup=50,
                           weight_decay=0.0, eval_every=100, threads=1, distill_from="master"),
}


def gpt2_config(spec: ModelSpec, vocab_size: int):
    from transformers import GPT2Config
    return GPT2Config(vocab_size=vocab_size, n_positions=spec.n_positions, n_embd=spec.n_embd,
                      n_layer=spec.n_layer, n_head=spec.n_head, resid_pdrop=spec.dropout,
                      embd_pdrop=spec.dropout, attn_pdrop=spec.dropout, bos_token_id=1,
                      eos_token_id=2, pad_token_id=0, tie_word_embeddings=True,
                      activation_function="gelu_pytorch_tanh")  # gelu_new's formula, in one kernel


def build_model(name: str, vocab_size: int, seed: int):
    import torch
    from transformers import GPT2LMHeadModel
    torch.manual_seed(seed)
    return GPT2LMHeadModel(gpt2_config(MODELS[name], vocab_size))


def describe(name: str) -> dict:
    """Shape of the exported model ``name`` and every training phase that produced it."""
    phases = [{"stage": k, **asdict(t)} for k, t in TRAINING.items()
              if k == name or t.export_as == name]
    return {"model": asdict(MODELS[name]), "training": phases}
