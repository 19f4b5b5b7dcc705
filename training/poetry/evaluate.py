"""Measure every exported model and write assets/models/poetry/metrics.json.

* val loss: nats per token over validation entries (util.val_loss).
* alpha: mean over positions of sum_x min(p(x), q(x)), p = master, q = scribe, both softmax(logits/T),
  on (a) validation text and (b) text the master samples itself (what a decode actually visits),
  for every rung of the ladder: the transformer scribes and the count scribes in ngram/.
* the eagle rung (a feature scribe, training/poetry/eagle.py) drafts from the master's states: its q at
  position i reads the master's state at i - 1, so it has none after ``<s>`` alone (an app prompt
  always has a character) and its row counts positions 1 onward. Its alpha is also measured at the
  1st, 2nd and 3rd drafted step ("eagle_alpha_by_step"): step s reads its own guesses for s - 1
  positions, as it does in a round, the text's tokens in the drafted slots; all steps over the same
  positions (3 onward).
* form: of the lines each transformer writes after a validation verse's first line, the share as long
  as that line (five or seven characters; training/poetry/form.py).
* ms/token: single-token forward with a DynamicCache, batch 1, float32, 1 thread (batch-1 decode
  is per-op overhead bound; 2 threads only add contention on a busy 2-core box), all models
  measured side by side in one run (interleaved, median).
"""
from __future__ import annotations

import json
import platform

import torch
import torch.nn.functional as F

from specdec_core.drafts.feature import FEATURE_SCRIBE
from specdec_core.drafts.ngram import NgramModel
from specdec_core.drafts.subset_lm import over_vocab
from specdec_core.pairs.poetry import FEATURE_DIR, FOUR_BIT, QUANTISED  # no files: made from the master when loaded
from specdec_core.runtimes.feature_scribe import WEIGHTS, head_rows, load_scribe
from specdec_core.runtimes.int4_blocks import int4_copy
from specdec_core.runtimes.int8_linear import Int8Linear, int8_copy
from training.poetry import data, form
from training.poetry.models import build_model, describe
from training.poetry.paths import ASSETS, SEED
from training.poetry.sample import sample_after
from training.poetry.tokenizer import read_entries
from training.poetry.util import load_exported, val_loss
from training.timing import decode_ms, verify_ms

MASTER = "master"
SCRIBES = ("tiny", "distilled")
COUNT_RUNGS = ("mismatched", "unigram", "bigram", "trigram")   # ngram/<name>.safetensors
TEMPERATURES = (1.0, 0.7)
PROMPTS = ("床前明月光，", "白日依山盡，", "春眠不覺曉，", "國破山河在，")
CONTROL_PIECES = (data.PAD_ID, data.BOS_ID, data.UNK_ID)   # never to be written into a poem


def available(names) -> list[str]:
    return [n for n in names if (ASSETS / n / "config.json").exists()]


def count_rungs(names=COUNT_RUNGS) -> dict[str, NgramModel]:
    """The count scribes among ``names`` that are built, by name."""
    paths = {n: ASSETS / "ngram" / f"{n}.safetensors" for n in names}
    return {n: NgramModel.load(path) for n, path in paths.items() if path.exists()}


@torch.no_grad()
def logits_on(model, chunks, batch: int = 32) -> list[torch.Tensor]:
    """Per chunk, the logits at every predicting position: list of (T_i, V)."""
    out = []
    for x, m, _, tm in data.padded_batches(chunks, batch):
        lg = model(input_ids=x, attention_mask=m).logits                 # (B, T, V)
        out += [lg[r][tm[r]] for r in range(len(x))]
    return out


def count_logits_on(model: NgramModel, chunks) -> list[torch.Tensor]:
    """Per chunk, the count scribe's log-probabilities at every predicting position: list of (T_i, V)."""
    out = []
    for chunk in chunks:
        tokens = chunk.tolist()
        out.append(torch.stack([model.probs(tokens[: i + 1]).log() for i in range(len(tokens) - 1)]))
    return out


def scribe_logits_on(scribe, chunks) -> list[torch.Tensor]:
    if isinstance(scribe, NgramModel):
        return count_logits_on(scribe, chunks)
    return logits_on(scribe, chunks)


def alpha(p_logits: torch.Tensor, q_logits: torch.Tensor, temperature: float) -> torch.Tensor:
    """sum_x min(p, q) per position (Leviathan et al. 2023, Sec. 3.1), shape (N,)."""
    p = F.softmax(p_logits / temperature, dim=-1)
    q = F.softmax(q_logits / temperature, dim=-1)
    return torch.minimum(p, q).sum(-1)


@torch.no_grad()
def master_samples(master, n: int, length: int, temperature: float, seed: int,
                   cut_at_eos: bool = True) -> list[torch.Tensor]:
    """``n`` sequences ``<s> ...`` sampled from the master (batched, cached), cut at ``</s>``."""
    gen = torch.Generator().manual_seed(seed)
    ids = torch.full((n, 1), data.BOS_ID, dtype=torch.long)
    ids = torch.cat([ids, sample_after(master, ids, length - 1, temperature, gen)], 1)
    if not cut_at_eos:
        return list(ids)
    seqs = []
    for row in ids:
        ends = (row == data.EOS_ID).nonzero().flatten()
        seqs.append(row[: ends[0] + 1] if len(ends) else row)
    return seqs


def alpha_table(master, scribes: dict, chunks) -> dict:
    p_all = torch.cat(logits_on(master, chunks))                         # (N, V)
    table = {}
    for name, model in scribes.items():
        q_all = torch.cat(scribe_logits_on(model, chunks))
        table[name] = {f"T={t}": alpha(p_all, q_all, t).mean().item() for t in TEMPERATURES}
    table["_positions"] = len(p_all)
    return table


def feature_scribe(master):
    """The eagle rung's scribe as the app runs it (int8 rows) over this master, or None if it is not built."""
    if not (FEATURE_DIR / WEIGHTS).exists():
        return None
    return load_scribe(master, FEATURE_DIR)


@torch.no_grad()
def master_states(master, chunks) -> tuple[torch.Tensor, torch.Tensor]:
    """The chunks right-padded (B, L) and the master's normed top states over them (B, L, H), from one forward:
    what its head reads for p and what the eagle rung's scribe reads."""
    tokens = torch.nn.utils.rnn.pad_sequence(chunks, batch_first=True, padding_value=data.PAD_ID)   # (B, L)
    return tokens, master.model(input_ids=tokens).last_hidden_state         # right padding: rows untouched


@torch.no_grad()
def eagle_logits_on(scribe, master, chunks, tokens, states) -> list[list[torch.Tensor]]:
    """Per drafted step s = 1..STEPS, per chunk, the scribe's logits (T_i - s, V) for master positions s onward;
    tokens and states: master_states over the chunks."""
    from training.eagle.train import STEPS, unrolled
    head = head_rows(master, scribe.vocab_ids, int8=isinstance(scribe.fuse, Int8Linear))   # the app's head rows
    out = [[] for _ in range(STEPS)]
    for s, guess in enumerate(unrolled(scribe, master, tokens, states, 0.0), start=1):
        for r, chunk in enumerate(chunks):                             # guess j drafts for master position j + 1
            q = head(guess[r, s - 1 : len(chunk) - 2])
            out[s - 1].append(over_vocab(q, scribe.vocab_ids, master.config.vocab_size))
    return out


@torch.no_grad()
def eagle_alpha(master, scribe, chunks, batch: int = 32) -> tuple[dict, dict]:
    """alpha of the eagle rung on the same text as alpha_table, summed a batch at a time: its ladder row (the
    1st drafted step, positions 1 onward), and by drafted step on the same positions for every step (STEPS
    onward: a poem's first characters are its least predictable, so unequal positions would mislead)."""
    sums = {}

    def add(key: str, p_s: torch.Tensor, q_s: torch.Tensor) -> None:
        row = sums.setdefault(key, {**{f"T={t}": 0.0 for t in TEMPERATURES}, "positions": 0})
        for t in TEMPERATURES:
            row[f"T={t}"] += alpha(p_s, q_s, t).sum().item()
        row["positions"] += len(p_s)

    for i in range(0, len(chunks), batch):
        group = chunks[i:i + batch]
        tokens, states = master_states(master, group)                  # one master forward for p and the scribe
        p = [master.lm_head(states[r, : len(c) - 1]) for r, c in enumerate(group)]   # per chunk (T_i, V)
        by_step = eagle_logits_on(scribe, master, group, tokens, states)   # step s: per chunk positions s onward
        add("rung", torch.cat([p_i[1:] for p_i in p]), torch.cat(by_step[0]))
        for s, q in enumerate(by_step, start=1):
            last = len(by_step)
            add(f"step {s}", torch.cat([p_i[last:] for p_i in p]), torch.cat([q_i[last - s:] for q_i in q]))
    means = {key: {**{k: v / row["positions"] for k, v in row.items() if k != "positions"}, "positions": row["positions"]}
             for key, row in sums.items()}
    return means.pop("rung"), means


def expected_speedup(a: float, c: float, k: int) -> float:
    """Leviathan et al. Thm 3.8: (1 - a^(k+1)) / ((1 - a)(c k + 1))."""
    return (1 - a ** (k + 1)) / ((1 - a) * (c * k + 1))


@torch.no_grad()
def samples(master, tok, temperature: float = 0.8, length: int = 64, seed: int = SEED) -> dict:
    out = {}
    for i, prompt in enumerate(PROMPTS):
        gen = torch.Generator().manual_seed(seed + i)
        ids = tok(prompt, return_tensors="pt")["input_ids"]
        for _ in range(length):
            probs = F.softmax(master(input_ids=ids).logits[0, -1] / temperature, -1)
            nxt = torch.multinomial(probs, 1, generator=gen)
            if nxt.item() == tok.eos_token_id:
                break
            ids = torch.cat([ids, nxt[None]], 1)
        out[prompt] = tok.decode(ids[0], skip_special_tokens=True)
    return out


@torch.no_grad()
def control_mass(master, chunks) -> dict:
    """The largest probability the master gives <pad>, <s> or <unk> at any validation position
    (the </s> that ends a poem is a piece it must write)."""
    p = F.softmax(torch.cat(logits_on(master, chunks)), -1)[:, list(CONTROL_PIECES)]   # (N, 3)
    return {"max_p": p.max().item(), "positions": len(p), "pieces": ["<pad>", "<s>", "<unk>"]}


def form_table(models: dict, tok, seed: int) -> dict:
    """form.score of every transformer model at each temperature, after validation verse's first lines."""
    heads = form.prompts(read_entries("val"))
    table = {}
    for name, model in models.items():
        table[name] = {}
        for t in TEMPERATURES:
            texts = form.continuations(model, tok, heads, t, seed)
            table[name][f"T={t}"] = {**form.score(heads, texts), "examples": dict(zip(heads[:3], texts[:3]))}
    return table


def dir_mib(name: str) -> float:
    return sum(f.stat().st_size for f in (ASSETS / name).iterdir()) / 2 ** 20


def assets_bytes() -> int:
    """The pair's files in bytes (its test's bound is in decimal megabytes; the model card gives MiB)."""
    return sum(f.stat().st_size for f in ASSETS.rglob("*") if f.is_file())


def ladder_alpha(master, rungs: dict, val_chunks, seed: int, eagle=None) -> dict:
    """alpha of every rung on validation text and on the master's own samples (deterministic); with the eagle
    rung's scribe, its row (its 1st drafted step) and its alpha by drafted step."""
    gen_chunks = master_samples(master, n=64, length=96, temperature=1.0, seed=seed)
    texts = {"alpha_val": val_chunks, "alpha_master_samples": gen_chunks}
    tables = {name: alpha_table(master, rungs, chunks) if rungs else {} for name, chunks in texts.items()}
    if eagle is not None:
        measured = {name: eagle_alpha(master, eagle, chunks) for name, chunks in texts.items()}
        for name, table in tables.items():
            table[FEATURE_SCRIBE] = measured[name][0]
        tables["eagle_alpha_by_step"] = {name: by_step for name, (_, by_step) in measured.items()}
    return tables


def update_ladder_alpha(seed: int = SEED, only: tuple[str, ...] = ()) -> dict:
    """Recompute only the alpha tables in metrics.json, keeping its timings; ``only``: just these rungs' rows.

    For a new rung: alpha is deterministic, timings are not, and a busy machine would spoil them.
    """
    torch.set_num_threads(2)
    master = load_exported(MASTER)
    wanted = set(only) if only else {*COUNT_RUNGS, *SCRIBES, QUANTISED, FOUR_BIT, FEATURE_SCRIBE}   # load no other rung
    rungs = {**count_rungs([n for n in COUNT_RUNGS if n in wanted]),
             **{n: load_exported(n) for n in available(SCRIBES) if n in wanted},
             **({QUANTISED: int8_copy(master)} if QUANTISED in wanted else {}),
             **({FOUR_BIT: int4_copy(master)} if FOUR_BIT in wanted else {})}
    eagle = feature_scribe(master) if FEATURE_SCRIBE in wanted else None
    chunks = data.entry_chunks(data.stream("val"), 256)
    path = ASSETS / "metrics.json"
    metrics = json.loads(path.read_text(encoding="utf-8"))
    measured = ladder_alpha(master, rungs, chunks, seed, eagle)
    for key, table in measured.items():
        metrics[key] = {**metrics.get(key, {}), **table} if only and key != "eagle_alpha_by_step" else table
    metrics["total_size_bytes"] = assets_bytes()
    path.write_text(json.dumps(metrics, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return measured


def evaluate_all(seed: int = SEED) -> dict:
    from transformers import AutoTokenizer
    torch.set_num_threads(2)
    names = available((MASTER,) + SCRIBES)
    models = {n: load_exported(n) for n in names}
    val_ids = data.stream("val")
    chunks = data.entry_chunks(val_ids, 256)
    master = models[MASTER]
    scribes = {n: m for n, m in models.items() if n != MASTER}
    quantised = int8_copy(master)
    torch.set_num_threads(1)
    ms = decode_ms({**models, QUANTISED: quantised})
    verify = verify_ms(master)
    torch.set_num_threads(2)
    metrics = {
        "schema": 1,
        "seed": seed,
        "machine": {"platform": platform.platform(), "torch": torch.__version__,
                    "threads": {"timing": 1, "other": 2}},
        "models": {n: {**describe(n),
                       "params": build_model(n, m.config.vocab_size, 0).num_parameters(),  # a bfloat16 model's matrices are buffers
                       "size_mib": round(dir_mib(n), 2),
                       "val_loss_nats_per_token": val_loss(m, val_ids, 256),
                       "ms_per_token": ms[n], "c_vs_master": ms[n] / ms[MASTER]}
                   for n, m in models.items()},
        **ladder_alpha(master, {**count_rungs(), **scribes, QUANTISED: quantised, FOUR_BIT: int4_copy(master)}, chunks, seed, feature_scribe(master)),
        "master_verify_ms": verify,
    }
    metrics["models"][QUANTISED] = {"made": "on load, from the master's matrices (int8 rows)",
                                    "ms_per_token": ms[QUANTISED], "c_vs_master": ms[QUANTISED] / ms[MASTER]}
    for n in [*scribes, QUANTISED]:
        a = metrics["alpha_master_samples"][n]["T=1.0"]
        c = metrics["models"][n]["c_vs_master"]
        metrics["models"][n]["expected_speedup_theory"] = {
            f"k={k}": expected_speedup(a, c, k) for k in (2, 4, 6, 8)}
    tok = AutoTokenizer.from_pretrained(ASSETS / MASTER)
    metrics["master_samples_T0.8"] = samples(master, tok)
    metrics["form"] = form_table(models, tok, seed)
    metrics["form_invented_T0.8"] = form.invented(master, tok, 0.8, per_head=5, seed=seed)
    metrics["control_pieces"] = control_mass(master, chunks)
    metrics["total_size_bytes"] = assets_bytes()
    text = json.dumps(metrics, ensure_ascii=False, indent=2)
    (ASSETS / "metrics.json").write_text(text + "\n", encoding="utf-8")
    print(text)
    return metrics
