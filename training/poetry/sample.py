"""Batched, cached sampling from a poetry model at one temperature, for the training scripts' checks."""
from __future__ import annotations

import torch
import torch.nn.functional as F


@torch.no_grad()
def sample_after(model, ids: torch.Tensor, steps: int, temperature: float, generator: torch.Generator) -> torch.Tensor:
    """(B, steps) tokens sampled after each row of ids (B, L); rows share one cached forward per step."""
    out = model(input_ids=ids, use_cache=True)
    written = []
    for i in range(steps):
        probs = F.softmax(out.logits[:, -1].float() / temperature, dim=-1)
        written.append(torch.multinomial(probs, 1, generator=generator))    # (B, 1)
        if i < steps - 1:
            out = model(input_ids=written[-1], cache=out.cache, use_cache=True)
    return torch.cat(written, 1)
