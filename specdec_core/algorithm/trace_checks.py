"""What a trace read from a file must hold: every field of the type and in the range a run writes.

A trace may come from anybody (an imported file, a shared archive), and the pages draw every field
of it. So each field is checked against its declared type, numbers must be finite and in range,
and words that pick a style (a round's next_kind, a trace's mode) must be one of the known ones.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import fields, is_dataclass
from types import UnionType
from typing import Union, get_args, get_origin, get_type_hints

MAX_TOKEN_ID = 2**31 - 1
MAX_PIECE_CHARS = 256  # longer than any vocabulary's token; a longer one is a hand-made file
MAX_K = 64
NEXT_KINDS = ("corrected", "bonus", "plain")
MODES = ("speculative", "plain")
PROBABILITIES = {"p", "q", "r", "accept_prob", "u", "q_i"}
TIMINGS = {"draft_s", "target_s", "other_s", "prefill_s", "wall_s"}
TOKENS = {"token", "next_token"}
TOKEN_LISTS = {"prompt_tokens", "tokens", "target_cache", "draft_cache"}
COUNTS = {"index", "context_len", "n_accepted"}
NAMES = {"pair", "scribe"}    # shown in the archive's table and filters, stored in its columns
MAX_NAME_CHARS = 64           # longer than any pair's or scribe's name (a hub pair names two model ids)


def problems(record) -> list[str]:
    """Every way `record` (a Trace, Round, DraftStep or Candidate) breaks its declared types and ranges."""
    found: list[str] = []
    _check_record(record, type(record).__name__, found, {})
    return found


def _check_record(record, where: str, found: list[str], hints_of: dict) -> None:
    """hints_of: each record class's type hints, read once per check (reading them compiles every annotation,
    and a long trace has tens of thousands of records: it took most of an import's time)."""
    kind = type(record)
    if kind not in hints_of:
        hints_of[kind] = get_type_hints(kind)
    hints = hints_of[kind]
    for field in fields(record):
        value, path = getattr(record, field.name), f"{where}.{field.name}"
        if not _has_type(value, hints[field.name]):
            found.append(f"{path} is not {_type_name(hints[field.name])}")
            continue
        _check_value(field.name, value, path, found)
        for i, item in enumerate(value if isinstance(value, list) else []):
            if is_dataclass(item):
                _check_record(item, f"{path}[{i}]", found, hints_of)


def _check_value(name: str, value, path: str, found: list[str]) -> None:
    bad = None
    if name in PROBABILITIES and value is not None and not 0.0 <= value <= 1.0:
        bad = "a probability between 0 and 1"
    elif name in TIMINGS and value < 0:
        bad = "a time of at least 0 s"
    elif name in TOKENS and not 0 <= value <= MAX_TOKEN_ID:
        bad = f"a token id from 0 to {MAX_TOKEN_ID}"
    elif name in TOKEN_LISTS and not all(0 <= t <= MAX_TOKEN_ID for t in value):
        bad = f"a list of ids from 0 to {MAX_TOKEN_ID}"
    elif name in COUNTS and value < 0:
        bad = "a count of at least 0"
    elif name == "k" and not 0 <= value <= MAX_K:
        bad = f"a k from 0 to {MAX_K}"
    elif name in ("piece", "next_piece") and len(value) > MAX_PIECE_CHARS:
        bad = f"a piece of at most {MAX_PIECE_CHARS} characters"
    elif name in NAMES and not _plain_name(value):
        bad = f"a name of at most {MAX_NAME_CHARS} characters, none a control character or direction mark"
    elif name == "next_kind" and value not in NEXT_KINDS:
        bad = "one of " + ", ".join(NEXT_KINDS)
    elif name == "mode" and value not in MODES:
        bad = "one of " + ", ".join(MODES)
    elif name == "settings" and not _plain_settings(value):
        bad = "an object of numbers, words, true/false and one nested object of them"
    if bad:
        found.append(f"{path} must be {bad}")


def _plain_name(text: str) -> bool:
    """Short, and free of what a table would act on: controls (Cc) and format characters (Cf, the bidi marks)."""
    return len(text) <= MAX_NAME_CHARS and not any(unicodedata.category(c) in ("Cc", "Cf") for c in text)


def _has_type(value, hint) -> bool:
    """isinstance for the hints a trace uses: int, float, str, bool, dict, X | None, list[X], dataclasses."""
    origin = get_origin(hint)
    if origin in (Union, UnionType):
        return any(_has_type(value, option) for option in get_args(hint))
    if origin is list:
        return isinstance(value, list) and all(_has_type(item, get_args(hint)[0]) for item in value)
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:  # JSON writes 1.0 as 1 in some writers: an int is a float here, NaN and ±inf are not
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return isinstance(value, hint)


def _plain_settings(settings: dict, depth: int = 0) -> bool:
    for key, value in settings.items():
        if isinstance(value, dict) and depth == 0:
            if not _plain_settings(value, depth + 1):
                return False
        elif not (value is None or isinstance(value, (bool, int, str)) or _has_type(value, float)):
            return False
        if isinstance(value, str) and len(value) > MAX_PIECE_CHARS:
            return False
    return True


def _type_name(hint) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("specdec_core.algorithm.trace.", "")
