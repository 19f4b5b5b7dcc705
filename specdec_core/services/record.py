"""Making the recordings a class sees at once: the proof page's runs (the pair's default settings, and the
poorest scribe under every rule) and the speed lab's measurement of its defaults, with the very code the
pages run (`python -m specdec_core record --pair NAME`)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from specdec_core.algorithm.rules import CHAIN_RULES
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


def proof_cases(pair: ModelPair) -> list[tuple[str, str]]:
    """(scribe, rule) of each recorded proof: the page's default first, then the poorest scribe under
    every chain rule, the broken ones included (a broken rule's bias shows soonest with a poor scribe)."""
    poorest = next(iter(pair.drafts))
    return [(pair.default_draft, "exact")] + [(poorest, rule) for rule in CHAIN_RULES]


def record_proof(pair: ModelPair) -> Path:
    prompt = pair.example_prompts[0]
    ids = pair.encode_prompt(prompt, 2)
    command = f"python -m specdec_core record --pair {pair.name}"
    recordings = []
    for scribe, rule in proof_cases(pair):
        settings = replace(default_settings(pair), rule=rule)
        run, _ = page_run(pair, scribe, ids, settings, recorded.PROOF_SAMPLES)
        key = recorded.key_of(pair.name, scribe, prompt, settings, samples=run.total)
        recordings.append(recorded.stamp("proof", key, run_as_dict(run), command))
    path = recorded.path_of("proof", pair.name)
    recorded.save(recordings, path)
    return path


def record_speed(pair: ModelPair) -> Path:
    settings = recorded.lab_settings(default_settings(pair))
    prompts = list(pair.example_prompts[: recorded.LAB_PROMPTS])
    result = run_bench(pair, pair.default_draft, settings, prompts, repeats=recorded.LAB_REPEATS)
    key = recorded.key_of(pair.name, pair.default_draft, "", settings, prompts=prompts)
    command = f"python -m specdec_core record --pair {pair.name}"
    path = recorded.path_of("speed", pair.name)
    recorded.save([recorded.stamp("speed", key, result, command)], path)
    return path
