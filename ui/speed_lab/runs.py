"""The speed lab's measurements, cached by every setting that can change them (Streamlit's st.cache_data)."""
from __future__ import annotations

from dataclasses import replace

import streamlit as st

from specdec_core.services.bench import run_bench
from specdec_core.services.recorded import LAB_PROMPTS, LAB_REPEATS, LAB_TOKENS, lab_settings
from specdec_core.settings import DecodeSettings, SamplingConfig
from ui.shared.models import cached_pair
from ui.shared.fair_share import fair_run, run_seconds

# One measurement is the core's (services.recorded: a few seconds on two busy CPU cores with the poetry
# pair), so a recording stands for it exactly; the 15-cell sweep stays well under a minute. One repeat:
# the bench interleaves the methods, which keeps the ratios fair on a shared machine.
MEASURE_TOKENS, MEASURE_PROMPTS, REPEATS = LAB_TOKENS, LAB_PROMPTS, LAB_REPEATS
SWEEP_TOKENS, SWEEP_PROMPTS = LAB_TOKENS, LAB_PROMPTS  # each cell a whole measurement: 2 prompts x 16 tokens read as noise
SWEEP_KS = [1, 2, 4, 6, 8]
SWEEP_TEMPERATURES = [0.0, 0.8, 1.0]  # greedy, the poetry pair's own, the model's untempered p


@st.cache_data(show_spinner=False, max_entries=256)
def cached_bench(pair_name: str, device: str, scribe: str, settings: DecodeSettings, prompts: tuple[str, ...]) -> dict:
    """run_bench's report: speculative and plain decoding interleaved on the same prompts."""
    pair = cached_pair(pair_name, device)
    with fair_run(bench_seconds(pair, pair_name, device, scribe, settings, prompts)):
        return run_bench(pair, scribe, settings, list(prompts), repeats=REPEATS)


def bench_seconds(pair, pair_name: str, device: str, scribe: str, settings: DecodeSettings, prompts: tuple[str, ...]) -> float:
    """The most run_bench may take: a warm-up and REPEATS runs per prompt of each of its three methods (the
    speculative run, the plain run with its bookkeeping, the plain tokens alone), at the longest prompt."""
    longest = max(len(pair.encode_prompt(prompt, settings.max_new_tokens)) for prompt in prompts)
    runs = 1 + REPEATS * len(prompts)
    speculative = run_seconds(pair_name, device, scribe, settings, longest)
    plain = run_seconds(pair_name, device, scribe, settings, longest, speculative=False)
    return runs * (speculative + 2 * plain)


def measure_settings(settings: DecodeSettings) -> DecodeSettings:
    """The sidebar's settings with at most MEASURE_TOKENS new tokens, as a chain of k: the measurement and the
    sweep are over k, and a tree the sidebar chose is measured beside its chain in ui/speed_lab/trees.py."""
    return lab_settings(replace(settings, tree=""))


def sweep_cells(settings: DecodeSettings) -> list[tuple[int, float, DecodeSettings]]:
    """(k, temperature, settings) for every cell of the sweep; the other settings stay the sidebar's."""
    base = replace(settings, max_new_tokens=min(settings.max_new_tokens, SWEEP_TOKENS), tree="")  # a sweep over k: chains
    return [
        (k, t, replace(base, k=k, sampling=SamplingConfig(temperature=t, top_k=base.sampling.top_k, top_p=base.sampling.top_p)))
        for t in SWEEP_TEMPERATURES
        for k in SWEEP_KS
    ]
