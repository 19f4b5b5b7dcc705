"""Speculative vs plain target decoding (vs transformers' assisted generation), side by side.

Methods are interleaved within one run, so a noisy shared machine slows them alike; the figures
that matter are the ratios. Plain decoding is timed twice: through the sheet's traced path
(plain_generate, which pays the sheet's tables and records once a token where speculative decoding
pays them once a round) and at its fastest (plain_tokens: the same forward and sampling, no
bookkeeping). The headline speedup is against the fastest; the traced one is reported beside it.
"""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from transformers.utils import logging as hf_logging

from specdec_core.algorithm.acceptance import pooled, position_counts, rates, verdict_counts
from specdec_core.algorithm.theory import speedup
from specdec_core.algorithm.trace import Round, Trace, drafted_and_accepted, judged_verdicts, mean_acceptance
from specdec_core.algorithm.tree_walk import children
from specdec_core.decoding.generate import plain_generate, plain_tokens, speculative_generate
from specdec_core.drafts import LMDraft
from specdec_core.pairs.pair import ModelPair, PairError
from specdec_core.settings import DecodeSettings


def run_bench(pair: ModelPair, draft_name: str | None, settings: DecodeSettings, prompts: list[str] | None = None, repeats: int = 3, vs_hf: bool = False) -> dict:
    """prompts: None for the pair's example prompts."""
    settings = replace(settings, stop_at_eos=False)  # every method writes exactly max_new_tokens
    prompts = prompts or pair.example_prompts
    target, draft = pair.as_target(), pair.draft(draft_name)
    encoded = [_encoded(pair, number, text, settings.max_new_tokens) for number, text in enumerate(prompts, 1)]
    # transformers' assisted generation drafts chains: a tree run has nothing of its own to compare there
    hf_draft = draft.hf_assistant() if (vs_hf and isinstance(draft, LMDraft) and not settings.tree) else None
    methods = {
        "speculative": lambda ids, seed: speculative_generate(target, draft, ids, replace(settings, seed=seed)),
        "plain": lambda ids, seed: plain_generate(target, ids, replace(settings, seed=seed)),
        "fastest_plain": lambda ids, seed: _timed_plain(target, ids, replace(settings, seed=seed)),
    }
    if hf_draft is not None:
        methods["hf_assisted"] = lambda ids, seed: _hf_assisted(pair, hf_draft, ids, settings, seed)
    for run in methods.values():  # warm-up: first calls pay for allocation and kernel selection
        run(encoded[0], 0)
    results = {name: {"tokens": 0, "wall_s": 0.0, "traces": [], "units": [], "outcomes": []} for name in methods}
    for rep in range(repeats):
        for i, ids in enumerate(encoded):
            order = list(methods)[(rep + i) % len(methods) :] + list(methods)[: (rep + i) % len(methods)]
            for name in order:
                started = time.perf_counter()
                outcome = methods[name](ids, settings.seed + rep)
                elapsed = time.perf_counter() - started
                results[name]["wall_s"] += elapsed
                results[name]["units"].append(elapsed)  # one prompt, one repeat: the unit the interval resamples
                results[name]["tokens"] += settings.max_new_tokens
                results[name]["outcomes"].append(outcome)
                if isinstance(outcome, Trace):
                    results[name]["traces"].append(outcome)
    return _report(pair, draft.name, settings, results) | {"prompts": len(encoded), "replay": replay(results, prompts, target)}


def _timed_plain(target, ids: list[int], settings: DecodeSettings) -> dict:
    """plain_tokens, with the moment each token was drawn: what a race's lane of the master alone replays."""
    times: list[float] = []
    return {"tokens": plain_tokens(target, ids, settings, times), "times": times}


def median_unit(plain_s: list[float], speculative_s: list[float]) -> int:
    """The unit (a prompt at a repeat) whose own speedup is the median of the units' (the lower middle of an even
    count): the run a race replays, so its lanes show a typical run, neither the luckiest nor the unluckiest."""
    ratios = [plain / spec for plain, spec in zip(plain_s, speculative_s)]
    order = sorted(range(len(ratios)), key=ratios.__getitem__)
    return order[(len(order) - 1) // 2]


def replay(results: dict, prompts: list[str], target) -> dict:
    """The median unit's two runs, as a race draws them: the speculative run's trace, and the master alone at his
    fastest as the pieces he wrote and the moment of each (seconds from the run's start, the prompt's reading
    included, as a trace's token_times count)."""
    plain, spec = results["fastest_plain"], results["speculative"]
    unit = median_unit(plain["units"], spec["units"])
    alone = plain["outcomes"][unit]
    return {"prompt": prompts[unit % len(prompts)], "speedup": plain["units"][unit] / spec["units"][unit],
            "speculative": spec["outcomes"][unit].to_json(), "plain_tokens": alone["tokens"],
            "plain_pieces": [target.piece(t) for t in alone["tokens"]], "plain_times": alone["times"],
            "eos": target.eos_token_id}


def prompts_from_file(path: str | Path) -> list[str]:
    """The prompts of a UTF-8 text file, one per non-blank line; a ValueError that says what is wrong.

    A pair's few example prompts make a small sample: the benchmark's alpha moves by a few hundredths
    between prompt sets, so a researcher can time a pair on a set of their own.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text (byte {error.start})") from error
    except OSError as error:
        raise ValueError(f"cannot read the prompts file {path}: {error.strerror or error}") from error
    prompts = [line.strip() for line in text.splitlines() if line.strip()]
    if not prompts:
        raise ValueError(f"{path} holds no prompts: write one per line")
    return prompts


def _encoded(pair: ModelPair, number: int, text: str, max_new_tokens: int) -> list[int]:
    try:
        return pair.encode_prompt(text, max_new_tokens)
    except PairError as error:
        raise PairError(f"prompt {number} ({text[:40]!r}): {error}") from error


def _report(pair, draft_name, settings, results) -> dict:
    spec, plain = results["speculative"]["traces"], results["plain"]["traces"]
    tps = {name: r["tokens"] / r["wall_s"] for name, r in results.items()}
    drafted = sum(t.draft_forwards for t in spec)
    alpha = mean_acceptance(spec) or 0.0
    plain_forward = _mean_time(plain, "target_s")
    c = (sum(r.draft_s for t in spec for r in t.rounds) / max(drafted, 1)) / plain_forward
    verify_cost = _mean_time(spec, "target_s") / plain_forward
    loop = sum(r.draft_s + r.target_s + r.other_s for t in spec for r in t.rounds)
    split = {"speculative": time_split(spec), "plain": time_split(plain)}
    # a chain's positions; a tree's depths, each judged on its first variant (a depth's pass rate is no alpha)
    counts = verdict_counts(judged_verdicts(spec)) if settings.tree else position_counts(drafted_and_accepted(spec))
    rounds = [r for t in spec for r in t.rounds]
    return {
        "pair": pair.name,
        "scribe": draft_name,
        "k": max((r.k for t in spec for r in t.rounds), default=0) if settings.tree else settings.k,  # a tree's deepest
        "tree": settings.tree,  # "" for a chain
        "siblings": settings.siblings,  # how a tree node's children were drawn: "iid" or "distinct"
        "temperature": settings.sampling.temperature,
        "top_p": settings.sampling.top_p,
        "tokens": settings.max_new_tokens,
        "device": str(pair.target.device),
        "tokens_per_s": tps,
        # the headline: against the master's fastest plain decoding, none of the sheet's bookkeeping
        "speedup_vs_fastest_plain": tps["speculative"] / tps["fastest_plain"],
        "speedup_interval_vs_fastest_plain": speedup_interval(results["fastest_plain"]["units"], results["speculative"]["units"]),
        # against plain decoding through the sheet's traced path; under its older names too, which
        # recordings and model-card files made before the fastest baseline carry with this meaning
        "speedup_vs_traced_plain": tps["speculative"] / tps["plain"],
        "speedup_vs_plain": tps["speculative"] / tps["plain"],
        "speedup_interval": speedup_interval(results["plain"]["units"], results["speculative"]["units"]),
        "ratio_vs_hf": tps["speculative"] / tps["hf_assisted"] if "hf_assisted" in tps else None,
        # mean min(1, p/q) over a chain's reached drafts, a tree's first variant at each depth reached
        "alpha": alpha,
        # α at the 1st, 2nd, … drafted token (in a tree, the first variant at depth 1, 2, …), counted from these
        # rounds; only positions some round reached
        "alpha_by_drafted_position": list(rates(counts).values()),
        "rounds_by_drafted_position": [n for n, _ in counts.values()],
        "alpha_all_positions": pooled(counts),
        "c": c,
        "verify_cost": verify_cost,
        # the chain's formula (Leviathan et al., Theorem 3.8); a tree's acceptance is not one alpha per token
        "predicted_speedup": None if settings.tree else speedup(alpha, settings.k, c, verify_cost),
        "tokens_per_target_forward": sum(len(t.tokens) for t in spec) / sum(t.target_forwards for t in spec),
        "overhead_fraction": sum(r.other_s for t in spec for r in t.rounds) / loop,
        "plain_forward_ms": plain_forward * 1000,
        "time_split": split,
        "speedup_forwards_only": forwards_only_speedup(split),
    } | round_shapes(rounds, drafted)


def round_shapes(rounds: list[Round], drafted: int) -> dict:
    """What a round asked of each model: the scribe's forwards (a tree's depths) and the nodes it drafted, all of
    which the master's one glance then checks, beside the position after them; a tree's variants by drawing order
    at their node (how often the master tried the 1st, 2nd, ... and the share sealed when tried), and the share
    of variants that repeat an elder sibling's token (struck surely after it)."""
    return {
        "draft_forwards_per_round": drafted / max(len(rounds), 1),
        "nodes_per_round": sum(nodes_drafted(r) for r in rounds) / max(len(rounds), 1),
        "most_nodes": max((nodes_drafted(r) for r in rounds), default=0),
        "variants_by_order": variants_by_order(rounds),
        "twin_share": twin_share(rounds),
    }


def variants_by_order(rounds: list[Round]) -> list[dict]:
    """Per drawing order under a node (1st variant, 2nd, ...): how many the walk tried, how many it sealed, and the
    share sealed when tried. Empty for chains."""
    counts: dict[int, list[int]] = {}
    for r in rounds:
        for variants in _variants_by_node(r):
            for order, i in enumerate(variants, start=1):
                node = r.tree[i]
                if node.tried:
                    tried_sealed = counts.setdefault(order, [0, 0])
                    tried_sealed[0] += 1
                    tried_sealed[1] += node.accepted
    return [{"order": order, "tried": tried, "sealed": sealed, "sealed_share": sealed / tried}
            for order, (tried, sealed) in sorted(counts.items())]


def twin_share(rounds: list[Round]) -> float | None:
    """The share of a tree's variants past the first at their node whose token an elder sibling already holds;
    None without such variants (chains, trees of branching 1)."""
    tokens = [[r.tree[i].token for i in variants] for r in rounds for variants in _variants_by_node(r)]
    later = [(drawn[:n], drawn[n]) for drawn in tokens for n in range(1, len(drawn))]  # (elder siblings' tokens, its)
    if not later:
        return None
    return sum(token in elders for elders, token in later) / len(later)


def _variants_by_node(r: Round) -> list[tuple[int, ...]]:
    """The variants under the context and under each node of a tree round (tree_walk.children), each in drawing order;
    a chain round has none."""
    return [children(r.tree, node) for node in range(-1, len(r.tree))]


def nodes_drafted(r: Round) -> int:
    """Tokens a round drafted and the master checked: every node of a tree, the drafted line of a chain."""
    return len(r.tree) if r.tree else len(r.drafted)


def headline(result: dict) -> dict:
    """The speedup to quote from a bench report, its 90% interval, and the plain decoding it is against:
    "fastest_plain", or "traced_plain" in a report made before the bench timed the fastest (it holds
    only the traced figure, which is then named for what it is)."""
    if "speedup_vs_fastest_plain" in result:
        return {"speedup": result["speedup_vs_fastest_plain"], "interval": result["speedup_interval_vs_fastest_plain"],
                "baseline": "fastest_plain"}
    return {"speedup": result["speedup_vs_plain"], "interval": result.get("speedup_interval"), "baseline": "traced_plain"}


def forwards_only_speedup(split: dict[str, dict[str, float]]) -> float:
    """The speedup counting only the models' forwards (time_split's draft and verify), not the loop's
    bookkeeping: plain decoding pays that once a token, speculative once a round, which flatters the
    wall-clock ratio by a few per cent."""
    spec = split["speculative"]
    return split["plain"]["verify"] / (spec["draft"] + spec["verify"])


def speedup_interval(plain_s: list[float], speculative_s: list[float], level: float = 0.9, resamples: int = 2000,
                     seed: int = 0) -> list[float]:
    """A bootstrap interval of the speedup (total plain time over total speculative time), resampling
    the paired units (a prompt at a repeat): how sure a measurement of so few units can be."""
    plain, spec = np.asarray(plain_s), np.asarray(speculative_s)
    rows = np.random.default_rng(seed).integers(0, len(plain), size=(resamples, len(plain)))
    ratios = plain[rows].sum(axis=1) / spec[rows].sum(axis=1)
    low, high = np.quantile(ratios, [(1 - level) / 2, (1 + level) / 2])
    return [float(low), float(high)]


def time_split(traces: list[Trace]) -> dict[str, float]:
    """Milliseconds per written token: draft drafts, target passes, and everything else.

    "Everything else" is the wall time left after both models' forwards: acceptance bookkeeping,
    prefill and the loop around the rounds, which the theory does not count.
    """
    tokens = sum(len(t.tokens) for t in traces)
    # Plain decoding's rounds time an empty draft step too; that is loop overhead, not drafting.
    draft = sum(r.draft_s for t in traces if t.mode == "speculative" for r in t.rounds)
    target = sum(r.target_s for t in traces for r in t.rounds)
    wall = sum(t.wall_s for t in traces)
    per_token = 1000.0 / max(tokens, 1)
    return {
        "draft": draft * per_token,
        "verify": target * per_token,
        "other": max(wall - draft - target, 0.0) * per_token,
        "tokens": tokens,
    }


def _mean_time(traces: list[Trace], attr: str) -> float:
    rounds = [r for t in traces for r in t.rounds]
    return sum(getattr(r, attr) for r in rounds) / len(rounds)


def _hf_assisted(pair: ModelPair, draft, ids: list[int], settings: DecodeSettings, seed: int):
    """transformers' own assisted generation with the same k, a constant schedule and no early stop."""
    sampling = settings.sampling
    options = dict(
        assistant_model=draft,
        num_assistant_tokens=settings.k,
        num_assistant_tokens_schedule="constant",
        assistant_confidence_threshold=0.0,
        max_new_tokens=settings.max_new_tokens,
        min_new_tokens=settings.max_new_tokens,
        pad_token_id=pair.tokenizer.pad_token_id,
    )
    if sampling.greedy:
        options.update(do_sample=False)
    else:
        options.update(do_sample=True, temperature=sampling.temperature, top_k=sampling.top_k or None, top_p=sampling.top_p)
    with torch.random.fork_rng(devices=[]), torch.inference_mode(), _quiet_transformers():
        torch.manual_seed(seed)  # transformers samples from the global RNG; keep ours untouched
        input_ids = torch.tensor([ids], device=pair.target.device)
        return pair.target.generate(input_ids, attention_mask=torch.ones_like(input_ids), **options)


class _quiet_transformers:
    """generate() warns about options we set on purpose (min_new_tokens with a constant schedule)."""

    def __enter__(self):
        self.level = hf_logging.get_verbosity()
        hf_logging.set_verbosity_error()

    def __exit__(self, *exc):
        hf_logging.set_verbosity(self.level)
