"""Round six: the shipped eight-layer draft, trained on its own answers to prompts on new topics.

On fresh answers to prompts whose topics it trained on, the draft's alpha is 0.61; on held-out
topics 0.54 (the eval's seen-topics control). It has learned its topics more than the master, so
this round brings breadth rather than more of the same text: 265 topics that no earlier round saw
(prompts.ROUND_SIX_TOPICS), answered by the draft itself and labelled by the master (onpolicy
--round 6). The rest of the earlier rounds' text need not be at hand: training starts from the
shipped draft. Its first four layers stay frozen, so the early exit (distilled-4) still reads
the layers it was trained on; layers 5-8, the final norm and the head learn. Then the early exit's
own norm and head learn on the same text (EXIT_CHECKPOINT). The held-back teacher shards are
written first if missing (about a minute): the loss and alpha bound are watched on them.
"""
from __future__ import annotations

import torch

from specdec_core.pairs import load_pair
from specdec_core.shared_embedding_draft import load_draft
from specdec_core.smollm_pair import DISTILLED_DIR, EARLY_EXIT_DIR
from training.smollm2_distill import onpolicy, teacher
from training.smollm2_distill.paths import CKPT
from training.smollm2_distill.train import SEED, batches_of, examples, fit, ship

ROUND = onpolicy.NEW_TOPICS_ROUND
FROZEN = 4          # the layers the early exit reads
EPOCHS = 1.5
PEAK_LR = 2e-4
CHECKPOINT = "broaden.pt"
EXIT_CHECKPOINT = "broaden_exit.pt"


def broaden(minutes: float | None, threads: int, log=print) -> dict:
    onpolicy.require_complete(ROUND)
    torch.set_num_threads(threads)
    torch.manual_seed(SEED + ROUND)
    pair = load_pair("smollm2", "cpu")
    teacher.write_held_back(pair, log)
    draft, vocab_ids = trainable_draft(pair.target)
    batches, held = batches_of(onpolicy.load_shards(ROUND)), examples(teacher.held_back_shards())
    ck = fit(draft, vocab_ids, batches, held, EPOCHS, PEAK_LR, CKPT / CHECKPOINT, minutes, log)
    ship(draft, vocab_ids, ck, f"{CHECKPOINT} on {len(batches)} batches", log)
    if not ck["finished"]:
        return ck
    exit_draft, exit_ids = load_draft(pair.target, EARLY_EXIT_DIR, layers_from=draft)   # its layers stay frozen
    ck = fit(exit_draft.train(), exit_ids, batches, held, EPOCHS, PEAK_LR, CKPT / EXIT_CHECKPOINT, minutes, log)
    ship(exit_draft, exit_ids, ck, f"{EXIT_CHECKPOINT} on {len(batches)} batches", log, EARLY_EXIT_DIR, layers=False)
    return ck


def trainable_draft(master, directory=DISTILLED_DIR):
    """(the shipped draft in training mode with its first FROZEN layers frozen, vocab_ids)."""
    draft, vocab_ids = load_draft(master, directory)
    if len(draft.model.layers) <= FROZEN:
        raise SystemExit(f"{directory} has {len(draft.model.layers)} layers: broaden trains those above the first {FROZEN}")
    for layer in draft.model.layers[:FROZEN]:
        layer.requires_grad_(False)
    return draft.train(), vocab_ids
