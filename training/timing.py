"""Forward timings every pair's training reports on its model card: one decode step, and one verify pass."""
from __future__ import annotations

import statistics
import time

import torch

from specdec_core.runtimes.lean_llama import cached_lm_for


def decode_ms(models: dict, steps: int = 60, prompt_len: int = 16, rounds: int = 5) -> dict:
    """Median ms of one single-token cached forward, as decoding runs it (specdec_core.runtimes.lean_llama's
    forward where it fits); models interleaved round by round."""
    times = {n: [] for n in models}
    prompt = torch.randint(4, 100, (prompt_len,), generator=torch.Generator().manual_seed(0)).tolist()
    lms = {name: cached_lm_for(model) for name, model in models.items()}   # once: an int8 one joins matrices
    for _ in range(rounds):
        for name, lm in lms.items():
            tokens = list(prompt)
            lm.start()
            lm.logits(tokens)
            for i in range(steps):
                tokens.append(prompt[-1])
                t0 = time.perf_counter()
                lm.logits(tokens)
                if i >= 5:
                    times[name].append(time.perf_counter() - t0)
    return {n: 1000 * statistics.median(v) for n, v in times.items()}


def verify_ms(model, k_values=(4, 8), prompt_len: int = 16, reps: int = 40) -> dict:
    """Median ms of one cached forward over k+1 new tokens (the master's verification pass)."""
    prompt = torch.randint(4, 100, (prompt_len,), generator=torch.Generator().manual_seed(1)).tolist()
    lm = cached_lm_for(model)
    lm.logits(prompt)
    res = {}
    for k in k_values:
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            lm.logits(prompt + prompt[: k + 1], n_last=k + 1)
            ts.append(time.perf_counter() - t0)
            lm.rollback(prompt_len)
        res[f"k={k}"] = 1000 * statistics.median(ts)
    return res
