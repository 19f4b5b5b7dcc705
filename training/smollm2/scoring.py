"""A model scribe's scores along a whole answer in one forward (teacher forcing), as training reads them.

Decoding asks a scribe for one next token at a time, through its cache; training and evaluation score
every position of a stored answer at once. The scores are the same (tests/test_context_copy.py).
"""
from __future__ import annotations

import torch

from specdec_core.drafts import LMDraft
from specdec_core.drafts.context_copy import with_copies


@torch.inference_mode()
def logits_along(scribe: LMDraft, sequence: list[int], start: int, n: int) -> torch.Tensor:
    """Scores (n, V) before each of the n tokens from sequence[start] on: one cache-free forward, then the
    scribe's context copies (a part-vocabulary scribe's) at each position."""
    ids = torch.tensor([sequence], device=scribe.model.device)
    logits = scribe.over_vocab(scribe.model(input_ids=ids).logits[0, start - 1 : start - 1 + n]).float()
    copies = getattr(scribe, "copies", None)
    if copies is None:
        return logits
    return torch.stack([with_copies(row, sequence[: start + j], scribe.in_head, copies) for j, row in enumerate(logits)])
