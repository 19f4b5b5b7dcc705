"""Cached model pairs, loaded once per server (Streamlit's caching guidance).

A link or a visitor names a registered pair, never a path: only whoever starts the server can
open a folder of other models, by setting SCRIPTORIUM_MODEL_DIR, and then only folders inside it,
named by their folder names. The app never contacts a model hub. Pairs that are not registered
are kept a few at a time, so a stream of names cannot fill the memory.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import streamlit as st
import torch
from streamlit.logger import get_logger

from specdec_core.decoding.generate import check_drafts_trees
from specdec_core.pairs.any_models import load_pair_from_folder
from specdec_core.pairs.pair import PairError
from specdec_core.pairs.registry import PAIR_LOADERS, available_pairs, load_pair
from specdec_core.runtimes.device import pick_device
from specdec_core.runtimes.lean_llama import cached_lm_for
from specdec_core.settings import DecodeSettings, Refusal

MODEL_DIR_VAR = "SCRIPTORIUM_MODEL_DIR"
OTHER_PAIRS_KEPT = 2  # loaded pairs of the server's own folder held in memory at once
log = get_logger(__name__)


def other_pairs_allowed() -> bool:
    return bool(os.environ.get(MODEL_DIR_VAR))


def cached_pair(name: str, device: str = "auto"):
    """A loaded pair; PairError for a name this server does not serve or a device it lacks."""
    device = _device_key(device)
    if name in PAIR_LOADERS:
        return _registered_pair(name, device)
    if not other_pairs_allowed():
        raise PairError(f"unknown pair {name!r}; this server serves only {', '.join(available_pairs())}", "unknown_pair",
                        pair=name, choices=", ".join(available_pairs()))
    target, draft = (part.strip() for part in name.split(",", 1)) if "," in name else (name, "")
    return _other_pair(target, draft, device)


@st.cache_resource(show_spinner=False)
def _registered_pair(name: str, device: str):
    started = time.perf_counter()
    pair = load_pair(name, device)
    log.info("loaded pair %s on %s in %.1f s", name, device, time.perf_counter() - started)  # one line a load
    return pair


@st.cache_resource(show_spinner=False, max_entries=OTHER_PAIRS_KEPT)
def _other_pair(target: str, draft: str, device: str):
    return load_pair_from_folder(Path(os.environ[MODEL_DIR_VAR]), target, draft, torch.device(device))


def _device_key(device: str) -> str:
    """"auto" and the device it picks are one cache entry; a device this machine lacks is a PairError."""
    if device not in device_names():
        raise PairError(f"no device {device!r} here; choose one of: {', '.join(device_names())}", "no_device",
                        device=device, choices=", ".join(device_names()))
    return str(pick_device(device))


def pair_names() -> list[str]:
    return available_pairs()


def device_names() -> list[str]:
    """"auto" picks CUDA when present; the others let a teacher compare."""
    return ["auto", "cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def tree_refusal(pair_name: str, device: str, scribe: str, settings: DecodeSettings) -> Refusal | None:
    """Why this pair's master and this scribe cannot draft the settings' tree, as the run itself would refuse
    it (generate.check_drafts_trees: a scribe without a model, a master without the lean forward); None
    when they can, or when the settings draft a chain."""
    if not settings.tree:
        return None
    return _trees_refused(pair_name, _device_key(device), scribe)


@st.cache_resource(show_spinner=False, max_entries=64)
def _trees_refused(pair_name: str, device: str, scribe: str) -> Refusal | None:
    """Once per server for each scribe: the answer depends on the models alone, and asking builds their forwards."""
    pair = cached_pair(pair_name, device)
    try:
        check_drafts_trees(cached_lm_for(pair.target), pair.draft(scribe))
    except Refusal as refusal:
        return refusal
    return None
