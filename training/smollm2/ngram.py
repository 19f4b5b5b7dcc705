"""Counts for the smollm2 pair's n-gram scribe, taken from the master's own answers to fixed prompts.

    python -m training.smollm2.ngram      # writes assets/models/smollm2/ngram.safetensors

The text is what SmolLM2-135M-Instruct (Apache-2.0) writes for the prompts below at temperature 0.7,
top-p 0.95, with a fixed seed, so the counts hold no third-party text and need no licence beyond the
model's. The prompts share nothing with the pair's example prompts, which the bench uses, so the
measured alpha is not that of memorised answers. A few minutes on two cores (batched generation).
"""
from __future__ import annotations

import argparse
import time

import torch

from specdec_core.drafts import NgramModel
from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import EXAMPLE_PROMPTS, NGRAM_FILE
from training.smollm2.master_answers import left_padded

ORDER = 4
SAMPLES_PER_PROMPT = 1
MAX_NEW_TOKENS = 96
BATCH = 20
SEED = 0
PROMPTS = [
    "What is the difference between weather and climate?",
    "Write a haiku about the sea.",
    "How do I make a cup of tea?",
    "Summarize the plot of Romeo and Juliet in three sentences.",
    "What are the benefits of regular exercise?",
    "Explain what a computer program is to a child.",
    "Give me a recipe for a simple tomato soup.",
    "Why do leaves change colour in the fall?",
    "What is the capital of Japan?",
    "Write a short story about a lost dog who finds its way home.",
    "How does a rainbow form?",
    "List five fruits that are rich in vitamin C.",
    "What is machine learning?",
    "Describe the water cycle.",
    "Write a thank-you note to a teacher.",
    "What causes earthquakes?",
    "How can I sleep better at night?",
    "Explain gravity in simple terms.",
    "What is the largest planet in our solar system?",
    "Give me some ideas for a birthday party.",
    "How do plants grow from seeds?",
    "What is the meaning of the word 'empathy'?",
    "Write a limerick about a cat.",
    "How do vaccines work?",
    "What are some good habits for studying?",
    "Explain how a bicycle works.",
    "What is the Pythagorean theorem?",
    "Describe a sunset over the mountains.",
    "Why is it important to drink water?",
    "How do bees make honey?",
    "Write an email asking a colleague for a meeting.",
    "What is the difference between a virus and a bacterium?",
    "Tell me a fun fact about octopuses.",
    "How do I start learning to play the guitar?",
    "What is democracy?",
    "Explain the difference between renewable and non-renewable energy.",
    "Write a motivational message for someone starting a new job.",
    "What are the main causes of air pollution?",
    "How does the internet work?",
    "Describe your ideal weekend.",
    "What is a black hole?",
    "Give me three ideas for a healthy breakfast.",
    "Why do we have seasons?",
    "Write a short dialogue between a customer and a shopkeeper.",
    "What is the history of the printing press?",
    "How can I reduce stress?",
    "Explain what DNA is.",
    "What are the planets of the solar system?",
    "Write a poem about friendship.",
    "How do airplanes stay in the air?",
    "What is inflation in economics?",
    "Give me tips for writing a good essay.",
    "What is the role of the heart in the human body?",
    "Describe the life cycle of a butterfly.",
    "How do I care for a houseplant?",
    "What are the benefits of reading books?",
    "Explain the rules of chess briefly.",
    "Why is the ocean salty?",
    "Write a product description for a reusable water bottle.",
    "What is the difference between a noun and a verb?",
]


def chat_prompts(pair) -> list[list[int]]:
    """Each prompt as the master reads it, through the chat template."""
    assert not set(PROMPTS) & set(EXAMPLE_PROMPTS), "training prompts must not include the bench's"
    return [pair.encode_prompt(text, MAX_NEW_TOKENS) for text in PROMPTS for _ in range(SAMPLES_PER_PROMPT)]


def master_answers(pair, prompts: list[list[int]]) -> list[list[int]]:
    """Prompt plus sampled answer (through the end token) for each prompt, generated in batches."""
    sequences = []
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)  # transformers' generate samples from the global RNG
        for start in range(0, len(prompts), BATCH):
            sequences += _answer_batch(pair, prompts[start : start + BATCH])
            print(f"{len(sequences)}/{len(prompts)} answers", flush=True)
    return sequences


@torch.inference_mode()
def _answer_batch(pair, prompts: list[list[int]]) -> list[list[int]]:
    pad, eos = pair.tokenizer.pad_token_id, pair.tokenizer.eos_token_id
    ids, mask = left_padded(prompts, pad)
    width = ids.shape[1]
    out = pair.target.generate(
        input_ids=ids, attention_mask=mask, do_sample=True, temperature=0.7, top_p=0.95,
        max_new_tokens=MAX_NEW_TOKENS, pad_token_id=pad, eos_token_id=eos,
    )
    return [prompt + _until_eos(row[width:].tolist(), eos) for prompt, row in zip(prompts, out)]


def _until_eos(tokens: list[int], eos: int) -> list[int]:
    return tokens[: tokens.index(eos) + 1] if eos in tokens else tokens


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(NGRAM_FILE))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    pair = load_pair("smollm2", "cpu")
    prompts = chat_prompts(pair)
    sequences = master_answers(pair, prompts)
    model = NgramModel.fit(sequences, ORDER, pair.vocab_size)
    NGRAM_FILE.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    answered = sum(map(len, sequences)) - sum(map(len, prompts))
    print(f"{len(sequences)} answers, {answered} answer tokens, order {ORDER} -> {args.out} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
