"""Where the models run: CUDA when present, CPU otherwise, unless the user says which."""
from __future__ import annotations

import re
import time

import torch
from torch import nn

from specdec_core.runtimes.decode_linear import decode_linears

DEVICE_NAME = re.compile(r"^(auto|cpu|cuda(:\d{1,2})?)$")


def pick_device(requested: str = "auto") -> torch.device:
    """auto, cpu, cuda or cuda:N; a ValueError that says so for anything else (meta, tpu, a typo)."""
    if not DEVICE_NAME.match(requested):
        raise ValueError(f"unknown device {requested!r}; use auto, cpu or cuda")
    if requested == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if requested.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError("CUDA was requested but this machine has no usable GPU; use --device cpu")
    return torch.device(requested)


def place(model: nn.Module, device: torch.device) -> nn.Module:
    """The model on `device` in eval mode, its linear layers in the faster form for few-row decoding on this CPU."""
    return decode_linears(model.to(device).eval())


class Clock:
    """Wall-clock readings that wait for queued GPU work, so time lands on the step that spent it."""

    def __init__(self, device: torch.device):
        self.sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)

    def now(self) -> float:
        self.sync()
        return time.perf_counter()
