"""``python -m training.poetry {corpus,tokenizer,ngram,mismatched,master,tiny,distilled,eval,alpha,all}``.

``all`` runs every stage in order with the fixed seed in paths.SEED; each training stage resumes
from data/poetry/ckpt/ if interrupted. ``alpha`` (not part of ``all``, which runs ``eval``) redoes only
the ladder's alpha tables in metrics.json, keeping the timings ``eval`` measured.
"""
from __future__ import annotations

import argparse
import json

STAGES = ("corpus", "tokenizer", "ngram", "mismatched", "master", "tiny", "distilled", "eval")


def run_stage(stage: str) -> None:
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
    elif stage == "eval":
        from training.poetry.evaluate import evaluate_all
        evaluate_all()
    elif stage == "alpha":
        from training.poetry.evaluate import update_ladder_alpha
        update_ladder_alpha()
    else:
        from training.poetry.train import train
        train(stage)


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m training.poetry", description=__doc__)
    ap.add_argument("stage", choices=STAGES + ("alpha", "all"))
    args = ap.parse_args()
    for stage in STAGES if args.stage == "all" else (args.stage,):
        run_stage(stage)


if __name__ == "__main__":
    main()
