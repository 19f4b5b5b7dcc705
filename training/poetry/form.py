"""Does a model keep a poem's form? Line lengths of what it writes after a verse's first line.

For every validation entry that is regular verse (data.is_verse), the model is given ``<s>`` and
the first line with its punctuation, and samples on to ``</s>`` (at most MAX_NEW characters). The
lines it writes, split at punctuation, are compared with the prompt line's length (five or seven).
"""
from __future__ import annotations

import re

import torch

from training.poetry import data
from training.poetry.sample import sample_after

MAX_NEW = 64
MARKS = "，。？！；：、"
FIRST_LINE = re.compile(f"^[^{MARKS}]+[{MARKS}]")


def prompts(entries: list[str]) -> list[str]:
    """The first line (with its mark) of each verse entry whose first line is five or seven long."""
    heads = [FIRST_LINE.match(e) for e in entries if data.is_verse(e)]
    return [m.group(0) for m in heads if m and len(m.group(0)) - 1 in data.VERSE_LINE_LENGTHS]


@torch.no_grad()
def continuations(model, tokenizer, heads: list[str], temperature: float, seed: int) -> list[str]:
    """One sampled continuation per head, all heads of a length in one cached batch."""
    gen = torch.Generator().manual_seed(seed)
    out = {}
    for length in sorted({len(h) for h in heads}):
        group = [h for h in heads if len(h) == length]
        ids = torch.tensor([tokenizer(h).input_ids for h in group])        # <s> + head, equal lengths
        rows = sample_after(model, ids, MAX_NEW, temperature, gen).tolist()
        for h, row in zip(group, rows):
            row = row[: row.index(data.EOS_ID)] if data.EOS_ID in row else row
            out.setdefault(h, []).append(tokenizer.decode(row, skip_special_tokens=True).replace(" ", ""))
    return [out[h].pop(0) for h in heads]


def next_line_right(head: str, text: str) -> bool:
    """The line written after the head has the head's length and ends with a punctuation mark."""
    n = len(head) - 1
    return len(text) > n and text[n] in MARKS and not any(c in MARKS for c in text[:n])


def score(heads: list[str], texts: list[str]) -> dict:
    """Shares: of written lines as long as the head's; of poems whose next line is so and ends with a mark;
    of poems with every line so, closed by a full stop (or ? or !)."""
    lines_ok = lines = next_ok = poems_ok = 0
    for head, text in zip(heads, texts):
        written = [s for s in re.split(f"[{MARKS}]", text) if s]
        good = sum(len(s) == len(head) - 1 for s in written)
        lines_ok, lines = lines_ok + good, lines + len(written)
        next_ok += next_line_right(head, text)
        poems_ok += bool(written) and good == len(written) and text[-1:] in "。？！"
    n = max(1, len(heads))
    return {"line_length_right": lines_ok / max(1, lines), "next_line_right": next_ok / n,
            "poems_all_right": poems_ok / n, "poems": len(heads), "lines": lines}
