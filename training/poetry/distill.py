"""Distil a scribe from the master: cross-entropy to the master's softmax (T = 1), i.e. KL(p || q).

Teacher targets are computed once and cached (data/poetry/ckpt/distill_targets.pt) as the master's
top-``TOPK`` probabilities plus the lumped tail mass, on two kinds of text:
  * N_TEXT_WINDOWS windows of ``block_size`` tokens of the training stream, at seeded random places;
  * text the master samples itself from ``<s>`` (half at T = 1.0, half at T = 0.7): the contexts a
    speculative decode actually visits, where the scribe's agreement (alpha) is what counts.
The student minimises  -sum_topk p_i log q_i - p_tail log(1 - sum_topk q_i),  the cross-entropy
over (top-k tokens + one "other" bucket), which equals KL(p || q) up to the teacher's entropy.
Checkpoint selection: highest mean alpha = sum min(p, q) on validation text at T = 1.
"""
from __future__ import annotations

import hashlib
import time

import torch
import torch.nn.functional as F

from training.poetry import data
from training.poetry.evaluate import alpha, logits_on, master_samples
from training.poetry.models import MODELS, TRAINING, build_model
from training.poetry.paths import ASSETS, CKPT, LOGS, SEED
from training.poetry.util import get_logger, load_exported
from training.whole_files import save_whole

TOPK = 64
N_SAMPLES = 1024         # master-written sequences, each block_size tokens long
N_TEXT_WINDOWS = 4096    # a sixth of the training text: the teacher's forward is the costly part
TARGETS = CKPT / "distill_targets.pt"


@torch.no_grad()
def teacher_topk(master, windows: torch.Tensor, batch: int = 32):
    """Top-k probs (fp16), ids (int16) and tail mass of the master at every position of windows."""
    probs, ids, tails = [], [], []
    for i in range(0, len(windows), batch):
        p = F.softmax(master(input_ids=windows[i:i + batch]).logits, -1)   # (B, T, V)
        top = p.topk(TOPK, dim=-1)
        probs.append(top.values.half()), ids.append(top.indices.short())
        tails.append((1 - top.values.sum(-1)).clamp_min(0).half())      # (B, T)
    return torch.cat(probs), torch.cat(ids), torch.cat(tails)


def master_fingerprint() -> str:
    """The exported master's sha256 and the sampled share: targets and checkpoints belong to one teacher."""
    weights = hashlib.sha256((ASSETS / "master" / "model.safetensors").read_bytes()).hexdigest()
    return f"{weights}+{N_SAMPLES}+{N_TEXT_WINDOWS}"


def build_targets(block: int, seed: int, log) -> dict:
    teacher = master_fingerprint()
    if TARGETS.exists():
        targets = torch.load(TARGETS)
        if targets.get("master_sha256") == teacher:
            return targets
        log.info("the master changed since the cached targets: rebuilding them")
    master = load_exported("master")
    train = data.stream("train")
    gen = torch.Generator().manual_seed(seed)
    text_windows, _ = data.random_windows(train, N_TEXT_WINDOWS, block, gen)       # (n, block)
    n, half = len(text_windows), N_SAMPLES // 2
    sampled = [master_samples(master, half, block, t, seed + i, cut_at_eos=False)
               for i, t in enumerate((1.0, 0.7))]
    windows = torch.cat([text_windows, *[torch.stack(s) for s in sampled]])
    log.info("teacher targets on %d text + %d sampled windows of %d", n, N_SAMPLES, block)
    probs, ids, tails = teacher_topk(master, windows)
    targets = {"windows": windows, "probs": probs, "ids": ids, "tails": tails, "master_sha256": teacher}
    save_whole(targets, TARGETS)                                         # whole, for parallel runs
    return targets


def topk_loss(logits, probs, ids, tails) -> torch.Tensor:
    """Cross-entropy to the teacher over (top-k + tail bucket), mean per position."""
    logq = F.log_softmax(logits, -1)                                     # (B, T, V)
    logq_top = logq.gather(-1, ids.long())                               # (B, T, K)
    tail_q = (1 - logq_top.exp().sum(-1)).clamp_min(1e-6)                # (B, T)
    ce = -(probs.float() * logq_top).sum(-1) - tails.float() * tail_q.log()
    return ce.mean()


@torch.no_grad()
def val_alpha(model, chunks, p_logits: torch.Tensor) -> float:
    was = model.training
    model.eval()
    q = torch.cat(logits_on(model, chunks))
    model.train(was)
    return alpha(p_logits, q, 1.0).mean().item()


def train_distilled(name: str, seed: int = SEED) -> dict:
    from training.poetry.train import export, lr_at, make_optimizer
    spec = TRAINING[name]
    torch.set_num_threads(spec.threads)
    log = get_logger(name, LOGS / f"{name}.log")
    tg = build_targets(spec.block_size, seed, log)
    master = load_exported(spec.distill_from)
    val_ids = data.stream("val")
    chunks = data.entry_chunks(val_ids, MODELS[name].n_positions)
    p_val = torch.cat(logits_on(master, chunks))                         # (N, V)
    model = build_model(name, master.config.vocab_size, seed)
    opt = make_optimizer(model, spec)
    ck_path, best_path = CKPT / f"{name}.pt", CKPT / f"{name}_best.pt"
    start, best, history = 0, -1.0, []
    if ck_path.exists():
        ck = torch.load(ck_path, weights_only=False)
        if ck.get("master_sha256") == tg["master_sha256"]:
            model.load_state_dict(ck["model"]), opt.load_state_dict(ck["opt"])
            start, best, history = ck["step"], ck["best"], ck["history"]
            log.info("resumed at step %d (best alpha %.4f)", start, best)
        else:
            log.info("checkpoint distilled from another master: starting afresh")
    log.info("distil %s from %s: %.2fM params, %d windows, %s", name, spec.distill_from,
             sum(p.numel() for p in model.parameters()) / 1e6, len(tg["windows"]), spec)
    t0 = last_ck = time.time()
    for step in range(start, spec.steps):
        gen = torch.Generator().manual_seed(seed * 1_000_003 + step)
        rows = torch.randint(0, len(tg["windows"]), (spec.batch_size,), generator=gen)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, spec)
        model.train()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(input_ids=tg["windows"][rows]).logits
        loss = topk_loss(logits.float(), tg["probs"][rows], tg["ids"][rows], tg["tails"][rows])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        done = step + 1
        if done % spec.eval_every == 0 or done == spec.steps:
            a = val_alpha(model, chunks, p_val)
            history.append({"step": done, "train_ce_to_teacher": loss.item(), "val_alpha_T1": a})
            if a > best:
                best = a
                torch.save(model.state_dict(), best_path)
            rate = (done - start) / (time.time() - t0)
            log.info("step %d/%d ce %.4f val alpha %.4f (best %.4f) %.2f it/s eta %.1f min",
                     done, spec.steps, loss.item(), a, best, rate, (spec.steps - done) / rate / 60)
        if time.time() - last_ck > 180 or done == spec.steps:
            save_whole(dict(model=model.state_dict(), opt=opt.state_dict(), step=done, best=best, history=history,
                            master_sha256=tg["master_sha256"]), ck_path)
            last_ck = time.time()
    model.load_state_dict(torch.load(best_path))
    return export(name, model, val_ids, history, log)
