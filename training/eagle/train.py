"""Train a feature scribe (runtimes/feature_scribe.py) on a master's cached states, for any pair.

Data: per sequence (tokens (L,), the master's normed top states (L, H), prompt length), training and
held-back lists. Loss, per position t: SmoothL1 between the predicted state and the master's
f_{t+1}, plus CLS_WEIGHT x the cross-entropy of q against the master's p at t+1 over the head's
tokens (EAGLE's mix), with uniform noise on the states read. Training-time test (EAGLE-3, arXiv
2503.01840): the scribe also drafts a 2nd and 3rd token from its own guesses, as it does at decode
time. Its query at step s sees the true-state keys up to the last true position and its own
guess-keys after it, one per step, so training sees exactly what decoding sees. Runs in bfloat16
autocast (AMX), in the background, checkpointed every few minutes and resumable. At each checkpoint
it measures α on held-back sequences and keeps the best weights; the end writes those as the
shipped files.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from transformers import PreTrainedModel
from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

from specdec_core.runtimes.feature_scribe import FeatureScribe, head_weight, save_scribe
from training.whole_files import save_whole

Sequence = tuple[torch.Tensor, torch.Tensor, int]     # tokens (L,), top states (L, H) bfloat16, prompt length

STEPS = 3                # drafted tokens per position in training (1: EAGLE, more: training-time test)
STEP_WEIGHT = 0.8        # the s-th step's loss weighs STEP_WEIGHT ** (s - 1)
CLS_WEIGHT = 0.1
NOISE = 0.05             # uniform noise on the states read, times their standard deviation
LR, WARMUP, CLIP = 1e-3, 50, 0.5
SAVE_EVERY_S = 300


@dataclass(frozen=True)
class Run:
    """One pair's training: where it keeps its checkpoint and writes its files, and its sizes."""
    name: str
    ckpt: Path
    out_dir: Path
    total_steps: int
    batch: int
    about: dict             # what config.json records beside the training's own figures
    held_batches: int = 6   # held-back batches α is measured on at each checkpoint


def padded(batch: list[Sequence]):
    """tokens (B, L), states (B, L, H) float32, and drafted (B, L-1): the positions whose guess drafts a written
    token (position t reads token t+1 and drafts token t+2; the prompt's are never drafted), right-padded rows."""
    width = max(len(t) for t, _, _ in batch)
    tokens = torch.zeros(len(batch), width, dtype=torch.long)
    states = torch.zeros(len(batch), width, batch[0][1].shape[-1])
    drafted = torch.zeros(len(batch), width - 1, dtype=torch.bool)
    for row, (t, f, prompt_len) in enumerate(batch):
        tokens[row, : len(t)], states[row, : len(t)] = t, f.float()
        drafted[row, max(prompt_len - 2, 0) : len(t) - 1] = True
    return tokens, states, drafted


def step_mask(s: int, length: int) -> torch.Tensor:
    """(T, s T) which keys the query at step s, position t, sees: true-state keys j <= t - s + 1, then the
    step-r key at position t - (s - r) for r = 2..s (its own guesses since the last true state)."""
    t = torch.arange(length)
    blocks = [t[None, :] <= (t[:, None] - s + 1)]
    blocks += [t[None, :] == (t[:, None] - (s - r)) for r in range(2, s + 1)]
    return torch.cat(blocks, dim=1)


def layer_keys(layer, x, cos, sin, heads: int, kv_heads: int, d: int):
    a = layer.self_attn
    h = layer.input_layernorm(x)
    b, t, _ = x.shape
    q = a.q_proj(h).view(b, t, heads, d).transpose(1, 2)
    k = a.k_proj(h).view(b, t, kv_heads, d).transpose(1, 2)
    v = a.v_proj(h).view(b, t, kv_heads, d).transpose(1, 2)
    q, k = apply_rotary_pos_emb(q, k, cos, sin)
    return q, k, v


def layer_rest(layer, x, q, keys, values, mask):
    attended = F.scaled_dot_product_attention(q, keys, values, attn_mask=mask, enable_gqa=True)   # (B, heads, T, D)
    b, _, t, _ = attended.shape
    x = x + layer.self_attn.o_proj(attended.transpose(1, 2).reshape(b, t, -1))
    return x + layer.mlp(layer.post_attention_layernorm(x))


def unrolled(scribe: FeatureScribe, master, tokens, states, noise: float):
    """The predicted states after 1..STEPS drafted tokens, each (B, T, H) with T = L - 1."""
    config = master.config
    heads, kv_heads, d = config.num_attention_heads, config.num_key_value_heads, config.head_dim
    embedded = master.get_input_embeddings()(tokens[:, 1:])                   # token t+1 at position t
    read = states[:, :-1]
    if noise:
        read = read + (torch.rand_like(read) * 2 - 1) * noise
    length = read.shape[1]
    positions = torch.arange(length)[None]
    cos, sin = master.model.rotary_emb(read, positions)
    keys, values, guesses = [], [], []
    for s in range(1, STEPS + 1):
        if s > 1:     # read its own previous guess at t-1 in place of the master's state
            read = torch.cat([read[:, :1], guesses[-1][:, :-1]], dim=1)
        x = scribe.fuse(torch.cat([embedded, read], dim=-1))
        q, k, v = layer_keys(scribe.layer, x, cos, sin, heads, kv_heads, d)
        keys.append(k)
        values.append(v)
        guesses.append(layer_rest(scribe.layer, x, q, torch.cat(keys, 2), torch.cat(values, 2), step_mask(s, length)))
    return guesses


def losses(scribe, master, head_rows, tokens, states, drafted, noise: float):
    """(loss, per-step top-1 agreement with the master over the head's tokens), on drafted positions only."""
    target = states[:, 1:]
    with torch.no_grad():                             # the head runs on the drafted positions alone, once
        p_drafted = (target[drafted] @ head_rows.T).float().softmax(-1)      # (n, S)
    total, agree = 0.0, []
    for s, guess in enumerate(unrolled(scribe, master, tokens, states, noise), start=1):
        mask = drafted.clone()
        mask[:, : s - 1] = False                      # the first s-1 positions have no guess to read
        p = p_drafted[mask[drafted]]
        reg = F.smooth_l1_loss(guess[mask].float(), target[mask], reduction="none").mean(-1)
        logq = (guess[mask] @ head_rows.T).float().log_softmax(-1)
        cls = -(p * logq).sum(-1)
        total = total + STEP_WEIGHT ** (s - 1) * (reg + CLS_WEIGHT * cls).mean()
        agree.append((logq.argmax(-1) == p.argmax(-1)).float().mean().item())
    return total, agree


def fresh_scribe(master, vocab_ids) -> FeatureScribe:
    """Fuse reads the state through as it is (identity on its half) and the layer adds little at first:
    the first guess is 'the next state is this one', from which training moves."""
    scribe = FeatureScribe(master, vocab_ids)
    hidden = master.config.hidden_size
    with torch.no_grad():
        torch.nn.init.normal_(scribe.fuse.weight, std=0.02)
        scribe.fuse.weight[:, hidden:] += torch.eye(hidden)
        for name, param in scribe.layer.named_parameters():
            if param.dim() == 2:
                torch.nn.init.normal_(param, std=0.02 if not name.endswith(("o_proj.weight", "down_proj.weight")) else 0.002)
    return scribe


def accepted_of_three(report: dict) -> float:
    """Expected tokens accepted of a 3-token chain at T = 1 from per-step α: a1 + a1 a2 + a1 a2 a3."""
    total, product = 0.0, 1.0
    for s in range(1, STEPS + 1):
        product *= report[f"step {s}"]["alpha_T1"]
        total += product
    return total


def train(run: Run, master: PreTrainedModel, vocab_ids: torch.Tensor, data: list[Sequence], held: list[Sequence],
          minutes: float | None, threads: int, log=print) -> dict:
    """Train (or resume) until run.total_steps or `minutes`; write the best checkpoint's files. Returns its report."""
    torch.set_num_threads(threads)
    torch.manual_seed(34)
    for param in master.parameters():
        param.requires_grad_(False)
    head_rows = head_weight(master)[vocab_ids]
    scribe = fresh_scribe(master, vocab_ids)
    optimiser = torch.optim.AdamW(scribe.parameters(), lr=LR, betas=(0.9, 0.95), weight_decay=0.0)
    step, total_steps, best = 0, run.total_steps, None
    if run.ckpt.exists():
        saved = torch.load(run.ckpt)
        scribe.load_state_dict(saved["scribe"])
        optimiser.load_state_dict(saved["optimiser"])
        step, best = saved["step"], saved.get("best")
        log(f"{run.name}: resumed at step {step}/{total_steps} (the schedule saved had {saved['total_steps']})")
    spread = torch.cat([f[:64].float() for _, f, _ in data[:200]]).std().item()
    log(f"{run.name}: {len(data)} training sequences ({sum(len(t) for t, _, _ in data)} positions), "
        f"{len(held)} held back; state std {spread:.3f}")
    schedule = lambda i: min(1.0, (i + 1) / WARMUP) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(i / total_steps, 1.0))))
    started, last_save, measured_at = time.time(), time.time(), None
    generator = torch.Generator().manual_seed(step)
    while step < total_steps and (minutes is None or time.time() - started < minutes * 60):
        order = torch.randperm(len(data), generator=generator)[: run.batch].tolist()
        tokens, states, drafted = padded([data[i] for i in order])
        for group in optimiser.param_groups:
            group["lr"] = LR * schedule(step)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss, agree = losses(scribe, master, head_rows, tokens, states, drafted, NOISE * spread)
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(scribe.parameters(), CLIP)
        optimiser.step()
        step += 1
        if step % 50 == 0:
            log(f"{run.name} step {step}: loss {loss.item():.4f}, top-1 agreement by step {[round(a, 3) for a in agree]}")
        if time.time() - last_save > SAVE_EVERY_S or step == total_steps:
            best = _checkpoint(run, scribe, optimiser, step, total_steps, best, master, held, spread, log)
            last_save, measured_at = time.time(), step
    if measured_at != step:           # stopped by the clock, or resumed at its end: measure and save where it is
        best = _checkpoint(run, scribe, optimiser, step, total_steps, best, master, held, spread, log)
    scribe.load_state_dict(best["scribe"])
    log(f"{run.name}: the best held-back α was at step {best['step']}: {best['report']}")
    save_scribe(scribe, run.out_dir, {"hidden_size": master.config.hidden_size, "reads": "normed top state",
                                      **run.about, "steps_trained": step, "chosen_step": best["step"],
                                      "held_back": best["report"]})
    log(f"{run.name}: wrote {run.out_dir}")
    return best["report"]


def _checkpoint(run: Run, scribe, optimiser, step: int, total_steps: int, best: dict | None,
                master, held: list[Sequence], spread: float, log) -> dict:
    """Measure held-back α, keep the weights if they are the best so far, and save everything to resume from."""
    scribe.eval()
    report = evaluate(scribe, master, held, run.batch, run.held_batches)
    scribe.train()
    score = accepted_of_three(report)
    log(f"{run.name} step {step}: held-back {report}, accepted of 3 {score:.3f}")
    if best is None or score > best["score"]:
        best = {"step": step, "score": score, "report": report,
                "scribe": {k: v.detach().clone() for k, v in scribe.state_dict().items()}}
    run.ckpt.parent.mkdir(parents=True, exist_ok=True)
    save_whole({"scribe": scribe.state_dict(), "optimiser": optimiser.state_dict(), "step": step,
                "total_steps": total_steps, "best": best}, run.ckpt)
    return best


@torch.no_grad()
def evaluate(scribe, master, held: list[Sequence], batch: int, batches_: int = 6) -> dict:
    """On held-back sequences: α = Σ min(p, q) at T = 1 over the master's whole vocabulary, and top-1
    agreement, at each drafted step, averaged over drafted positions."""
    head = head_weight(master)
    ids = scribe.vocab_ids
    sums = {s: [0.0, 0.0, 0] for s in range(1, STEPS + 1)}
    for b in range(batches_):
        chunk = held[b * batch:(b + 1) * batch]
        if not chunk:
            break
        tokens, states, drafted = padded(chunk)
        for s, guess in enumerate(unrolled(scribe, master, tokens, states, 0.0), start=1):
            mask = drafted.clone()
            mask[:, : s - 1] = False
            p = (states[:, 1:][mask] @ head.T).softmax(-1)                      # (n, V)
            q = (guess[mask] @ head[ids].T).softmax(-1)                          # (n, S)
            sums[s][0] += torch.minimum(p[:, ids], q).sum(-1).sum().item()
            sums[s][1] += (ids[q.argmax(-1)] == p.argmax(-1)).sum().item()
            sums[s][2] += len(q)
    return {f"step {s}": {"alpha_T1": round(a / n, 3), "top1": round(t / n, 3)} for s, (a, t, n) in sums.items() if n}
