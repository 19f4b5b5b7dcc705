"""Command line: generate a traced run, prove exactness, or benchmark a pair."""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Callable

from transformers.utils import logging as hf_logging

from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.trace import Trace, segments, summarize
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.pairs.pair import PairError
from specdec_core.pairs.registry import PAIR_LOADERS, available_pairs, load_pair
from specdec_core.settings import MAX_K, MAX_SEED, DecodeSettings, SamplingConfig, SettingsError

# ANSI colours for the terminal trace: the parable's seal, red brush and bonus
MAX_NEW_TOKENS, MAX_SAMPLES = 100_000, 10_000_000  # beyond any pair's context, beyond a day's sampling
SEALED, STRUCK, CORRECTED, BONUS, RESET = "\033[32m", "\033[9;2;31m", "\033[1;31m", "\033[1;34m", "\033[0m"


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    hf_logging.disable_progress_bar()  # the terminal shows the trace, not weight-loading bars
    try:
        return args.command(args)
    except (PairError, SettingsError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m specdec_core", description=__doc__)
    commands = parser.add_subparsers(required=True)
    gen = commands.add_parser("generate", help="one traced run, coloured by the master's verdicts")
    _common(gen)
    gen.add_argument("--prompt", required=True)
    gen.add_argument("--max-new-tokens", type=whole(1, MAX_NEW_TOKENS), default=48)
    gen.add_argument("--plain", action="store_true", help="the target alone, no scribe")
    gen.add_argument("--adaptive-k", action="store_true")
    gen.add_argument("--noise", type=number(0.0, 1.0), default=0.0)
    gen.set_defaults(command=_generate)
    proof = commands.add_parser("proof", help="do speculative samples follow the target's distribution?")
    _common(proof)
    proof.add_argument("--prompt", default=None, help="default: the pair's first example prompt")
    proof.add_argument("--samples", type=whole(1, MAX_SAMPLES), default=10_000)
    proof.add_argument("--positions", type=int, choices=(1, 2), default=1)
    proof.add_argument("--rule", choices=list(RULES), default="exact")
    proof.add_argument("--plain", action="store_true", help="sample the target alone (the control)")
    proof.set_defaults(command=_proof)
    bench = commands.add_parser("bench", help="tokens/s: speculative vs plain (vs transformers)")
    _common(bench)
    bench.add_argument("--tokens", type=whole(1, MAX_NEW_TOKENS), default=64)
    bench.add_argument("--repeats", type=whole(1, 100), default=3)
    bench.add_argument("--vs-hf", action="store_true", help="also time transformers' assisted generation")
    bench.add_argument("--sweep-k", type=whole_list(1, MAX_K), default=None, help="comma-separated k values: bench each, report the best")
    bench.add_argument("--prompts", default=None, help="a UTF-8 file, one prompt per line (default: the pair's example prompts)")
    bench.set_defaults(command=_bench)
    pairs = commands.add_parser("pairs", help="list the registered pairs and which are available here")
    pairs.set_defaults(command=_pairs)
    return parser


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pair", default="poetry", help=f"{', '.join(PAIR_LOADERS)}, or TARGET,DRAFT (local directories or hub ids)")
    parser.add_argument("--scribe", default=None, help="default: the pair's best scribe")
    parser.add_argument("--k", type=whole(1, MAX_K), default=4)
    parser.add_argument("--temperature", type=number(0.0, 10.0), default=1.0)
    parser.add_argument("--top-k", type=whole(0, 10**9), default=0)
    parser.add_argument("--top-p", type=number(0.0, 1.0), default=1.0)
    parser.add_argument("--seed", type=whole(0, MAX_SEED), default=0)
    parser.add_argument("--device", default="auto", help="auto (CUDA when present), cpu or cuda")
    parser.add_argument("--json", action="store_true")


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from low to high, or one line that says so."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is outside {low}–{high}")
        return value

    return read


def whole_list(low: int, high: int) -> Callable[[str], list[int]]:
    """An argparse type: comma-separated whole numbers, each from low to high."""
    return lambda text: [whole(low, high)(part.strip()) for part in text.split(",")]


def number(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from low to high (NaN is never in range)."""

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is outside {low:g}–{high:g}")
        return value

    return read


def _settings(args, **extra) -> DecodeSettings:
    sampling = SamplingConfig(temperature=args.temperature, top_k=args.top_k, top_p=args.top_p)
    return DecodeSettings(k=args.k, sampling=sampling, seed=args.seed, **extra)


def _generate(args) -> int:
    pair = load_pair(args.pair, args.device)
    settings = _settings(args, max_new_tokens=args.max_new_tokens, noise=args.noise, adaptive_k=args.adaptive_k)
    ids = pair.encode_prompt(args.prompt, settings.max_new_tokens)
    if args.plain:
        trace = plain_generate(pair.as_target(), ids, settings)
    else:
        trace = speculative_generate(pair.as_target(), pair.scribe(args.scribe), ids, settings)
    if args.json:
        summary = summarize(trace)
        print(json.dumps({"tokens": trace.tokens, "text": trace.text, "target_forwards": trace.target_forwards, "wall_s": trace.wall_s, "summary": summary}, ensure_ascii=False))
    else:
        print(trace.prompt_text + colour_trace(trace))
        print(f"\n{SEALED}sealed{RESET} {STRUCK}rejected{RESET} {CORRECTED}corrected{RESET} {BONUS}bonus{RESET}")
        summary = summarize(trace)
        print(f"{summary['tokens']} tokens, {summary['target_forwards']} target forwards, alpha {summary['alpha'] or 0:.2f}, {trace.wall_s:.2f} s")
    return 0


def colour_trace(trace: Trace) -> str:
    colours = {"sealed": SEALED, "rejected": STRUCK, "corrected": CORRECTED, "bonus": BONUS}
    return "".join(colours[kind] + piece + RESET if kind in colours else piece for piece, kind in segments(trace))


def _proof(args) -> int:
    from specdec_core.decoding.proof import run_proof

    pair = load_pair(args.pair, args.device)
    settings = _settings(args, rule=args.rule)
    prompt = args.prompt or pair.example_prompts[0]
    scribe = None if args.plain else pair.scribe(args.scribe)
    report = run_proof(pair.target, scribe, pair.encode_prompt(prompt), args.samples, args.positions, settings, plain=args.plain)
    fit = report.fit
    result = {"p_value": fit.p_value, "tv": fit.tv, "tv_corrected": fit.tv_corrected, "tv_ci": fit.tv_ci, "tv_null": fit.tv_null, "samples": fit.samples, "bins": fit.bins, "statistic": fit.statistic, "rule": args.rule, "positions": args.positions}
    if args.json:
        print(json.dumps(result))
    else:
        verdict = "consistent with the target" if fit.p_value >= 0.01 else "NOT the target's distribution"
        print(f"{fit.samples} samples, power divergence {fit.statistic:.1f} on {fit.dof} dof, p = {fit.p_value:.3g}: {verdict}")
        print(f"TV = {fit.tv:.4f} (bias-corrected {fit.tv_corrected:.4f}, 95% CI {fit.tv_ci[0]:.4f}-{fit.tv_ci[1]:.4f}; exact sampling alone gives {fit.tv_null:.4f})")
    return 0


def _bench(args) -> int:
    from specdec_core.services.bench import prompts_from_file, run_bench

    prompts = prompts_from_file(args.prompts) if args.prompts else None  # a broken file fails before the models load
    pair = load_pair(args.pair, args.device)
    ks = args.sweep_k or [args.k]
    base = _settings(args, max_new_tokens=args.tokens)
    runs = [run_bench(pair, args.scribe, replace(base, k=k), prompts, args.repeats, args.vs_hf) for k in ks]
    result = max(runs, key=lambda r: r["speedup_vs_plain"])
    if len(runs) > 1:
        result = result | {"sweep": [{key: r[key] for key in ("k", "speedup_vs_plain", "predicted_speedup", "alpha", "c", "verify_cost")} for r in runs]}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>26}: {value}")
    return 0


def _pairs(args) -> int:
    """Registered pairs, saying which ones this machine lacks the files or package for."""
    present = available_pairs()
    for name in PAIR_LOADERS:
        print(name if name in present else f"{name} (not available here: its files or package are missing)")
    print("or any two models: --pair TARGET,DRAFT (local folders or hub ids)")
    return 0
