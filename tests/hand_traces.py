"""Traces built by hand, with no model: every float fixed, so what the pages draw from them is fixed too.

chain_trace holds every mark a chain's sheet draws (seals, a struck draft with discarded ones after it, the
red brush, a bonus, an end token among sealed drafts, markup in a piece), for checks that the sheet of a
chain is drawn exactly as it was before trees (tests/test_tree_sheet.py keeps its fingerprint).
"""
from specdec_core.algorithm.trace import Candidate, DraftStep, Round, Trace
from specdec_core.settings import DecodeSettings

PIECES = {1: "</s>", 5: "床", 6: "前", 7: "明", 8: "月", 9: "光", 10: "，", 11: "<b>疑</b>", 12: "是", 13: "地", 14: "上",
          15: "霜", 16: "。", 17: "舉", 18: "頭"}


def step(token: int, accepted: bool, p: float = 0.5, q: float = 0.4) -> DraftStep:
    accept_prob = min(1.0, p / q)
    u = accept_prob / 2 if accepted else min(accept_prob + 0.1, 0.99)
    return DraftStep(token, PIECES[token], q, p, accept_prob, u, accepted, [Candidate(token, PIECES[token], p, q)])


def chain_round(index: int, context_len: int, drafted: list[tuple[int, bool]], next_token: int, next_kind: str,
                stopped_at_eos: bool = False) -> Round:
    steps = [step(token, ok) for token, ok in drafted]
    n_accepted = next((i for i, (_, ok) in enumerate(drafted) if not ok), len(drafted))
    first_rejected = n_accepted if n_accepted < len(drafted) else None
    return Round(index, context_len, len(drafted), steps, n_accepted, first_rejected, next_token, PIECES[next_token],
                 next_kind, [Candidate(next_token, PIECES[next_token], 0.6, 0.1, 0.5)],
                 [context_len - 1, context_len + len(drafted), context_len + n_accepted],
                 [context_len - 1, context_len + len(drafted) - 1, context_len + n_accepted], 0.01, 0.02, 0.0,
                 stopped_at_eos)


def chain_trace() -> Trace:
    """Four rounds of k = 3 after the prompt 床前: a rejection in the middle (one discarded draft after it), a
    full line with its bonus, a first-position rejection of a piece that is markup, and a line whose end token
    is sealed before its last draft."""
    prompt = [5, 6]
    rounds = [
        chain_round(0, 2, [(7, True), (9, False), (10, False)], 8, "corrected"),
        chain_round(1, 4, [(9, True), (10, True), (11, True)], 12, "bonus"),
        chain_round(2, 8, [(11, False), (13, True), (14, True)], 13, "corrected"),
        chain_round(3, 9, [(14, True), (1, True), (16, True)], 17, "bonus", stopped_at_eos=True),
    ]
    new = [t for r in rounds for t in r.new_tokens]
    tokens = new[: new.index(1) + 1]  # the text ends at the end token
    settings = DecodeSettings(k=3, max_new_tokens=20).as_dict()
    return Trace("poetry", "distilled", "speculative", settings, prompt, "床前", tokens,
                 "".join(PIECES[t] for t in tokens), rounds, 0.1, 1.0)
