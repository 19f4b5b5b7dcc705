"""The last distill-own draft grown from four layers to eight, the new ones trained on top.

Rounds of the draft's own answers gained half as much each time while the draft's training and
held-back losses stayed level (the model card has the numbers): a four-layer draft is short of
capacity, not of text. So four layers are added above the trained four, each a copy of one of the
master's last layers with its output projections (attention o_proj, MLP down_proj) zeroed: a zeroed
residual branch adds nothing, so the grown draft starts as exactly the four-layer draft and training
moves it from there (zero-initialised residual branches, as in Goyal et al. 2017; function-preserving
growth, Net2Net, Chen et al. 2016). The four trained layers stay frozen, which spares their backward
pass; the new layers, final norm and head learn, on the same text as the last distill-own round.
"""
from __future__ import annotations

import torch

from specdec_core.pairs.registry import load_pair
from training.smollm2 import own_answers
from training.smollm2.draft_files import draft_from_master
from training.smollm2.train import OWN_ANSWER_ROUNDS, SEED, finished_draft, fit_on_answers_through

ADDED_FROM = [26, 27, 28, 29]   # the master's last layers: their input projections start the new ones
LAST_ROUND = 4                  # the on-policy text trained on, and the round whose draft grows
EPOCHS = 1.5
PEAK_LR = 4e-4
CHECKPOINT = "grow.pt"


def grow(minutes: float | None, threads: int, log=print) -> dict:
    own_answers.require_complete(LAST_ROUND)
    torch.set_num_threads(threads)
    torch.manual_seed(SEED + LAST_ROUND)
    master = load_pair("smollm2", "cpu").target
    base, vocab_ids = finished_draft(OWN_ANSWER_ROUNDS[LAST_ROUND].checkpoint,
                                     f"finish distill-own --round {LAST_ROUND} first: the grown draft starts from it", master)
    draft = grown(master, base, vocab_ids, ADDED_FROM)
    return fit_on_answers_through(LAST_ROUND, draft, vocab_ids, EPOCHS, PEAK_LR, CHECKPOINT, minutes, log)


def grown(master, base, vocab_ids: torch.Tensor, added_from: list[int]):
    """``base`` with a layer on top for each of the master's ``added_from``, residual branches at
    zero, and its own layers frozen: computes what ``base`` computes until trained."""
    below = len(base.model.layers)
    draft = draft_from_master(master, list(range(below)) + added_from, vocab_ids)
    draft.load_state_dict(base.state_dict(), strict=False)      # overwrites the bottom layers, final norm and head
    for layer in draft.model.layers[below:]:
        layer.self_attn.o_proj.weight.data.zero_()
        layer.mlp.down_proj.weight.data.zero_()
    for layer in draft.model.layers[:below]:
        layer.requires_grad_(False)
    return draft.train()
