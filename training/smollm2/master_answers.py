"""The master's own answers, with its top-k log-probabilities at every answer position.

Sampling at temperature 0.7 and top-p 0.95 (the setting the bar is measured at) gives the text the
scribe will draft in; the log-probabilities recorded are the master's raw ones (temperature 1), so
the student learns the distribution itself and temperature acts on both alike. Each batch is its
own seeded file: an interrupted run resumes at the first missing one and reproduces the rest.
"""
from __future__ import annotations

import time

import torch

from specdec_core.pairs.registry import load_pair
from training.whole_files import save_whole
from training.smollm2.paths import TEACHER
from training.smollm2.prompts import extra_training_prompts, training_prompts

TOP_K = 64
MAX_NEW_TOKENS = 128
BATCH = 32
SEED = 11


def shard_path(index: int):
    return TEACHER / f"shard_{index:04d}.pt"


def chunks(items: list, size: int = BATCH) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def prompt_batches() -> list[list[str]]:
    """The first round's batches, then the extra topics' from a fresh batch: adding the second
    round left the first round's shards as they were."""
    return chunks(training_prompts()) + chunks(extra_training_prompts())


def held_back() -> list[int]:
    """Shard indices kept from training to watch its loss: the first round's last two."""
    n = len(chunks(training_prompts()))
    return [n - 2, n - 1]


def generate(minutes: float | None = None, threads: int = 1, log=print, part: tuple[int, int] = (0, 1)) -> int:
    """Write missing shards in order; stop after ``minutes`` (None: all). Returns shards present.

    ``part`` (i, n) writes only shards whose index is i modulo n, so n processes can share the work.
    """
    torch.set_num_threads(threads)
    TEACHER.mkdir(parents=True, exist_ok=True)
    pair = load_pair("smollm2", "cpu")
    batches = prompt_batches()
    started = time.time()
    for index, batch in enumerate(batches):
        if index % part[1] != part[0] or shard_path(index).exists():
            continue
        if minutes is not None and time.time() - started > minutes * 60:
            break
        t0 = time.time()
        shard = answer_batch(pair, [pair.encode_prompt(t, MAX_NEW_TOKENS) for t in batch], SEED + index)
        save_whole(shard, shard_path(index))
        n = sum(len(a) for a in shard["topk_ids"])
        log(f"shard {index + 1}/{len(batches)}: {n} answer tokens, {n / (time.time() - t0):.0f} tok/s")
    return sum(shard_path(i).exists() for i in range(len(batches)))


@torch.inference_mode()
def answer_batch(pair, prompts: list[list[int]], seed: int, max_new_tokens: int = MAX_NEW_TOKENS,
                 keep_logits: bool = False) -> dict:
    """Sample answers for left-padded prompts; keep each answer through its end token.

    With ``keep_logits`` the shard also holds the master's whole raw logits at each answer position.
    """
    pad, eos = pair.tokenizer.pad_token_id, pair.tokenizer.eos_token_id
    ids, mask = left_padded(prompts, pad)
    width = ids.shape[1]
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)                       # generate samples from the global RNG
        out = pair.target.generate(
            input_ids=ids, attention_mask=mask, do_sample=True, temperature=0.7, top_p=0.95,
            max_new_tokens=max_new_tokens, pad_token_id=pad, eos_token_id=eos,
            output_logits=True, return_dict_in_generate=True,
        )
    logp = torch.stack(out.logits, dim=1).float().log_softmax(-1)        # (B, steps, V), raw: T = 1
    top = logp.topk(TOP_K, dim=-1)
    shard = {"sequences": [], "prompt_lens": [], "topk_ids": [], "topk_logp": [], "logits": []}
    for row, prompt in enumerate(prompts):
        answer = out.sequences[row, width:].tolist()
        n = answer.index(eos) + 1 if eos in answer else len(answer)
        shard["sequences"].append(prompt + answer[:n])
        shard["prompt_lens"].append(len(prompt))
        shard["topk_ids"].append(top.indices[row, :n].to(torch.int32).clone())
        shard["topk_logp"].append(top.values[row, :n].to(torch.float16).clone())
        if keep_logits:
            shard["logits"].append(torch.stack([step[row] for step in out.logits[:n]]).float())
    return shard


def left_padded(prompts: list[list[int]], pad: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(ids, attention mask) with every prompt ending in the last column: answers start together."""
    width = max(map(len, prompts))
    ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts])
    mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts])
    return ids, mask


def load_shards(first_round_only: bool = False) -> tuple[list[dict], list[dict]]:
    """(training shards, held-back shards) among those written so far."""
    held = held_back()
    last = len(chunks(training_prompts())) if first_round_only else len(prompt_batches())
    present = [i for i in range(last) if shard_path(i).exists() and i not in held]
    return [torch.load(shard_path(i)) for i in present], held_back_shards()


def held_back_shards() -> list[dict]:
    """The held-back shards written so far (all of the first round's, so in every load)."""
    return [torch.load(shard_path(i)) for i in held_back() if shard_path(i).exists()]
