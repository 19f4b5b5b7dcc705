"""The registry of named pairs: each name, its loader and its run defaults, which are present here, and loading by name."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

from specdec_core.pairs.any_models import load_any_pair
from specdec_core.pairs.pair import ModelPair, PairError
from specdec_core.pairs.poetry import heldout_prompts as poetry_heldout_prompts
from specdec_core.pairs.poetry import load_poetry_pair, poetry_assets_present
from specdec_core.pairs.smollm2 import heldout_prompts, load_smollm2_pair, smollm2_present
from specdec_core.pairs.tiny import load_tiny_pair
from specdec_core.runtimes.device import pick_device


@dataclass(frozen=True)
class RunDefaults:
    """What a pair's run uses unless told otherwise: the sidebar's defaults and the recordings'."""

    max_new_tokens: int = 48    # a verse or two
    k: int = 4
    temperature: float = 1.0
    top_p: float = 1.0          # 1.0: off


RUN_DEFAULTS = {
    # The parable's scribe rushes out a line (a 五言 line: five characters and its ，or 。), and the
    # master's form was measured at T = 0.8 (model card, "The default k and temperature").
    "poetry": RunDefaults(k=6, temperature=0.8),
    # A chat answer, not a line of verse, read well at T = 0.7 with top-p 0.95 (at T = 1.0 "Why do cats purr?"
    # drifted into made-up words); k = 2 measured best for its feature scribe on the held-out prompts, where the
    # master's glance at 4 or more positions costs half a forward more (model card).
    "smollm2": RunDefaults(max_new_tokens=96, k=2, temperature=0.7, top_p=0.95),
}


# What one token of a pair is, in a reader's words: the char-level pairs write one character per token;
# SmolLM2's BPE pieces, and any two models of a teacher's own, are tokens (a piece of a word, a space…).
WRITING_UNITS = {"poetry": "character", "tiny": "character"}


def writing_unit(name: str) -> str:
    """"character" or "token": the unit a pair writes in, named on every page that counts what a run wrote."""
    return WRITING_UNITS.get(name, "token")


def run_defaults(name: str) -> RunDefaults:
    """A pair's own defaults; any other pair (two models of a teacher's own) takes the common ones."""
    return RUN_DEFAULTS.get(name, RunDefaults())


HELDOUT_SETS: dict[str, Callable[[], list[str]]] = {"smollm2": heldout_prompts,   # pair: its held-out prompts
                                                     "poetry": poetry_heldout_prompts}


def pair_heldout_prompts(name: str) -> list[str]:
    """A pair's held-out prompt set (prompts no training stage saw), read without loading the pair."""
    if name not in HELDOUT_SETS:
        raise PairError(f"pair {name!r} has no held-out prompt set (pairs with one: {', '.join(HELDOUT_SETS)}); "
                        "give a file of prompts instead", "no_heldout", pair=name)
    return HELDOUT_SETS[name]()


PAIR_LOADERS: dict[str, Callable[[torch.device], ModelPair]] = {
    "tiny": load_tiny_pair,
    "poetry": load_poetry_pair,
    "smollm2": load_smollm2_pair,
}


def available_pairs() -> list[str]:
    """Registered pairs whose files are present, the default first."""
    present = {"poetry": poetry_assets_present(), "smollm2": smollm2_present(), "tiny": True}
    return [name for name in ("poetry", "smollm2", "tiny") if present[name]]


def load_pair(name: str, device: str = "auto") -> ModelPair:
    """A registered pair by name, or any two models as "TARGET,DRAFT" (local directories or hub ids)."""
    if "," in name:
        target, draft = (part.strip() for part in name.split(",", 1))
        return load_any_pair(target, draft, pick_device(device))
    if name not in PAIR_LOADERS:
        raise PairError(f"unknown pair {name!r}; choose one of: {', '.join(PAIR_LOADERS)}, or give two models as TARGET,DRAFT")
    return PAIR_LOADERS[name](pick_device(device))
