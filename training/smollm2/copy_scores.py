"""Fit each distilled rung's context-copy scores (specdec_core/drafts/context_copy.py) and write
them beside its weights.

The scores are chosen by alpha (sum_x min(p, q) at the bar's T 0.7, top-p 0.95) on the master's
answers to two kinds of prompts: on topics no draft trained on and no eval reads
(the first of ``unseen_topic_prompts``; distill-online trained on the rest), where copying matters most, and on training topics the eval's seen-topics
control does not use, where a strong bonus for copies costs alpha. The held-out topics lie between:
new to the draft, but drawn from the same list as the training topics, over whose text the head's
tokens were chosen. The held-out prompts play no part in the choice. The grid holds "no copies"
(every score -inf or 0), so the fit can decline them.
"""
from __future__ import annotations

import itertools
import math

import torch

from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.drafts.context_copy import CopyScores, continuations, scored
from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_RUNGS, smollm2_drafts
from training.smollm2.calibrate import SETTING
from training.smollm2.evaluate import BATCH, NEW_TOKENS, SEEN_STRIDE, answer_rows
from training.smollm2.prompts import training_prompts, unseen_topic_prompts
from training.smollm2.scoring import logits_along

PROMPTS = 96       # on unseen topics; and the 64 training prompts below
SEED = 700
SEEN_OFFSET = 14   # every 28th training prompt from here: not the eval's seen-topics control (from 0)
GRID = [CopyScores(*scores) for scores in
        itertools.product((-math.inf, -3.0), (-math.inf, 3.0, 6.0), (0.0, 1.0, 2.0), (0.0, 2.0, 4.0, 6.0, 9.0))]


def fit_copy_scores(threads: int, log=print) -> dict[str, CopyScores]:
    torch.set_num_threads(threads)
    pair = load_pair("smollm2", "cpu")
    scribes = smollm2_drafts(pair.target, len(pair.tokenizer), context_copy=False)   # the head's own scores
    texts = unseen_topic_prompts()[:PROMPTS] + training_prompts()[SEEN_OFFSET::SEEN_STRIDE]
    answers = [a for i in range(0, len(texts), BATCH)
               for a in answer_rows(pair, [pair.encode_prompt(t, NEW_TOKENS) for t in texts[i:i + BATCH]], SEED + i)]
    chosen = {}
    for name, directory in DISTILLED_RUNGS.items():
        if name not in scribes:
            continue
        scribe = scribes[name]()
        alphas = alpha_by_scores(rows_of(scribe, answers), scribe.in_head, GRID)
        best = best_scores(alphas)
        log(f"{name}: alpha on {len(texts)} unseen- and seen-topic prompts {alphas[CopyScores()]:.4f} without copies, "
            f"{alphas[best]:.4f} with {best}")
        best.save(directory)
        chosen[name] = best
    return chosen


def best_scores(alphas: dict[CopyScores, float]) -> CopyScores:
    """The scores of highest alpha; on a tie, no copies."""
    return max(alphas, key=lambda s: (alphas[s], s == CopyScores()))


@torch.inference_mode()
def rows_of(scribe, answers: list[dict]):
    """(context, the head's logits over the vocabulary, the master's logits) at each answer position."""
    for a in answers:
        q = logits_along(scribe, a["sequence"], a["start"], len(a["p"]))
        for j, (q_row, p_row) in enumerate(zip(q, a["p"])):
            yield a["sequence"][: a["start"] + j], q_row, p_row


def alpha_by_scores(rows, in_head: torch.Tensor, grid: list[CopyScores]) -> dict[CopyScores, float]:
    """Mean sum_x min(p, q) over the rows for each choice of scores."""
    totals, n = dict.fromkeys(grid, 0.0), 0
    for context, q_logits, p_logits in rows:
        p = probs_from_logits(p_logits, SETTING)
        follow, match = continuations(context)                 # once per row, not per choice of scores
        if len(follow):
            q = probs_from_logits(torch.stack([scored(q_logits, follow, match, in_head, s) for s in grid]), SETTING)
            for s, alpha in zip(grid, torch.minimum(p, q).sum(-1).tolist()):
                totals[s] += alpha
        else:                                                  # nothing to copy: every choice is the head's q
            alpha = float(torch.minimum(p, probs_from_logits(q_logits, SETTING)).sum())
            for s in grid:
                totals[s] += alpha
        n += 1
    return {s: total / n for s, total in totals.items()}
