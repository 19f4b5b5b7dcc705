"""Where the poetry pipeline reads and writes. One place, no module state beyond constants."""
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# POETRY_DATA / POETRY_ASSETS redirect the pipeline (used for smoke tests on throwaway dirs).
DATA = Path(os.environ.get("POETRY_DATA", REPO / "data" / "poetry"))  # gitignored scratch
DEB_DIR = REPO / "data" / "fortunes-zh"   # downloaded .deb and its extracted tree
ASSETS = Path(os.environ.get("POETRY_ASSETS", REPO / "assets" / "models" / "poetry"))
LOGS = DATA / "logs"
CKPT = DATA / "ckpt"
TOKENIZER_DIR = DATA / "tokenizer"        # built once, then copied into every model directory

SEED = 1234
# Where the master and the hard-label scribes train: "cpu", or "cuda" on a machine with a GPU.
DEVICE = os.environ.get("POETRY_DEVICE", "cpu")
