"""The record of a run: plain data that round-trips through JSON, which the UI only renders."""
from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import asdict, dataclass, field, fields

from specdec_core.algorithm.trace_checks import MAX_PIECE_CHARS, MAX_TOKEN_ID, problems
from specdec_core.algorithm.tree_walk import judged_acceptances, judged_steps
from specdec_core.settings import MAX_TOKENS, DecodeSettings, Refusal, SettingsError, check_fits

SCHEMA_VERSION = 1
# The largest trace the app can write is about 6.4 MB (tests/test_archive.py builds it from a real run): the
# sidebar's most, k = 12 and 128 new tokens, on the pair with the longest context (smollm2 reads 8,192 tokens),
# every round rejecting its first draft (128 rounds of 12 drafted steps, each with the top 8 of p and of q and
# the drafted token: 17 candidates), every piece SmolLM2's longest token (81 characters) and a prompt filling
# the context. A measured run there (noise 1, T = 2) wrote 24.6 kB a round. 8 MB leaves a quarter more; a
# larger file is no run of this app, and checking one held a server's cores for tens of seconds.
MAX_TRACE_BYTES = 8_000_000
MAX_EXTRA_DEPTH = 8  # a run writes a list of strings there (depth 2); 900 levels broke the archive's recursion


class TraceError(Refusal):
    """A trace file that cannot be read; the message says what is wrong with it."""


@dataclass
class Candidate:
    """One token in the bar chart of a position: its probability under the target and the draft."""

    token: int
    piece: str
    p: float
    q: float
    r: float = 0.0  # the normalised residual max(0, p - q), where the next token is drawn


@dataclass
class DraftStep:
    """One drafted token and the target's verdict on it."""

    token: int
    piece: str
    q: float  # q(x): the probability the draft sampled it with
    p: float  # p(x): the target's probability of it
    accept_prob: float  # min(1, p/q)
    u: float  # the uniform draw compared with accept_prob
    accepted: bool  # the verdict at this position (moot after the first rejection)
    candidates: list[Candidate]  # top entries of p and of q at this position


@dataclass
class TreeNode:
    """One node of a drafted tree, as the walk down the tree met it (tree_verify.TreeVerdict's per-node record)."""

    token: int
    piece: str
    parent: int  # the node it hangs under, -1 under the context
    q: float  # q(x) at its parent, the distribution the draft drew its children from
    p: float  # p(x) at its parent
    r: float  # r(x) when tried: the residual its elder siblings left (p(x) for the first)
    accept_prob: float  # min(1, r(x)/q_drawn) when tried, else 0
    u: float
    tried: bool
    accepted: bool
    # Distinct siblings (settings "siblings": "distinct"): q_i(x), the chance the draft drew x after its elder
    # siblings, without replacement: q(x) renormalised over the tokens they left. None for i.i.d. siblings, drawn
    # from q itself (and in traces written before distinct siblings).
    q_i: float | None = None

    @property
    def q_drawn(self) -> float:
        """The probability the draft drew the node with, which its test divided by: q_i(x), or q(x) for i.i.d. ones."""
        return self.q if self.q_i is None else self.q_i


@dataclass
class Round:
    """Draft, verify, accept, resample or bonus, roll back."""

    index: int
    context_len: int
    k: int  # tokens the draft was asked for (prompt lookup may draft fewer)
    drafted: list[DraftStep]
    n_accepted: int
    first_rejected: int | None  # index into drafted, None when all passed
    next_token: int
    next_piece: str
    next_kind: str  # "corrected", "bonus", or "plain" (target alone)
    next_dist_top: list[Candidate]  # p, q and the residual r at the position of the new token
    target_cache: list[int]  # [before the verify forward, after it, after rollback]
    draft_cache: list[int]  # the same for the draft
    draft_s: float
    target_s: float
    other_s: float
    stopped_at_eos: bool = False
    # A tree round's every node; drafted then holds its accepted path and, where the walk ended on
    # rejections, the last sibling rejected there. Empty for a chain.
    tree: list[TreeNode] = field(default_factory=list)

    @property
    def draft_forwards(self) -> int:
        """The draft's forwards: one per drafted token in a chain, one per depth in a tree (k is its depth)."""
        return self.k if self.tree else len(self.drafted)

    @property
    def reached(self) -> list[DraftStep]:
        """The drafted steps the target's verdict reached: every accepted one and the first rejected.
        Later ones were scored on a prefix already thrown away, which a decode never writes from."""
        return self.drafted[: self.n_accepted + 1]

    @property
    def new_tokens(self) -> list[int]:
        return [step.token for step in self.drafted[: self.n_accepted]] + [self.next_token]


@dataclass
class Trace:
    pair: str
    scribe: str
    mode: str  # "speculative" or "plain"
    settings: dict  # k, temperature, top_k, top_p, seed, noise, adaptive_k, rule, device
    prompt_tokens: list[int]
    prompt_text: str
    tokens: list[int]  # the generated tokens (prompt excluded)
    text: str
    rounds: list[Round]
    prefill_s: float
    wall_s: float
    schema_version: int = SCHEMA_VERSION
    extra: dict = field(default_factory=dict)

    @property
    def target_forwards(self) -> int:
        return len(self.rounds)

    @property
    def draft_forwards(self) -> int:
        return sum(r.draft_forwards for r in self.rounds)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Trace":
        if len(text) > MAX_TRACE_BYTES:
            raise TraceError(f"the file is {len(text):,} bytes; traces are at most {MAX_TRACE_BYTES:,}")
        try:
            data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
        except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, an integer of thousands of digits
            raise TraceError(f"not valid JSON ({error})", "not_json", error=str(error)) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict) -> "Trace":
        if not isinstance(data, dict):
            raise TraceError("a trace is a JSON object")
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            raise TraceError(f"schema version {version!r}; this app reads version {SCHEMA_VERSION}")
        try:
            trace = _build(cls, data)
            trace.rounds = [_round_from_dict(r) for r in data["rounds"]]
        except (KeyError, TypeError, AttributeError) as error:
            raise TraceError(f"a field is missing or has the wrong type ({error})") from None
        wrong = problems(trace)
        if wrong:
            more = f" (and {len(wrong) - 3} more)" if len(wrong) > 3 else ""
            raise TraceError("; ".join(wrong[:3]) + more)
        _check_consistent(trace)
        _check_bounded(trace)
        return trace


def segments(trace: Trace) -> list[tuple[str, str]]:
    """(piece, kind) in reading order: sealed, rejected, then corrected, bonus or plain.

    Stops where the written tokens stop, so drafts accepted past an end token are not shown.
    """
    out = []
    for r, written in zip(trace.rounds, written_by_round(trace)):
        out += [(step.piece, "sealed") for step in r.drafted[: min(r.n_accepted, written)]]
        if written > r.n_accepted:  # the round reached its own new token
            out += [(step.piece, "rejected") for step in r.drafted[r.n_accepted : r.n_accepted + 1]]
            out.append((r.next_piece, r.next_kind))
    return out


def written_by_round(trace: Trace) -> list[int]:
    """How many tokens each round wrote into trace.tokens: all its new_tokens, except in a round that
    stopped at the end token. The verdict there may seal drafts past the end token and add a bonus
    or a correction after them, yet the text stops at the end token, and so do trace.tokens."""
    out, left = [], len(trace.tokens)
    for r in trace.rounds:
        out.append(min(len(r.new_tokens), left))
        left -= out[-1]
    return out


def prompt_and_text(trace: Trace) -> str:
    """The prompt and what was written, as a reader reads them."""
    return trace.prompt_text + between_prompt_and_text(trace) + trace.text


def between_prompt_and_text(trace: Trace) -> str:
    """A blank line where the text is a chat answer to the prompt, nothing where it continues the prompt."""
    return "\n\n" if trace.extra.get("answer_is_a_turn") is True else ""


def summarize(trace: Trace) -> dict:
    """Tokens per target forward, measured alpha overall and per judged position, accept lengths.

    Alpha is counted over the verdicts tree_walk.judged_steps names: in a chain, the drafted tokens the target
    reached, by position; in a tree, the first variant at each depth reached, by depth (the later variants there
    were tried against a residual, min(1, r/q), which is no estimate of alpha)."""
    judged = [judged_steps(r) for r in trace.rounds]
    per_position: dict[int, list[float]] = {}
    for steps in judged:
        for i, step in enumerate(steps):
            per_position.setdefault(i + 1, []).append(step.accept_prob)
    lengths = Counter(r.n_accepted for r in trace.rounds if r.drafted)
    draft_s = sum(r.draft_s for r in trace.rounds)
    target_s = sum(r.target_s for r in trace.rounds)
    other_s = sum(r.other_s for r in trace.rounds)
    return {
        "tokens": len(trace.tokens),
        "target_forwards": trace.target_forwards,
        "draft_forwards": trace.draft_forwards,
        "tokens_per_target_forward": len(trace.tokens) / max(trace.target_forwards, 1),
        "alpha": mean_acceptance([trace]),
        "acceptance_rate": _mean([float(step.accepted) for steps in judged for step in steps]),
        "alpha_by_position": {i: _mean(v) for i, v in sorted(per_position.items())},
        "accept_length_histogram": {n: lengths[n] for n in sorted(lengths)},
        "draft_s": draft_s,
        "target_s": target_s,
        "other_s": other_s,
        "prefill_s": trace.prefill_s,
        "wall_s": trace.wall_s,
        "tokens_per_s": len(trace.tokens) / trace.wall_s if trace.wall_s > 0 else None,
    }


def mean_acceptance(traces: list[Trace]) -> float | None:
    """alpha as a decode meets it: the mean min(1, p/q) = E_q[min(1, p/q)], an estimate of sum_x min(p, q),
    over the verdicts tree_walk.judged_steps names (a chain's drafted tokens the target reached, Round.reached;
    a tree's first variant at each depth reached). The stepper's "alpha so far" counts the same, round by round."""
    return _mean([a for t in traces for r in t.rounds for a in judged_acceptances(r)])


def judged_verdicts(traces: list[Trace]) -> list[list[bool]]:
    """Whether each of a round's judged_steps was sealed, for every round: acceptance.verdict_counts counts them,
    the i-th by position in a chain and by depth (its first variant) in a tree."""
    return [[step.accepted for step in judged_steps(r)] for t in traces for r in t.rounds]


def drafted_and_accepted(traces: list[Trace]) -> list[tuple[int, int]]:
    """(tokens drafted, tokens accepted) of every round: what acceptance.position_counts counts. A tree
    round drafts one depth a draft forward, so it counts its depth: how often each depth was reached and passed by
    one of its variants, which is no alpha where a depth has several (judged_verdicts counts a tree's alpha)."""
    return [(r.draft_forwards, r.n_accepted) for t in traces for r in t.rounds]


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _refuse_constant(name: str):
    """NaN, Infinity and -Infinity: Python's JSON reads them, but no run writes them."""
    raise json.JSONDecodeError(f"{name} is not a number a run writes", name, 0)


def _finite_float(text: str) -> float:
    """A JSON number such as 1e999 reads as infinity, which no run writes and which would be stored as
    the word Infinity: a file that could never be read back."""
    value = float(text)
    if not math.isfinite(value):
        raise json.JSONDecodeError(f"{text[:20]} is not a number a run writes", text, 0)
    return value


def _depth(value) -> int:
    """How deeply lists and objects nest in a JSON value, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            stack += [(child, level + 1) for child in (node.values() if isinstance(node, dict) else node)]
    return deepest


def _build(cls, data: dict):
    if not isinstance(data, dict):
        raise TypeError(f"{cls.__name__} must be a JSON object")
    names = {f.name for f in fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise TraceError(f"unexpected fields: {', '.join(sorted(unknown))}")
    return cls(**data)


def _round_from_dict(data: dict) -> Round:
    r = _build(Round, data)
    r.drafted = [_step_from_dict(s) for s in r.drafted]
    r.next_dist_top = [_build(Candidate, c) for c in r.next_dist_top]
    r.tree = [_build(TreeNode, node) for node in r.tree]
    return r


def _step_from_dict(data: dict) -> DraftStep:
    step = _build(DraftStep, data)
    step.candidates = [_build(Candidate, c) for c in step.candidates]
    return step


def _check_bounded(trace: Trace) -> None:
    """Settings a run could have been made with, within any pair's bounds (a replay runs them again;
    the pair's own context and vocabulary are checked there, where the pair is at hand)."""
    try:
        settings = DecodeSettings.from_dict(trace.settings)
        check_fits(trace.prompt_tokens, settings, MAX_TOKEN_ID + 1, MAX_TOKENS)
    except SettingsError as error:
        raise TraceError(f"settings: {error}", error.reason, **error.values) from None
    if len(trace.tokens) > settings.max_new_tokens:
        raise TraceError(f"{len(trace.tokens)} tokens written, more than the settings' max_new_tokens "
                         f"{settings.max_new_tokens}", "more_than_max_new", tokens=len(trace.tokens),
                         new=settings.max_new_tokens)
    _check_text_fits_tokens("prompt", trace.prompt_text, trace.prompt_tokens)
    typed = trace.extra.get("prompt_as_typed")  # the replay puts it back in the sidebar
    _check_text_fits_tokens("prompt", typed if isinstance(typed, str) else "", trace.prompt_tokens)
    _check_text_fits_tokens("text", trace.text, trace.tokens)


def _check_text_fits_tokens(name: str, text: str, tokens: list[int]) -> None:
    """A text is its tokens decoded, and no token reads as more than MAX_PIECE_CHARS characters (SmolLM2's
    longest reads as 81), so a longer text was not written by these tokens: 3.3 million characters on a short
    prompt grew an archive by 20 MB a file and every visit to it by 12 MB."""
    limit = len(tokens) * MAX_PIECE_CHARS
    if len(text) > limit:
        raise TraceError(f"the {name} has {len(text):,} characters for its {len(tokens):,} tokens; a token reads as "
                         f"at most {MAX_PIECE_CHARS} characters, so at most {limit:,}", f"{name}_chars",
                         chars=len(text), tokens=len(tokens), per_token=MAX_PIECE_CHARS, limit=limit)


def _check_consistent(trace: Trace) -> None:
    """The tokens must be exactly what the rounds produced (what a hand-edited file breaks)."""
    if not isinstance(trace.extra, dict):
        raise TraceError("the field extra must be a JSON object")
    if _depth(trace.extra) > MAX_EXTRA_DEPTH:
        raise TraceError(f"the field extra nests more than {MAX_EXTRA_DEPTH} levels deep", "extra_too_deep",
                         limit=MAX_EXTRA_DEPTH)
    produced = [t for r in trace.rounds for t in r.new_tokens]
    if produced[: len(trace.tokens)] != trace.tokens or len(produced) < len(trace.tokens):
        raise TraceError("the tokens do not match what the rounds produced")
    for r in trace.rounds:
        if not 0 <= r.n_accepted <= len(r.drafted):
            raise TraceError(f"round {r.index} accepts {r.n_accepted} of {len(r.drafted)} drafted tokens")
        if any(not -1 <= node.parent < i for i, node in enumerate(r.tree)):
            raise TraceError(f"round {r.index}'s tree lists a node before its parent")
