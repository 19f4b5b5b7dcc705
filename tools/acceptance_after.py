"""How often a scribe's first drafted token is accepted, by how the round before it ended.

Usage: .venv/bin/python -m tools.acceptance_after [--pair smollm2] [--scribe distilled-4] [--k 1,3]
       [--seeds 3] [--tokens 64] [--temperature 0.7] [--top-p 0.95]
A round ends with a bonus token (every draft accepted) or a corrected one (drawn from max(0, p − q),
where the scribe put too little mass). Each row: the mean min(1, p/q) of the next round's first
drafted token after each kind, and how many rounds that is, over the pair's example prompts.
"""
from __future__ import annotations

import argparse
from statistics import fmean

import torch

from specdec_core.decoding.generate import speculative_generate
from specdec_core.pairs.registry import load_pair
from specdec_core.settings import DecodeSettings, SamplingConfig


def first_acceptance_after(traces) -> dict[str, list[float]]:
    """Each round's first drafted token's acceptance probability, keyed by how the round before ended."""
    after: dict[str, list[float]] = {}
    for trace in traces:
        for before, now in zip(trace.rounds, trace.rounds[1:]):
            if now.drafted:
                after.setdefault(before.next_kind, []).append(now.drafted[0].accept_prob)
    return after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pair", default="smollm2")
    parser.add_argument("--scribe", default="distilled-4")
    parser.add_argument("--k", default="1,3")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--top-p", type=float, default=0.95)
    args = parser.parse_args()
    torch.set_num_threads(2)
    pair = load_pair(args.pair, "cpu")
    sampling = SamplingConfig(args.temperature, top_p=args.top_p)
    print("| k | after a bonus token | after a corrected token |\n|---|---|---|")
    for k in (int(k) for k in args.k.split(",")):
        settings = [DecodeSettings(k=k, max_new_tokens=args.tokens, sampling=sampling, seed=seed) for seed in range(args.seeds)]
        traces = [speculative_generate(pair.as_target(), pair.scribe(args.scribe), pair.encode_prompt(text, args.tokens), s)
                  for s in settings for text in pair.example_prompts]
        after = first_acceptance_after(traces)
        cell = {kind: f"{fmean(v):.2f} ({len(v)} rounds)" if v else "—" for kind, v in after.items()}
        print(f"| {k} | {cell.get('bonus', '—')} | {cell.get('corrected', '—')} |")


if __name__ == "__main__":
    main()
