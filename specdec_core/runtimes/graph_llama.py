"""A Llama's cached forward run by ONNX Runtime over its graph (llama_graph.py): the calls of the lean forward.

One step is one call into the runtime. The key/value cache is one preallocated buffer per layer that
the graph's attention writes in place (the same memory bound as its past and its present), so a step
copies no cache; a tree's nodes attend through an additive mask. The bookkeeping of slots, trees and
paths is the lean forward's own (slot_cache.py).

Every session in the process shares one pool of threads, so the master and his scribe, called in turn,
do not spin against each other for the same two cores.
"""
from __future__ import annotations

import functools
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import torch

from specdec_core.runtimes.llama_graph import GraphShape, graph_file, graph_fits, graph_read_bytes, graph_shape
from specdec_core.runtimes.quiet_onnx_runtime import ort
from specdec_core.runtimes.silenced_head import SILENT
from specdec_core.runtimes.slot_cache import SlotCachedLM

FIRST_CAPACITY = 256   # slots the cache holds before it first doubles
MASKED = -1e9          # added to the scores of slots a position must not attend
CORES = max(torch.get_num_threads(), 1)   # the runtime's pool: torch's threads as the process started

_quiet = threading.Lock()
_decoding = 0             # decodes running through a graph now (a class server runs several at once)
_torch_threads = CORES    # torch's threads before the first of them began


@functools.cache
def _shared_threads() -> None:
    """One pool for every session, made once, before the first session (ORT reads it then).

    Its threads spin a while after each call, waiting for the next node; between the calls of a
    decode that is what keeps a one-position step near the weights' read time."""
    ort.capi._pybind_state.set_global_thread_pool_sizes(CORES, 1)


@contextmanager
def torch_beside_graph(lm):
    """While `lm` (a graph) decodes, torch's own work (sampling, the round, a torch scribe) runs on one thread.

    On two cores the runtime's spinning threads and torch's OpenMP threads otherwise wait for each
    other (docs/benchmarks.md has the cost). Other runtimes are left as they are."""
    global _decoding, _torch_threads
    if not isinstance(lm, GraphLlamaLM):
        yield
        return
    with _quiet:
        if not _decoding:
            _torch_threads = torch.get_num_threads()
            torch.set_num_threads(1)
        _decoding += 1
    try:
        yield
    finally:
        with _quiet:
            _decoding -= 1
            if not _decoding:
                torch.set_num_threads(_torch_threads)


class DecodeGraph:
    """A graph file loaded into one ONNX Runtime session, and the shape of its cache and head."""

    def __init__(self, path: Path, shape: GraphShape, bits: int | None, read_bytes: int):
        _shared_threads()
        options = ort.SessionOptions()
        options.use_per_session_threads = False
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.shape, self.path, self.bits = shape, path, bits
        self.read_bytes = read_bytes     # what one forward reads in full: its matrices as the graph holds them

    def __deepcopy__(self, memo):
        """A copy of a model is another model (an int8 copy of the master, say): it does not take his graph."""
        return None


def attach_graph(model, bits: int | None = None) -> bool:
    """Give `model` the decode graph of its weights: float32, 4-bit blocks (bits 4: an int4 copy's weights sit on
    their blocks' grid, so the codes are its own) or an int8 copy's rows (bits 8), built on first use and kept on
    disk; cached_lm_for then runs it. False where no graph fits."""
    if not graph_fits(model, bits):
        return False
    model.decode_graph = DecodeGraph(graph_file(model, bits), graph_shape(model), bits, graph_read_bytes(model, bits))
    return True


class GraphLlamaLM(SlotCachedLM):
    """A Llama's graph with its key/value cache: the calls of CachedLM, one sequence at a time."""

    device = torch.device("cpu")

    def __init__(self, graph: DecodeGraph):
        self.graph, self.shape = graph, graph.shape
        self.caches: list[np.ndarray] = []
        super().__init__()

    def _first_capacity(self) -> int:
        return min(FIRST_CAPACITY, self.shape.max_positions)

    def _forward(self, ids, begin, positions, mask, n_last) -> torch.Tensor:
        t = len(ids)
        if begin == 0 and mask is not None and t > 1:
            # GroupQueryAttention reads a forward into an empty cache as a prompt: causal by slot, the mask and
            # positions unread. The first token goes alone; the rest then see the cache as a tree needs.
            first = self._forward(ids[:1], 0, positions[:1], None, 1)
            rest = self._forward(ids[1:], 1, positions[1:], mask[1:], min(n_last, t - 1))
            return torch.cat([first, rest]) if n_last == t else rest
        end = begin + t
        bias = np.zeros((1, 1, t, end), np.float32)
        if mask is not None:
            bias[0, 0][~mask.cpu().numpy()] = MASKED
        binding = self.binding
        fed = {"input_ids": np.array([ids], np.int64), "position_ids": positions.cpu().numpy()[None].astype(np.int64),
               "seqlens_k": np.array([end - 1], np.int32), "total_length": np.array(end, np.int32),
               "attention_bias": bias, "head_from": np.array([t - n_last], np.int64)}
        for name, array in fed.items():
            binding.bind_cpu_input(name, array)
        binding.bind_output("logits")     # afresh each step: the runtime allocates them at this step's size
        binding.bind_output("states")
        self.graph.session.run_with_iobinding(binding)
        logits, states = binding.get_outputs()[:2]
        self.states[begin:end] = torch.from_numpy(states.numpy()[0])
        logits = torch.from_numpy(logits.numpy()[0])                                           # (n_last, head)
        if self.shape.silenced:
            logits[:, list(self.shape.silenced)] = SILENT
        return logits

    def _move(self, source: torch.Tensor, target: slice) -> None:
        source = source.numpy()
        for cache in self.caches:
            heads = cache[0]                              # (kv, capacity, D); fancy indexing reads a copy first
            heads[:, target] = heads[:, source]
        self.states[target] = self.states[torch.from_numpy(source)]

    def _grow(self, capacity: int) -> None:
        """Room for `capacity` slots, keeping those in use, and the cache bound to the graph's past and present."""
        capacity = min(capacity, self.shape.max_positions)
        kept = self.slots_used
        shape = (1, self.shape.kv_heads, capacity, self.shape.head_dim)
        grown = [np.zeros(shape, np.float32) for _ in range(2 * self.shape.layers)]   # keys, values, per layer
        for new, old in zip(grown, self.caches):
            new[:, :, :kept] = old[:, :, :kept]
        self.caches = grown
        states = torch.zeros((capacity, self.shape.hidden))
        if kept:
            states[:kept] = self.states[:kept]
        self.states = states
        self.binding = self.graph.session.io_binding()
        self.binding.bind_output("logits")     # bound first, so that they come first among the outputs
        self.binding.bind_output("states")
        self.buffers = []
        for i in range(self.shape.layers):
            for j, kind in enumerate(("keys", "values")):
                buffer = ort.OrtValue.ortvalue_from_numpy(self.caches[2 * i + j])     # the numpy memory, not a copy
                self.buffers.append(buffer)
                self.binding.bind_ortvalue_input(f"past_{kind}_{i}", buffer)
                self.binding.bind_ortvalue_output(f"present_{kind}_{i}", buffer)
        self.capacity = capacity
