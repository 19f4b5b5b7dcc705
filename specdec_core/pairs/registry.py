"""Named model pairs: a target, its tokenizer and a ladder of scribes, loaded by name."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import torch
from transformers import PreTrainedModel

from specdec_core.runtimes.device import pick_device
from specdec_core.decoding.generate import Writer
from specdec_core.scribes.base import Scribe


class PairError(ValueError):
    """A pair, scribe or prompt that cannot be used; the message says why in plain words."""


@dataclass
class ModelPair:
    name: str
    target: PreTrainedModel
    tokenizer: object
    scribes: dict[str, Callable[[], Scribe]]  # the ladder, poorest first
    default_scribe: str
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

    def writer(self) -> Writer:
        return Writer(
            name=self.name,
            target=self.target,
            vocab_size=self.vocab_size,
            piece=lru_cache(maxsize=None)(lambda t: self.tokenizer.decode([t])),
            decode=lambda ids: self.tokenizer.decode(ids, skip_special_tokens=True),
            eos_token_id=self.tokenizer.eos_token_id,
        )

    def scribe(self, name: str | None = None) -> Scribe:
        name = name or self.default_scribe
        if name not in self.scribes:
            raise PairError(f"pair {self.name!r} has no scribe {name!r}; choose one of: {', '.join(self.scribes)}")
        return self.scribes[name]()

    def encode_prompt(self, text: str, max_new_tokens: int = 0) -> list[int]:
        """Token ids of a prompt, or a PairError that names what is wrong with it."""
        if not text or not text.strip():
            raise PairError("the prompt is empty: write at least one character")
        missing = self.unknown_characters(text)
        if missing:
            raise PairError(f"the vocabulary lacks these characters: {' '.join(missing)}")
        if max_new_tokens >= self.context_limit:
            raise PairError(f"{max_new_tokens} new tokens do not fit: this pair reads at most {self.context_limit} tokens, prompt included")
        ids = self._prompt_ids(text)
        limit = self.context_limit - max_new_tokens
        if len(ids) > limit:
            raise PairError(f"the prompt has {len(ids)} tokens; with {max_new_tokens} new ones it may have at most {limit}")
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


def check_same_vocabulary(target_tokenizer, draft_tokenizer, draft_name: str) -> None:
    """A scribe must speak the target's vocabulary token for token, or q and p mean different things."""
    target_vocab, draft_vocab = target_tokenizer.get_vocab(), draft_tokenizer.get_vocab()
    if target_vocab == draft_vocab:
        return
    differ = sorted(set(target_vocab.items()) ^ set(draft_vocab.items()), key=lambda item: item[1])[:5]
    raise PairError(
        f"the scribe {draft_name!r} uses a different tokenizer from the master "
        f"({len(draft_vocab):,} vs {len(target_vocab):,} tokens; first differences: "
        + ", ".join(f"{token!r}={index}" for token, index in differ)
        + "); a draft must share the target's vocabulary"
    )


def _tiny(device: torch.device) -> ModelPair:
    from specdec_core.pairs.tiny import tiny_models, tiny_scribes

    tokenizer, target, draft = tiny_models(device)
    return ModelPair("tiny", target, tokenizer, tiny_scribes(tokenizer, draft), "lm", ["春山", "秋水"])


def _poetry(device: torch.device) -> ModelPair:
    from specdec_core.pairs.poetry import load_poetry_pair

    return load_poetry_pair(device)


def _smollm2(device: torch.device) -> ModelPair:
    from specdec_core.pairs.smollm2 import load_smollm2_pair

    return load_smollm2_pair(device)


PAIR_LOADERS: dict[str, Callable[[torch.device], ModelPair]] = {"tiny": _tiny, "poetry": _poetry, "smollm2": _smollm2}


def available_pairs() -> list[str]:
    """Registered pairs whose files are present, the default first."""
    from specdec_core.pairs.poetry import poetry_assets_present
    from specdec_core.pairs.smollm2 import smollm2_present

    present = {"poetry": poetry_assets_present(), "smollm2": smollm2_present(), "tiny": True}
    return [name for name in ("poetry", "smollm2", "tiny") if present[name]]


def load_pair(name: str, device: str = "auto") -> ModelPair:
    """A registered pair by name, or any two models as "TARGET,DRAFT" (local directories or hub ids)."""
    if "," in name:
        from specdec_core.pairs.any_models import load_any_pair

        target, draft = (part.strip() for part in name.split(",", 1))
        return load_any_pair(target, draft, pick_device(device))
    if name not in PAIR_LOADERS:
        raise PairError(f"unknown pair {name!r}; choose one of: {', '.join(PAIR_LOADERS)}, or give two models as TARGET,DRAFT")
    return PAIR_LOADERS[name](pick_device(device))
