"""The master's glance, timed: one forward over n new positions for n = 1 … 32, beside the time to read his weights.

Speculative decoding pays off because checking k + 1 positions in one forward costs about as much as
writing one: at batch size one a forward's time goes to reading every weight from memory (and to fixed
costs per layer), not to the positions (Leviathan et al. 2023, section 1). This measures that claim on
the machine the app runs on, rather than asserting it.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from itertools import cycle, islice

import torch
from transformers import PreTrainedModel

from specdec_core.decoding.between_rounds import between_rounds
from specdec_core.pairs.pair import ModelPair
from specdec_core.runtimes.cached_lm import CachedLM
from specdec_core.runtimes.graph_llama import CORES as GRAPH_THREADS
from specdec_core.runtimes.graph_llama import GraphLlamaLM, torch_beside_graph
from specdec_core.runtimes.lean_llama import cached_lm_for
from specdec_core.runtimes.slot_cache import SlotCachedLM

# Positions checked in one forward: a round checks k + 1, and the sidebar's k runs 1 … 12, so every round's
# size is measured, then a few larger ones to show where the line bends.
GLANCE_SIZES = (*range(1, 14), 16, 24, 32)
REPEATS = 15  # per size; the fastest is drawn, a floor that a busy moment cannot raise, and 15 make it smooth
MIN_REPEATS = 3  # a slow model stops after this many once the budget is spent
BUDGET_S = 6.0  # the forwards' share of a measurement a class waits for
COPY_MB = 128  # larger than a processor's cache, so the copy speed is main memory's


@dataclass(frozen=True)
class GlanceTimes:
    """Forward times per number of positions, and the weights' read time they are drawn against."""

    sizes: tuple[int, ...]  # positions checked in one forward
    median_ms: tuple[float, ...]  # per size
    low_ms: tuple[float, ...]  # the fastest repeat per size
    high_ms: tuple[float, ...]  # the slowest
    repeats: int  # forwards timed per size
    context: int  # positions already in the cache, as in a round after the prompt
    weight_bytes: int  # what one forward reads in full
    copy_gb_s: float  # measured memory-copy speed (bytes read plus bytes written, per second)
    device: str
    threads: int  # threads the forwards ran on
    measured_at: str  # UTC, ISO 8601
    runtime: str = "torch"  # "graph": the master's ONNX Runtime graph (runtimes/graph_llama.py); "torch" otherwise

    @property
    def read_weights_ms(self) -> float:
        """Time to read the weights once at the measured copy speed."""
        return self.weight_bytes / (self.copy_gb_s * 1e9) * 1000

    def ratio(self, n: int) -> float:
        """A forward over n positions against one over a single position (the fastest of each: floors, which a
        neighbour's job cannot raise, where medians of a few forwards on a busy machine came out jagged)."""
        return self.low_ms[self.sizes.index(n)] / self.low_ms[0]


def measure_glance(pair: ModelPair, context: list[int], sizes: tuple[int, ...] = GLANCE_SIZES,
                   repeats: int = REPEATS, budget_s: float = BUDGET_S) -> GlanceTimes:
    """Time the pair's master's forward over each number of new positions after `context` (cached, as in a round).

    Sizes are interleaved, in alternating order, so a noisy machine slows them alike. Sizes that would run
    past the model's context are dropped; ValueError when none fits.
    """
    model = pair.target
    sizes = tuple(n for n in sizes if len(context) + n <= pair.context_limit)
    if not context or not sizes:
        raise ValueError(f"no room for a glance after a context of {len(context)} positions")
    lm = cached_lm_for(model)  # the forward a round runs: his graph where he has one, else the lean torch forward
    graph = isinstance(lm, GraphLlamaLM)
    with torch_beside_graph(lm):   # as a round runs it
        times = _timed_sizes(lm, context, sizes, repeats, budget_s)
    done = len(times[sizes[0]])
    return GlanceTimes(
        sizes=sizes,
        median_ms=tuple(statistics.median(times[n]) * 1000 for n in sizes),
        low_ms=tuple(min(times[n]) * 1000 for n in sizes),
        high_ms=tuple(max(times[n]) * 1000 for n in sizes),
        repeats=done,
        context=len(context),
        weight_bytes=lm.graph.read_bytes if graph else weight_bytes(model),
        copy_gb_s=copy_speed(model.device),
        device=str(model.device),
        threads=GRAPH_THREADS if graph else torch.get_num_threads(),
        measured_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        runtime="graph" if graph else "torch",
    )


def _timed_sizes(lm, context: list[int], sizes: tuple[int, ...], repeats: int, budget_s: float) -> dict[int, list[float]]:
    """Seconds of each forward per size, sizes interleaved in alternating order, after a prefill and a warm-up."""
    lm.logits(context)  # the prefill: the cache now holds the context
    filler = list(islice(cycle(context), max(sizes)))  # real tokens, so the forward is an ordinary one
    for n in (sizes[0], sizes[-1]):  # warm-up: first calls pay for allocation
        _timed_forward(lm, context, filler[:n])
    times: dict[int, list[float]] = {n: [] for n in sizes}
    started = time.perf_counter()
    for rep in range(repeats):
        if rep >= MIN_REPEATS and time.perf_counter() - started > budget_s:
            break
        between_rounds()
        for n in (sizes if rep % 2 == 0 else reversed(sizes)):
            times[n].append(_timed_forward(lm, context, filler[:n]))
    return times


def _timed_forward(lm: CachedLM | SlotCachedLM, context: list[int], new: list[int]) -> float:
    """Seconds for one forward over `new` with logits at each of its positions (as verifying reads them)."""
    _settle(lm.device)
    started = time.perf_counter()
    lm.logits(context + new, n_last=len(new))
    _settle(lm.device)
    elapsed = time.perf_counter() - started
    lm.rollback(len(context))
    return elapsed


def _settle(device: torch.device) -> None:
    """Wait for queued GPU work, so a timer measures the work and not its launch."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def weight_bytes(model: PreTrainedModel) -> int:
    """Bytes of the weights one forward reads in full: every parameter and buffer once (a tied head counts
    once), less an input embedding table that is not also the head (a forward reads only its tokens' rows)."""
    sizes = {tensor.data_ptr(): tensor.numel() * tensor.element_size()
             for tensor in list(model.parameters()) + list(model.buffers())}
    embedding, head = model.get_input_embeddings(), model.get_output_embeddings()
    head_tensors = {tensor.data_ptr() for tensor in list(head.parameters()) + list(head.buffers())} if head is not None else set()
    if embedding is not None and embedding.weight.data_ptr() not in head_tensors:
        sizes.pop(embedding.weight.data_ptr(), None)
    return sum(sizes.values())


def copy_speed(device: torch.device, megabytes: int = COPY_MB, repeats: int = 3) -> float:
    """GB/s of one copy of a block larger than a processor's cache, bytes read plus bytes written; median of repeats."""
    source = torch.ones(megabytes * 2**20 // 4, dtype=torch.float32, device=device)
    target = torch.empty_like(source)
    target.copy_(source)  # warm-up: the pages are touched once
    seconds = []
    for _ in range(repeats):
        _settle(device)
        started = time.perf_counter()
        target.copy_(source)
        _settle(device)
        seconds.append(time.perf_counter() - started)
    return 2 * source.numel() * source.element_size() / statistics.median(seconds) / 1e9
