"""The smollm2 models' cached forwards through transformers and through lean_llama.py, side by side.

Usage: .venv/bin/python -m tools.lean_forward [--rounds 200] [--threads 2]
Drafts: one drafted token then the master's two-token forward, the forms alternating round by
round (as tools.int8_draft times them). Master: its one-token forward and its two-token forward
(a k = 1 verification), the forms alternating. Medians are printed, with the largest difference
between the two forms' logits along the first example prompt.
"""
from __future__ import annotations

import argparse
import statistics
import time

import torch

from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_RUNGS, smollm2_scribes
from specdec_core.runtimes.cached_lm import CachedLM
from specdec_core.runtimes.lean_llama import LeanLlamaLM
from tools.int8_draft import draft_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    pair = load_pair("smollm2", "cpu")
    prompt = pair.encode_prompt(pair.example_prompts[0], 64)
    masters = {"lean": LeanLlamaLM(pair.target), "transformers": CachedLM(pair.target)}
    print(f"master: largest logit difference between the forms {max_gap(*masters.values(), prompt):.2e}")
    for name, (one, two) in master_ms(masters, prompt, args.rounds).items():
        print(f"master {name}: {one:.2f} ms for one new token, {two:.2f} for two ({two / one:.3f})")
    made = smollm2_scribes(pair.target, len(pair.tokenizer))
    scribes = {}
    for rung in (r for r in DISTILLED_RUNGS if r in made):
        lean, via_transformers = made[rung](), made[rung]()
        if not isinstance(lean.lm, LeanLlamaLM):
            raise SystemExit(f"{rung} does not take the lean forward: are its matrices int8?")
        via_transformers.lm = CachedLM(via_transformers.model)
        gap = max_gap(lean.lm, via_transformers.lm, prompt)
        print(f"{rung}: largest logit difference between the forms {gap:.2e}")
        scribes |= {f"{rung} lean": lean, f"{rung} transformers": via_transformers}
    for name, ms in draft_ms(pair, scribes, args.rounds).items():
        print(f"{name}: {ms:.2f} ms per drafted token")


def master_ms(forms: dict, prompt: list[int], rounds: int) -> dict[str, tuple[float, float]]:
    """Median ms of each form's forward over one and over two new tokens after the prompt."""
    kept = len(prompt) - 1
    times = {name: ([], []) for name in forms}
    for lm in forms.values():
        lm.start()
        lm.logits(prompt[:-1])
    for i in range(rounds // 4 + 3):                       # the master is ten times the draft's cost
        for name, lm in forms.items():
            for n, bucket in zip((1, 2), times[name]):
                started = time.perf_counter()
                lm.logits(prompt + prompt[-1:] * (n - 1), n)
                if i >= 3:
                    bucket.append(time.perf_counter() - started)
                lm.rollback(kept)
    return {name: (statistics.median(one) * 1e3, statistics.median(two) * 1e3) for name, (one, two) in times.items()}


def max_gap(a, b, prompt: list[int]) -> float:
    """The largest difference between two cached forwards' logits: the prompt, then one token at a time."""
    a.start(), b.start()
    gap = (a.logits(prompt[:8]) - b.logits(prompt[:8])).abs().max()
    for end in range(9, len(prompt) + 1):
        gap = max(gap, (a.logits(prompt[:end]) - b.logits(prompt[:end])).abs().max())
    return float(gap)


if __name__ == "__main__":
    main()
