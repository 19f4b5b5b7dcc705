"""Scribes' names as a reader sees them, in the reader's language; the internal id stays in links, traces and the
archive, and names any scribe of a teacher's own pair."""
from __future__ import annotations

from ui.shared.i18n import Texts

NAMES = Texts(
    {
        "mismatched": {"zh": "讀錯書的抄寫員", "en": "Mismatched (read the wrong book)"},
        "unigram": {"zh": "單字頻率表", "en": "Unigram counts"},
        "bigram": {"zh": "雙字頻率表", "en": "Bigram counts"},
        "trigram": {"zh": "三字頻率表", "en": "Trigram counts"},
        "ngram": {"zh": "字串頻率表", "en": "N-gram counts"},
        "prompt-lookup": {"zh": "照抄開頭", "en": "Prompt lookup"},
        "tiny": {"zh": "小模型", "en": "Tiny model"},
        "lm": {"zh": "小模型", "en": "Small model"},
        "distilled": {"zh": "蒸餾模型", "en": "Distilled model"},
        "distilled-4": {"zh": "蒸餾模型（前四層）", "en": "Distilled model (first four layers)"},
        "eagle": {"zh": "讀墨卿筆記的阿速", "en": "EAGLE head (reads the master's notes)"},
        "int4-master": {"zh": "墨卿的四位元副本", "en": "The master in 4 bits"},
        "int8-master": {"zh": "墨卿的八位元副本", "en": "The master in 8 bits"},
    }
)


def scribe_label(name: str) -> str:
    """A scribe's display name in the reader's language (no Markdown: for menus, sliders and filled texts)."""
    return NAMES.plain(name) if name in NAMES.table else name


def scribe_labels(names) -> dict[str, str]:
    """Display names read now, for a widget's format_func (which AppTest may call after the run)."""
    return {name: scribe_label(name) for name in names}
