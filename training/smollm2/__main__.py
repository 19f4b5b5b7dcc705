"""``python -m training.smollm2 {master-features,eagle,master-answers,distill,distill-all,own-answers,distill-own,grow,early-exit,distill-online,calibrate,copy-scores,eval,all} [--minutes M] [--threads N] [--round R]``.

master-features: the master's answers to the broad prompt set with its hidden states (data/smollm2/master-features/);
eagle:   the feature scribe, trained on those (assets/models/smollm2/eagle/);
master-answers: the master's answers to the training prompts with its top-k (data/smollm2/teacher/);
distill: the distilled scribe, trained on the first round's answers (assets/models/smollm2/distilled/);
distill-all: that scribe, trained on every round's answers (same place);
own-answers: that scribe's own answers to the training prompts, with the master's top-k (data/smollm2/onpolicy/roundR/);
distill-own: that scribe, trained on the master's answers and its own from rounds 3 to R (same place);
grow:    the last distill-own draft grown from four layers to eight and trained again on the same text (same place);
early-exit: the last distill-own draft's norm and head, on the grown draft's first four layers (assets/models/smollm2/distilled-4/);
distill-online: both distilled rungs trained together on fresh master answers and its whole distribution; needs a GPU (same places);
calibrate: one scale on each distilled rung's logits, fit on the held-back answers (same places);
copy-scores: how each distilled rung scores the context's continuations, fit on unseen topics (same places);
eval:    alpha on held-out prompts and the student's cost, into the model card's metrics.
all:     every stage in order, own-answers and distill-own once for each round (3, then 4), then grow, early-exit, calibrate, copy-scores,
         master-features, eagle and eval.
The shipped rungs are all's, then distill-online's, then calibrate, copy-scores and eval again.
Each stage but distill-online resumes where it stopped; progress goes to data/smollm2/distill.log.
"""
from __future__ import annotations

import argparse
import logging

from training.smollm2.paths import DATA, LOG

STAGES = ("master-features", "eagle", "master-answers", "distill", "distill-all", "own-answers", "distill-own", "grow", "early-exit", "distill-online", "calibrate", "copy-scores", "eval")


def logger() -> logging.Logger:
    DATA.mkdir(parents=True, exist_ok=True)
    log = logging.getLogger("smollm2")
    if not log.handlers:
        log.setLevel(logging.INFO)
        for handler in (logging.FileHandler(LOG), logging.StreamHandler()):
            handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
            log.addHandler(handler)
    return log


def run_stage(stage: str, minutes: float | None, threads: int, part: tuple[int, int] = (0, 1), round_no: int = 3) -> None:
    log = logger()
    if stage == "master-features":
        from training.smollm2.master_features import generate
        log.info("master-features: %d shards present", generate(minutes, threads, log.info))
    elif stage == "eagle":
        from training.smollm2.eagle_train import train
        train(minutes, threads, log.info)
    elif stage == "master-answers":
        from training.smollm2.master_answers import generate
        log.info("master-answers: %d shards present", generate(minutes, threads, log.info, part))
    elif stage == "distill":
        from training.smollm2.train import train
        train(minutes, threads, log.info)
    elif stage == "distill-all":
        from training.smollm2.train import distill_all
        distill_all(minutes, threads, log.info)
    elif stage == "own-answers":
        from training.smollm2.own_answers import generate
        log.info("own-answers: %d shards present", generate(minutes, threads, log.info, part, round_no))
    elif stage == "distill-own":
        from training.smollm2.train import distill_own
        distill_own(minutes, threads, log.info, round_no)
    elif stage == "grow":
        from training.smollm2.grow import grow
        grow(minutes, threads, log.info)
    elif stage == "early-exit":
        from training.smollm2.early_exit import early_exit
        early_exit(threads, log.info)
    elif stage == "distill-online":
        from training.smollm2.distill_online import distill_online
        log.info("distill-online: %s", distill_online(minutes, log.info))
    elif stage == "calibrate":
        from training.smollm2.calibrate import calibrate
        calibrate(threads, log.info)
    elif stage == "copy-scores":
        from training.smollm2.copy_scores import fit_copy_scores
        fit_copy_scores(threads, log.info)
    else:
        from training.smollm2.evaluate import evaluate
        evaluate(threads, log.info)


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m training.smollm2", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("stage", choices=STAGES + ("all",))
    ap.add_argument("--minutes", type=float, default=None, help="time budget per stage (default: none)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--part", default="0/1", help="master-answers and own-answers: write shards i mod n, as i/n (run n at once)")
    ap.add_argument("--round", type=int, default=3, help="own-answers: the round of the draft's answers to write; distill-own: the round to train (3 or 4)")
    args = ap.parse_args()
    part = tuple(int(x) for x in args.part.split("/"))
    steps = every_step() if args.stage == "all" else [(args.stage, args.round)]
    for stage, round_no in steps:
        run_stage(stage, args.minutes, args.threads, part, round_no)


def every_step() -> list[tuple[str, int]]:
    """(stage, round) in order: the draft of each on-policy round samples the next round's text."""
    from training.smollm2.train import OWN_ANSWER_ROUNDS
    on_policy = [(stage, r) for r in OWN_ANSWER_ROUNDS for stage in ("own-answers", "distill-own")]
    return [("master-answers", 3), ("distill", 3), ("distill-all", 3), *on_policy, ("grow", 3), ("early-exit", 3), ("calibrate", 3), ("copy-scores", 3),
            ("master-features", 3), ("eagle", 3), ("eval", 3)]     # eagle drafts over the distilled scribe's head tokens


if __name__ == "__main__":
    main()
