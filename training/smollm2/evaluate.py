"""Measure the smollm2 ladder on held-out prompts; write assets/models/smollm2/metrics.json.

* alpha: mean over positions of sum_x min(p(x), q(x)) (Leviathan et al. 2023, Sec. 3.1), p and q
  after the same temperature and top-p (specdec_core.algorithm.sampling), at the positions of answers the
  master samples itself at temperature 0.7, top-p 0.95: what a decode visits. Prompts are every
  held-out topic's (440) and the pair's example prompts, none of which the distillation saw. Its
  standard error treats each answer as a cluster (positions within an answer are not independent).
* cost: median ms of one cached single-token forward as decoding runs it (lean_llama.py), each
  distilled rung and the master side by side, and of the master's forward over k + 1 new tokens
  (its verification), as a multiple of its one-token forward.
* seen topics, a control: the top rung's alpha on fresh answers to training prompts, whose topics
  (not these answers) the draft trained on. The gap to the held-out alpha is what it has not
  generalised.
* head mass: the share of the master's probability (T 0.7, top-p 0.95) on the tokens the distilled
  draft's head covers, a ceiling on its alpha.
* size of the shipped files (both distilled rungs together).
"""
from __future__ import annotations

import json
import math

import torch

from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.theory import expected_acceptance
from specdec_core.drafts import LMDraft
from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import ASSETS_DIR, DISTILLED_RUNGS, EXAMPLE_PROMPTS
from specdec_core.settings import SamplingConfig
from training.smollm2.master_answers import answer_batch
from training.smollm2.prompts import held_out_prompts, training_prompts
from training.smollm2.scoring import logits_along
from training.timing import decode_ms, verify_ms

BATCH = 16
NEW_TOKENS = 64
SEED = 3
SEEN_STRIDE = 28    # a control: fresh answers to every 28th training prompt (topics the draft trained on)
SEEN_SEED = 500
SETTINGS = {"T=0.7, top-p=0.95": SamplingConfig(0.7, top_p=0.95), "T=1.0": SamplingConfig(1.0)}
METRICS = ASSETS_DIR / "metrics.json"


def evaluate(threads: int, log=print, n_held_out: int | None = None) -> dict:
    """Every held-out prompt by default (until 2026-12-03 the first 28: a standard error of 0.014)."""
    torch.set_num_threads(threads)
    pair = load_pair("smollm2", "cpu")
    names = [name for name in ("ngram", *DISTILLED_RUNGS) if name in pair.drafts]
    held = overlaps(pair, names, held_out_prompts()[:n_held_out] + EXAMPLE_PROMPTS, SEED, log)
    seen = overlaps(pair, names[-1:], training_prompts()[::SEEN_STRIDE], SEEN_SEED, log)
    costs = forward_ms(pair)
    verify = verify_ms(pair.target, k_values=(1, 2, 3, 4), reps=20)
    metrics = {"prompts": held["prompts"], "positions": held["positions"], "alpha": held["alpha"],
               "alpha_standard_error": held["standard_error"],
               "seen_topics": {"prompts": seen["prompts"], "positions": seen["positions"], "alpha": seen["alpha"]},
               "ms_per_token": costs, "c": {n: costs[n] / costs["master"] for n in costs if n != "master"},
               "verify_cost": {k: ms / costs["master"] for k, ms in verify.items()},
               "head_mass": held["head_mass"],
               "distilled_mb": round(sum(f.stat().st_size for d in DISTILLED_RUNGS.values() if d.is_dir() for f in d.iterdir()) / 1e6, 1),
               "threads": threads}
    METRICS.write_text(json.dumps(metrics, indent=1))
    log(json.dumps(metrics))
    return metrics


def overlaps(pair, names: list[str], texts: list[str], seed: int, log=print) -> dict:
    """Each named scribe's alpha (and its standard error) on the master's answers to `texts`,
    and the head's share of the master's probability."""
    sums = {name: {s: [] for s in SETTINGS} for name in names}   # per answer: sum of min(p, q) over its positions
    positions, mass = [], []
    for i in range(0, len(texts), BATCH):
        prompts = [pair.encode_prompt(t, NEW_TOKENS) for t in texts[i:i + BATCH]]
        answers = answer_rows(pair, prompts, seed + i)         # the master's logits are kept a batch at a time
        positions += [len(a["p"]) for a in answers]
        mass += head_mass(pair.draft("distilled").vocab_ids, answers)
        for name in names:
            for setting, per_answer in overlap_sums(pair.draft(name), answers).items():
                sums[name][setting] += per_answer
        log(f"eval: {min(i + BATCH, len(texts))}/{len(texts)} prompts")
    means = {n: {s: clustered_mean(v, positions) for s, v in by.items()} for n, by in sums.items()}
    return {"prompts": len(texts), "positions": sum(positions), "head_mass": sum(mass) / sum(positions),
            "alpha": {n: {s: m[0] for s, m in by.items()} for n, by in means.items()},
            "standard_error": {n: {s: m[1] for s, m in by.items()} for n, by in means.items()}}


def answer_rows(pair, prompts, seed) -> list[dict]:
    """The master's sampled answers (cut to NEW_TOKENS) with its raw logits at each answer position."""
    shard = answer_batch(pair, prompts, seed, max_new_tokens=NEW_TOKENS, keep_logits=True)
    return [{"sequence": s, "start": n, "p": p} for s, n, p in zip(shard["sequences"], shard["prompt_lens"], shard["logits"])]


@torch.inference_mode()
def overlap_sums(scribe, answers: list[dict]) -> dict:
    """For each sampling setting, each answer's sum over its positions of sum_x min(p, q)."""
    sums = {name: [] for name in SETTINGS}
    for a in answers:
        q = draft_logits(scribe, a["sequence"], a["start"], len(a["p"]))
        for name, config in SETTINGS.items():
            sums[name].append(expected_acceptance(probs_from_logits(a["p"], config), probs_from_logits(q, config)) * len(q))
    return sums


def clustered_mean(sums: list[float], counts: list[int]) -> tuple[float, float]:
    """(sum(sums) / sum(counts), its standard error with each answer as one cluster): the ratio
    estimator's linearised variance, m / (m - 1) * sum((s_i - mean * n_i)^2) / (sum n_i)^2."""
    total, m = sum(counts), len(counts)
    mean = sum(sums) / total
    spread = sum((s - mean * n) ** 2 for s, n in zip(sums, counts))
    return mean, math.sqrt(m / (m - 1) * spread) / total if m > 1 else float("nan")


def head_mass(vocab_ids: torch.Tensor, answers: list[dict]) -> list[float]:
    """Per answer, the master's sampled-from probability on the head's tokens, summed over its positions."""
    config = SETTINGS["T=0.7, top-p=0.95"]
    return [float(probs_from_logits(a["p"], config)[:, vocab_ids].sum()) for a in answers]


def draft_logits(scribe, sequence: list[int], start: int, n: int) -> torch.Tensor:
    """The scribe's logits before each of the n answer tokens: one forward for a model scribe."""
    if isinstance(scribe, LMDraft):
        return logits_along(scribe, sequence, start, n)
    return torch.stack([scribe.next_logits(sequence[: start + i]).float() for i in range(n)])


def forward_ms(pair) -> dict:
    """Median ms of a cached one-token forward: master and each distilled rung, interleaved."""
    return decode_ms({"master": pair.target, **{name: pair.draft(name).model for name in DISTILLED_RUNGS if name in pair.drafts}})
