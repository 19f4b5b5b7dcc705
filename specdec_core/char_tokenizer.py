"""A character-level tokenizer that transformers' AutoTokenizer loads: one token per character."""
from __future__ import annotations

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

SPECIAL_TOKENS = {"pad_token": "<pad>", "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}


def char_tokenizer(chars: list[str]) -> PreTrainedTokenizerFast:
    """Specials first (pad 0, start 1, end 2, unknown 3), then `chars` in the order given."""
    vocab = {token: i for i, token in enumerate(SPECIAL_TOKENS.values())}
    for ch in chars:
        vocab.setdefault(ch, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token=SPECIAL_TOKENS["unk_token"]))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("(?m)."), behavior="isolated")
    backend.decoder = decoders.Fuse()  # join characters back without spaces
    return PreTrainedTokenizerFast(tokenizer_object=backend, **SPECIAL_TOKENS)
