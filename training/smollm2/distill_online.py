"""Round eight: online distillation on a GPU, both distilled rungs at once, against the master's whole distribution.

Every earlier round stored the master's top-64 per position and trained on 2 CPU cores, which
held the master's own text to 668,000 answer tokens. On a GPU the master writes that much in under
a minute, so this round has it answer the training prompts (the training, extra and unseen topics,
less the prompts that calibration, the copy-scores fit, the eval and the benchmark read) from a
shuffled queue of several copies each, for as long as its time share lasts, and computes each
batch's targets as it trains: its whole distribution over the head's tokens,
renormalised there, as train.batch_loss does with the top-64 (forward KL up to a constant). Both
shipped rungs learn together: the loss is the eight-layer draft's plus its early exit's, which
reads the same first four layers, so the shared layers serve both heads. The master's
embedding stays frozen. A validation set (fresh answers to the two held-back batches' prompts) is
scored by alpha at the bar's T 0.7, top-p 0.95 against the master's whole distribution, before
and after.

``python -m training.smollm2 distill-online [--minutes M]``: on CUDA the shipped run took about
8 minutes on one H200 (see the model card); it runs on CPU too, but would take about two days
(a step of 128 answers took 112 s on two cores) and does not resume.
Afterwards run calibrate, copy-scores and eval as for any round.
"""
from __future__ import annotations

import math
import time

import torch

from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.theory import expected_acceptance
from specdec_core.drafts.subset_lm import over_vocab
from specdec_core.pairs.registry import load_pair
from specdec_core.pairs.smollm2 import DISTILLED_DIR, EARLY_EXIT_DIR, EXAMPLE_PROMPTS
from specdec_core.runtimes.device import Clock
from specdec_core.runtimes.shared_embedding_draft import load_draft
from training.smollm2 import copy_scores
from training.smollm2.calibrate import SETTING
from training.smollm2.draft_files import save_draft
from training.smollm2.evaluate import SEEN_STRIDE
from training.smollm2.master_answers import MAX_NEW_TOKENS, chunks, held_back, left_padded
from training.smollm2.prompts import (
    TEMPLATES,
    UNSEEN_TOPICS,
    extra_training_prompts,
    training_prompts,
    unseen_topic_prompts,
)
from training.smollm2.train import lr_at

SAMPLES = 8            # copies of each prompt in the shuffled queue; sampling stops at its time share first
GEN_BATCH = 1024       # prompts a generate call answers at once (an H200 holds their caches easily)
BATCH = 128            # answers per training step
MINUTES = 6.5          # sampling and training together, by default
SAMPLING_SHARE = 0.45  # of the minutes; the rest trains (3.6 min made 6.6 epochs of the shipped run's text)
PEAK_LR = 2e-4         # half of grow's: both rungs start trained
WARMUP = 100
SEED = 8
WARM_STEPS = 10        # the first steps, slower (allocation, kernel choice), left out of the pace
PACE_STEPS = 30        # the schedule's length is set from the pace of the steps before this one
OVERRUN = 1.2          # training stops at this multiple of its minutes, even before the schedule ends
LOG_EVERY = 200


def online_prompts() -> tuple[list[str], list[str]]:
    """(training prompts, validation prompts). Left out: the held-back batches' prompts (calibration;
    here they validate), the copy-scores fit's prompts and its unseen topics, every held-out topic,
    and the pair's example prompts (the eval and the benchmark read them; one is a training prompt)."""
    trained, unseen = training_prompts(), unseen_topic_prompts()
    batches = chunks(trained)
    validation = [text for i in held_back() for text in batches[i]]
    topic_of = {template.format(t=t): t for t in UNSEEN_TOPICS for template in TEMPLATES}
    fit_topics = {topic_of[text] for text in unseen[: copy_scores.PROMPTS]}
    fit_seen = set(trained[copy_scores.SEEN_OFFSET :: SEEN_STRIDE])
    left_out = set(validation) | fit_seen | set(EXAMPLE_PROMPTS)
    train = [t for t in trained + extra_training_prompts() if t not in left_out]
    train += [t for t in unseen if topic_of[t] not in fit_topics]
    return train, validation


@torch.inference_mode()
def sample_answers(pair, prompts: list[list[int]], seed: int, minutes: float, log) -> list[tuple[list[int], int]]:
    """(prompt + answer ids, prompt length) for each prompt, batch by batch, until the time is up."""
    ends = end_tokens(pair.target)
    pad = pair.target.generation_config.pad_token_id
    pad = ends[0] if pad is None else pad
    out, started = [], time.time()
    for index, batch in enumerate(chunks(prompts, GEN_BATCH)):
        if time.time() - started > minutes * 60:
            log(f"online: sampling stopped at the time limit after {len(out)} answers")
            break
        ids, mask = left_padded(batch, pad)
        with torch.random.fork_rng(devices=[pair.target.device] if pair.target.device.type == "cuda" else []):
            torch.manual_seed(seed + index)                  # generate samples from the global RNG
            sequences = pair.target.generate(input_ids=ids.to(pair.target.device), attention_mask=mask.to(pair.target.device),
                                             do_sample=True, temperature=SETTING.temperature, top_p=SETTING.top_p,
                                             max_new_tokens=MAX_NEW_TOKENS, pad_token_id=pad, eos_token_id=ends).tolist()
        for prompt, row in zip(batch, sequences):
            answer = row[ids.shape[1]:]
            out.append((prompt + answer[: answer_length(answer, ends)], len(prompt)))
        log(f"online: sampled {len(out)} answers, {sum(len(s) - n for s, n in out)} tokens ({(time.time() - started) / 60:.1f} min)")
    return out


def padded(batch: list[tuple[list[int], int]], device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(ids, attention mask, predicts-an-answer-token mask), right-padded."""
    width = max(len(seq) for seq, _ in batch)
    ids = torch.zeros((len(batch), width), dtype=torch.long)
    mask = torch.zeros_like(ids)
    predicts = torch.zeros_like(ids, dtype=torch.bool)
    for r, (seq, n) in enumerate(batch):
        ids[r, : len(seq)], mask[r, : len(seq)] = torch.tensor(seq), 1
        predicts[r, n - 1 : len(seq) - 1] = True
    return ids.to(device), mask.to(device), predicts.to(device)


def rung_logits(rung, ids, mask, predicts) -> torch.Tensor:
    return rung(input_ids=ids, attention_mask=mask).logits[predicts]


def batch_loss(master, rungs, vocab_ids, batch) -> torch.Tensor:
    """Summed over rungs: mean cross-entropy of each rung's head distribution against the master's,
    renormalised over the head's tokens."""
    ids, mask, predicts = padded(batch, master.device)
    with torch.no_grad():
        p = master(input_ids=ids, attention_mask=mask).logits[predicts].float().softmax(-1)[:, vocab_ids]
        p = p / p.sum(-1, keepdim=True)
    return sum(-(p * rung_logits(rung, ids, mask, predicts).log_softmax(-1)).sum(-1).mean() for rung in rungs)


@torch.no_grad()
def validation_alpha(master, rungs, vocab_ids, answers) -> list[float]:
    """Each rung's alpha at the bar's setting over the validation answers, against the master's whole distribution."""
    sums, count = [0.0] * len(rungs), 0
    for batch in chunks(answers, BATCH):
        ids, mask, predicts = padded(batch, master.device)
        p = probs_from_logits(master(input_ids=ids, attention_mask=mask).logits[predicts], SETTING)
        for i, rung in enumerate(rungs):
            q_logits = over_vocab(rung_logits(rung, ids, mask, predicts).float(), vocab_ids, p.shape[-1])
            sums[i] += expected_acceptance(p, probs_from_logits(q_logits, SETTING)) * len(p)
        count += len(p)
    return [s / count for s in sums]


def distill_online(minutes: float | None, log=print) -> dict:
    """Sample for a share of the minutes given, train for the rest, then save both rungs."""
    minutes = minutes or MINUTES
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cpu":
        log("online: no CUDA device; on CPU this round takes days (see the module's note)")
    torch.backends.cuda.matmul.allow_tf32 = device.type == "cuda"
    pair = load_pair("smollm2", device.type)
    master = pair.target.eval().requires_grad_(False)
    answers, validation = master_text(pair, minutes * SAMPLING_SHARE, log)

    draft, vocab_ids = load_draft(master, DISTILLED_DIR)
    exit_rung, exit_ids = load_draft(master, EARLY_EXIT_DIR, layers_from=draft)
    if not torch.equal(vocab_ids, exit_ids):
        raise SystemExit("the two distilled rungs' heads cover different tokens")
    rungs, head_ids = [draft.train(), exit_rung.train()], vocab_ids.to(device)
    before = validation_alpha(master, rungs, head_ids, validation)
    log(f"online: validation alpha (distilled, distilled-4) before {before[0]:.4f} {before[1]:.4f}")
    steps = train(master, rungs, head_ids, answers, minutes * (1 - SAMPLING_SHARE), log)
    after = validation_alpha(master, rungs, head_ids, validation)
    log(f"online: validation alpha (distilled, distilled-4) after {after[0]:.4f} {after[1]:.4f}")

    save_draft(draft.cpu(), vocab_ids, DISTILLED_DIR)
    save_draft(exit_rung.cpu(), vocab_ids, EARLY_EXIT_DIR, layers=False)
    log(f"online: saved {DISTILLED_DIR} and {EARLY_EXIT_DIR}; run calibrate, copy-scores and eval next")
    return {"answers": len(answers), "tokens": sum(len(s) - n for s, n in answers), "steps": steps,
            "validation_before": before, "validation_after": after}


def end_tokens(master) -> list[int]:
    """The tokens that end an answer, from the master's own generation config, not the tokenizer:
    transformers 5.17 reads the GGUF tokenizer's end token as <|im_start|> (the pinned 5.24 as
    <|im_end|>); the config says <|im_end|> under both."""
    ids = master.generation_config.eos_token_id
    return list(ids) if isinstance(ids, (list, tuple)) else [ids]


def answer_length(answer: list[int], ends: list[int]) -> int:
    """Tokens up to and with the first end token, or all of them (cut at the length limit)."""
    return next((i + 1 for i, token in enumerate(answer) if token in ends), len(answer))


def master_text(pair, minutes: float, log) -> tuple[list, list]:
    """(training answers, validation answers): every training prompt SAMPLES times in a shuffled
    order, until the minutes are up; each validation prompt twice, whatever the time."""
    texts, validation_texts = online_prompts()
    log(f"online: {len(texts)} training prompts x {SAMPLES}, {len(validation_texts)} validation prompts x 2")
    encoded = [pair.encode_prompt(t, MAX_NEW_TOKENS) for t in texts]
    validation = sample_answers(pair, [pair.encode_prompt(t, MAX_NEW_TOKENS) for t in validation_texts] * 2,
                                SEED, math.inf, log)
    order = torch.randperm(len(texts) * SAMPLES, generator=torch.Generator().manual_seed(SEED)).tolist()
    return sample_answers(pair, [encoded[i % len(texts)] for i in order], SEED + 1000, minutes, log), validation


def train(master, rungs, vocab_ids: torch.Tensor, answers: list, minutes: float, log) -> int:
    """AdamW on the rungs' weights (the master's embedding stays frozen) for about ``minutes``, the
    cosine's length set by the pace of the first steps; returns the steps taken."""
    params = trainable(master, rungs)
    log(f"online: {sum(p.numel() for p in params) / 1e6:.1f}M trainable")
    opt = torch.optim.AdamW(params, lr=PEAK_LR, betas=(0.9, 0.98), weight_decay=0.0)
    batches = chunks(sorted(answers, key=lambda a: len(a[0])), BATCH)     # similar lengths share a batch
    clock = Clock(vocab_ids.device)
    step, total, started = 0, None, clock.now()
    while total is None or step < total:
        if step == WARM_STEPS:
            paced_from = clock.now()
        if step == PACE_STEPS:
            total = planned_steps(step, (clock.now() - paced_from) / (PACE_STEPS - WARM_STEPS), minutes * 60 - (clock.now() - started))
            log(f"online: {total} steps planned, {total * BATCH / len(answers):.1f} epochs")
        if step % len(batches) == 0:                                          # a new epoch, a new order
            order = torch.randperm(len(batches), generator=torch.Generator().manual_seed(SEED + step // len(batches)))
        for g in opt.param_groups:
            g["lr"] = lr_at(step, total or 10**9, PEAK_LR, WARMUP)
        loss = batch_loss(master, rungs, vocab_ids, batches[order[step % len(batches)]])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        step += 1
        if clock.now() - started > minutes * 60 * OVERRUN:
            log(f"online: stopped at step {step}, past the time given")
            break
        if step % LOG_EVERY == 0:
            log(f"online: step {step}/{total} loss {loss.item():.3f} ({(clock.now() - started) / 60:.1f} min)")
    return step


def trainable(master, rungs) -> list[torch.nn.Parameter]:
    """Each rung's weights once (the exit's layers are the draft's), less the master's frozen embedding."""
    embedding = master.get_input_embeddings().weight
    return list({id(p): p for rung in rungs for p in rung.parameters() if p is not embedding}.values())


def planned_steps(step: int, seconds_a_step: float, seconds_left: float) -> int:
    """The schedule's last step: as many more as the time left allows at the pace measured, at least one."""
    return step + max(1, int(seconds_left / seconds_a_step))
