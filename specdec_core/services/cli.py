"""Command line: generate a traced run, prove exactness, benchmark a pair or measure its whole ladder."""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace

from transformers.utils import logging as hf_logging

from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.tree_shape import SIBLINGS
from specdec_core.algorithm.trace import Trace, between_prompt_and_text, segments, summarize
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.decoding.proof_run import PROOF_TREES, tree_branching
from specdec_core.pairs.pair import PairError
from specdec_core.pairs.registry import PAIR_LOADERS, available_pairs, load_pair, pair_heldout_prompts, run_defaults
from specdec_core.services.cli_args import new_file, number, tree_shapes, whole, whole_list
from specdec_core.settings import MAX_K, MAX_SEED, MAX_TOKENS, DecodeSettings, SamplingConfig, SettingsError

# ANSI colours for the terminal trace: the parable's seal, red brush and bonus
MAX_SAMPLES = 10_000_000  # beyond a day's sampling
SEALED, STRUCK, CORRECTED, BONUS, RESET = "\033[32m", "\033[9;2;31m", "\033[1;31m", "\033[1;34m", "\033[0m"
HELDOUT = "heldout"  # --prompts heldout: the pair's own held-out prompt set instead of a file


def main(argv: list[str] | None = None) -> int:
    args = _with_pair_defaults(_parser().parse_args(argv))
    hf_logging.disable_progress_bar()  # the terminal shows the trace, not weight-loading bars
    try:
        return args.command(args)
    except (PairError, SettingsError, ValueError, OSError) as error:  # OSError: a file that cannot be read or written
        print(f"error: {error}", file=sys.stderr)
        return 2


class _Parser(argparse.ArgumentParser):
    """argparse, whose mistakes print one line that says what was wrong (the usage block is --help's)."""

    def error(self, message: str):
        self.exit(2, f"error: {message} (python -m specdec_core {self.prog.split()[-1]} --help lists the options)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m specdec_core", description=__doc__)
    commands = parser.add_subparsers(required=True)
    for add in (_generate_args, _proof_args, _bench_args, _ladder_args, _record_args):
        add(commands)
    commands.add_parser("pairs", help="list the registered pairs and which are available here").set_defaults(command=_pairs)
    return parser


def _generate_args(commands) -> None:
    gen = commands.add_parser("generate", help="one traced run, coloured by the target's verdicts")
    _common(gen)
    gen.add_argument("--prompt", required=True)
    gen.add_argument("--max-new-tokens", type=whole(1, MAX_TOKENS), default=None, help="default: the pair's own, as the app opens it")
    gen.add_argument("--plain", action="store_true", help="the target alone, no draft")
    gen.add_argument("--adaptive-k", action="store_true")
    gen.add_argument("--noise", type=number(0.0, 1.0), default=0.0)
    gen.add_argument("--tree", default="", help="draft a tree instead of a chain: children per depth, e.g. 3-2-1-1")
    _siblings(gen)
    gen.set_defaults(command=_generate)


def _proof_args(commands) -> None:
    proof = commands.add_parser("proof", help="do speculative samples follow the target's distribution?")
    _common(proof)
    proof.add_argument("--prompt", default=None, help="default: the pair's first example prompt")
    proof.add_argument("--samples", type=whole(1, MAX_SAMPLES), default=10_000)
    proof.add_argument("--positions", type=int, choices=(1, 2), default=1)
    proof.add_argument("--rule", choices=list(RULES), default="exact", help="a tree's rule (tree-no-residual) needs --tree")
    proof.add_argument("--tree", choices=PROOF_TREES, default=None,
                       help="the scribe drafts this static tree of variants each round (children per depth), not a chain of k")
    _siblings(proof)
    proof.add_argument("--plain", action="store_true", help="sample the target alone (the control)")
    proof.add_argument("--as-page", action="store_true", help="the proof page's work: both streams in turn, tested after every batch; prints the time")
    proof.set_defaults(command=_proof)


def _bench_args(commands) -> None:
    bench = commands.add_parser("bench", help="tokens/s: speculative vs plain (vs transformers)")
    _common(bench)
    bench.add_argument("--tokens", type=whole(1, MAX_TOKENS), default=None, help="default: the pair's own length, as the app opens it")
    bench.add_argument("--repeats", type=whole(1, 100), default=3)
    bench.add_argument("--vs-hf", action="store_true", help="also time transformers' assisted generation")
    bench.add_argument("--sweep-k", type=whole_list(1, MAX_K), default=None, help="comma-separated k values: bench each, report the best")
    bench.add_argument("--tree", type=tree_shapes, default=None,
                       help="draft trees instead of chains: children per depth, e.g. 3-2-1-1; comma-separated shapes: bench each, report the best")
    _siblings(bench)
    _prompts_file(bench)
    bench.set_defaults(command=_bench)


def _ladder_args(commands) -> None:
    ladder = commands.add_parser("ladder", help="every draft of a pair benchmarked over a k sweep: the model card's table")
    ladder.add_argument("--pair", default="poetry")
    ladder.add_argument("--scribes", default=None, help="comma-separated (default: the whole ladder)")
    ladder.add_argument("--tokens", type=whole(1, MAX_TOKENS), default=64)
    ladder.add_argument("--repeats", type=whole(1, 100), default=2)
    ladder.add_argument("--ks", type=whole_list(1, MAX_K), default=None, help="comma-separated k values (default 1,2,3,4,6,8)")
    ladder.add_argument("--temperature", type=number(0.0, 10.0), default=1.0)
    ladder.add_argument("--top-p", type=number(0.0, 1.0), default=1.0)
    ladder.add_argument("--out", type=new_file, default=None, help="also write the rows as JSON here")
    _prompts_file(ladder)
    ladder.set_defaults(command=_ladder)


def _record_args(commands) -> None:
    record = commands.add_parser("record", help="record the proof page's and the speed lab's default runs for a pair (assets/recorded/)")
    record.add_argument("--pair", default="poetry")
    record.set_defaults(command=_record)


def _siblings(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--siblings", choices=SIBLINGS, default="iid",
                        help="how a tree node's children are drawn from q: iid (with replacement, twins may occur) or "
                        "distinct (without replacement, verified by recursive rejection sampling)")


def _prompts_file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--prompts", default=None, help=f"a UTF-8 file, one prompt per line, or {HELDOUT!r} for the pair's held-out "
                        "prompt set (default: the pair's example prompts)")


def _prompts(args) -> list[str] | None:
    """The prompts --prompts names, read before the models load so that a bad name or file fails at once;
    None for the pair's example prompts."""
    from specdec_core.services.bench import prompts_from_file

    if args.prompts == HELDOUT:
        return pair_heldout_prompts(args.pair)
    return prompts_from_file(args.prompts) if args.prompts else None


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pair", default="poetry", help=f"{', '.join(PAIR_LOADERS)}, or TARGET,DRAFT (local directories or hub ids)")
    parser.add_argument("--scribe", default=None, help="default: the pair's best scribe")
    parser.add_argument("--k", type=whole(1, MAX_K), default=None, help="default: the pair's own, as the app opens it")
    parser.add_argument("--temperature", type=number(0.0, 10.0), default=None, help="default: the pair's own, as the app opens it")
    parser.add_argument("--top-k", type=whole(0, 10**9), default=0)
    parser.add_argument("--top-p", type=number(0.0, 1.0), default=None, help="default: the pair's own, as the app opens it")
    parser.add_argument("--seed", type=whole(0, MAX_SEED), default=0)
    parser.add_argument("--device", default="auto", help="auto (CUDA when present), cpu or cuda")
    parser.add_argument("--json", action="store_true")


def _with_pair_defaults(args: argparse.Namespace) -> argparse.Namespace:
    """The k, temperature, top-p and length a command left out: the pair's own (pairs/registry.py), as the app
    opens it, so that a command re-measures what the app and the model card show."""
    if not hasattr(args, "pair"):
        return args
    defaults = run_defaults(args.pair)
    for name, value in (("k", defaults.k), ("temperature", defaults.temperature), ("top_p", defaults.top_p),
                        ("max_new_tokens", defaults.max_new_tokens), ("tokens", defaults.max_new_tokens)):
        if getattr(args, name, False) is None:
            setattr(args, name, value)
    return args


def _settings(args, **extra) -> DecodeSettings:
    sampling = SamplingConfig(temperature=args.temperature, top_k=args.top_k, top_p=args.top_p)
    return DecodeSettings(k=args.k, sampling=sampling, seed=args.seed, siblings=args.siblings, **extra)


def _generate(args) -> int:
    pair = load_pair(args.pair, args.device)
    settings = _settings(args, max_new_tokens=args.max_new_tokens, noise=args.noise, adaptive_k=args.adaptive_k,
                         tree=args.tree)
    ids = pair.encode_prompt(args.prompt, settings.max_new_tokens)
    if args.plain:
        trace = plain_generate(pair.as_target(), ids, settings)
    else:
        trace = speculative_generate(pair.as_target(), pair.draft(args.scribe), ids, settings)
    if args.json:
        summary = summarize(trace)
        print(json.dumps({"tokens": trace.tokens, "text": trace.text, "target_forwards": trace.target_forwards, "wall_s": trace.wall_s, "summary": summary}, ensure_ascii=False))
    else:
        print(trace.prompt_text + between_prompt_and_text(trace) + colour_trace(trace))
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
    prompt = pair.example_prompts[0] if args.prompt is None else args.prompt  # an empty one is refused, not replaced
    if RULES[args.rule].tree_only and not args.tree:  # on a chain it is the exact rule: a proof of it would prove nothing
        raise ValueError(f"the rule {args.rule} differs from exact only on a tree: add --tree, e.g. --tree 2-2")
    branching = tree_branching(args.tree) if args.tree else ()
    if args.as_page:
        return _proof_as_page(pair, args.scribe or pair.default_draft, pair.encode_prompt(prompt), args.samples, settings, branching)
    draft = None if args.plain else pair.draft(args.scribe)
    report = run_proof(pair.target, draft, pair.encode_prompt(prompt), args.samples, args.positions, settings, plain=args.plain,
                       branching=branching)
    fit = report.fit
    result = {"p_value": fit.p_value, "tv": fit.tv, "tv_corrected": fit.tv_corrected, "tv_ci": fit.tv_ci, "tv_null": fit.tv_null, "samples": fit.samples, "bins": fit.bins, "statistic": fit.statistic, "rule": args.rule, "positions": args.positions}
    if args.json:
        print(json.dumps(result))
    else:
        verdict = "consistent with the target" if fit.p_value >= 0.01 else "NOT the target's distribution"
        print(f"{fit.samples} samples, power divergence {fit.statistic:.1f} on {fit.dof} dof, p = {fit.p_value:.3g}: {verdict}")
        print(f"TV = {fit.tv:.4f} (bias-corrected {fit.tv_corrected:.4f}, whose 95% CI is {fit.tv_ci[0]:.4f}-{fit.tv_ci[1]:.4f}; exact sampling alone gives {fit.tv_null:.4f})")
    return 0


SWEPT = ("k", "tree", "siblings", "variants_by_order", "twin_share",
         "tokens_per_target_forward", "speedup_vs_fastest_plain", "speedup_vs_traced_plain", "speedup_vs_plain", "speedup_forwards_only",
         "predicted_speedup", "alpha", "c", "verify_cost")  # each k's row of a sweep


def _bench(args) -> int:
    from specdec_core.services.bench import headline, run_bench

    prompts = _prompts(args)
    pair = load_pair(args.pair, args.device)
    base = _settings(args, max_new_tokens=args.tokens)
    if args.tree:   # a tree's depth stands for k
        variants = [replace(base, tree=shape) for shape in args.tree]
    else:
        variants = [replace(base, k=k) for k in args.sweep_k or [args.k]]
    runs = [run_bench(pair, args.scribe, settings, prompts, args.repeats, args.vs_hf) for settings in variants]
    result = max(runs, key=lambda r: headline(r)["speedup"])
    if len(runs) > 1:
        result = result | {"sweep": [{key: r[key] for key in SWEPT if key in r} for r in runs]}
    if args.json:
        print(json.dumps(result))
    else:
        _print_bench(result)
    return 0


def _print_bench(result: dict) -> None:
    """The three speedups first, each named for what it divides, then every field of the report."""
    low, high = result["speedup_interval_vs_fastest_plain"]
    print(f"speedup {result['speedup_vs_fastest_plain']:.2f}x against the master's fastest plain decoding "
          f"(90% interval {low:.2f}-{high:.2f}; the same forward and sampling, none of the sheet's tables)")
    print(f"        {result['speedup_vs_traced_plain']:.2f}x against the master's plain decoding through the sheet's "
          "traced path (it pays the tables once a token, speculative decoding once a round)")
    print(f"        {result['speedup_forwards_only']:.2f}x counting only the two models' forwards")
    for key, value in result.items():
        print(f"{key:>34}: {value}")


def _proof_as_page(pair, scribe: str, ids: list[int], samples: int, settings: DecodeSettings, branching=()) -> int:
    """Time the proof page's loop: both streams drawn in turn, each tested after every batch."""
    from specdec_core.decoding.proof_run import POSITIONS, fit, page_run

    started = time.perf_counter()
    run, exact = page_run(pair, scribe, ids, settings, samples, branching)
    first, joint = fit(run, "speculative", exact)
    print(f"{pair.name}/{scribe}: {run.done:,} speculative + {run.done:,} plain samples of the first {POSITIONS} tokens in "
          f"{time.perf_counter() - started:.1f} s (drawing {run.seconds:.1f} s); p-values {_p_value(first)} / {_p_value(joint)}")
    return 0


def _p_value(fit) -> str:
    """A test with no degrees of freedom (every cell pooled: too few samples) says nothing, so says so."""
    return f"{fit.p_value:.3f}" if fit.dof > 0 else "untestable with so few samples"


def _ladder(args) -> int:
    from specdec_core.services.ladder import K_SWEEP, measure, table

    prompts = _prompts(args)
    pair = load_pair(args.pair, "cpu")
    sampling = SamplingConfig(temperature=args.temperature, top_p=args.top_p)
    names = args.scribes.split(",") if args.scribes else list(pair.drafts)
    rows = [measure(pair, name, args.tokens, args.repeats, sampling, args.ks or K_SWEEP, prompts) for name in names]
    print(table(rows))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)
    return 0


def _record(args) -> int:
    from specdec_core.services.record import record_proof, record_speed

    pair = load_pair(args.pair, "cpu")
    for made in (record_proof(pair), record_speed(pair)):
        print(f"recorded {made}")
    return 0


def _pairs(args) -> int:
    """Registered pairs, saying which ones this machine lacks the files or package for."""
    present = available_pairs()
    for name in PAIR_LOADERS:
        print(name if name in present else f"{name} (not available here: its files or package are missing)")
    print("or any two models: --pair TARGET,DRAFT (local folders or hub ids)")
    return 0
