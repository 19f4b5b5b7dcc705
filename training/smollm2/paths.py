"""Where the smollm2 distillation reads and writes (scratch under data/, results under assets/)."""
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("SMOLLM2_DATA", REPO / "data" / "smollm2"))   # gitignored scratch
TEACHER = DATA / "master-answers"       # one file per batch of answers, with the master's top-k
CKPT = DATA / "ckpt"
LOG = DATA / "distill.log"
ONPOLICY = DATA / "own-answers"     # the draft's answers, with the master's top-k
