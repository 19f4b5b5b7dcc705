"""The ladder's bottom rung: n-gram counts of the modern prose the corpus drops (a scribe who read the wrong books).

The Debian/Linux prose that build_corpus rejects as modern is tokenized with the poetry vocabulary, so
this scribe speaks the master's language but has learned its habits from manuals, not from poems.
Characters the vocabulary lacks break the text: no n-gram spans one, and none is counted as <unk>.
"""
from __future__ import annotations

import json

from specdec_core.drafts.ngram import NgramModel
from training.poetry.paths import ASSETS
from training.poetry.tokenizer import load_tokenizer
from training.poetry.wrong_books import modern_prose

NAME = "mismatched"
ORDER = 2  # bigram: sharp enough to be confidently wrong where the master is unsure


def pieces(text: str, vocab: dict[str, int], bos: int, eos: int) -> list[list[int]]:
    """`<s> text </s>` as token ids, cut wherever a character is outside the vocabulary."""
    out, current = [], [bos]
    for ch in text:
        if ch in vocab:
            current.append(vocab[ch])
        else:
            out.append(current)
            current = []
    out.append(current + [eos])
    return [p for p in out if p]


def build() -> dict:
    tok = load_tokenizer()
    vocab = tok.get_vocab()
    entries = modern_prose()
    sequences = [p for e in entries for p in pieces(e, vocab, tok.bos_token_id, tok.eos_token_id)]
    path = ASSETS / "ngram" / f"{NAME}.safetensors"
    path.parent.mkdir(parents=True, exist_ok=True)
    NgramModel.fit(sequences, ORDER, len(tok)).save(path)
    chars = sum(map(len, entries))
    skipped = sum(ch not in vocab for e in entries for ch in e)
    return {"entries": len(entries), "chars": chars, "chars_outside_vocab": skipped,
            "order": ORDER, "bytes": path.stat().st_size}


if __name__ == "__main__":
    print(json.dumps(build()))
