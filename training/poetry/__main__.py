"""``python -m training.poetry {corpus,tokenizer,ngram,mismatched,master,tiny,distilled,eagle-features,eagle,eval,alpha,all}``.

``all`` runs every stage in order with the fixed seed in paths.SEED; each training stage resumes
from data/poetry/ckpt/ if interrupted. ``eagle-features`` caches the master's states over training
poems and its own samples (data/poetry/master-features/); ``eagle`` trains the feature scribe on them
(``--minutes``, ``--threads``, ``--steps``). ``alpha`` (not part of ``all``, which runs ``eval``)
redoes only the ladder's alpha tables in metrics.json, keeping the timings ``eval`` measured;
``--rungs`` limits it to the rungs named.
"""
from __future__ import annotations

import argparse
import json
import time

STAGES = ("corpus", "tokenizer", "ngram", "mismatched", "master", "tiny", "distilled", "eagle-features", "eagle", "eval")


def log(message: str) -> None:
    print(time.strftime("%H:%M:%S"), message, flush=True)


def run_stage(stage: str, args: argparse.Namespace) -> None:
    if stage == "corpus":
        from training.poetry.build_corpus import build
        meta = build()
        print(json.dumps({k: meta[k] for k in ("train", "val")}, ensure_ascii=False))
    elif stage == "tokenizer":
        from training.poetry.tokenizer import build
        print(json.dumps(build(), ensure_ascii=False))
    elif stage == "ngram":
        from training.poetry.ngram import build
        print(json.dumps(build()))
    elif stage == "mismatched":
        from training.poetry.mismatched import build
        print(json.dumps(build()))
    elif stage == "eagle-features":
        from training.poetry.eagle_features import generate
        print(f"eagle-features: {generate(args.threads, log)} shards present")
    elif stage == "eagle":
        from training.poetry.eagle import train
        print(json.dumps(train(args.minutes, args.threads, args.steps, log)))
    elif stage == "eval":
        from training.poetry.evaluate import evaluate_all
        evaluate_all()
    elif stage == "alpha":
        from training.poetry.evaluate import update_ladder_alpha
        update_ladder_alpha(only=tuple(args.rungs.split(",")) if args.rungs else ())
    else:
        from training.poetry.train import train
        train(stage)


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m training.poetry", description=__doc__)
    ap.add_argument("stage", choices=STAGES + ("alpha", "all"))
    ap.add_argument("--minutes", type=float, default=None, help="eagle: stop after this long (resumable)")
    ap.add_argument("--threads", type=int, default=2, help="eagle-features, eagle: torch threads")
    ap.add_argument("--steps", type=int, default=None, help="eagle: optimiser steps of the whole run")
    ap.add_argument("--rungs", default="", help="alpha: only these rungs, comma-separated (e.g. eagle)")
    args = ap.parse_args()
    for stage in STAGES if args.stage == "all" else (args.stage,):
        run_stage(stage, args)


if __name__ == "__main__":
    main()
