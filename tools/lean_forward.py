"""The smollm2 distilled rungs' cached forward through transformers and through lean_llama.py, side by side.

Usage: .venv/bin/python -m tools.lean_draft [--rounds 200] [--threads 2]
Both forms multiply by the same int8 matrices. Timing as in tools.int8_draft: one drafted token
then the master's two-token forward, the forms alternating round by round; medians printed, with
the largest difference between the two forms' logits along the first example prompt.
"""
from __future__ import annotations

import argparse

import torch

from specdec_core.cached_lm import CachedLM
from specdec_core.lean_llama import LeanLlamaLM
from specdec_core.pairs import load_pair
from specdec_core.smollm_pair import DISTILLED_RUNGS, smollm2_scribes
from tools.int8_draft import draft_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    pair = load_pair("smollm2", "cpu")
    made = smollm2_scribes(pair.target, len(pair.tokenizer))
    scribes = {}
    for rung in (r for r in DISTILLED_RUNGS if r in made):
        lean, via_transformers = made[rung](), made[rung]()
        if not isinstance(lean.lm, LeanLlamaLM):
            raise SystemExit(f"{rung} does not take the lean forward: are its matrices int8?")
        via_transformers.lm = CachedLM(via_transformers.model)
        scribes |= {f"{rung} lean": lean, f"{rung} transformers": via_transformers}
    prompt = pair.encode_prompt(pair.example_prompts[0], 64)
    for rung in (r for r in DISTILLED_RUNGS if r in made):
        gap = max_gap(scribes[f"{rung} lean"].lm, scribes[f"{rung} transformers"].lm, prompt)
        print(f"{rung}: largest logit difference between the forms {gap:.2e}")
    for name, ms in draft_ms(pair, scribes, args.rounds).items():
        print(f"{name}: {ms:.2f} ms per drafted token")


def max_gap(a, b, prompt: list[int]) -> float:
    """The largest difference between two cached forwards' logits: the prompt, then one token at a time."""
    a.start(), b.start()
    gap = (a.logits(prompt[:8]) - b.logits(prompt[:8])).abs().max()
    for end in range(9, len(prompt) + 1):
        gap = max(gap, (a.logits(prompt[:end]) - b.logits(prompt[:end])).abs().max())
    return float(gap)


if __name__ == "__main__":
    main()
