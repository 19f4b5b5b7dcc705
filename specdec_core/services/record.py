"""Making the recordings a class sees at once: the proof page's runs (the pair's default settings, and every
broken rule in the scenario that catches it) and the speed lab's measurement of its defaults, with the very code the
pages run (`python -m specdec_core record --pair NAME`)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from specdec_core.algorithm.rules import CHAIN_RULES
from specdec_core.decoding.proof_run import page_run, run_as_dict
from specdec_core.decoding.proof_scenarios import scenario_for
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


def proof_cases(pair: ModelPair) -> list[tuple[str, DecodeSettings]]:
    """(scribe, settings) of each recorded proof: the page's default first, then every broken chain rule in the
    scenario that catches it (decoding/proof_scenarios.py), or with the poorest scribe where the pair has none."""
    defaults, poorest = default_settings(pair), next(iter(pair.drafts))
    cases = [(pair.default_draft, defaults)]
    for rule in CHAIN_RULES:
        if rule == "exact":
            continue
        scenario = scenario_for(pair.name, rule)
        if scenario is None:
            cases.append((poorest, replace(defaults, rule=rule)))
        else:
            sampling = replace(defaults.sampling, temperature=scenario.temperature)
            cases.append((scenario.scribe, replace(defaults, rule=rule, k=scenario.k, sampling=sampling)))
    return cases


def record_proof(pair: ModelPair) -> Path:
    prompt = pair.example_prompts[0]
    ids = pair.encode_prompt(prompt, 2)
    command = f"python -m specdec_core record --pair {pair.name}"
    recordings = []
    for scribe, settings in proof_cases(pair):
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
