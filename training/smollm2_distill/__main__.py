"""``python -m training.smollm2_distill {teacher,student,refine,onpolicy,polish,deepen,early-exit,online,calibrate,copy-scores,eval,all} [--minutes M] [--threads N] [--round R]``.

teacher: the master's answers to the training prompts with its top-k (data/smollm2/teacher/);
student: the distilled scribe, trained on the first round's answers (assets/models/smollm2/distilled/);
refine:  that scribe, trained on every round's answers (same place);
onpolicy: that scribe's own answers to the training prompts, with the master's top-k (data/smollm2/onpolicy/roundR/);
polish:  that scribe, trained on the master's answers and its own from rounds 3 to R (same place);
deepen:  round four's scribe grown from four layers to eight and trained again on the same text (same place);
early-exit: round four's norm and head, on the grown draft's first four layers (assets/models/smollm2/distilled-4/);
online:  both distilled rungs trained together on fresh master answers and its whole distribution; needs a GPU (same places);
calibrate: one scale on each distilled rung's logits, fit on the held-back answers (same places);
copy-scores: how each distilled rung scores the context's continuations, fit on unseen topics (same places);
eval:    alpha on held-out prompts and the student's cost, into the model card's metrics.
all:     every stage in order, onpolicy and polish once for each round (3, then 4), then deepen, early-exit, calibrate, copy-scores and eval.
The shipped rungs are all's, then online's, then calibrate, copy-scores and eval again.
Each stage but online resumes where it stopped; progress goes to data/smollm2/distill.log.
"""
from __future__ import annotations

import argparse
import logging

from training.smollm2_distill.paths import DATA, LOG

STAGES = ("teacher", "student", "refine", "onpolicy", "polish", "deepen", "early-exit", "online", "calibrate", "copy-scores", "eval")


def logger() -> logging.Logger:
    DATA.mkdir(parents=True, exist_ok=True)
    log = logging.getLogger("smollm2_distill")
    if not log.handlers:
        log.setLevel(logging.INFO)
        for handler in (logging.FileHandler(LOG), logging.StreamHandler()):
            handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
            log.addHandler(handler)
    return log


def run_stage(stage: str, minutes: float | None, threads: int, part: tuple[int, int] = (0, 1), round_no: int = 3) -> None:
    log = logger()
    if stage == "teacher":
        from training.smollm2_distill.teacher import generate
        log.info("teacher: %d shards present", generate(minutes, threads, log.info, part))
    elif stage == "student":
        from training.smollm2_distill.train import train
        train(minutes, threads, log.info)
    elif stage == "refine":
        from training.smollm2_distill.train import refine
        refine(minutes, threads, log.info)
    elif stage == "onpolicy":
        from training.smollm2_distill.onpolicy import generate
        log.info("onpolicy: %d shards present", generate(minutes, threads, log.info, part, round_no))
    elif stage == "polish":
        from training.smollm2_distill.train import polish
        polish(minutes, threads, log.info, round_no)
    elif stage == "deepen":
        from training.smollm2_distill.deepen import deepen
        deepen(minutes, threads, log.info)
    elif stage == "early-exit":
        from training.smollm2_distill.early_exit import early_exit
        early_exit(threads, log.info)
    elif stage == "online":
        from training.smollm2_distill.online import online
        log.info("online: %s", online(minutes, log.info))
    elif stage == "calibrate":
        from training.smollm2_distill.calibrate import calibrate
        calibrate(threads, log.info)
    elif stage == "copy-scores":
        from training.smollm2_distill.copy_scores import fit_copy_scores
        fit_copy_scores(threads, log.info)
    else:
        from training.smollm2_distill.evaluate import evaluate
        evaluate(threads, log.info)


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m training.smollm2_distill", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stage", choices=STAGES + ("all",))
    ap.add_argument("--minutes", type=float, default=None, help="time budget per stage (default: none)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--part", default="0/1", help="teacher and onpolicy: write shards i mod n, as i/n (run n at once)")
    ap.add_argument("--round", type=int, default=3, help="onpolicy: the round of the draft's answers to write; polish: the round to train (3 or 4)")
    args = ap.parse_args()
    part = tuple(int(x) for x in args.part.split("/"))
    steps = every_step() if args.stage == "all" else [(args.stage, args.round)]
    for stage, round_no in steps:
        run_stage(stage, args.minutes, args.threads, part, round_no)


def every_step() -> list[tuple[str, int]]:
    """(stage, round) in order: the draft of each on-policy round samples the next round's text."""
    from training.smollm2_distill.train import POLISH_ROUNDS
    on_policy = [(stage, r) for r in POLISH_ROUNDS for stage in ("onpolicy", "polish")]
    return [("teacher", 3), ("student", 3), ("refine", 3), *on_policy, ("deepen", 3), ("early-exit", 3), ("calibrate", 3), ("copy-scores", 3), ("eval", 3)]


if __name__ == "__main__":
    main()
