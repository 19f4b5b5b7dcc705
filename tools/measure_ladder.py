"""Measure every scribe of a pair with the engine's benchmark and print the model card's table.

Usage: .venv/bin/python -m tools.measure_ladder [--pair poetry] [--tokens 64] [--out FILE]
       [--scribes a,b] [--k 1,2,4] [--temperature T] [--top-p P] [--prompts FILE]
Each row: alpha at temperature 1.0 and 0.7 (mean min(1, p/q) over the drafted tokens the master reached in real runs),
the cost ratio c, the best k of the sweep and the measured speedup over plain decoding there,
all measured side by side in one run per setting. With --temperature or --top-p the sweep runs at
that setting and its alpha fills both alpha columns' place as "alpha" (no second run). --prompts
times a file's prompts (one a line) instead of the pair's example prompts.
"""
from __future__ import annotations

import argparse
import json
from dataclasses import replace

from specdec_core.pairs.registry import load_pair
from specdec_core.services.bench import prompts_from_file, run_bench
from specdec_core.settings import DecodeSettings, SamplingConfig

K_SWEEP = (1, 2, 3, 4, 6, 8)


def measure(pair, scribe: str, tokens: int, repeats: int, sampling: SamplingConfig = SamplingConfig(), ks=K_SWEEP,
            prompts: list[str] | None = None) -> dict:
    base = DecodeSettings(max_new_tokens=tokens, sampling=sampling)
    sweep = [run_bench(pair, scribe, replace(base, k=k), prompts, repeats, vs_hf=True) for k in ks]
    best = max(sweep, key=lambda r: r["speedup_vs_plain"])
    alphas = {"alpha": best["alpha"], "sampling": {"temperature": sampling.temperature, "top_p": sampling.top_p}}
    if sampling == SamplingConfig():
        cool = run_bench(pair, scribe, replace(base, k=best["k"], sampling=SamplingConfig(temperature=0.7)), prompts, repeats)
        alphas = {"alpha_t1": best["alpha"], "alpha_t07": cool["alpha"]}
    return {
        "scribe": scribe,
        **alphas,
        "c": best["c"],
        "verify_cost": best["verify_cost"],
        "best_k": best["k"],
        "speedup_vs_plain": best["speedup_vs_plain"],
        "predicted_speedup": best["predicted_speedup"],
        "ratio_vs_hf": best["ratio_vs_hf"],
        "overhead_fraction": best["overhead_fraction"],
        "plain_forward_ms": best["plain_forward_ms"],
        "sweep": [{key: r[key] for key in ("k", "speedup_vs_plain", "predicted_speedup", "alpha")} for r in sweep],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pair", default="poetry")
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", default=None)
    parser.add_argument("--scribes", default=None, help="comma-separated (default: the whole ladder)")
    parser.add_argument("--k", default=",".join(map(str, K_SWEEP)), help="comma-separated k values to sweep")
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top-p", type=float, default=1.0)
    parser.add_argument("--prompts", default=None, help="a UTF-8 file, one prompt per line (default: the pair's example prompts)")
    args = parser.parse_args()
    try:
        prompts = prompts_from_file(args.prompts) if args.prompts else None
    except ValueError as error:
        parser.error(str(error))
    pair = load_pair(args.pair, "cpu")
    sampling = SamplingConfig(temperature=args.temperature, top_p=args.top_p)
    ks = [int(k) for k in args.k.split(",")]
    names = args.scribes.split(",") if args.scribes else list(pair.scribes)
    rows = [measure(pair, name, args.tokens, args.repeats, sampling, ks, prompts) for name in names]
    print("| scribe | α | c | verify cost | best k | speedup (measured) | predicted | vs transformers |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        hf = "—" if r["ratio_vs_hf"] is None else f"{r['ratio_vs_hf']:.2f}×"
        alpha = f"{r['alpha']:.2f}" if "alpha" in r else f"{r['alpha_t1']:.2f} (T=1.0), {r['alpha_t07']:.2f} (T=0.7)"
        print(f"| {r['scribe']} | {alpha} | {r['c']:.3f} | {r['verify_cost']:.2f} | {r['best_k']} | {r['speedup_vs_plain']:.2f}× | {r['predicted_speedup']:.2f}× | {hf} |")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
