"""Does a model keep a poem's form? Line lengths of what it writes after a verse's first line.

Two sets of first lines: every validation entry that is regular verse (data.is_verse), and
INVENTED_HEADS, first lines written for this check and found in no poem of the corpus (so the
master cannot recite what follows). The model is given ``<s>`` and the line with its comma, and
samples on to ``</s>`` (at most MAX_NEW characters). The lines it writes, split at punctuation,
are compared with the prompt line's length (five or seven).
"""
from __future__ import annotations

import re

import torch

from training.poetry import data
from training.poetry.sample import sample_after

MAX_NEW = 64
INVENTED_HEADS = tuple(f"{line}，" for line in (
    "江城春色早", "山寺鐘聲遠", "秋風吹客袂", "孤舟泊夜渚", "寒雨落空庭",
    "遠岫含殘照", "松間明月上", "故園千里外", "春山花自發", "獨坐聽流水",
    "一夜西風吹落葉", "湖邊楊柳拂行人", "春風又綠小橋東", "十年漂泊在天涯", "青山萬疊鎖寒煙",
    "小樓聽雨到天明", "孤城落日照邊關", "白髮蕭蕭對酒杯", "長亭送別柳依依", "月照西樓人未眠"))
INVENTED_MAX_NEW = 128      # room for a 七言律詩's seven more lines
MARKS = "，。？！；：、"
FIRST_LINE = re.compile(f"^[^{MARKS}]+[{MARKS}]")


def prompts(entries: list[str]) -> list[str]:
    """The first line (with its mark) of each verse entry whose first line is five or seven long."""
    heads = [FIRST_LINE.match(e) for e in entries if data.is_verse(e)]
    return [m.group(0) for m in heads if m and len(m.group(0)) - 1 in data.VERSE_LINE_LENGTHS]


@torch.no_grad()
def continuations(model, tokenizer, heads: list[str], temperature: float, seed: int,
                  max_new: int = MAX_NEW) -> list[str]:
    """One sampled continuation per head, all heads of a length in one cached batch."""
    gen = torch.Generator().manual_seed(seed)
    out = {}
    for length in sorted({len(h) for h in heads}):
        group = [h for h in heads if len(h) == length]
        ids = torch.tensor([tokenizer(h).input_ids for h in group])        # <s> + head, equal lengths
        rows = sample_after(model, ids, max_new, temperature, gen).tolist()
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


def finished_lines(text: str) -> list[str]:
    """The lines of `text` that end with a mark (an unfinished last line, cut by the length limit, is not one)."""
    return re.findall(f"[^{MARKS}]+(?=[{MARKS}])", text)


def invented_score(heads: list[str], texts: list[str]) -> dict:
    """Of the finished lines written after invented first lines: the share as long as the first line,
    and the mean number per poem (a quatrain writes three after its first)."""
    counts = [finished_lines(t) for t in texts]
    lines = sum(map(len, counts))
    kept = sum(len(s) == len(h) - 1 for h, c in zip(heads, counts) for s in c)
    return {"clauses_keep_length": kept / max(1, lines), "lines_after_first": lines / max(1, len(texts)),
            "poems": len(texts), "lines": lines}


def invented(model, tokenizer, temperature: float = 0.8, per_head: int = 5, seed: int = 0) -> dict:
    """invented_score over `per_head` continuations of every INVENTED_HEADS line, with examples."""
    heads = [h for h in INVENTED_HEADS for _ in range(per_head)]
    texts = continuations(model, tokenizer, heads, temperature, seed, INVENTED_MAX_NEW)
    return {**invented_score(heads, texts), "temperature": temperature, "seed": seed,
            "examples": [h + t for h, t in zip(heads[::per_head], texts[::per_head])]}
