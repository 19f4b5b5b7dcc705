"""The poetry master's hidden states over training poems and its own samples: the feature scribe's text.

Sequences: ``<s> poem </s>`` for a seeded subset of the TRAINING poems (the validation poems stay
held out), then the master's own samples at T = 1.0 from ``<s>`` (the bench decodes at T = 1.0, and
the scribe drafts after the master's own text). Each shard is one batched, teacher-forced forward of
the shipped master (bfloat16 matrices, as the app runs it) over rows of similar length; saved per
position in bfloat16: the outputs of a low and a middle layer and the normed top state, the layout
every pair's shards share (training/eagle/features.py), so the scribe can read the top state alone
(EAGLE) or fuse several (EAGLE-3). Of the poems, sorted by length, every POEM_SHARD_STRIDE-th shard
is computed (so the training reads each position about once). Each shard is written whole under its
own name: an interrupted run resumes at the first missing one.
"""
from __future__ import annotations

import hashlib
import random
import time

import torch

from training.eagle.features import features
from training.whole_files import save_whole
from training.poetry import data
from training.poetry.evaluate import master_samples
from training.poetry.paths import ASSETS, DATA, SEED
from training.poetry.tokenizer import read_entries
from training.poetry.util import load_exported

FEATURES = DATA / "master-features"
LOW_MID = (2, 4)             # hidden_states indices (0 is the embedding): after the 2nd and the 4th of 8 layers
TRAIN_CHARS = 1_000_000      # characters of training poems read (of 3.1 M); the model card says why so many
POSITIONS_PER_SHARD = 16_384
POEM_SHARD_STRIDE = 2        # every 2nd poem shard is computed: poems are sorted by length, so these span every length
SAMPLE_ROWS, SAMPLE_LENGTH, SAMPLE_BATCH = 512, 128, 256    # the master's own poems at T = 1.0
SAMPLE_TEMPERATURE = 1.0


def shard_path(index: int):
    return FEATURES / f"shard_{index:04d}.pt"


def training_poems() -> list[list[int]]:
    """Token ids ``<s> poem </s>`` of a seeded share of the training poems, about TRAIN_CHARS characters."""
    from transformers import AutoTokenizer
    tokenizer = AutoTokenizer.from_pretrained(ASSETS / "master")
    poems = read_entries("train")
    random.Random(SEED).shuffle(poems)
    chosen, chars = [], 0
    for poem in poems:
        if chars >= TRAIN_CHARS:
            break
        chosen.append([data.BOS_ID] + tokenizer(poem, add_special_tokens=False)["input_ids"] + [data.EOS_ID])
        chars += len(poem)
    return chosen


def poem_shards(poems: list[list[int]]) -> list[list[list[int]]]:
    """Poems sorted by length, cut into shards of about POSITIONS_PER_SHARD positions (little padding)."""
    shards, current, size = [], [], 0
    for poem in sorted(poems, key=len):
        current.append(poem)
        size += len(poem)
        if size >= POSITIONS_PER_SHARD:
            shards.append(current)
            current, size = [], 0
    return shards + ([current] if current else [])


def plan() -> list[tuple[str, object]]:
    """Every shard in order: ("poems", rows) or ("samples", seed)."""
    plan_ = [("poems", rows) for rows in poem_shards(training_poems())]
    return plan_ + [("samples", SEED + i) for i in range(SAMPLE_ROWS // SAMPLE_BATCH)]


def generate(threads: int = 2, log=print) -> int:
    """Write missing shards in order. Returns the shards present."""
    torch.set_num_threads(threads)
    FEATURES.mkdir(parents=True, exist_ok=True)
    master = load_exported("master")
    shards = plan()
    for index, (kind, what) in enumerate(shards):
        if shard_path(index).exists() or (kind == "poems" and index % POEM_SHARD_STRIDE):
            continue
        t0 = time.time()
        rows = what if kind == "poems" else master_poems(master, what)
        states = features(master, rows, LOW_MID, pad_id=data.PAD_ID)
        save_whole({"kind": kind, "sequences": rows, "features": states}, shard_path(index))
        n = sum(map(len, rows))
        log(f"features shard {index + 1}/{len(shards)} ({kind}): {len(rows)} rows, {n} positions, "
            f"{n / (time.time() - t0):.0f} positions/s")
    return len(present())


def present() -> list[int]:
    """The indices of the shards written, in order."""
    return sorted(int(path.stem.removeprefix("shard_")) for path in FEATURES.glob("shard_*.pt"))


def master_poems(master, seed: int) -> list[list[int]]:
    """SAMPLE_BATCH poems the master writes from ``<s>`` at SAMPLE_TEMPERATURE, each cut after its ``</s>``."""
    return [row.tolist() for row in master_samples(master, SAMPLE_BATCH, SAMPLE_LENGTH, SAMPLE_TEMPERATURE, seed)]


def data_summary(shards: list[tuple[int, str, list[list[int]]]]) -> dict:
    """What the cache holds, from its shards in order, (index, kind, sequences) each (the reader has them loaded
    already): rows and positions of each kind, and the sha256 of its token ids in shard order."""
    digest, summary = hashlib.sha256(), {}
    for index, kind, sequences in shards:
        digest.update(shard_path(index).name.encode())
        for seq in sequences:
            digest.update(torch.tensor(seq, dtype=torch.int32).numpy().tobytes())
        counts = summary.setdefault(kind, {"shards": 0, "rows": 0, "positions": 0})
        counts["shards"] += 1
        counts["rows"] += len(sequences)
        counts["positions"] += sum(map(len, sequences))
    return {**summary, "tokens_sha256": digest.hexdigest()}
