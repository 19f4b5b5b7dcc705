"""Token streams and batches. Every draw takes an explicit ``torch.Generator``."""
from __future__ import annotations

import torch

from training.poetry.tokenizer import load_token_ids

BOS_ID, EOS_ID, PAD_ID = 1, 2, 0


def stream(split: str) -> torch.Tensor:
    return torch.tensor(load_token_ids(split), dtype=torch.long)       # (N,)


def random_windows(ids: torch.Tensor, batch: int, block: int, gen: torch.Generator):
    """``batch`` random windows of ``block + 1`` tokens -> inputs, next-token targets."""
    starts = torch.randint(0, len(ids) - block - 1, (batch,), generator=gen)
    rows = torch.stack([ids[s:s + block + 1] for s in starts.tolist()])  # (B, T+1)
    return rows[:, :-1], rows[:, 1:]                                     # (B, T), (B, T)


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
