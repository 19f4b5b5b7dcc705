"""How a draft's raw scores become the q it samples from, shared by every decoding loop."""
from __future__ import annotations

import torch

from specdec_core.algorithm.rules import Rule
from specdec_core.algorithm.sampling import mix_with_uniform, probs_from_logits, sample

SMALL_SUPPORT = 0.5   # the share of the vocabulary under which q is computed on the allowed tokens alone


def draft_token(logits: torch.Tensor, settings, rule: Rule, generator: torch.Generator):
    """Pick the draft token(s) from scores (..., V).

    Returns (tokens (...), q the draft sampled from, q the rule scores with). They are the same
    tensor under the exact rule: q is taken after the shared temperature/top-k/top-p and the noise.
    """
    support = small_support(logits, settings.noise)
    if support is None:
        q = mix_with_uniform(probs_from_logits(logits, settings.sampling), settings.noise)
        tokens = q.argmax(-1) if rule.draft_greedy else sample(q, generator)
    else:
        q_on_support = probs_from_logits(logits[support], settings.sampling)
        tokens = support[q_on_support.argmax(-1) if rule.draft_greedy else sample(q_on_support, generator)]
        q = torch.zeros(logits.shape, dtype=q_on_support.dtype, device=logits.device).index_copy_(0, support, q_on_support)
    q_scored = logits.float().softmax(-1) if rule.raw_q else q
    return tokens, q, q_scored


def small_support(logits: torch.Tensor, noise: float) -> torch.Tensor | None:
    """The tokens a single row of scores (V,) allows, when they are at most SMALL_SUPPORT of the
    vocabulary and no noise spreads q over the rest; otherwise None.

    A draft whose head covers part of the vocabulary (drafts/subset_lm.py) gives -inf to the rest,
    and turning 49,152 scores into q and sampling from it cost about 0.8 ms a drafted token on 2
    CPU cores, a sixth of the smollm2 early exit's. On the head's 8,192 tokens the arithmetic is
    the same, the zeros left out: the same token for the same generator state (the inverse-CDF
    draw sees the same cumulative masses), and q equal to rounding.
    """
    if logits.dim() != 1 or noise > 0:
        return None
    if bool(logits.min() > float("-inf")):   # a whole-vocabulary head: one reduction, no search
        return None
    support = (logits > float("-inf")).nonzero().flatten()
    return support if len(support) <= SMALL_SUPPORT * len(logits) else None
