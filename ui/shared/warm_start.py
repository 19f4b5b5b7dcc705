"""Load the class's pairs as the server starts, not when the first students arrive.

Thirty tabs opening a cold server waited 36 s at the median: each first page loaded the models (and,
now, timed their pace for the cost model) while the others queued behind it. The launcher (serve.py)
starts this in a thread beside the server, so the server listens at once; a tab that arrives while a
pair is still loading waits for that one load (st.cache_resource), never starts another. Whoever starts
the server chooses the pairs (WARM_VAR, comma-separated; the default pair if unset, none if empty), and
the terminal says when they are ready. So does READY_PATH, for a proxy or a launcher
(deploy/replicas.py) that waits for a replica before sending it a class: 503 while the pairs load, then 200.
"""
from __future__ import annotations

import os
import threading
import time

from specdec_core.pairs.pair import PairError
from specdec_core.pairs.registry import available_pairs

WARM_VAR = "SCRIPTORIUM_WARM_PAIRS"
READY_PATH = "/_scriptorium/ready"
ready = threading.Event()  # set once the warm start has loaded (or failed to load) every pair it was given
ready.set()  # a server started without a warm start (a plain `streamlit run app.py`) has nothing to wait for


def pairs_to_warm() -> list[str]:
    wanted = os.environ.get(WARM_VAR)
    names = available_pairs()[:1] if wanted is None else [name.strip() for name in wanted.split(",") if name.strip()]
    return [name for name in names if name in available_pairs()]


def warm_in_background(say=print) -> threading.Thread:
    ready.clear()
    thread = threading.Thread(target=warm, args=(pairs_to_warm(), say), name="warm pairs", daemon=True)
    thread.start()
    return thread


def warm(names: list[str], say=print) -> None:
    """Each pair loaded, with its default scribe's pace timed, in the caches every session reads; then ready."""
    try:
        _warm_each(names, say)
    finally:
        ready.set()  # a pair that failed to load is said in the terminal; the others still serve


def _warm_each(names: list[str], say) -> None:
    from ui.shared.fair_share import pace  # Streamlit's caches: imported in the thread, after the server's set-up
    from ui.shared.models import cached_pair

    for name in names:
        started = time.perf_counter()
        try:
            pair = cached_pair(name, "auto")
            pace(name, "auto", pair.default_draft)
        except (PairError, OSError) as error:
            say(f"  模型組 {name} 沒能預先載入：{error}\n  Could not load the pair {name} ahead of the class: {error}")
            continue
        seconds = time.perf_counter() - started
        say(f"  模型組 {name} 已載入並計時（{seconds:.1f} 秒）：第一批學生不必等它。\n"
            f"  The pair {name} is loaded and timed ({seconds:.1f} s): its first visitors will not wait for it.")
