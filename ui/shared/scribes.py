"""Scribes' names as a reader sees them: a Chinese name in the Chinese UI, the internal id (kept in links,
traces and the archive) in English and for any scribe of a teacher's own pair."""
from __future__ import annotations

from ui.shared.i18n import Texts

NAMES = Texts(
    {
        "mismatched": {"zh": "讀錯書的抄寫員", "en": "mismatched"},
        "unigram": {"zh": "單字頻率表", "en": "unigram"},
        "bigram": {"zh": "雙字頻率表", "en": "bigram"},
        "trigram": {"zh": "三字頻率表", "en": "trigram"},
        "ngram": {"zh": "字串頻率表", "en": "ngram"},
        "prompt-lookup": {"zh": "照抄開頭", "en": "prompt-lookup"},
        "tiny": {"zh": "小模型", "en": "tiny"},
        "lm": {"zh": "小模型", "en": "lm"},
        "distilled": {"zh": "蒸餾模型", "en": "distilled"},
        "distilled-4": {"zh": "蒸餾模型（前四層）", "en": "distilled-4"},
        "eagle": {"zh": "讀墨卿筆記的阿速", "en": "eagle"},
        "int4-master": {"zh": "墨卿的四位元副本", "en": "int4-master"},
        "int8-master": {"zh": "墨卿的八位元副本", "en": "int8-master"},
    }
)


def scribe_label(name: str) -> str:
    """A scribe's display name in the reader's language (no Markdown: for menus, sliders and filled texts)."""
    return NAMES.plain(name) if name in NAMES.table else name


def scribe_labels(names) -> dict[str, str]:
    """Display names read now, for a widget's format_func (which AppTest may call after the run)."""
    return {name: scribe_label(name) for name in names}
