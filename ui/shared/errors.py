"""A core error said in the reader's language: the core's errors name their reason, the words are here."""
from __future__ import annotations

from ui.shared.texts import TEXT


def explain(error: Exception) -> str:
    """The error in the reader's language where its reason is known here; else the core's own sentence."""
    reason = getattr(error, "reason", "")
    if reason and f"error_{reason}" in TEXT.table:
        return TEXT.plain(f"error_{reason}", **getattr(error, "values", {}))
    return str(error)
