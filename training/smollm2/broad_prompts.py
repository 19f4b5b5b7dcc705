"""A broad prompt set for the feature-level scribe: many question forms on many topics, held-out prompts unseen.

The distilled scribe learned from 20 templates crossed with topics, and it shows: α fell from 0.64 on
seen topics to 0.48 on everyday questions (issue 34). Here each topic meets a few of many forms (how,
why, write, list, compare, explain to a child, tell a story, quiz me…), chosen at random with a fixed
seed, and any prompt that would share an opening or a content word with a held-out prompt is dropped
(held_out_check.py), so the held-out set stays unseen by construction and by test.
"""
from __future__ import annotations

import functools
import random

from specdec_core.pairs.smollm2 import heldout_prompts
from training.smollm2.held_out_check import keeps_held_out_unseen
from training.smollm2.prompts import EXTRA_TOPICS, TOPICS, UNSEEN_TOPICS

FORMS = [
    "How does {t} work?", "How do people use {t}?", "How has {t} changed over time?",
    "Why do people care about {t}?", "Why might someone hate {t}?", "Why is {t} hard to understand?",
    "What would the world lose if {t} vanished?", "What is the most surprising fact about {t}?", "What is {t}, briefly?",
    "Write a limerick about {t}.", "Write a persuasive paragraph in favour of {t}.",
    "Write a diary entry by someone who loves {t}.", "Write a riddle whose answer is {t}.",
    "Write a news headline and a short article about {t}.", "Write an email to a friend about {t}.",
    "Write a song chorus about {t}.", "Write a rhyming verse on {t}.", "Write a tweet about {t}.",
    "List five words linked to {t}.", "List the steps to begin with {t}.",
    "List the pros and cons of {t}.", "Compare {t} today with {t} a hundred years ago.",
    "Explain {t} to a young child.", "Explain {t} as if to a grandparent.", "Explain the science behind {t}.",
    "Describe {t} using all five senses.", "Describe an hour spent around {t}.",
    "Tell me a fun story about {t}.", "Tell me why {t} matters to ordinary people.", "Tell a joke about {t}.",
    "Give an analogy that makes {t} easy to grasp.", "Give me a quiz of three questions on {t}, with answers.",
    "Give a one-sentence definition of {t}.", "Create a lesson for beginners on {t}.",
    "Create a short slogan about {t}.", "Summarize the main ideas behind {t} in bullet points.",
    "Brainstorm ten creative ideas involving {t}.", "Teach me one useful lesson about {t}.",
    "Invent a new word related to {t} and define it.", "Share an obscure fact about {t}.",
    "Quiz me on {t}.", "Rank three famous examples of {t}.", "In one paragraph, tell me about {t}.",
    "Predict the future of {t} in fifty years.", "Turn {t} into a metaphor for life.",
    "Start a bedtime story about {t}.", "Interview an expert on {t}: write three questions and answers.",
    "Continue this sentence: The best part of {t} is",
    "Hello! I have been reading about {t}. Tell me something interesting.",
    "Hi there. My teacher mentioned {t} in class. Explain it simply.",
    "Thanks for earlier. Now, about {t}: what are the basics?",
    "Role-play as a museum guide showing visitors {t}.", "Summarize {t} in exactly three sentences.",
    "Describe how an artist might paint {t}.", "Write a short speech about {t} for a school assembly.",
]
FORMS_PER_TOPIC = 12
SEED = 34


@functools.cache
def broad_prompts() -> list[str]:
    """Every topic of prompts.py with FORMS_PER_TOPIC forms drawn at random, the held-out-safe ones, shuffled."""
    rng = random.Random(SEED)
    unseen = keeps_held_out_unseen(heldout_prompts())
    topics = list(dict.fromkeys(TOPICS + EXTRA_TOPICS + UNSEEN_TOPICS))
    candidates = [form.format(t=topic) for topic in topics for form in rng.sample(FORMS, FORMS_PER_TOPIC)]
    kept = [text for text in dict.fromkeys(candidates) if unseen(text)]
    rng.shuffle(kept)
    return kept
