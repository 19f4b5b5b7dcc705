"""The master's answers to the broad prompt set, with its hidden states at every position: the feature scribe's text.

Answers are sampled from a bfloat16 copy of the master (twice the speed of float32 on these cores,
the same model to within rounding) at T = 0.7, top-p 0.95, the pair's default. The features are then
read from the float32 master itself in one teacher-forced forward per batch (a batched forward costs
about what one does on a bandwidth-bound CPU), because at decode time the scribe reads the float32
master. Saved per position, in bfloat16: the master's normed top state (what its head reads) and the
outputs of a low and a middle layer, so the scribe can fuse several layers (EAGLE-3) or read the top
one alone (EAGLE), and the training can measure which. Each batch is its own seeded shard: an
interrupted run resumes at the first missing one.
"""
from __future__ import annotations

import time

import torch

from specdec_core.pairs.registry import load_pair
from training.smollm2.broad_prompts import broad_prompts
from training.eagle.features import features
from training.whole_files import save_whole
from training.smollm2.master_answers import left_padded
from training.smollm2.paths import DATA

FEATURES = DATA / "master-features"
LOW_MID = (2, 15)          # hidden_states indices (0 is the embedding): after the 2nd and the 15th of 30 layers
MAX_NEW_TOKENS = 128
BATCH = 64
SEED = 34


def shard_path(index: int):
    return FEATURES / f"shard_{index:04d}.pt"


def batches() -> list[list[str]]:
    prompts = broad_prompts()
    return [prompts[i:i + BATCH] for i in range(0, len(prompts), BATCH)]


def generate(minutes: float | None = None, threads: int = 2, log=print) -> int:
    """Write missing shards in order; stop after ``minutes`` (None: all). Returns the shards present."""
    torch.set_num_threads(threads)
    FEATURES.mkdir(parents=True, exist_ok=True)
    pair = load_pair("smollm2", "cpu")
    sampler = _bf16_copy(pair.target)
    started, all_batches = time.time(), batches()
    for index, batch in enumerate(all_batches):
        if shard_path(index).exists():
            continue
        if minutes is not None and time.time() - started > minutes * 60:
            break
        t0 = time.time()
        sequences, prompt_lens = sample_answers(pair, sampler, batch, SEED + index)
        states = features(pair.target, sequences, LOW_MID, pad_id=0)
        save_whole({"sequences": sequences, "prompt_lens": prompt_lens, "features": states}, shard_path(index))
        n = sum(map(len, sequences))
        log(f"features shard {index + 1}/{len(all_batches)}: {n} positions, {n / (time.time() - t0):.0f} positions/s")
    return sum(shard_path(i).exists() for i in range(len(all_batches)))


def _bf16_copy(model):
    import copy
    return copy.deepcopy(model).to(torch.bfloat16)


@torch.inference_mode()
def sample_answers(pair, sampler, texts: list[str], seed: int) -> tuple[list[list[int]], list[int]]:
    """Each prompt (chat template applied) with the master's answer through its end token."""
    pad, eos = pair.tokenizer.pad_token_id, pair.tokenizer.eos_token_id
    prompts = [pair.encode_prompt(text, MAX_NEW_TOKENS) for text in texts]
    ids, mask = left_padded(prompts, pad)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        out = sampler.generate(input_ids=ids, attention_mask=mask, do_sample=True, temperature=0.7, top_p=0.95,
                               max_new_tokens=MAX_NEW_TOKENS, pad_token_id=pad, eos_token_id=eos)
    sequences = []
    for row, prompt in enumerate(prompts):
        answer = out[row, ids.shape[1]:].tolist()
        n = answer.index(eos) + 1 if eos in answer else len(answer)
        sequences.append(prompt + answer[:n])
    return sequences, [len(p) for p in prompts]
