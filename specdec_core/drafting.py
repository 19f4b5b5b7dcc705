"""How a scribe's raw scores become the q it samples from, shared by every decoding loop."""
from __future__ import annotations

import torch

from .rules import Rule
from .sampling import mix_with_uniform, probs_from_logits, sample


def draft_token(logits: torch.Tensor, settings, rule: Rule, generator: torch.Generator):
    """Pick the draft token(s) from scores (..., V).

    Returns (tokens (...), q the draft sampled from, q the rule scores with). They are the same
    tensor under the exact rule: q is taken after the shared temperature/top-k/top-p and the noise.
    """
    q = mix_with_uniform(probs_from_logits(logits, settings.sampling), settings.noise)
    tokens = q.argmax(-1) if rule.draft_greedy else sample(q, generator)
    q_scored = logits.float().softmax(-1) if rule.raw_q else q
    return tokens, q, q_scored
