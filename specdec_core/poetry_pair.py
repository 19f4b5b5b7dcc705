"""The embedded default pair 句國: a Tang-poetry master and its ladder of scribes (assets/models/poetry)."""
from __future__ import annotations

from pathlib import Path

import torch

POETRY_DIR = Path(__file__).resolve().parent.parent / "assets" / "models" / "poetry"


def poetry_assets_present() -> bool:
    return (POETRY_DIR / "master" / "model.safetensors").exists()


def load_poetry_pair(device: torch.device):
    from .pairs import PairError

    if not poetry_assets_present():
        raise PairError(f"the poetry pair's weights are not in {POETRY_DIR}; train them with `python -m training.poetry all`")
    raise PairError("the poetry pair is not wired up yet")
