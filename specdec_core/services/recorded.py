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
PROOF_SAMPLES = 2_000  # the proof page's default, its class mode: decides within seconds, catches a broken rule


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


def save(recordings: list[Recording], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([asdict(r) for r in recordings], ensure_ascii=False, separators=(",", ":")))


def load_all(kind: str, pair: str) -> list[Recording]:
    """The pair's recordings of that kind, the pair's default settings first; none where the file is
    missing or not one this code reads. A file holds a list of recordings, or one."""
    try:
        data = json.loads(path_of(kind, pair).read_text())
        recordings = [Recording(**item) for item in (data if isinstance(data, list) else [data])]
    except (OSError, ValueError, TypeError):
        return []
    return [r for r in recordings if r.kind == kind and isinstance(r.result, dict)]


def load(kind: str, pair: str) -> Recording | None:
    """The pair's recording of its default settings, or None."""
    return next(iter(load_all(kind, pair)), None)


def matching(kind: str, key: dict) -> Recording | None:
    """The pair's recording made with exactly these settings, or None."""
    key = json.loads(json.dumps(key))
    return next((r for r in load_all(kind, key.get("pair", "")) if r.key == key), None)


def seconds_per_sample(recording: Recording | None) -> float | None:
    """A recorded proof's drawing time per sample (both streams), or None."""
    if recording is None or not recording.result.get("total"):
        return None
    return float(recording.result["seconds"]) / int(recording.result["total"])


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
