"""The command line's argument types: a number in its range, or one line that says what was wrong."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable


def bounded(kind: type, low, high, what: str) -> Callable[[str], int | float]:
    """An argparse type: `kind` of the text, from low to high (NaN is never in range)."""

    def read(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is outside {_shown(low)}–{_shown(high)}")
        return value

    return read


def whole(low: int, high: int) -> Callable[[str], int]:
    return bounded(int, low, high, "a whole number")


def number(low: float, high: float) -> Callable[[str], float]:
    return bounded(float, low, high, "a number")


def whole_list(low: int, high: int) -> Callable[[str], list[int]]:
    """Comma-separated whole numbers, each from low to high."""
    return lambda text: [whole(low, high)(part.strip()) for part in text.split(",")]


def tree_shapes(text: str) -> list[str]:
    """Comma-separated tree shapes, each children per depth (3-2-1-1), checked as the settings check them."""
    from specdec_core.settings import SettingsError, tree_shape

    shapes = [part.strip() for part in text.split(",")]
    for shape in shapes:
        try:
            if not tree_shape(shape):
                raise argparse.ArgumentTypeError(f"{text!r} holds an empty shape: write each as children per depth, such as 3-2-1-1")
        except SettingsError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return shapes


def new_file(text: str) -> Path:
    """An argparse type: a file to write, whose folder exists, checked before a long measurement starts."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder: name a file to write")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"there is no folder {str(path.parent)!r} to write {path.name!r} in")
    return path


def _shown(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
