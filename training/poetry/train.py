"""Train one model (hard labels or distillation), resumable, logging to data/poetry/logs/<name>.log."""
from __future__ import annotations

import copy
import math
import shutil
import time

import torch
import torch.nn.functional as F

from training.poetry import data
from training.poetry.models import MODELS, TRAINING, build_model
from training.poetry.paths import ASSETS, CKPT, DEVICE, LOGS, SEED, TOKENIZER_DIR
from training.poetry.util import get_logger, val_loss
from training.whole_files import save_whole

CKPT_MINUTES = 3.0
SHIP_AS_BF16_BYTES = 20e6


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
    """Next-character cross-entropy; a rare character's <unk> is read but never a target, so the
    master does not learn to write it."""
    with torch.autocast(x.device.type, dtype=torch.bfloat16):             # AMX on this CPU: 1.5x faster
        logits = model(input_ids=x).logits                              # (B, T, V)
    return F.cross_entropy(logits.float().flatten(0, 1), y.flatten(), ignore_index=data.UNK_ID)


def train(name: str, seed: int = SEED) -> dict:
    spec = TRAINING[name]
    if spec.distill_from:
        from training.poetry.distill import train_distilled
        return train_distilled(name, seed)
    torch.set_num_threads(spec.threads)
    log = get_logger(name, LOGS / f"{name}.log")
    vocab_size = len(__import__("json").loads((TOKENIZER_DIR / "tokenizer.json").read_text())
                     ["model"]["vocab"])
    model = build_model(name, vocab_size, seed).to(DEVICE)
    opt = make_optimizer(model, spec)
    train_ids, val_ids = data.stream("train"), data.stream("val")
    starts = data.poem_starts(train_ids) if spec.start_share else None
    CKPT.mkdir(parents=True, exist_ok=True)
    ck_path, best_path = CKPT / f"{name}.pt", CKPT / f"{name}_best.pt"
    start, best, history = 0, float("inf"), []
    if ck_path.exists():
        ck = torch.load(ck_path, weights_only=False, map_location=DEVICE)
        model.load_state_dict(ck["model"]), opt.load_state_dict(ck["opt"])
        start, best, history = ck["step"], ck["best"], ck["history"]
        log.info("resumed at step %d (best val %.4f)", start, best)
    n_params = sum(p.numel() for p in model.parameters())
    log.info("train %s: %.2fM params, %s", name, n_params / 1e6, spec)
    t0 = last_ck = time.time()
    stop = spec.steps
    for step in range(start, stop):
        gen = torch.Generator().manual_seed(seed * 1_000_003 + step)    # replayable after resume
        if starts is None:
            x, y = data.random_windows(train_ids, spec.batch_size, spec.block_size, gen)
        else:
            x, y = data.start_weighted_windows(train_ids, starts, spec.start_share, spec.batch_size,
                                               spec.block_size, gen)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, spec)
        model.train()
        loss = step_loss(model, x.to(DEVICE), y.to(DEVICE))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        done = step + 1
        if done % spec.eval_every == 0 or done == stop:
            v = val_loss(model, val_ids, MODELS[name].n_positions, bf16=True)
            history.append({"step": done, "train_loss": loss.item(), "val_loss": v})
            if v < best:
                best = v
                torch.save(model.state_dict(), best_path)
            rate = (done - start) / (time.time() - t0)
            log.info("step %d/%d loss %.4f val %.4f (best %.4f) lr %.2e %.2f it/s eta %.1f min",
                     done, spec.steps, loss.item(), v, best, lr_at(step, spec), rate,
                     (spec.steps - done) / rate / 60)
        if time.time() - last_ck > CKPT_MINUTES * 60 or done == stop:
            save_whole(dict(model=model.state_dict(), opt=opt.state_dict(), step=done, best=best, history=history),
                       ck_path)
            last_ck = time.time()
    model.load_state_dict(torch.load(best_path, map_location=DEVICE))
    return export(name, model.cpu(), val_ids, history, log)


def export(name: str, model, val_ids, history, log) -> dict:
    """save_pretrained to assets, tokenizer alongside. A model over SHIP_AS_BF16_BYTES in float32 is
    saved in bfloat16 (the app multiplies it so: the shipped weights are the master); smaller ones
    in float16 (loaded as float32), or float32 where float16 would cost 0.002 nats a character."""
    out = ASSETS / name
    v32 = val_loss(model, val_ids, MODELS[name].n_positions)
    big = sum(p.numel() for p in model.parameters()) * 4 > SHIP_AS_BF16_BYTES
    dtype = torch.bfloat16 if big else torch.float16
    shipped = val_loss(copy.deepcopy(model).to(dtype).float(), val_ids, MODELS[name].n_positions)
    if not big and shipped - v32 > 0.002:
        dtype, shipped = torch.float32, v32
    if out.exists():
        shutil.rmtree(out)
    model.to(dtype).save_pretrained(out)
    for f in TOKENIZER_DIR.iterdir():
        shutil.copy(f, out / f.name)
    result = {"val_loss_fp32": v32, "val_loss_shipped": shipped, "saved_dtype": str(dtype), "history": history}
    log.info("exported %s: val fp32 %.4f shipped %.4f -> %s", out, v32, shipped, dtype)
    return result
