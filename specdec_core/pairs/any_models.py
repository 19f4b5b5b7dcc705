"""Any two causal LMs as a pair, named "TARGET,DRAFT": each a local directory or a Hugging Face hub id.

Weights load from safetensors only and remote code never runs. A hub id is looked up in the local
Hugging Face cache first, then on the hub under a hard time limit, so a machine without network
gets a PairError naming everything that was tried within seconds, never a hang.

A shared server uses `load_pair_from_folder` instead: two folder names inside one folder chosen by
whoever started it, never a path, never the hub.
"""
from __future__ import annotations

import re
import threading
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from specdec_core.drafts import LMDraft, PromptLookupDraft
from specdec_core.pairs.pair import ModelPair, PairError, check_same_vocabulary
from specdec_core.runtimes.device import place

HUB_TIME_LIMIT_S = 10.0
HUB_FILES = ["*.json", "*.safetensors", "*.txt", "*.model", "*.jinja"]  # config, weights, tokenizer; no pickles
HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*(/[\w.-]+)?$")
FOLDER_NAME = re.compile(r"^[A-Za-z0-9][\w.-]{0,99}$")  # one folder's name: no separator, no "..", no hidden file
# what a folder of wrong files makes transformers raise: missing files, bad JSON, weights of another shape
LOAD_ERRORS = (OSError, ValueError, RuntimeError, KeyError, TypeError, AttributeError)
EXAMPLE_PROMPTS = [
    "Explain in two sentences why the sky is blue.",
    "Write a short poem about autumn leaves.",
    "Give me three tips for learning a new language.",
]


def load_any_pair(target_spec: str, draft_spec: str, device: torch.device):
    """The pair TARGET,DRAFT: the draft becomes an LMDraft, with prompt lookup as the poorer rung."""
    if not target_spec or not draft_spec:
        raise PairError("a model pair is written TARGET,DRAFT: two local directories or hub ids")
    return _pair_from(target_spec, draft_spec, resolve_model(target_spec), resolve_model(draft_spec), device)


def load_pair_from_folder(folder: Path, target_name: str, draft_name: str, device: torch.device):
    """The pair of two models stored as subfolders of `folder`, named by their folder names only."""
    if not target_name or not draft_name:
        raise PairError("a model pair is written TARGET,DRAFT: two folder names in the server's model folder")
    return _pair_from(target_name, draft_name, model_in(folder, target_name), model_in(folder, draft_name), device)


def model_in(folder: Path, name: str) -> Path:
    """folder/name, or a PairError; the name is checked before anything on disk is looked at."""
    if not FOLDER_NAME.match(name):
        raise PairError(f"{name!r} is not a folder name (letters, digits, '.', '_' and '-'; no path)", "not_folder_name", name=name)
    path = folder / name
    if not path.is_dir():
        raise PairError(f"the server's model folder has no folder named {name!r}", "no_folder", name=name)
    return path


def _pair_from(target_spec: str, draft_spec: str, target_dir: Path, draft_dir: Path, device: torch.device):
    tokenizer = _load_tokenizer(target_dir, target_spec)
    check_same_vocabulary(tokenizer, _load_tokenizer(draft_dir, draft_spec), draft_spec)
    target, draft = _load_model(target_dir, target_spec, device), _load_model(draft_dir, draft_spec, device)
    vocab_size = len(tokenizer)
    scribes = {
        "prompt-lookup": lambda: PromptLookupDraft(vocab_size),
        "draft": lambda: LMDraft("draft", draft, vocab_size),
    }
    chat = getattr(tokenizer, "chat_template", None) is not None  # instruction-tuned: prompts are a user's turn
    return ModelPair(f"{target_spec},{draft_spec}", target, tokenizer, scribes, "draft", EXAMPLE_PROMPTS, use_chat_template=chat)


def resolve_model(spec: str) -> Path:
    """A local directory holding the model, or a PairError that names every place that was tried."""
    local = Path(spec).expanduser()
    if local.is_dir():
        return local
    if not HUB_ID.match(spec):
        raise PairError(f"no model at {spec!r}: there is no such directory (and it is not a hub id like owner/name)")
    cached, _ = _from_hub(spec, local_only=True)
    if cached is not None:
        return cached
    if _hub_offline():
        raise PairError(f"no model {spec!r}: no local directory of that name, not in the Hugging Face cache ({_hub_cache()}), and HF_HUB_OFFLINE is set")
    fetched, hub_error = _from_hub_within(spec, HUB_TIME_LIMIT_S)
    if fetched is not None:
        return fetched
    raise PairError(
        f"no model {spec!r}: no local directory of that name; not in the Hugging Face cache ({_hub_cache()}); "
        f"the hub did not deliver it ({hub_error}). Without network, copy the model here and give its directory."
    )


def _hub_cache() -> str:
    from huggingface_hub import constants

    return constants.HF_HUB_CACHE


def _hub_offline() -> bool:
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)  # HF_HUB_OFFLINE as the hub client read it


def _from_hub(repo_id: str, local_only: bool) -> tuple[Path | None, str]:
    """(snapshot directory, "") or (None, why not), for the config, tokenizer and safetensors files."""
    from huggingface_hub import snapshot_download

    try:
        path = snapshot_download(repo_id, allow_patterns=HUB_FILES, local_files_only=local_only, etag_timeout=HUB_TIME_LIMIT_S / 2)
    except Exception as error:  # the hub client raises many kinds (network, auth, missing repo); all end the same
        return None, _first_line(error)
    return Path(path), ""


def _from_hub_within(repo_id: str, seconds: float) -> tuple[Path | None, str]:
    """_from_hub online, abandoned after `seconds`: a network that drops packets must not hang the app."""
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(_from_hub(repo_id, local_only=False)), daemon=True)
    worker.start()
    worker.join(seconds)
    return outcome[0] if outcome else (None, f"no answer within {seconds:.0f} s")


def _load_tokenizer(directory: Path, spec: str):
    try:
        return AutoTokenizer.from_pretrained(directory, trust_remote_code=False)
    except LOAD_ERRORS as error:
        raise PairError(f"cannot read a tokenizer for {spec!r} in {directory}: {_first_line(error)}") from error


def _load_model(directory: Path, spec: str, device: torch.device):
    try:
        model = AutoModelForCausalLM.from_pretrained(directory, dtype=torch.float32, use_safetensors=True, trust_remote_code=False)
    except LOAD_ERRORS as error:
        raise PairError(f"cannot load a causal LM for {spec!r} from {directory} (safetensors only): {_first_line(error)}") from error
    return place(model, device)


def _first_line(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"
