"""The embedded default pair 句國: a Tang-poetry target and its ladder of scribes (assets/models/poetry)."""
from __future__ import annotations

import functools
from pathlib import Path

import torch
from transformers import AutoTokenizer

from specdec_core.drafts import LMDraft, NgramDraft, NgramModel
from specdec_core.drafts.feature import FEATURE_SCRIBE, feature_rung
from specdec_core.drafts.lm import FOUR_BIT, QUANTISED, four_bit_master, quantised_master
from specdec_core.pairs.pair import ModelPair, PairError, check_same_vocabulary
from specdec_core.runtimes.graph_llama import attach_graph
from specdec_core.runtimes.shipped_model import load_causal_lm

POETRY_DIR = Path(__file__).resolve().parents[2] / "assets" / "models" / "poetry"
# The draft-quality ladder, poorest first by measured alpha at temperature 1.0: sum_x min(p, q)
# on the target's own samples, metrics.json "alpha_master_samples" (a test checks the order; the
# model card assets/models/README.md has the values). Measured, not assumed: the order of the
# unigram and trigram has flipped once already, when the target was retrained.
LADDER = ("mismatched", "unigram", "trigram", "bigram", "tiny", "distilled", "eagle", "int4-master", "int8-master")
MODEL_RUNGS = ("tiny", "distilled")  # transformers in their own directories; the rest are counts in ngram/
DEFAULT_SCRIBE = "int8-master"
FEATURE_DIR = POETRY_DIR / "eagle"   # the feature scribe: one layer over the master's top state
EXAMPLE_PROMPTS = ["床前明月光，", "春眠不覺曉，", "白日依山盡，", "國破山河在，"]


def poetry_assets_present() -> bool:
    return (POETRY_DIR / "master" / "model.safetensors").exists()


def load_poetry_pair(device: torch.device):
    if not poetry_assets_present():
        raise PairError(f"the poetry pair's weights are not in {POETRY_DIR}; train them with `python -m training.poetry all`",
                        "files_missing", pair="poetry")
    tokenizer = AutoTokenizer.from_pretrained(POETRY_DIR / "master")
    never_written = tokenizer.convert_tokens_to_ids([tokenizer.pad_token, tokenizer.bos_token, tokenizer.unk_token])
    target = load_causal_lm(POETRY_DIR / "master", device, silenced=never_written)
    attach_graph(target)    # his fastest exact forward on CPU: one ONNX graph of his weights (graph_llama.py)
    vocab_size = len(tokenizer)
    scribes = {}
    for name in LADDER:  # a rung whose files are missing is left out; the order stays
        if name in MODEL_RUNGS and (POETRY_DIR / name / "model.safetensors").exists():
            check_same_vocabulary(tokenizer, AutoTokenizer.from_pretrained(POETRY_DIR / name), name)
            scribes[name] = _model_scribe(name, load_causal_lm(POETRY_DIR / name, device), vocab_size)
        elif (POETRY_DIR / "ngram" / f"{name}.safetensors").exists():
            scribes[name] = _count_scribe(name, POETRY_DIR / "ngram" / f"{name}.safetensors")
        elif name == QUANTISED and device.type == "cpu":        # the int8 kernel is a CPU one
            scribes[name] = quantised_master(target, vocab_size)
        elif name == FOUR_BIT and device.type == "cpu":
            scribes[name] = four_bit_master(target, vocab_size)
        elif name == FEATURE_SCRIBE and (rung := feature_rung(target, FEATURE_DIR, vocab_size, device)):
            scribes[name] = rung
    default = DEFAULT_SCRIBE if DEFAULT_SCRIBE in scribes else list(scribes)[-1]
    return ModelPair("poetry", target, tokenizer, scribes, default, EXAMPLE_PROMPTS)


def heldout_prompts() -> list[str]:
    """First lines of validation poems found in no training poem (heldout_prompts.txt), one a line."""
    text = (POETRY_DIR / "heldout_prompts.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _count_scribe(name: str, path: Path):
    counts = functools.cache(lambda: NgramModel.load(path))  # read on first use, then shared
    return lambda: NgramDraft(counts(), name=name)


def _model_scribe(name: str, model, vocab_size: int):
    return lambda: LMDraft(name, model, vocab_size)
