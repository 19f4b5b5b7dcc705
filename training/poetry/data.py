"""Token streams and batches. Every draw takes an explicit ``torch.Generator``."""
from __future__ import annotations

import re

import torch

from training.poetry.tokenizer import load_token_ids

PAD_ID, BOS_ID, EOS_ID, UNK_ID = 0, 1, 2, 3


def stream(split: str) -> torch.Tensor:
    return torch.tensor(load_token_ids(split), dtype=torch.long)       # (N,)


def random_windows(ids: torch.Tensor, batch: int, block: int, gen: torch.Generator):
    """``batch`` random windows of ``block + 1`` tokens -> inputs, next-token targets."""
    starts = torch.randint(0, len(ids) - block - 1, (batch,), generator=gen)
    return windows_at(ids, starts, block)


def windows_at(ids: torch.Tensor, starts: torch.Tensor, block: int):
    """Windows of ``block + 1`` tokens opening at ``starts`` -> inputs, next-token targets."""
    rows = torch.stack([ids[s:s + block + 1] for s in starts.tolist()])  # (B, T+1)
    return rows[:, :-1], rows[:, 1:]                                     # (B, T), (B, T)


VERSE_LINE_LENGTHS = (5, 7)        # 五言 and 七言
VERSE_SHARE = 0.75                 # an entry is verse when this share of its lines is 5 or 7 long


def is_verse(entry: str) -> bool:
    """A regular-verse entry: two lines or more, most of them five or seven characters long."""
    lines = [s for s in re.split(r"[，。？！；：、]", entry) if s]
    regular = sum(len(s) in VERSE_LINE_LENGTHS for s in lines)
    return len(lines) >= 2 and regular >= VERSE_SHARE * len(lines)


def poem_starts(ids: torch.Tensor) -> torch.Tensor:
    """Stream positions of the ``<s>`` opening each poem."""
    return (ids == BOS_ID).nonzero().flatten()


def start_weighted_windows(ids, starts, share: float, batch: int, block: int, gen: torch.Generator):
    """Like ``random_windows``, but ``share`` of the rows open at one of ``starts`` (poem_starts).

    A window that opens at a poem's start shows the master a first line with nothing before it, as
    the app's prompts are; uniform windows mostly open mid-poem.
    """
    n_starts = round(share * batch)
    picks = starts[torch.randint(0, len(starts), (n_starts,), generator=gen)]
    anywhere = torch.randint(0, len(ids) - block - 1, (batch - n_starts,), generator=gen)
    return windows_at(ids, torch.cat([picks.clamp(max=len(ids) - block - 1), anywhere]), block)


def entry_chunks(ids: torch.Tensor, max_len: int) -> list[torch.Tensor]:
    """Split the stream back into ``<s> entry </s>`` pieces, each cut to ``max_len`` tokens."""
    bos = (ids == BOS_ID).nonzero().flatten().tolist() + [len(ids)]
    out = []
    for a, b in zip(bos[:-1], bos[1:]):
        for s in range(a, b - 1, max_len - 1):                           # overlap 1: every target once
            out.append(ids[s:min(s + max_len, b)])
    return out


def padded_batches(chunks: list[torch.Tensor], batch: int):
    """Yield (input_ids, attention_mask, targets, target_mask) with right padding."""
    for i in range(0, len(chunks), batch):
        group = chunks[i:i + batch]
        width = max(len(c) for c in group)
        ids = torch.full((len(group), width), PAD_ID, dtype=torch.long)
        mask = torch.zeros((len(group), width), dtype=torch.long)
        for r, c in enumerate(group):
            ids[r, :len(c)], mask[r, :len(c)] = c, 1
        tmask = mask[:, 1:].bool()                                       # (B, T-1)
        yield ids[:, :-1], mask[:, :-1], ids[:, 1:], tmask
