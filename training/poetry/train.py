"""Train one model (hard labels or distillation), resumable, logging to data/poetry/logs/<name>.log."""
from __future__ import annotations

import math
import shutil
import time

import torch
import torch.nn.functional as F

from training.poetry import data
from training.poetry.models import MODELS, TRAINING, build_model
from training.poetry.paths import ASSETS, CKPT, LOGS, SEED, TOKENIZER_DIR
from training.poetry.util import get_logger, val_loss

CKPT_MINUTES = 3.0


def lr_at(step: int, spec) -> float:
    if step < spec.warmup:
        return spec.lr * (step + 1) / spec.warmup
    frac = (step - spec.warmup) / max(1, spec.steps - spec.warmup)
    return spec.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * frac)))  # cosine to lr/10


def make_optimizer(model, spec):
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    other = [p for n, p in model.named_parameters() if p.dim() < 2]
    groups = [{"params": decay, "weight_decay": spec.weight_decay},
              {"params": other, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=spec.lr, betas=(0.9, 0.98))


def step_loss(model, x, y) -> torch.Tensor:
    logits = model(input_ids=x).logits                                  # (B, T, V)
    return F.cross_entropy(logits.flatten(0, 1), y.flatten())


def save_ckpt(path, **state) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    tmp.replace(path)


def train(name: str, seed: int = SEED) -> dict:
    spec = TRAINING[name]
    if spec.distill_from:
        from training.poetry.distill import train_distilled
        return train_distilled(name, seed)
    torch.set_num_threads(spec.threads)
    log = get_logger(name, LOGS / f"{name}.log")
    vocab_size = len(__import__("json").loads((TOKENIZER_DIR / "tokenizer.json").read_text())
                     ["model"]["vocab"])
    model = build_model(name, vocab_size, seed)
    opt = make_optimizer(model, spec)
    train_ids, val_ids = data.stream("train"), data.stream("val")
    starts = data.verse_starts("train", train_ids) if spec.verse_share else None
    CKPT.mkdir(parents=True, exist_ok=True)
    ck_path, best_path = CKPT / f"{name}.pt", CKPT / f"{name}_best.pt"
    start, best, history = 0, float("inf"), []
    if spec.init_from and not ck_path.exists():
        model.load_state_dict(torch.load(CKPT / f"{spec.init_from}_best.pt"))
        best = val_loss(model, val_ids, MODELS[name].n_positions)       # phase 2 must beat this
        torch.save(model.state_dict(), best_path)
        log.info("initialised from %s_best.pt (val %.4f)", spec.init_from, best)
    if ck_path.exists():
        ck = torch.load(ck_path, weights_only=False)
        model.load_state_dict(ck["model"]), opt.load_state_dict(ck["opt"])
        start, best, history = ck["step"], ck["best"], ck["history"]
        log.info("resumed at step %d (best val %.4f)", start, best)
    n_params = sum(p.numel() for p in model.parameters())
    log.info("train %s: %.2fM params, %s", name, n_params / 1e6, spec)
    t0 = last_ck = time.time()
    stop = spec.stop_after or spec.steps
    for step in range(start, stop):
        gen = torch.Generator().manual_seed(seed * 1_000_003 + step)    # replayable after resume
        if starts is None:
            x, y = data.random_windows(train_ids, spec.batch_size, spec.block_size, gen)
        else:
            x, y = data.verse_weighted_windows(train_ids, starts, spec.verse_share, spec.batch_size,
                                               spec.block_size, gen)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, spec)
        model.train()
        loss = step_loss(model, x, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        done = step + 1
        if done % spec.eval_every == 0 or done == stop:
            v = val_loss(model, val_ids, MODELS[name].n_positions)
            history.append({"step": done, "train_loss": loss.item(), "val_loss": v})
            if v < best:
                best = v
                torch.save(model.state_dict(), best_path)
            rate = (done - start) / (time.time() - t0)
            log.info("step %d/%d loss %.4f val %.4f (best %.4f) lr %.2e %.2f it/s eta %.1f min",
                     done, spec.steps, loss.item(), v, best, lr_at(step, spec), rate,
                     (spec.steps - done) / rate / 60)
        if time.time() - last_ck > CKPT_MINUTES * 60 or done == stop:
            save_ckpt(ck_path, model=model.state_dict(), opt=opt.state_dict(), step=done,
                      best=best, history=history)
            last_ck = time.time()
    model.load_state_dict(torch.load(best_path))
    return export(name, model, val_ids, history, log, spec.export_as or name)


def export(name: str, model, val_ids, history, log, out_name: str | None = None) -> dict:
    """save_pretrained to assets (fp16 when it costs < 0.002 nats/char), tokenizer alongside."""
    out = ASSETS / (out_name or name)
    v32 = val_loss(model, val_ids, MODELS[name].n_positions)
    half = build_model(name, model.config.vocab_size, 0)
    half.load_state_dict(model.state_dict())
    half = half.half().float()                                          # round-trip through fp16
    v16 = val_loss(half, val_ids, MODELS[name].n_positions)
    dtype = torch.float16 if v16 - v32 < 0.002 else torch.float32
    if out.exists():
        shutil.rmtree(out)
    model.to(dtype).save_pretrained(out)
    for f in TOKENIZER_DIR.iterdir():
        shutil.copy(f, out / f.name)
    result = {"val_loss_fp32": v32, "val_loss_fp16": v16, "saved_dtype": str(dtype),
              "history": history}
    log.info("exported %s: val fp32 %.4f fp16 %.4f -> %s", out, v32, v16, dtype)
    return result
