"""Time a pair's master on 1-5 new tokens with plain nn.Linear and with DecodeLinear, side by side.

Usage: .venv/bin/python -m tools.linear_rows [--pair smollm2] [--repeats 20] [--threads 2]
Each row: milliseconds for one cached forward over that many new tokens, for both forms, measured
alternately in one run; v is that time over the same form's one-token time (the verify cost).
"""
from __future__ import annotations

import argparse
import time

import torch
from torch import nn

from specdec_core.pairs.registry import load_pair
from specdec_core.runtimes.cached_lm import CachedLM
from specdec_core.runtimes.decode_linear import DecodeLinear, linear_form

PREFIX = 80  # cached tokens before each timed forward, about a chat prompt's length


def forward_ms(lm: CachedLM, prefix: list[int], rows: int, repeats: int) -> float:
    tokens = prefix + prefix[:rows]
    lm.logits(tokens, rows)  # warm-up
    lm.rollback(len(prefix))
    start = time.perf_counter()
    for _ in range(repeats):
        lm.logits(tokens, rows)
        lm.rollback(len(prefix))
    return (time.perf_counter() - start) / repeats * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pair", default="smollm2")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    pair = load_pair(args.pair, "cpu")
    lm = CachedLM(pair.target)
    prefix = list(range(100, 100 + PREFIX))
    lm.logits(prefix)
    times = {form: {} for form in (nn.Linear, DecodeLinear)}
    for rows in range(1, 6):
        for form in times:
            linear_form(pair.target, form)
            times[form][rows] = forward_ms(lm, prefix, rows, args.repeats)
    linear_form(pair.target, DecodeLinear)
    print("rows | nn.Linear ms (v) | DecodeLinear ms (v) | ratio")
    for rows in range(1, 6):
        plain, fast = times[nn.Linear][rows], times[DecodeLinear][rows]
        print(f"{rows} | {plain:.1f} ({plain / times[nn.Linear][1]:.2f}) | {fast:.1f} ({fast / times[DecodeLinear][1]:.2f}) | {plain / fast:.2f}")


if __name__ == "__main__":
    main()
