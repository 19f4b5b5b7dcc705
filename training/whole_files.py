"""Training's files written whole: a shard, a checkpoint or teacher targets goes to a temporary file that
then takes its name, so an interrupted run never leaves half a file for the next run to resume from."""
from __future__ import annotations

from pathlib import Path

import torch


def save_whole(state, path: Path) -> None:
    """torch.save `state` to `path` through a temporary file beside it, renamed into place."""
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    tmp.replace(path)
