"""Turn a trace into HTML: sealed, struck, corrected and bonus characters, as in the parable."""
from __future__ import annotations

import html

from specdec_core.trace import Trace, segments

STYLES = {
    "sealed": "color:#1f6f43;border-bottom:2px solid #b22222",
    "rejected": "color:#b22222;text-decoration:line-through;opacity:.55",
    "corrected": "color:#b22222;font-weight:700",
    "bonus": "color:#1f4e9c;font-weight:700",
    "plain": "",
}


def trace_html(trace: Trace) -> str:
    spans = [f'<span style="color:#555">{html.escape(trace.prompt_text)}</span>']
    spans += [_span(piece, kind) for piece, kind in segments(trace)]
    return '<div style="font-size:1.6rem;line-height:2.2;font-family:serif">' + "".join(spans) + "</div>"


def _span(text: str, kind: str) -> str:
    return f'<span style="{STYLES[kind]}">{html.escape(text)}</span>'
