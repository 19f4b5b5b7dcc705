"""The smollm2 distilled rungs with float32 weights and with their int8 weights multiplied as shipped, side by side.

Usage: .venv/bin/python -m tools.int8_draft [--prompts 64] [--rounds 200] [--threads 2]
Timing: each round is one drafted token then the master's verifying forward over two tokens, as in a
k = 1 decode (so the master's pass clears the caches between drafts, as it does in real runs); the
two forms alternate round by round and the medians are printed. Alpha: sum_x min(p, q) at T 0.7,
top-p 0.95 over the master's answers to the first --prompts held-out prompts (the eval's measure).
"""
from __future__ import annotations

import argparse
import statistics
import time

import torch

from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_RUNGS, smollm2_scribes
from specdec_core.runtimes.cached_lm import CachedLM
from training.smollm2_distill.evaluate import SEED, overlaps
from training.smollm2_distill.prompts import held_out_prompts


def draft_ms(pair, scribes: dict, rounds: int) -> dict[str, float]:
    """Median ms of one drafted token per scribe, each followed by the master's two-token forward."""
    master = CachedLM(pair.target)
    prompt = pair.encode_prompt(pair.example_prompts[0], 64)
    kept = len(prompt) - 1
    master.logits(prompt[:-1])
    for scribe in scribes.values():
        scribe.start()
        scribe.prefill(prompt[:-1])
    times = {name: [] for name in scribes}
    for i in range(rounds + 3):
        for name, scribe in scribes.items():
            started = time.perf_counter()
            scribe.next_logits(prompt)
            if i >= 3:                                    # the first rounds warm up
                times[name].append(time.perf_counter() - started)
            master.logits(prompt + prompt[-1:], 2)
            scribe.rollback(kept)
            master.rollback(kept)
    return {name: statistics.median(t) * 1e3 for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prompts", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    pair = load_pair("smollm2", "cpu")
    vocab = len(pair.tokenizer)
    forms = {"float32": smollm2_scribes(pair.target, vocab, int8_matmul=False),
             "int8": smollm2_scribes(pair.target, vocab, int8_matmul=True)}
    scribes = {f"{rung} {form}": made[rung]() for form, made in forms.items() for rung in DISTILLED_RUNGS if rung in made}
    for name, ms in draft_ms(pair, scribes, args.rounds).items():
        print(f"{name}: {ms:.2f} ms per drafted token")
    pair.scribes.update({name: (lambda s=scribe: s) for name, scribe in scribes.items()})
    result = overlaps(pair, list(scribes), held_out_prompts()[: args.prompts], SEED, log=lambda *_: None)
    for name in scribes:
        mean, error = result["alpha"][name]["T=0.7, top-p=0.95"], result["standard_error"][name]["T=0.7, top-p=0.95"]
        print(f"{name}: alpha {mean:.4f} ± {error:.4f} on {result['prompts']} held-out prompts")


if __name__ == "__main__":
    main()
