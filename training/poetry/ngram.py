"""The count-based rungs of the scribe ladder: unigram, bigram and trigram counts of the training split.

N-grams seen fewer than MIN_COUNT times are left out: all 2.2 M distinct trigrams of the Tang poems
would take 40 MB, which the pair's 60 MB cannot spare beside the master."""
from __future__ import annotations

import json

from specdec_core.drafts.ngram import NgramModel
from training.poetry.paths import ASSETS
from training.poetry.tokenizer import load_token_ids

ORDERS = {"unigram": 1, "bigram": 2, "trigram": 3}
MIN_COUNT = {"unigram": 1, "bigram": 2, "trigram": 3}
EOS_ID = 2


def entries(ids: list[int]) -> list[list[int]]:
    """Cut the `<s> entry </s>` stream at each end token, so no n-gram spans two poems."""
    out, current = [], []
    for token in ids:
        current.append(token)
        if token == EOS_ID:
            out.append(current)
            current = []
    return out + ([current] if current else [])


def build() -> dict:
    vocab_size = json.loads((ASSETS / "vocab.json").read_text(encoding="utf-8"))["vocab_size"]
    sequences = entries(load_token_ids("train"))
    (ASSETS / "ngram").mkdir(parents=True, exist_ok=True)
    sizes = {}
    for name, order in ORDERS.items():
        path = ASSETS / "ngram" / f"{name}.safetensors"
        NgramModel.fit(sequences, order, vocab_size, MIN_COUNT[name]).save(path)
        sizes[name] = path.stat().st_size
    return sizes
