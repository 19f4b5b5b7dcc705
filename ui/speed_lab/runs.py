"""The settings the speed lab measures: its measurement, each cell of its sweep. The measurements themselves are
the server's board (ui/shared/measurements.py), which the race reads too."""
from __future__ import annotations

from dataclasses import replace

from specdec_core.services.recorded import LAB_PROMPTS, LAB_REPEATS, LAB_TOKENS, lab_settings
from specdec_core.settings import DecodeSettings, SamplingConfig

# One measurement is the core's (services.recorded: a few seconds on two busy CPU cores with the poetry
# pair), so a recording stands for it exactly; the 15-cell sweep stays well under a minute. One repeat:
# the bench interleaves the methods, which keeps the ratios fair on a shared machine.
MEASURE_TOKENS, MEASURE_PROMPTS, REPEATS = LAB_TOKENS, LAB_PROMPTS, LAB_REPEATS
SWEEP_TOKENS, SWEEP_PROMPTS = LAB_TOKENS, LAB_PROMPTS  # each cell a whole measurement: 2 prompts x 16 tokens read as noise
SWEEP_KS = [1, 2, 4, 6, 8]
SWEEP_TEMPERATURES = [0.0, 0.8, 1.0]  # greedy, the poetry pair's own, the model's untempered p


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
