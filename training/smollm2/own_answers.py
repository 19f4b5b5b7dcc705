"""The draft's own answers, with the master's top-k log-probabilities at every answer position.

On-policy distillation (Zhou et al. 2023, DistillSpec; Agarwal et al. 2024): the student samples the
text and the teacher scores it. The teacher stage spends a master forward on every sampled token
(about 65 tokens/s per core); here the draft, about a sixth of the master's cost, samples the
answers, and one master forward over each whole answer labels all of its positions at once. The
answers are to the training prompts again (never a held-out one), sampled at temperature 0.7,
top-p 0.95, each batch with its own seed; shards have the teacher stage's format.

Rounds are numbered as in the model card: round 3 is the first on-policy text (sampled by round
two's draft, trained on by the distill-own stage); round 4 is sampled by whatever draft is shipped then.
"""
from __future__ import annotations

import time

import torch
from transformers import DynamicCache

from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.pairs.registry import load_pair
from specdec_core.settings import SamplingConfig
from training.whole_files import save_whole
from training.smollm2.master_answers import MAX_NEW_TOKENS, TOP_K, held_back, left_padded, prompt_batches
from training.smollm2.paths import ONPOLICY

SEED = 1011
FIRST_ROUND = 3
SAMPLING = SamplingConfig(0.7, top_p=0.95)
LABEL_ROWS = 8             # answers per master forward: bounds the logits' memory


def shard_path(index: int, round_no: int = FIRST_ROUND):
    return ONPOLICY / f"round{round_no}" / f"shard_{index:04d}.pt"


def generate(minutes: float | None = None, threads: int = 1, log=print, part: tuple[int, int] = (0, 1),
             round_no: int = FIRST_ROUND) -> int:
    """Write round ``round_no``'s missing shards with the shipped distilled draft (``part`` as in
    the teacher stage); stop after ``minutes``. Returns shards present."""
    torch.set_num_threads(threads)
    shard_path(0, round_no).parent.mkdir(parents=True, exist_ok=True)
    seed = SEED + 1000 * (round_no - FIRST_ROUND)
    pair = load_pair("smollm2", "cpu")
    scribe = pair.draft("distilled")
    batches = prompt_batches()
    started = time.time()
    for index, batch in enumerate(batches):
        if index % part[1] != part[0] or shard_path(index, round_no).exists():
            continue
        if minutes is not None and time.time() - started > minutes * 60:
            break
        t0 = time.time()
        prompts = [pair.encode_prompt(t, MAX_NEW_TOKENS) for t in batch]
        answers = draft_answers(scribe.model, scribe.vocab_ids, prompts, pair.tokenizer, seed + index)
        t1 = time.time()
        shard = master_labels(pair.target, prompts, answers, pair.tokenizer.pad_token_id)
        save_whole(shard, shard_path(index, round_no))
        n = sum(map(len, answers))
        log(f"on-policy round {round_no} shard {index + 1}/{len(batches)}: {n} answer tokens, "
            f"{n / (t1 - t0):.0f} tok/s sampled, {n / (time.time() - t1):.0f} tok/s labelled")
    return len(batches) - missing_shards(round_no)


@torch.inference_mode()
def draft_answers(draft, vocab_ids: torch.Tensor, prompts: list[list[int]], tokenizer, seed: int,
                  max_new_tokens: int = MAX_NEW_TOKENS, sampling: SamplingConfig = SAMPLING) -> list[list[int]]:
    """Answers the draft samples for left-padded prompts, each through its end token.

    Rotary positions are relative, so left padding (masked) leaves the attention as it would be
    unpadded."""
    pad, eos = tokenizer.pad_token_id, tokenizer.eos_token_id
    ids, mask = left_padded(prompts, pad)
    generator = torch.Generator().manual_seed(seed)
    cache, answers, done = DynamicCache(), [[] for _ in prompts], torch.zeros(len(prompts), dtype=torch.bool)
    step_ids = ids
    for _ in range(max_new_tokens):
        logits = draft(input_ids=step_ids, attention_mask=mask, cache=cache, use_cache=True, logits_to_keep=1).logits[:, -1]
        rows = torch.multinomial(probs_from_logits(logits, sampling), 1, generator=generator).squeeze(1)
        tokens = vocab_ids[rows]
        for r in torch.nonzero(~done).flatten().tolist():
            answers[r].append(tokens[r].item())
        done |= tokens == eos
        if done.all():
            break
        step_ids = tokens.unsqueeze(1)
        mask = torch.cat([mask, torch.ones((len(prompts), 1), dtype=mask.dtype)], dim=1)
    return answers


@torch.inference_mode()
def master_labels(master, prompts: list[list[int]], answers: list[list[int]], pad: int) -> dict:
    """The teacher stage's shard for these answers: the master's raw top-k at each answer position."""
    shard = {"sequences": [], "prompt_lens": [], "topk_ids": [], "topk_logp": []}
    order = sorted(range(len(prompts)), key=lambda r: len(prompts[r]) + len(answers[r]))   # less padding
    prompts, answers = [prompts[r] for r in order], [answers[r] for r in order]
    for start in range(0, len(prompts), LABEL_ROWS):
        seqs = [p + a for p, a in zip(prompts[start:start + LABEL_ROWS], answers[start:start + LABEL_ROWS])]
        width = max(map(len, seqs))
        ids = torch.tensor([s + [pad] * (width - len(s)) for s in seqs])
        mask = torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in seqs])
        hidden = master.model(input_ids=ids, attention_mask=mask).last_hidden_state
        for row, (seq, prompt) in enumerate(zip(seqs, prompts[start:start + LABEL_ROWS])):
            logits = master.lm_head(hidden[row, len(prompt) - 1:len(seq) - 1])     # answer positions only
            top = logits.float().log_softmax(-1).topk(min(TOP_K, logits.shape[-1]), dim=-1)
            shard["sequences"].append(seq)
            shard["prompt_lens"].append(len(prompt))
            shard["topk_ids"].append(top.indices.to(torch.int32).clone())
            shard["topk_logp"].append(top.values.to(torch.float16).clone())
    return shard


def missing_shards(round_no: int) -> int:
    """How many of round ``round_no``'s shards are still to be written."""
    return sum(not shard_path(i, round_no).exists() for i in range(len(prompt_batches())))


def require_complete(round_no: int) -> None:
    """Stop with the command to run while any of round ``round_no``'s shards is missing."""
    missing = missing_shards(round_no)
    if missing:
        raise SystemExit(f"run own-answers --round {round_no} to its end first: {missing} of its shards are missing")


def shards_through(round_no: int) -> list[dict]:
    """The draft's own answers of every round from the first to ``round_no``."""
    return [shard for r in range(FIRST_ROUND, round_no + 1) for shard in load_shards(r)]


def load_shards(round_no: int = FIRST_ROUND) -> list[dict]:
    """Round ``round_no``'s shards written so far, less those answering the held-back batches' prompts: the held-back
    answers stay unseen."""
    held = held_back()
    paths = [shard_path(i, round_no) for i in range(len(prompt_batches())) if i not in held]
    return [torch.load(path) for path in paths if path.exists()]
