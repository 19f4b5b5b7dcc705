"""Loading a shipped model the way it computes: its stored precision decides its arithmetic."""
from __future__ import annotations

import json
from pathlib import Path

import torch
from torch import nn
from transformers import AutoModelForCausalLM

from specdec_core.runtimes.bf16_linear import use_bf16_matrices
from specdec_core.runtimes.device import place
from specdec_core.runtimes.silenced_head import silence


def load_causal_lm(directory: Path, device: torch.device, silenced: list[int] = ()) -> nn.Module:
    """A transformers causal LM from its directory, placed on `device` in eval mode and computing as
    shipped: a bfloat16 file multiplies in bfloat16 (Bf16Linear on CPU, a bfloat16 model on CUDA);
    any other file in float32. ``silenced``: token ids it must never write (silenced_head.py)."""
    shipped = json.loads((directory / "config.json").read_text()).get("dtype")
    model = AutoModelForCausalLM.from_pretrained(directory, dtype=torch.float32, use_safetensors=True)
    if shipped == "bfloat16" and device.type == "cpu":
        use_bf16_matrices(model)
    elif shipped == "bfloat16":
        model = model.to(torch.bfloat16)
    return place(silence(model, list(silenced)), device)
