"""Distil the master into the shared-embedding draft, on the teacher's answers and top-k.

Loss at each answer position: cross-entropy of the draft's distribution against the master's
top-k, renormalised over the tokens the draft's head covers (forward KL up to a constant). The
embedding is the master's and stays frozen; layers, norm and head rows learn. Two shards of the
first round are held back to watch the loss and an alpha bound, sum_x min(p, q) over the teacher's
top-k at T = 1. Round one trains from the master's first layers; round two refines that draft on
the answers to the extra topics as well.
"""
from __future__ import annotations

import math
import time
from typing import NamedTuple

import torch

from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_DIR
from training.smollm2 import own_answers
from training.smollm2.draft_files import draft_from_master, save_draft
from training.smollm2.master_answers import load_shards
from training.smollm2.paths import CKPT
from training.whole_files import save_whole

LAYERS = [0, 1, 2, 3]      # the master's first layers: the closest start of those tried (alpha bound 0.07 at step 0)
HEAD_SIZE = 8192           # tokens the draft can write: the most probable under the teacher
BATCH = 8
LR = 1e-3
WARMUP = 40
EPOCHS = 3
REFINE_EPOCHS = 2
REFINE_LR = 5e-4
CKPT_MINUTES = 3.0
SEED = 5


def draft_vocabulary(shards: list[dict], size: int, vocab_size: int) -> torch.Tensor:
    """The ``size`` tokens holding the most teacher probability over all recorded positions, by id."""
    mass = torch.zeros(vocab_size)
    for shard in shards:
        for ids, logp in zip(shard["topk_ids"], shard["topk_logp"]):
            mass.index_add_(0, ids.flatten().long(), logp.flatten().float().exp())
    return mass.topk(size).indices.sort().values


def examples(shards: list[dict]) -> list[tuple]:
    return [(torch.tensor(seq), n, ids.long(), logp.float())
            for shard in shards
            for seq, n, ids, logp in zip(shard["sequences"], shard["prompt_lens"], shard["topk_ids"], shard["topk_logp"])]


def batch_loss(draft, batch: list[tuple], to_head: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, int]:
    """(mean loss, summed alpha bound, positions) over the answer positions of a padded batch."""
    width = max(len(seq) for seq, *_ in batch)
    ids = torch.zeros((len(batch), width), dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for r, (seq, *_) in enumerate(batch):
        ids[r, : len(seq)], mask[r, : len(seq)] = seq, 1
    logq = draft(input_ids=ids, attention_mask=mask).logits.log_softmax(-1)   # (B, L, K)
    losses, bound, count = [], torch.zeros(()), 0
    for r, (seq, n, top_ids, top_logp) in enumerate(batch):
        rows = logq[r, n - 1 : n - 1 + len(top_ids)]                         # predicts answer tokens
        where = to_head[top_ids]                                              # (A, top_k), -1 outside
        p = top_logp.exp() * (where >= 0)
        q = rows.gather(1, where.clamp(min=0))
        losses.append(-(p / p.sum(1, keepdim=True).clamp(min=1e-9) * q).sum(1))
        bound += torch.minimum(top_logp.exp(), q.exp() * (where >= 0)).sum()
        count += len(top_ids)
    return torch.cat(losses).mean(), bound.detach(), count


@torch.no_grad()
def evaluate(draft, held: list[tuple], to_head) -> tuple[float, float]:
    draft.eval()
    total, bound, count = 0.0, 0.0, 0
    for i in range(0, len(held), BATCH):
        loss, b, n = batch_loss(draft, held[i : i + BATCH], to_head)
        total, bound, count = total + loss.item() * n, bound + b.item(), count + n
    draft.train()
    return total / count, bound / count


def lr_at(step: int, total: int, peak: float, warmup: int = WARMUP) -> float:
    """Linear warm-up to ``peak``, then a cosine down to a tenth of it at ``total``."""
    if step < warmup:
        return peak * (step + 1) / warmup
    return peak * (0.1 + 0.45 * (1 + math.cos(math.pi * min(1.0, (step - warmup) / max(1, total - warmup)))))


def train(minutes: float | None, threads: int, log=print) -> dict:
    """Round one: EPOCHS over the first round's answers, from the master's first layers."""
    torch.set_num_threads(threads)
    torch.manual_seed(SEED)
    shards, held = load_shards(first_round_only=True)
    if not shards or not held:
        raise SystemExit("run the teacher stage first: the first round's shards are missing")
    pair = load_pair("smollm2", "cpu")
    vocab_ids = draft_vocabulary(shards, HEAD_SIZE, pair.vocab_size)
    draft = draft_from_master(pair.target, LAYERS, vocab_ids).train()
    ck = fit(draft, vocab_ids, batches_of(shards), examples(held), EPOCHS, LR, CKPT / "draft.pt", minutes, log)
    ship(draft, vocab_ids, ck, "distill", log)
    return ck


def distill_all(minutes: float | None, threads: int, log=print) -> dict:
    """Round two: the finished round-one draft, REFINE_EPOCHS more over every answer written.

    Round one's draft learned its prompts far better than unseen ones (alpha bound 0.55 on its
    training shards, 0.45 held back): it was short of text, so round two brings new topics.
    """
    torch.set_num_threads(threads)
    torch.manual_seed(SEED + 1)
    draft, vocab_ids = finished_draft("draft.pt", "run the student stage to its end first: refining starts from round one's final draft")
    shards, held = load_shards()
    ck = fit(draft, vocab_ids, batches_of(shards), examples(held), REFINE_EPOCHS, REFINE_LR, CKPT / "refine.pt", minutes, log)
    ship(draft, vocab_ids, ck, f"refine on {len(shards)} shards", log)
    return ck


class OwnAnswerRound(NamedTuple):
    starts_from: str      # the previous round's checkpoint, finished
    checkpoint: str
    epochs: float
    peak_lr: float


OWN_ANSWER_ROUNDS = {3: OwnAnswerRound("refine.pt", "polish.pt", 2, 3e-4),
                 4: OwnAnswerRound("polish.pt", "polish_round4.pt", 1.5, 2e-4)}


def distill_own(minutes: float | None, threads: int, log=print, round_no: int = own_answers.FIRST_ROUND) -> dict:
    """Round three and on: the previous round's final draft, trained on the master's answers and the
    draft's own answers from every on-policy round so far (the own-answers stage), all labelled with
    the master's top-k; same held-back shards. Round four adds text sampled by round three's draft
    and starts from that finished draft: one and a half epochs over half as much text again (about
    as long as round three's two) and a lower peak lr."""
    if round_no not in OWN_ANSWER_ROUNDS:
        raise SystemExit(f"distill-own has rounds {', '.join(map(str, OWN_ANSWER_ROUNDS))}, not {round_no}")
    own_answers.require_complete(round_no)
    plan = OWN_ANSWER_ROUNDS[round_no]
    torch.set_num_threads(threads)
    torch.manual_seed(SEED + round_no - 1)
    draft, vocab_ids = finished_draft(plan.starts_from, f"finish round {round_no - 1} first: round {round_no} starts from its final draft")
    return fit_on_answers_through(round_no, draft, vocab_ids, plan.epochs, plan.peak_lr, plan.checkpoint, minutes, log)


def fit_on_answers_through(round_no: int, draft, vocab_ids, epochs: float, peak_lr: float, checkpoint: str,
                           minutes, log) -> dict:
    """fit on the master's answers and the draft's own from every on-policy round up to ``round_no``,
    then save the draft where the pair loads it."""
    shards, held = load_shards()
    own = own_answers.shards_through(round_no)
    ck = fit(draft, vocab_ids, batches_of(shards + own), examples(held), epochs, peak_lr, CKPT / checkpoint, minutes, log)
    ship(draft, vocab_ids, ck, f"{checkpoint} on {len(shards)} + {len(own)} shards", log)
    return ck


def ship(draft, vocab_ids: torch.Tensor, ck: dict, what: str, log, directory=DISTILLED_DIR) -> bool:
    """Write the draft where the pair loads it only when its run has just finished. A run stopped by
    --minutes leaves the shipped draft as it was (its checkpoint resumes), and running a finished
    stage again leaves it too: that would replace the calibrated draft with the uncalibrated one."""
    if not ck["finished"]:
        log(f"{what}: stopped at step {ck['step']}; {directory} is unchanged; run the stage again to go on")
        return False
    if not ck["ran"]:
        log(f"{what}: had already finished; {directory} is left as it is")
        return False
    save_draft(draft, vocab_ids, directory)
    log(f"{what}: saved {directory} after {ck['step']} steps")
    return True


def finished_draft(ck_name: str, missing: str, master=None) -> tuple[torch.nn.Module, torch.Tensor]:
    """(draft, vocab_ids) from the finished checkpoint of an earlier round, ready to train on; the
    master is loaded here unless given."""
    path = CKPT / ck_name
    earlier = torch.load(path, weights_only=False) if path.exists() else {}
    if not earlier.get("finished"):
        raise SystemExit(missing)
    master = master if master is not None else load_pair("smollm2", "cpu").target
    draft = draft_from_master(master, LAYERS, earlier["vocab_ids"]).train()
    draft.load_state_dict(earlier["draft"], strict=False)
    return draft, earlier["vocab_ids"]


def head_rows(vocab_ids: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """For each token of the vocabulary, its row in the draft's head, or -1 where it has none."""
    rows = torch.full((vocab_size,), -1, dtype=torch.long)
    rows[vocab_ids] = torch.arange(len(vocab_ids))
    return rows


def batches_of(shards: list[dict]) -> list[list[tuple]]:
    train_set = sorted(examples(shards), key=lambda e: len(e[0]))      # similar lengths share a batch: less padding
    return [train_set[i : i + BATCH] for i in range(0, len(train_set), BATCH)]


def fit(draft, vocab_ids, batches, held, epochs: float, peak_lr: float, ck_path, minutes, log) -> dict:
    """Train the draft in place, resuming from and checkpointing to ``ck_path``; the checkpoint
    of a finished run holds the final weights. Returns the step reached, the history, whether the
    run is finished and how many steps this call ran."""
    to_head = head_rows(vocab_ids, draft.model.embed_tokens.num_embeddings)
    draft.model.embed_tokens.weight.requires_grad_(False)
    params = [p for p in draft.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=peak_lr, betas=(0.9, 0.98), weight_decay=0.0)
    total = round(epochs * len(batches))
    ck_path.parent.mkdir(parents=True, exist_ok=True)
    step, history = 0, []
    if ck_path.exists():
        ck = torch.load(ck_path, weights_only=False)
        draft.load_state_dict(ck["draft"], strict=False)
        opt.load_state_dict(ck["opt"])
        step, history = ck["step"], ck["history"]
        log(f"resumed {ck_path.name} at step {step}")
    else:
        loss0, bound0 = evaluate(draft, held, to_head)
        history.append({"step": 0, "val_loss": loss0, "val_alpha_bound": bound0})
        log(f"draft {sum(p.numel() for p in params) / 1e6:.1f}M trainable; {total} steps; at start val loss {loss0:.3f} alpha bound {bound0:.3f}")
    started, first_step, last_ck = time.time(), step, time.time()
    while step < total and (minutes is None or time.time() - started < minutes * 60):
        order = torch.randperm(len(batches), generator=torch.Generator().manual_seed(SEED + step // len(batches)))
        batch = batches[order[step % len(batches)]]
        for g in opt.param_groups:
            g["lr"] = lr_at(step, total, peak_lr)
        loss, _, _ = batch_loss(draft, batch, to_head)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        step += 1
        if step % 100 == 0 or step == total:
            v, b = evaluate(draft, held, to_head)
            history.append({"step": step, "train_loss": loss.item(), "val_loss": v, "val_alpha_bound": b})
            log(f"step {step}/{total} loss {loss.item():.3f} val {v:.3f} alpha bound {b:.3f} ({(time.time() - started) / 60:.1f} min)")
        if time.time() - last_ck > CKPT_MINUTES * 60 or step == total:
            state = {k: v for k, v in draft.state_dict().items() if k != "model.embed_tokens.weight"}
            ck = {"draft": state, "opt": opt.state_dict(), "step": step, "history": history, "vocab_ids": vocab_ids,
                  "finished": step == total}
            save_whole(ck, ck_path)
            last_ck = time.time()
    return {"step": step, "history": history, "finished": step == total, "ran": step - first_step}
