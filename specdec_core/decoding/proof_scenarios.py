"""Where 2,000 samples catch each broken rule: one scenario per rule, opened by one click.

A broken rule's bias depends on the scribe, and not always as "a poorer scribe shows it sooner": exact-match's
bias, p(x)(q(x) − Σ q·p), vanishes as q moves away from p, and resample-p's, min(p, q) − α·p, vanishes both
for a perfect scribe and a useless one. Each scenario below was found by running the proof page's own test
(`python -m specdec_core proof --as-page --samples 2000`) on the pair's default prompt at seeds 0-4: every
seed caught its rule (p < 0.001) and the exact rule passed there (docs/benchmarks.md, "Where each broken rule
is caught"). The recordings are made at these scenarios (services/record.py).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    scribe: str
    k: int
    temperature: float


# pair -> rule -> where it is caught; the why is ui/proof/texts.py: "why:" + the rule
SCENARIOS = {
    "poetry": {
        "accept-all": Scenario("mismatched", 6, 0.8),     # writes q itself: the scribe farthest from the master
        "exact-match": Scenario("int8-master", 6, 0.5),   # needs q close to p and a top token likely, not certain
        "resample-p": Scenario("tiny", 6, 0.8),           # vanishes at alpha 1 and alpha 0: a scribe in between
        "greedy-soft-q": Scenario("int8-master", 6, 0.8),  # the best scribe's argmax is sealed almost always
        "raw-q": Scenario("int8-master", 6, 0.8),         # q before temperature: the best scribe at T 0.8
    },
}


def scenario_for(pair: str, rule: str) -> Scenario | None:
    return SCENARIOS.get(pair, {}).get(rule)
