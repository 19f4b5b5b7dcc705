"""Whether a prompt could have taught the scribe a held-out prompt: the criterion the held-out set is checked by.

* form: a held-out prompt must not open with a word that opens any training prompt ("What", "Explain", "How"…);
* topic: it must share no content word with any training prompt, words compared by their first five
  letters (so "garden" meets "gardening", "volcano" meets "volcanoes"), shorter words whole (a plural's
  s dropped), and function words ("the", "is", "my"…) left out.
tests/test_smollm2_heldout.py holds every training prompt to it, and the broad prompt set
(broad_prompts.py) drops any prompt that breaks it before the master answers.
"""
from __future__ import annotations

import re

FUNCTION_WORDS = frozenset("""
a an the and or but if of to in on at by for with from into onto about as than then so that this these those
is are was were be been being am do does did done have has had having can could should would will shall may might must
i me my mine we us our you your he him his she her it its they them their what which who whom whose when where why how
not no yes there here some any all each every few more most much many very just also too only own same other such
one two three four five ten first up down out over under again once off before after while during through between
""".split())


def words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower().replace("'s", ""))


def word_key(word: str) -> str:
    if len(word) >= 5:
        return word[:5]
    return word[:-1] if len(word) == 4 and word.endswith("s") else word


def content_keys(text: str) -> set[str]:
    return {word_key(w) for w in words(text) if w not in FUNCTION_WORDS}


def clashes(held_out: list[str], trained: list[str]) -> list[str]:
    """Each held-out prompt that breaks the criterion against the trained ones, with why."""
    openings = {words(text)[0] for text in trained}
    trained_keys = set().union(set(), *map(content_keys, trained))
    found = []
    for text in held_out:
        if words(text)[0] in openings:
            found.append(f"{text!r} opens like a training prompt")
        if shared := content_keys(text) & trained_keys:
            found.append(f"{text!r} shares {sorted(shared)} with a training prompt")
    return found


def keeps_held_out_unseen(held_out: list[str]):
    """A test for one candidate training prompt: True when adding it breaks the criterion for no held-out prompt."""
    openings = {words(text)[0] for text in held_out}
    held_keys = set().union(set(), *map(content_keys, held_out))
    return lambda text: words(text)[0] not in openings and not content_keys(text) & held_keys
