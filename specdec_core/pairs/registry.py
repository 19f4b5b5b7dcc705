"""The registry of named pairs: each name and its loader, which are present here, and loading by name."""
from __future__ import annotations

from typing import Callable

import torch

from specdec_core.pairs.any_models import load_any_pair
from specdec_core.pairs.pair import ModelPair, PairError
from specdec_core.pairs.poetry import load_poetry_pair, poetry_assets_present
from specdec_core.pairs.smollm2 import load_smollm2_pair, smollm2_present
from specdec_core.pairs.tiny import load_tiny_pair
from specdec_core.runtimes.device import pick_device

DEFAULT_NEW_TOKENS = 48  # a verse or two
NEW_TOKENS = {"smollm2": 128}  # a chat pair writes an answer, not a line of verse


DEFAULT_K = 4
# The parable's scribe rushes out a line: a 五言 line is five characters and its ，or 。. The speeds
# of k = 4, 6 and 8 at the pair's 48 characters are on the model card ("The default k").
K = {"poetry": 6}


def default_new_tokens(name: str) -> int:
    """The new tokens a pair writes unless told otherwise (the sidebar's default, the recordings')."""
    return NEW_TOKENS.get(name, DEFAULT_NEW_TOKENS)


def default_k(name: str) -> int:
    """The tokens a pair's scribe drafts a round unless told otherwise (the sidebar's default, the recordings')."""
    return K.get(name, DEFAULT_K)


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
