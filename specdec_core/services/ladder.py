"""Every draft of a pair measured with the benchmark: the model card's table (`python -m specdec_core ladder`).

Each row: alpha at temperature 1.0 and 0.7 (mean min(1, p/q) over the drafted tokens the target
reached in real runs), the cost ratio c, the best k of the sweep and the measured speedup there over
the master's fastest plain decoding (and, beside it, over plain decoding through the sheet's traced
path), all measured side by side in one run per setting. Away from the default
sampling the sweep runs at the given setting and reports one alpha.
"""
from __future__ import annotations

from dataclasses import replace

from specdec_core.pairs.pair import ModelPair
from specdec_core.services.bench import headline, run_bench
from specdec_core.settings import DecodeSettings, SamplingConfig

K_SWEEP = (1, 2, 3, 4, 6, 8)
COOLER = SamplingConfig(temperature=0.7)


def measure(pair: ModelPair, draft_name: str, tokens: int, repeats: int, sampling: SamplingConfig = SamplingConfig(),
            ks=K_SWEEP, prompts: list[str] | None = None) -> dict:
    base = DecodeSettings(max_new_tokens=tokens, sampling=sampling)
    sweep = [run_bench(pair, draft_name, replace(base, k=k), prompts, repeats, vs_hf=True) for k in ks]
    best = max(sweep, key=lambda r: headline(r)["speedup"])
    alphas = {"alpha": best["alpha"], "sampling": {"temperature": sampling.temperature, "top_p": sampling.top_p}}
    if sampling == SamplingConfig():
        cool = run_bench(pair, draft_name, replace(base, k=best["k"], sampling=COOLER), prompts, repeats)
        alphas = {"alpha_t1": best["alpha"], "alpha_t07": cool["alpha"]}
    kept = ("c", "verify_cost", "speedup_vs_fastest_plain", "speedup_vs_traced_plain", "speedup_vs_plain", "predicted_speedup",
            "ratio_vs_hf", "overhead_fraction", "plain_forward_ms")
    return {"scribe": draft_name, **alphas, "best_k": best["k"], **{key: best[key] for key in kept},
            "sweep": [{key: r[key] for key in ("k", "speedup_vs_fastest_plain", "speedup_vs_traced_plain", "predicted_speedup", "alpha")}
                      for r in sweep]}


def table(rows: list[dict]) -> str:
    """The rows as the model card's Markdown table."""
    lines = ["| scribe | α | c | verify cost | best k | speedup vs fastest plain | vs traced plain | predicted | vs transformers |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        hf = "—" if r["ratio_vs_hf"] is None else f"{r['ratio_vs_hf']:.2f}×"
        alpha = f"{r['alpha']:.2f}" if "alpha" in r else f"{r['alpha_t1']:.2f} (T=1.0), {r['alpha_t07']:.2f} (T=0.7)"
        lines.append(f"| {r['scribe']} | {alpha} | {r['c']:.3f} | {r['verify_cost']:.2f} | {r['best_k']} | "
                     f"{r['speedup_vs_fastest_plain']:.2f}× | {r['speedup_vs_traced_plain']:.2f}× | "
                     f"{r['predicted_speedup']:.2f}× | {hf} |")
    return "\n".join(lines)
