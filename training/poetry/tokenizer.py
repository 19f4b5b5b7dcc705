"""Character-level tokenizer: one token per character, loadable with ``AutoTokenizer`` offline.

Vocabulary: 4 specials (``<pad>`` 0, ``<s>`` 1, ``</s>`` 2, ``<unk>`` 3), then every training
character seen at least ``MIN_COUNT`` times, most frequent first (ties by code point).
``tokenizer(text)`` prepends ``<s>`` (as Llama tokenizers do); ``decode`` joins with no spaces.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from specdec_core.pairs.char_tokenizer import char_tokenizer
from training.poetry.paths import ASSETS, DATA, TOKENIZER_DIR

PAD, BOS, EOS, UNK = "<pad>", "<s>", "</s>", "<unk>"
SPECIALS = (PAD, BOS, EOS, UNK)
MIN_COUNT = 3          # 6,511 characters of the Tang poems: 99.92 % of what they write
MIN_COVERAGE = 0.999   # of the training characters; below it the vocabulary is refused
TOKEN_IDS_FILE = "token_ids.npz"   # train/val ids with BOS/EOS, beside the corpus (not shipped)


def read_entries(split: str) -> list[str]:
    text = (DATA / f"{split}.txt").read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line]


def build_vocab(entries: list[str], min_count: int = MIN_COUNT) -> tuple[list[str], Counter]:
    counts = Counter("".join(entries))
    chars = sorted((c for c, n in counts.items() if n >= min_count), key=lambda c: (-counts[c], c))
    return list(SPECIALS) + chars, counts


def make_fast_tokenizer(vocab: list[str]):
    """The engine's character tokenizer over `vocab` (specials first, in SPECIALS order)."""
    assert tuple(vocab[: len(SPECIALS)]) == SPECIALS
    return char_tokenizer(vocab[len(SPECIALS) :], prepend_bos=True)


def build() -> dict:
    entries = read_entries("train")
    vocab, counts = build_vocab(entries)
    fast = make_fast_tokenizer(vocab)
    fast.save_pretrained(TOKENIZER_DIR)
    check_round_trip(TOKENIZER_DIR)
    covered = sum(n for c, n in counts.items() if n >= MIN_COUNT) / sum(counts.values())
    if covered < MIN_COVERAGE:
        raise SystemExit(f"the vocabulary covers {covered:.4%} of the corpus, under {MIN_COVERAGE:.1%}: lower MIN_COUNT")
    info = {"vocab_size": len(vocab), "specials": {t: i for i, t in enumerate(SPECIALS)},
            "min_count": MIN_COUNT, "train_char_coverage": covered,
            "tokens": vocab}
    ASSETS.mkdir(parents=True, exist_ok=True)
    (ASSETS / "vocab.json").write_text(json.dumps(info, ensure_ascii=False) + "\n", encoding="utf-8")
    ids = {split: np.asarray(encode_entries(fast, read_entries(split)), dtype=np.uint16)
           for split in ("train", "val")}
    np.savez_compressed(DATA / TOKEN_IDS_FILE, **ids)
    return {k: v for k, v in info.items() if k != "tokens"}


def check_round_trip(model_dir: Path) -> None:
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(model_dir)
    text = "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。"
    ids = tok(text)["input_ids"]
    assert ids[0] == tok.bos_token_id and len(ids) == len(text) + 1, ids
    assert tok.decode(ids, skip_special_tokens=True) == text, tok.decode(ids)


def encode_entries(tok, entries: list[str]) -> list[int]:
    """Concatenate ``<s> entry </s>`` for every entry."""
    out: list[int] = []
    for e in entries:
        out += tok(e, add_special_tokens=False)["input_ids"]
        out.insert(len(out) - len(e), tok.bos_token_id)
        out.append(tok.eos_token_id)
    return out


def load_tokenizer(model_dir: Path | None = None):
    from transformers import AutoTokenizer
    return AutoTokenizer.from_pretrained(model_dir or TOKENIZER_DIR)


def load_token_ids(split: str) -> list[int]:
    """Token ids of ``split`` ("train" or "val"): ``<s> entry </s>`` for each entry, concatenated.

    Reads ``data/poetry/token_ids.npz``, written by the tokenizer stage from the rebuilt corpus.
    """
    with np.load(DATA / TOKEN_IDS_FILE) as z:
        return z[split].astype(np.int64).tolist()
