"""Making the recordings a class sees at once: the proof page's and the speed lab's runs of a pair's
default settings, with the very code the pages run (`python -m specdec_core record --pair NAME`)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from specdec_core.decoding.proof_run import page_run, run_as_dict
from specdec_core.pairs.pair import ModelPair
from specdec_core.pairs.registry import run_defaults
from specdec_core.services import recorded
from specdec_core.services.bench import run_bench
from specdec_core.settings import DecodeSettings, SamplingConfig


def default_settings(pair: ModelPair) -> DecodeSettings:
    """The sidebar's defaults for the pair (ui/shared/sidebar.py: the pair's own k, length, temperature and top-p, seed 0)."""
    defaults = run_defaults(pair.name)
    return DecodeSettings(k=defaults.k, seed=0, max_new_tokens=defaults.max_new_tokens,
                          sampling=SamplingConfig(temperature=defaults.temperature, top_p=defaults.top_p))


def record_proof(pair: ModelPair) -> Path:
    settings = replace(default_settings(pair), rule="exact")
    prompt = pair.example_prompts[0]
    ids = pair.encode_prompt(prompt, 2)
    run, _ = page_run(pair, pair.default_draft, ids, settings, recorded.PROOF_SAMPLES)
    key = recorded.key_of(pair.name, pair.default_draft, prompt, settings, samples=run.total)
    command = f"python -m specdec_core record --pair {pair.name}"
    path = recorded.path_of("proof", pair.name)
    recorded.save(recorded.stamp("proof", key, run_as_dict(run), command), path)
    return path


def record_speed(pair: ModelPair) -> Path:
    settings = recorded.lab_settings(default_settings(pair))
    prompts = list(pair.example_prompts[: recorded.LAB_PROMPTS])
    result = run_bench(pair, pair.default_draft, settings, prompts, repeats=recorded.LAB_REPEATS)
    key = recorded.key_of(pair.name, pair.default_draft, "", settings, prompts=prompts)
    command = f"python -m specdec_core record --pair {pair.name}"
    path = recorded.path_of("speed", pair.name)
    recorded.save(recorded.stamp("speed", key, result, command), path)
    return path
