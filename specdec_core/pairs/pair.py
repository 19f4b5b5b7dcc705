"""A model pair: a target, its tokenizer and a ladder of drafts, and the error that says why one cannot be used."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Callable

from transformers import PreTrainedModel

from specdec_core.drafts.base import Draft
from specdec_core.settings import Refusal, Target


class PairError(Refusal):
    """A pair, draft or prompt that cannot be used; the message says why in plain words (and its
    reason, for the reader's language)."""


@dataclass
class ModelPair:
    name: str
    target: PreTrainedModel
    tokenizer: object
    drafts: dict[str, Callable[[], Draft]]  # the ladder, poorest first
    default_draft: str
    example_prompts: list[str] = field(default_factory=list)
    add_bos: bool = True
    use_chat_template: bool = False  # instruction-tuned masters read the prompt as a user's turn

    @property
    def vocab_size(self) -> int:
        return len(self.tokenizer)

    @property
    def context_limit(self) -> int:
        config = self.target.config
        return getattr(config, "n_positions", None) or getattr(config, "max_position_embeddings", 2048)

    def as_target(self) -> Target:
        """The target as decoding reads it."""
        return Target(
            name=self.name,
            model=self.target,
            vocab_size=self.vocab_size,
            piece=lru_cache(maxsize=None)(lambda t: self.tokenizer.decode([t])),
            decode=lambda ids: self.tokenizer.decode(ids, skip_special_tokens=True),
            eos_token_id=self.tokenizer.eos_token_id,
            context_limit=self.context_limit,
            question_span=self.question_span,
        )

    def question_span(self, ids: list[int]) -> tuple[int, int]:
        """(start, end) of the reader's own text among a prompt's token ids. Inside a chat template it lies
        between the template's opening (its system turn, the user turn's mark) and its closing (the end of
        the turn, the assistant turn's opening), which pages show as debris, not as the question; a pair
        without a template reads the prompt as typed."""
        if not self.use_chat_template:
            return 0, len(ids)
        head, tail = self._template_edges
        return min(head, len(ids)), max(head, len(ids) - tail)

    @cached_property
    def _template_edges(self) -> tuple[int, int]:
        """How many ids the chat template puts before and after any prompt: what two prompts that differ in
        their first and last characters share at either end."""
        one, other = self._prompt_ids("A."), self._prompt_ids("B?")
        return _shared_run(one, other), _shared_run(one[::-1], other[::-1])

    def draft(self, name: str | None = None) -> Draft:
        name = name or self.default_draft
        if name not in self.drafts:
            raise PairError(f"pair {self.name!r} has no scribe {name!r}; choose one of: {', '.join(self.drafts)}",
                            "no_draft", pair=self.name, draft=name, choices=", ".join(self.drafts))
        return self.drafts[name]()

    def encode_prompt(self, text: str, max_new_tokens: int = 0) -> list[int]:
        """Token ids of a prompt, or a PairError that names what is wrong with it."""
        if not text or not text.strip():
            raise PairError("the prompt is empty: write at least one character", "prompt_empty")
        missing = self.unknown_characters(text)
        if missing:
            raise PairError(f"the vocabulary lacks these characters: {' '.join(missing)}", "unknown_characters",
                            characters=" ".join(missing))
        if max_new_tokens >= self.context_limit:
            raise PairError(f"{max_new_tokens} new tokens do not fit: this pair reads at most {self.context_limit} tokens, "
                            "prompt included", "too_many_new", new=max_new_tokens, limit=self.context_limit)
        ids = self._prompt_ids(text)
        limit = self.context_limit - max_new_tokens
        if len(ids) > limit:
            raise PairError(f"the prompt has {len(ids)} tokens; with {max_new_tokens} new ones it may have at most {limit}",
                            "prompt_too_long", tokens=len(ids), new=max_new_tokens, limit=limit)
        return ids

    def _prompt_ids(self, text: str) -> list[int]:
        if self.use_chat_template:
            # the template adds its own special tokens and ends with the assistant's turn opening
            chat = [{"role": "user", "content": text}]
            return list(self.tokenizer.apply_chat_template(chat, add_generation_prompt=True, tokenize=True, return_dict=False))
        ids = self.tokenizer.encode(text, add_special_tokens=False)
        if self.add_bos and self.tokenizer.bos_token_id is not None:
            ids = [self.tokenizer.bos_token_id] + ids
        return ids

    def unknown_characters(self, text: str) -> list[str]:
        unk = self.tokenizer.unk_token_id
        if unk is None:
            return []  # byte-level vocabularies encode every character
        return sorted({ch for ch in text if unk in self.tokenizer.encode(ch, add_special_tokens=False)})


def _shared_run(one: list[int], other: list[int]) -> int:
    """How many leading ids two lists share."""
    return next((i for i, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))


def check_same_vocabulary(target_tokenizer, draft_tokenizer, draft_name: str) -> None:
    """A draft must speak the target's vocabulary token for token, or q and p mean different things."""
    target_vocab, draft_vocab = target_tokenizer.get_vocab(), draft_tokenizer.get_vocab()
    if target_vocab == draft_vocab:
        return
    differ = sorted(set(target_vocab.items()) ^ set(draft_vocab.items()), key=lambda item: item[1])[:5]
    raise PairError(
        f"the draft {draft_name!r} uses a different tokenizer from the target "
        f"({len(draft_vocab):,} vs {len(target_vocab):,} tokens; first differences: "
        + ", ".join(f"{token!r}={index}" for token, index in differ)
        + "); a draft must share the target's vocabulary"
    )
