"""Time the proof page's work: 10,000 speculative and 10,000 plain samples of the first two tokens.

Usage: .venv/bin/python -m tools.measure_proof [--pair poetry] [--samples 10000]
Runs the page's own code path (ui.proof.runs: two streams drawn in turn, a test after every batch)
without a browser, and prints the seconds spent drawing and testing.
"""
from __future__ import annotations

import argparse
import time

from specdec_core.decoding.proof import exact_distribution
from specdec_core.pairs.registry import load_pair
from specdec_core.settings import DecodeSettings
from ui.proof.runs import POSITIONS, Exact, ProofRun, draw_batch, fit, streams


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="poetry")
    parser.add_argument("--scribe", default=None)
    parser.add_argument("--samples", type=int, default=10_000)
    args = parser.parse_args()
    pair = load_pair(args.pair, "auto")
    scribe = args.scribe or pair.default_scribe
    settings = DecodeSettings(k=4, seed=0)
    ids = pair.encode_prompt(pair.example_prompts[0], POSITIONS)
    started = time.perf_counter()
    exact = Exact(*(exact_distribution(pair.target, ids, n, settings.sampling, args.samples) for n in (1, POSITIONS)))
    run = ProofRun(args.samples)
    speculative, plain = streams(pair, scribe, ids, settings)
    while run.done < run.total:
        draw_batch(run, speculative, plain, exact)
    first, joint = fit(run, "speculative", exact)
    print(f"{args.pair}/{scribe}: {run.done:,} speculative + {run.done:,} plain samples in "
          f"{time.perf_counter() - started:.1f} s (drawing {run.seconds:.1f} s); p-values {first.p_value:.3f} / {joint.p_value:.3f}")


if __name__ == "__main__":
    main()
