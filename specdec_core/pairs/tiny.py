"""A tiny pair made from a seed in a fraction of a second: for tests and as a fallback demo.

Random weights, so the text is nonsense, but p and q are real model outputs and differ, which is
all the algorithm and its proofs need.
"""
from __future__ import annotations

import torch
from transformers import GPT2Config, GPT2LMHeadModel

from specdec_core.drafts import LMDraft, NgramDraft, NgramModel, PromptLookupDraft
from specdec_core.pairs.char_tokenizer import char_tokenizer
from specdec_core.pairs.pair import ModelPair
from specdec_core.runtimes.device import place

ALPHABET = list("春夏秋冬山水風月花鳥，。")
TRAINING_TEXT = "春山風月，秋水花鳥。夏山水月，冬風花鳥。春花秋月，山水風鳥。"


def load_tiny_pair(device: torch.device) -> ModelPair:
    tokenizer, target, draft = tiny_models(device)
    return ModelPair("tiny", target, tokenizer, tiny_drafts(tokenizer, draft), "lm", ["春山", "秋水"])


def tiny_models(device: torch.device):
    """(tokenizer, target, draft): GPT-2 shapes, random weights fixed by seed."""
    tokenizer = char_tokenizer(ALPHABET)
    target = place(_random_gpt2(len(tokenizer), n_layer=2, n_embd=32, seed=1), device)
    draft = place(_random_gpt2(len(tokenizer), n_layer=1, n_embd=16, seed=2), device)
    return tokenizer, target, draft


def tiny_drafts(tokenizer, draft) -> dict:
    """The draft ladder of the tiny pair, worst first: factories that build a fresh draft."""
    vocab_size = len(tokenizer)
    corpus = [[tokenizer.bos_token_id] + tokenizer.encode(TRAINING_TEXT) + [tokenizer.eos_token_id]]
    return {
        "unigram": lambda: NgramDraft(NgramModel.fit(corpus, 1, vocab_size), name="unigram"),
        "ngram": lambda: NgramDraft(NgramModel.fit(corpus, 3, vocab_size), name="ngram"),
        "prompt-lookup": lambda: PromptLookupDraft(vocab_size),
        "lm": lambda: LMDraft("lm", draft, vocab_size),
    }


def _random_gpt2(vocab_size: int, n_layer: int, n_embd: int, seed: int) -> GPT2LMHeadModel:
    config = GPT2Config(
        vocab_size=vocab_size,
        n_positions=128,
        n_embd=n_embd,
        n_layer=n_layer,
        n_head=2,
        initializer_range=0.3,  # peaked, unlike a fresh model's near-uniform output
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
    )
    with torch.random.fork_rng(devices=[]):  # leave the caller's global RNG untouched
        torch.manual_seed(seed)
        return GPT2LMHeadModel(config).eval()
