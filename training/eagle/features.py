"""A master's states over its text, as every pair's feature shards hold them (written by training/whole_files.py).

Per position, in bfloat16: the outputs of a low and a middle layer and the normed top state (what the
head reads), so the scribe can read the top state alone (EAGLE) or fuse several (EAGLE-3), and the
training can measure which. Each pair chooses its text and its two layers (training/<pair>/…features.py).
"""
from __future__ import annotations

import torch


@torch.inference_mode()
def features(master, sequences: list[list[int]], low_mid: tuple[int, int], pad_id: int) -> list[torch.Tensor]:
    """Per sequence (L, 3, H) in bfloat16: the outputs of the layers at hidden_states indices ``low_mid``
    (0 is the embedding) and the normed top state, from one teacher-forced forward over all the rows."""
    width = max(map(len, sequences))
    ids = torch.tensor([s + [pad_id] * (width - len(s)) for s in sequences])   # right-padded: causal rows untouched
    out = master.model(input_ids=ids, output_hidden_states=True)
    hidden = out.hidden_states
    assert len(hidden) == master.config.num_hidden_layers + 1, "hidden_states: the embedding, then each layer"
    stacked = torch.stack([hidden[low_mid[0]], hidden[low_mid[1]], out.last_hidden_state], dim=2)   # (B, L, 3, H)
    return [stacked[row, : len(s)].to(torch.bfloat16).clone() for row, s in enumerate(sequences)]

