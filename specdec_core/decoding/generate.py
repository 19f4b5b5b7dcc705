"""Speculative sampling with KV caches, and plain decoding of the target through the same code.

A round follows Leviathan et al. 2023, Algorithm 1: draft k tokens from q, score them all with one
target forward, accept a prefix with probability min(1, p/q), then draw the correction from the
residual or the bonus from p, and roll both caches back to what was kept.
"""
from __future__ import annotations

import torch

from specdec_core.algorithm.round import RoundResult, TreeRoundResult, speculative_round, tree_round
from specdec_core.algorithm.sampling import probs_from_logits, sample
from specdec_core.algorithm.trace import Candidate, DraftStep, Round, Trace, TreeNode
from specdec_core.algorithm.tree_shape import TreeShape
from specdec_core.decoding.between_rounds import between_rounds
from specdec_core.decoding.round_models import OneRowDraft, OneRowTarget
from specdec_core.drafts.base import Draft
from specdec_core.runtimes.cached_lm import CachedLM
from specdec_core.runtimes.device import Clock
from specdec_core.runtimes.graph_llama import torch_beside_graph
from specdec_core.runtimes.lean_llama import cached_lm_for
from specdec_core.runtimes.slot_cache import SlotCachedLM
from specdec_core.settings import MAX_K, DecodeSettings, Refusal, Target, check_fits

PROMPT_PIECES = 32  # the question's last tokens, as written, kept for the sheet to show a token per cell


def speculative_generate(target: Target, draft: Draft, prompt: list[int], settings: DecodeSettings) -> Trace:
    return _generate(target, draft, prompt, settings)


def plain_generate(target: Target, prompt: list[int], settings: DecodeSettings) -> Trace:
    """The target alone: every round drafts nothing, so the token comes straight from p."""
    return _generate(target, None, prompt, settings)


def plain_tokens(target: Target, prompt: list[int], settings: DecodeSettings, times: list[float] | None = None) -> list[int]:
    """The target alone at its fastest: the tokens plain_generate writes, and nothing else.

    The same forward (cached_lm_for), sampling settings, seed and stop-at-end rule, but none of the
    sheet's bookkeeping: no round through the verifier, no tables of p, no trace records. The bench
    times speculative decoding against this, so the bookkeeping that plain_generate pays once a token
    and speculative decoding once a round does not flatter the speedup.

    times: a list to receive, per token, the seconds from the start (before the prompt is read) to the
    moment it was drawn, which a race replays; one clock read a token, next to a forward of milliseconds.
    """
    clock = Clock(target.model.device)  # the traces' clock: a race's two lanes are timed alike
    started = clock.now()
    check_fits(prompt, settings, target.vocab_size, target.context_limit)
    generator = torch.Generator(device=target.model.device).manual_seed(settings.seed)
    target_lm = cached_lm_for(target.model)
    _prefill(target_lm, None, prompt)
    context = list(prompt)
    with torch_beside_graph(target_lm):
        while len(context) - len(prompt) < settings.max_new_tokens:
            between_rounds()
            p = probs_from_logits(target_lm.logits(context)[-1], settings.sampling)  # (V,)
            # A plain round draws its token from the residual of p against an empty q: p itself, which the
            # sampler reads with the same single uniform, so the same seed writes the same tokens.
            token = int(sample(p, generator))  # int(): the device has finished the forward
            context.append(token)
            if times is not None:
                times.append(clock.now() - started)
            if settings.stop_at_eos and token == target.eos_token_id:
                break
    return context[len(prompt) :]


def _generate(target: Target, draft: Draft | None, prompt: list[int], settings: DecodeSettings) -> Trace:
    check_fits(prompt, settings, target.vocab_size, target.context_limit)  # a replayed trace's prompt is anybody's
    target_lm = cached_lm_for(target.model)
    if settings.tree and draft:
        check_drafts_trees(target_lm, draft)
    with torch_beside_graph(target_lm):
        return _decode(target, target_lm, draft, prompt, settings)


def _decode(target: Target, target_lm: CachedLM | SlotCachedLM, draft: Draft | None, prompt: list[int],
            settings: DecodeSettings) -> Trace:
    device = target.model.device
    clock = Clock(device)
    generator = torch.Generator(device=device).manual_seed(settings.seed)
    started = clock.now()
    _prefill(target_lm, draft, prompt)
    prefill_s = clock.now() - started
    context, rounds, k = list(prompt), [], settings.k if draft else 0
    models = OneRowTarget(target_lm), OneRowDraft(draft) if draft else None
    while len(context) - len(prompt) < settings.max_new_tokens:
        between_rounds()
        remaining = settings.max_new_tokens - (len(context) - len(prompt))
        if settings.tree and draft:
            record = _tree_round(target, models, context, settings.shape.at_most(remaining - 1), len(rounds), settings,
                                 generator, clock)
        else:
            record = _round(target, models, context, min(k, remaining - 1), len(rounds), settings, generator, clock)
        rounds.append(record)
        new = record.new_tokens
        if record.stopped_at_eos:
            context += new[: new.index(target.eos_token_id) + 1]
            break
        context += new
        if settings.adaptive_k and draft and not settings.tree:  # a tree's shape is static
            k = min(k + 2, MAX_K) if record.n_accepted == record.k else max(1, k - 1)
    tokens = context[len(prompt) :]
    start, end = target.question_span(prompt) if target.question_span else (0, len(prompt))
    question = prompt[start:end]  # a chat template's turns around it are the model's reading, not the prompt
    return Trace(
        pair=target.name,
        scribe=draft.name if draft else "",  # the trace names the ladder's rung "scribe"
        mode="speculative" if draft else "plain",
        settings=settings.as_dict() | {"device": str(device)},
        prompt_tokens=list(prompt),
        prompt_text=target.decode(question),
        tokens=tokens,
        text=target.decode(tokens),
        rounds=rounds,
        prefill_s=prefill_s,
        wall_s=clock.now() - started,
        extra={"prompt_pieces": [target.piece(t) for t in question[-PROMPT_PIECES:]], "question_tokens": len(question),
               "answer_is_a_turn": end < len(prompt)},  # a template closed the question's turn: the text answers it
    )


def _prefill(target_lm: CachedLM | SlotCachedLM, draft: Draft | None, prompt: list[int]) -> None:
    """Start afresh and cache all but the last prompt token, which every round feeds again."""
    if draft:
        draft.start()
        if hasattr(draft, "reads_master"):   # a feature scribe drafts from this run's master states
            draft.reads_master(target_lm)
    if len(prompt) > 1:
        target_lm.logits(prompt[:-1])
        if draft:
            draft.prefill(prompt[:-1])


def check_drafts_trees(target_lm, draft: Draft) -> None:
    """Refuse a tree run whose models cannot expand or verify a tree in one forward each: the master needs the
    lean forward's tree mask (a float32 Llama on CPU), the scribe a tree forward of its own (an LM scribe on the
    lean forward, or the feature scribe). Scribes without a model (n-grams, prompt lookup) draft chains only;
    they are refused rather than quietly run as chains, so a tree run's numbers are a tree's."""
    if not hasattr(target_lm, "tree_logits"):
        raise Refusal("a tree needs the lean forward of a float32 Llama on CPU for the master; this master runs another",
                      "tree_master")
    if not getattr(draft, "drafts_trees", False):
        raise Refusal(f"the scribe {draft.name} drafts chains only: a tree needs a model scribe on the lean forward",
                      "tree_scribe", scribe=draft.name)


def _round(target: Target, models, context: list[int], k: int, index: int, settings: DecodeSettings,
           generator: torch.Generator, clock: Clock) -> Round:
    """One row's round through round.speculative_round, recorded for the sheet."""
    started = clock.now()
    contexts = torch.tensor([context], dtype=torch.long, device=target.model.device)
    result = speculative_round(*models, contexts, k, settings, generator, clock)
    drafted, n_accepted = result.drafted[0].tolist(), int(result.n_accepted[0])
    next_token, n = int(result.verdict.next_token[0]), len(drafted)
    steps, next_table = _steps(target, result, settings.top_n), _next_table(target, result, settings.top_n)
    eos = target.eos_token_id
    return Round(
        index=index,
        context_len=len(context),
        k=k,
        drafted=steps,
        n_accepted=n_accepted,
        first_rejected=n_accepted if n_accepted < n else None,
        next_token=next_token,
        next_piece=target.piece(next_token),
        next_kind="plain" if models[1] is None else ("corrected" if n_accepted < n else "bonus"),
        next_dist_top=next_table,
        target_cache=result.target_cache,
        draft_cache=result.draft_cache,
        draft_s=result.draft_s,
        target_s=result.target_s,
        other_s=max(clock.now() - started - result.draft_s - result.target_s, 0.0),
        stopped_at_eos=settings.stop_at_eos and eos in drafted[:n_accepted] + [next_token],
    )


def _tree_round(target: Target, models, context: list[int], shape: TreeShape, index: int,
                settings: DecodeSettings, generator: torch.Generator, clock: Clock) -> Round:
    """One row's tree round through round.tree_round, recorded for the sheet: the accepted path (and the
    sibling rejected last where the walk ended on rejections) as its drafted steps, every node in `tree`."""
    started = clock.now()
    contexts = torch.tensor([context], dtype=torch.long, device=target.model.device)
    result = tree_round(*models, contexts, shape, settings, generator, clock)
    new = result.new_tokens()[0]
    n_accepted, next_token = len(new) - 1, new[-1]
    steps_at = _tree_steps_shown(result)
    corrected = len(steps_at) > n_accepted
    return Round(
        index=index,
        context_len=len(context),
        k=result.depth,
        drafted=_tree_steps(target, result, steps_at, settings.top_n),
        n_accepted=n_accepted,
        first_rejected=n_accepted if corrected else None,
        next_token=next_token,
        next_piece=target.piece(next_token),
        next_kind="corrected" if corrected else "bonus",
        next_dist_top=_tree_next_table(target, result, settings.top_n),
        target_cache=result.target_cache,
        draft_cache=result.draft_cache,
        draft_s=result.draft_s,
        target_s=result.target_s,
        other_s=max(clock.now() - started - result.draft_s - result.target_s, 0.0),
        stopped_at_eos=settings.stop_at_eos and target.eos_token_id in new,
        tree=_tree_nodes(target, result, settings.siblings == "distinct"),
    )


def _tree_steps_shown(result: TreeRoundResult) -> list[int]:
    """The nodes the sheet shows as drafted steps: the accepted path, then the last sibling tried and
    rejected where the walk ended (none where it ended after a leaf, with the bonus)."""
    verdict = result.verdict
    path = verdict.path[0, : int(verdict.n_accepted[0])].tolist()
    end = path[-1] if path else -1
    rejected_there = [i for i, parent in enumerate(result.parents) if parent == end and bool(verdict.tried[0, i])]
    return path + rejected_there[-1:]


def _tree_steps(target: Target, result: TreeRoundResult, nodes: list[int], top_n: int) -> list[DraftStep]:
    """The shown nodes as the sheet's drafted steps: p, the q it was drawn with (distinct siblings: q_i), the try's
    min(1, r/q) and u, and the top of p and q."""
    if not nodes:
        return []
    verdict, at_parent = result.verdict, [result.parents[node] + 1 for node in nodes]
    tokens = [int(result.tokens[0, node]) for node in nodes]
    tables = _candidates(result.p[0, at_parent], result.q[0, at_parent], None, top_n, target.piece, must=tokens)
    return [
        DraftStep(token, target.piece(token), float(verdict.q_i[0, node]), float(verdict.p_x[0, node]),
                  float(verdict.accept_prob[0, node]), float(verdict.uniforms[0, node]), bool(verdict.accepted[0, node]),
                  table)
        for node, token, table in zip(nodes, tokens, tables)
    ]


def _tree_next_table(target: Target, result: TreeRoundResult, top_n: int) -> list[Candidate]:
    """p, q and the distribution the new token was drawn from, where the walk ended."""
    n = int(result.n_accepted[0])
    at = int(result.verdict.path[0, n - 1]) + 1 if n else 0
    next_token = int(result.verdict.next_token[0])
    return _candidates(result.p[0, at : at + 1], result.q[0, at : at + 1], result.verdict.next_dist, top_n,
                       target.piece, must=[next_token])[0]


def _tree_nodes(target: Target, result: TreeRoundResult, distinct: bool) -> list[TreeNode]:
    """Every node as the walk met it; distinct siblings also with the q_i(x) they were drawn and tested with."""
    verdict = result.verdict
    columns = [verdict.q_x, verdict.p_x, verdict.r_x, verdict.accept_prob, verdict.uniforms, verdict.q_i]
    q_x, p_x, r_x, accept_prob, u, q_i = (column[0].tolist() for column in columns)
    tried, accepted = verdict.tried[0].tolist(), verdict.accepted[0].tolist()
    return [
        TreeNode(token, target.piece(token), parent, q_x[i], p_x[i], r_x[i], accept_prob[i], u[i], tried[i], accepted[i],
                 q_i[i] if distinct else None)
        for i, (token, parent) in enumerate(zip(result.tokens[0].tolist(), result.parents))
    ]


def _steps(target: Target, result: RoundResult, top_n: int) -> list[DraftStep]:
    """Each drafted token with p(x), q(x), min(1, p/q), its u and verdict, and the top of p and q there."""
    p, q, verdict = result.p[0], result.q[0], result.verdict
    n = q.shape[0]
    if n == 0:
        return []
    drafted = result.drafted[0]
    p_x, q_x = p[:n].gather(-1, drafted[:, None]).flatten().tolist(), q.gather(-1, drafted[:, None]).flatten().tolist()
    decisions = zip(verdict.uniforms[0].tolist(), verdict.accept_prob[0].tolist(), verdict.accepted[0].tolist())
    tables = _candidates(p[:n], q, None, top_n, target.piece, must=drafted.tolist())
    return [
        DraftStep(token, target.piece(token), qx, px, prob, u, bool(ok), table)
        for token, qx, px, (u, prob, ok), table in zip(drafted.tolist(), q_x, p_x, decisions, tables)
    ]


def _next_table(target: Target, result: RoundResult, top_n: int) -> list[Candidate]:
    """p, q and the distribution the new token was drawn from, at its position."""
    p, q = result.p[0], result.q[0]
    q_padded = torch.cat([q, torch.zeros_like(p[:1])])  # (n+1, V): no draft past the last token
    at = slice(int(result.n_accepted[0]), int(result.n_accepted[0]) + 1)
    next_token = int(result.verdict.next_token[0])
    return _candidates(p[at], q_padded[at], result.verdict.next_dist, top_n, target.piece, must=[next_token])[0]


def _candidates(p: torch.Tensor, q: torch.Tensor, r: torch.Tensor | None, top_n: int, piece,
                must: list[int]) -> list[list[Candidate]]:
    """Per row of p, q (and the residual r), all (m, V): the union of their top entries and the row's own
    token `must[row]` (the one judged there, however rare), by p."""
    sources = [p, q] if r is None else [p, q, r]
    tops = [s.topk(min(top_n, s.shape[-1]), dim=-1).indices for s in sources]
    ids = torch.cat([*tops, torch.tensor(must, device=p.device)[:, None]], dim=-1)  # (m, 2-3 top_n + 1)
    values = torch.stack([s.gather(-1, ids) for s in sources], dim=-1).tolist()  # (m, 2-3 top_n + 1, sources)
    tables = []
    for row_ids, row_values, own in zip(ids.tolist(), values, must):
        seen = {}
        for token, vals in zip(row_ids, row_values):
            if token not in seen and (token == own or any(v > 0 for v in vals)):
                seen[token] = Candidate(token, piece(token), vals[0], vals[1], vals[2] if r is not None else 0.0)
        tables.append(sorted(seen.values(), key=lambda c: -c.p))
    return tables
