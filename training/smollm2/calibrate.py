"""One scale on each distilled rung's logits, fit on the held-back answers (temperature scaling,
Guo et al. 2017), so that q after the shared temperature and top-p overlaps the master's p most.

Trained by forward KL to the master's top-64, the draft comes out flatter than the master where it
is unsure: multiplying its head rows by s > 1 sharpens q at every temperature. s is chosen on the
two held-back training batches at the bar's setting (T 0.7, top-p 0.95), with p from the teacher's
top-64, from a grid that holds 1, so a second run leaves a calibrated draft as it is. The held-out
prompts of the eval stage play no part in the choice.
"""
from __future__ import annotations

from typing import Iterable

import torch

from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.theory import expected_acceptance
from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_RUNGS, EARLY_EXIT_DIR, smollm2_drafts
from specdec_core.settings import SamplingConfig
from training.smollm2.draft_files import save_draft
from training.smollm2.evaluate import draft_logits
from training.smollm2.master_answers import held_back_shards

SCALES = (0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5)
SETTING = SamplingConfig(0.7, top_p=0.95)


def calibrate(threads: int, log=print) -> dict[str, float]:
    """Fit s for each distilled rung present, scale its head by it and save it again; returns each s."""
    torch.set_num_threads(threads)
    held = held_back_shards()
    if not held:
        raise SystemExit("run the teacher stage first: the held-back shards are missing")
    pair = load_pair("smollm2", "cpu")
    scribes = smollm2_drafts(pair.target, len(pair.tokenizer), int8_matmul=False, context_copy=False)  # float heads, to scale and save
    return {name: calibrate_rung(scribes[name](), directory, held, log)
            for name, directory in DISTILLED_RUNGS.items() if name in scribes}


def calibrate_rung(scribe, directory, held: list[dict], log) -> float:
    alphas = overlap_by_scale(held_back_rows(scribe, held), SCALES, SETTING)
    best = max(alphas, key=alphas.get)
    log(f"{scribe.name}: held-back alpha by logit scale: " + ", ".join(f"{s}: {a:.4f}" for s, a in alphas.items()) + f"; chosen {best}")
    if best != 1.0:
        scribe.model.lm_head.weight.data.mul_(best)
        save_draft(scribe.model, scribe.vocab_ids, directory, layers=directory != EARLY_EXIT_DIR)  # the exit ships no layers
    return best


@torch.inference_mode()
def held_back_rows(scribe, held: list[dict]) -> Iterable[tuple[torch.Tensor, torch.Tensor]]:
    """(draft logits, master logits) over the vocabulary at each held-back answer's positions; the
    master's are its top-k log-probabilities, -inf elsewhere."""
    for shard in held:
        for seq, n, ids, logp in zip(shard["sequences"], shard["prompt_lens"], shard["topk_ids"], shard["topk_logp"]):
            q = draft_logits(scribe, list(seq), n, len(ids))
            yield q, torch.full_like(q, float("-inf")).scatter_(1, ids.long(), logp.float())


def overlap_by_scale(rows, scales, config: SamplingConfig) -> dict[float, float]:
    """Mean sum_x min(p, q) over every position, with the draft's logits multiplied by each scale."""
    totals, positions = dict.fromkeys(scales, 0.0), 0
    for q_logits, p_logits in rows:
        p = probs_from_logits(p_logits, config)
        for s in scales:
            totals[s] += expected_acceptance(p, probs_from_logits(q_logits * s, config)) * len(p)
        positions += len(p)
    return {s: total / positions for s, total in totals.items()}
