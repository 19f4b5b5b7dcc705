"""The last distill-own round's final norm and head, saved as an early exit on the shipped draft's first four layers.

grow built the eight-layer draft on that round's four layers and kept them frozen, so those four are
still that round's, and its norm and head still read them as they were trained to. Shipping that norm
and head (a few MB) gives the ladder a four-layer rung for nearly half the eight-layer draft's cost,
without a second copy of the layers. distill-online trains the shipped exit together with the
eight-layer draft, so this stage builds the exit of a fresh ``all`` only.
"""
from __future__ import annotations

import torch

from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_DIR, EARLY_EXIT_DIR
from specdec_core.runtimes.shared_embedding_draft import LAYERS, load_draft
from training.smollm2.draft_files import save_draft
from training.smollm2.grow import CHECKPOINT, LAST_ROUND
from training.smollm2.paths import CKPT
from training.smollm2.train import OWN_ANSWER_ROUNDS, finished_draft

# A finished grow does not write the shipped files again, so "run grow" alone could do nothing.
REBUILD = (f"the shipped rungs are not grow's: distill-online trained them and this exit together, or grow "
           f"has not run; to rebuild the rungs of all, delete {CKPT / CHECKPOINT} if it exists, run grow, "
           f"then this stage")


def early_exit(threads: int, log=print) -> None:
    torch.set_num_threads(threads)
    master = load_pair("smollm2", "cpu").target
    base, vocab_ids = finished_draft(OWN_ANSWER_ROUNDS[LAST_ROUND].checkpoint,
                                     f"finish distill-own --round {LAST_ROUND} first: the early exit is its norm and head", master)
    shipped, shipped_ids = load_draft(master, DISTILLED_DIR)
    require_same_layers(base, shipped)
    if not torch.equal(vocab_ids, shipped_ids):
        raise SystemExit(f"the shipped draft's head covers other tokens than round {LAST_ROUND}'s; {REBUILD}")
    save_draft(base, vocab_ids, EARLY_EXIT_DIR, layers=False)
    log(f"early exit: round {LAST_ROUND}'s norm and head saved to {EARLY_EXIT_DIR}, on the shipped draft's first {len(base.model.layers)} layers")


def require_same_layers(base, shipped) -> None:
    """Stop unless each of base's layer weights matches the shipped draft's to within its int8 step."""
    theirs = shipped.state_dict()
    for name, mine in base.state_dict().items():
        if name.startswith(LAYERS):
            step = mine.abs().amax() / 127     # the widest row's int8 step bounds every row's rounding
            if name not in theirs or (theirs[name] - mine).abs().amax() > step:
                raise SystemExit(f"the shipped draft's {name} is not round {LAST_ROUND}'s; {REBUILD}")
