"""Recorded results: the proof page's run and the speed lab's measurement of a pair's default settings,
made once by `python -m specdec_core record`, kept in assets/recorded/, and shown at once in class.

Each file says what it is: the settings it was made with, when, on which machine, and the command
that makes it again. A page shows a recording only where its own settings are exactly those, and
labels it as recorded; a live run replaces it.
"""
from __future__ import annotations

import json
import os
import platform
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

import torch

from specdec_core.settings import DecodeSettings

RECORDED_DIR = Path(__file__).resolve().parents[2] / "assets" / "recorded"
LAB_TOKENS, LAB_PROMPTS, LAB_REPEATS = 24, 4, 1  # one speed-lab measurement: a few seconds on two cores
PROOF_SAMPLES = 10_000  # the proof page's default


@dataclass(frozen=True)
class Recording:
    kind: str  # "proof" or "speed"
    key: dict  # the settings it was made with, as the page compares them
    result: dict
    recorded_at: str  # ISO 8601, UTC
    machine: str
    command: str


def lab_settings(settings: DecodeSettings) -> DecodeSettings:
    """A speed-lab measurement's settings: the sidebar's, at most LAB_TOKENS new tokens."""
    return replace(settings, max_new_tokens=min(settings.max_new_tokens, LAB_TOKENS))


def key_of(pair: str, draft: str, prompt: str, settings: DecodeSettings, **more) -> dict:
    """What must match for a recording to stand for a run: plain data, compared as is."""
    return {"pair": pair, "draft": draft, "prompt": prompt, "settings": settings.as_dict(), **more}


def path_of(kind: str, pair: str) -> Path:
    return RECORDED_DIR / f"{kind}-{pair}.json"


def save(recording: Recording, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(recording), ensure_ascii=False, separators=(",", ":")))


def load(kind: str, pair: str) -> Recording | None:
    """The recording of that kind for the pair, or None (missing, or not a recording this code reads)."""
    path = path_of(kind, pair)
    try:
        data = json.loads(path.read_text())
        recording = Recording(**data)
    except (OSError, ValueError, TypeError):
        return None
    return recording if recording.kind == kind and isinstance(recording.result, dict) else None


def matching(kind: str, key: dict) -> Recording | None:
    """The pair's recording when it was made with exactly these settings."""
    recording = load(kind, key.get("pair", ""))
    return recording if recording is not None and recording.key == json.loads(json.dumps(key)) else None


def stamp(kind: str, key: dict, result: dict, command: str) -> Recording:
    when = datetime.now(timezone.utc).isoformat(timespec="minutes")
    return Recording(kind, json.loads(json.dumps(key)), result, when, machine(), command)


def machine() -> str:
    """This machine in a few words: the processor, the cores torch uses, the GPU if one is used."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    gpu = f", {torch.cuda.get_device_name(0)}" if torch.cuda.is_available() else ""
    return f"{model}, {len(os.sched_getaffinity(0))} cores{gpu}"
