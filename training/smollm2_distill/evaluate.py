"""Measure the smollm2 ladder on held-out prompts; write assets/models/smollm2/metrics.json.

* alpha: mean over positions of sum_x min(p(x), q(x)) (Leviathan et al. 2023, Sec. 3.1), p and q
  after the same temperature and top-p (specdec_core.sampling), at the positions of answers the
  master samples itself at temperature 0.7, top-p 0.95: what a decode visits. Prompts are the
  held-out topics' and the pair's example prompts, none of which the distillation saw.
* cost: median ms of one cached single-token forward, each distilled rung and the master side by
  side, and of the master's forward over k + 1 new tokens (its verification), as a multiple of its
  one-token forward.
* head mass: the share of the master's probability (T 0.7, top-p 0.95) on the tokens the distilled
  draft's head covers, a ceiling on its alpha.
* size of the shipped files (both distilled rungs together).
"""
from __future__ import annotations

import json
import statistics

import torch

from specdec_core.pairs import load_pair
from specdec_core.sampling import SamplingConfig, probs_from_logits
from specdec_core.scribes import LMScribe
from specdec_core.smollm_pair import ASSETS_DIR, DISTILLED_RUNGS, EXAMPLE_PROMPTS
from specdec_core.theory import expected_acceptance
from training.poetry.evaluate import decode_ms, verify_ms
from training.smollm2_distill.prompts import held_out_prompts
from training.smollm2_distill.teacher import answer_batch

N_HELD_OUT = 28
NEW_TOKENS = 64
SEED = 3
SETTINGS = {"T=0.7, top-p=0.95": SamplingConfig(0.7, top_p=0.95), "T=1.0": SamplingConfig(1.0)}
METRICS = ASSETS_DIR / "metrics.json"


def evaluate(threads: int, log=print) -> dict:
    torch.set_num_threads(threads)
    pair = load_pair("smollm2", "cpu")
    texts = held_out_prompts()[:N_HELD_OUT] + EXAMPLE_PROMPTS
    answers = []
    for i in range(0, len(texts), 16):
        prompts = [pair.encode_prompt(t, NEW_TOKENS) for t in texts[i:i + 16]]
        answers += answer_rows(pair, prompts, SEED + i)
    table = {name: alpha_of(pair.scribe(name), answers) for name in ("ngram", *DISTILLED_RUNGS) if name in pair.scribes}
    costs = forward_ms(pair)
    verify = verify_ms(pair.target, k_values=(1, 2, 3, 4), reps=20)
    metrics = {"prompts": len(texts), "positions": sum(len(a["p"]) for a in answers), "alpha": table,
               "ms_per_token": costs, "c": {n: costs[n] / costs["master"] for n in costs if n != "master"},
               "verify_cost": {k: ms / costs["master"] for k, ms in verify.items()},
               "head_mass": head_mass(pair.scribe("distilled").vocab_ids, answers),
               "distilled_mb": round(sum(f.stat().st_size for d in DISTILLED_RUNGS.values() if d.is_dir() for f in d.iterdir()) / 1e6, 1),
               "threads": threads}
    METRICS.write_text(json.dumps(metrics, indent=1))
    log(json.dumps(metrics))
    return metrics


def answer_rows(pair, prompts, seed) -> list[dict]:
    """The master's sampled answers (cut to NEW_TOKENS) with its raw logits at each answer position."""
    shard = answer_batch(pair, prompts, seed, max_new_tokens=NEW_TOKENS, keep_logits=True)
    return [{"sequence": s, "start": n, "p": p} for s, n, p in zip(shard["sequences"], shard["prompt_lens"], shard["logits"])]


@torch.inference_mode()
def alpha_of(scribe, answers: list[dict]) -> dict:
    """Mean sum_x min(p, q) over every answer position, for each sampling setting."""
    totals = dict.fromkeys(SETTINGS, 0.0)
    for a in answers:
        q = scribe_logits(scribe, a["sequence"], a["start"], len(a["p"]))
        for name, config in SETTINGS.items():
            totals[name] += expected_acceptance(probs_from_logits(a["p"], config), probs_from_logits(q, config)) * len(q)
    positions = sum(len(a["p"]) for a in answers)
    return {name: total / positions for name, total in totals.items()}


def head_mass(vocab_ids: torch.Tensor, answers: list[dict]) -> float:
    """Mean share of the master's sampled-from probability on the head's tokens, over every position."""
    config = SETTINGS["T=0.7, top-p=0.95"]
    return statistics.fmean(torch.cat([probs_from_logits(a["p"], config)[:, vocab_ids].sum(-1) for a in answers]).tolist())


def scribe_logits(scribe, sequence: list[int], start: int, n: int) -> torch.Tensor:
    """The scribe's logits before each of the n answer tokens: one forward for a model scribe."""
    if isinstance(scribe, LMScribe):
        return scribe.over_vocab(scribe.model(input_ids=torch.tensor([sequence])).logits[0, start - 1 : start - 1 + n]).float()
    return torch.stack([scribe.next_logits(sequence[: start + i]).float() for i in range(n)])


def forward_ms(pair) -> dict:
    """Median ms of a cached one-token forward: master and each distilled rung, interleaved."""
    return decode_ms({"master": pair.target, **{name: pair.scribe(name).model for name in DISTILLED_RUNGS if name in pair.scribes}})
