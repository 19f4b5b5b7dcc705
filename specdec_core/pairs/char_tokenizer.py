"""A character-level tokenizer that transformers' AutoTokenizer loads: one token per character."""
from __future__ import annotations

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors
from transformers import PreTrainedTokenizerFast

SPECIAL_TOKENS = {"pad_token": "<pad>", "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}


def char_tokenizer(chars: list[str], prepend_bos: bool = False) -> PreTrainedTokenizerFast:
    """Specials first (pad 0, start 1, end 2, unknown 3), then `chars` in the order given.

    prepend_bos: `tokenizer(text)` starts with the start token (how the poetry models were trained);
    the engine encodes prompts without special tokens and adds it itself either way.
    """
    vocab = {token: i for i, token in enumerate(SPECIAL_TOKENS.values())}
    for ch in chars:
        vocab.setdefault(ch, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab, unk_token=SPECIAL_TOKENS["unk_token"]))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("(?m)."), behavior="isolated")
    backend.decoder = decoders.Fuse()  # join characters back without spaces
    if prepend_bos:
        bos = SPECIAL_TOKENS["bos_token"]
        backend.post_processor = processors.TemplateProcessing(
            single=f"{bos} $A", pair=f"{bos} $A {bos} $B", special_tokens=[(bos, vocab[bos])]
        )
    return PreTrainedTokenizerFast(tokenizer_object=backend, clean_up_tokenization_spaces=False, **SPECIAL_TOKENS)
