"""The engine drafts and verifies trees: round.tree_round on the lean forward, through speculative_generate.

A tree of branching 1 is the chain and writes the chain round's tokens from the same seed; greedy trees
write the master's greedy text; the first token a sampled tree writes follows p (goodness of fit) while
the broken tree-no-residual rule is caught (static and dynamic shapes); scribes and masters that cannot read a tree are refused."""
import numpy as np
import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from specdec_core.algorithm.round import tree_round
from specdec_core.algorithm.sampling import probs_from_logits
from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.algorithm.trace import Trace
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.decoding.round_models import OneRowDraft, OneRowTarget
from specdec_core.drafts import LMDraft
from specdec_core.pairs.pair import ModelPair
from specdec_core.runtimes.lean_llama import LeanLlamaLM
from specdec_core.algorithm.tree_shape import TreeShape
from specdec_core.settings import MAX_K, DecodeSettings, Refusal, SamplingConfig, SettingsError, tree_nodes
from tests.test_shared_embedding_draft import llama_master

GREEDY = SamplingConfig(temperature=0)


def llama_scribe(vocab_size: int, seed: int = 4) -> LlamaForCausalLM:
    """A smaller random Llama over the same vocabulary: a poor scribe, so siblings are often rejected."""
    config = LlamaConfig(vocab_size=vocab_size, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=128,
                         tie_word_embeddings=True, initializer_range=0.3, bos_token_id=1, eos_token_id=2, pad_token_id=0)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return LlamaForCausalLM(config).eval()


@pytest.fixture(scope="module")
def llamas(tiny):
    """(target, a scribe factory) of two random Llamas on the tiny pair's vocabulary, both on the lean forward."""
    master, scribe = llama_master(tiny.vocab_size), llama_scribe(tiny.vocab_size)
    target = ModelPair("llama-tiny", master, tiny.tokenizer, {}, "").as_target()
    return target, lambda: LMDraft("llama-scribe", scribe, tiny.vocab_size)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_a_tree_of_branching_one_writes_the_chains_tokens_from_the_same_seed(llamas, tiny_prompt, seed):
    target, scribe = llamas
    chain = DecodeSettings(k=4, seed=seed, max_new_tokens=24, stop_at_eos=False)
    tree = DecodeSettings(k=4, seed=seed, max_new_tokens=24, stop_at_eos=False, tree="1-1-1-1")
    by_chain, by_tree = speculative_generate(target, scribe(), tiny_prompt, chain), speculative_generate(target, scribe(), tiny_prompt, tree)
    assert by_tree.tokens == by_chain.tokens
    assert [r.n_accepted for r in by_tree.rounds] == [r.n_accepted for r in by_chain.rounds]
    assert all(len(r.tree) == r.k for r in by_tree.rounds) and not any(r.tree for r in by_chain.rounds)


@pytest.mark.parametrize("shape", ["3-2-1-1", "2-2-2", "4", "1-3-1-2-1", "dynamic-2-10", "dynamic-4-16"])
def test_a_greedy_tree_writes_the_masters_greedy_text(llamas, tiny_prompt, shape):
    target, scribe = llamas
    settings = DecodeSettings(sampling=GREEDY, max_new_tokens=40, stop_at_eos=False, tree=shape)
    assert speculative_generate(target, scribe(), tiny_prompt, settings).tokens == plain_generate(target, tiny_prompt, settings).tokens


def test_a_tree_round_keeps_the_context_and_the_accepted_path_in_both_caches(llamas, tiny_prompt):
    target, scribe = llamas
    settings = DecodeSettings(max_new_tokens=60, stop_at_eos=False, tree="3-2-1-1", seed=7)
    trace = speculative_generate(target, scribe(), tiny_prompt, settings)
    for r in trace.rounds:
        assert r.target_cache == [r.context_len - 1, r.context_len, r.context_len + r.n_accepted]
        assert len(r.tree) == tree_nodes((3, 2, 1, 1)[: r.k])
        if r.k:
            assert r.draft_cache[-1] == r.context_len + min(r.n_accepted, r.k - 1)   # the draft never feeds its leaves
    assert max(r.n_accepted for r in trace.rounds) >= 2          # the walk goes past the first depth at times


def test_a_tree_runs_trace_round_trips_and_records_every_node(llamas, tiny_prompt):
    target, scribe = llamas
    trace = speculative_generate(target, scribe(), tiny_prompt, DecodeSettings(max_new_tokens=30, tree="3-2", seed=2))
    again = Trace.from_json(trace.to_json())
    assert again.tokens == trace.tokens and again.rounds[0].tree == trace.rounds[0].tree
    full = [r for r in trace.rounds if r.k == 2]
    for r in full:
        assert [node.parent for node in r.tree] == [-1, -1, -1, 0, 0, 1, 1, 2, 2]
        path = [i for i, node in enumerate(r.tree) if node.accepted]
        assert [r.tree[i].parent for i in path] == [-1, *path][: len(path)]   # one path from the root down
        assert len(path) == r.n_accepted
        assert [step.token for step in r.drafted[: r.n_accepted]] == [r.tree[i].token for i in path]
    assert trace.settings["tree"] == "3-2"


def first_tokens(target, scribe, prompt: list[int], settings, runs: int, count: int) -> list[tuple[int, ...]]:
    """The first `count` tokens tree rounds write after the prompt, in each of `runs` runs drawn from one generator."""
    target_lm, draft = LeanLlamaLM(target.model), scribe()
    generator, written = torch.Generator().manual_seed(settings.seed), []
    models = OneRowTarget(target_lm), OneRowDraft(draft)
    for _ in range(runs):
        target_lm.start()
        draft.start()
        target_lm.logits(prompt[:-1])
        draft.prefill(prompt[:-1])
        new: list[int] = []
        while len(new) < count:
            contexts = torch.tensor([prompt + new])
            new += tree_round(*models, contexts, settings.shape.at_most(count - len(new)), settings, generator).new_tokens()[0]
        written.append(tuple(new[:count]))
    return written


def target_joint(target, prompt: list[int], settings) -> np.ndarray:
    """p(x1) p(x2 | x1) over every pair (V * V,), from the master alone."""
    lm = LeanLlamaLM(target.model)
    first = probs_from_logits(lm.logits(prompt)[-1], settings.sampling).double()
    rows = [first[x] * probs_from_logits(LeanLlamaLM(target.model).logits(prompt + [x])[-1], settings.sampling).double()
            for x in range(len(first))]
    return torch.stack(rows).flatten().numpy()


@pytest.mark.parametrize("shape, rule, exact", [("4-2", "exact", True), ("dynamic-3-9", "exact", True),
                                               ("4-2", "tree-no-residual", False)])
def test_the_first_two_tokens_of_sampled_trees_follow_p_and_the_broken_rule_is_caught(llamas, tiny_prompt, shape, rule, exact):
    """Goodness of fit at the engine, 3,000 runs: the first two written tokens (through depth 2 of the tree,
    or a second round) against p(x1) p(x2 | x1). The dynamic tree decides each node's children from the
    path's confidence before drawing them, which keeps them i.i.d. from q."""
    target, scribe = llamas
    settings = DecodeSettings(tree=shape, rule=rule, seed=11)
    written = first_tokens(target, scribe, tiny_prompt, settings, runs=3000, count=2)
    vocab = target.vocab_size
    counts = np.bincount([a * vocab + b for a, b in written], minlength=vocab * vocab)
    fit = goodness_of_fit(counts, target_joint(target, tiny_prompt, settings))
    assert (fit.p_value > 0.001) if exact else (fit.p_value < 1e-6)


def test_scribes_without_a_tree_forward_and_masters_without_the_lean_one_are_refused(tiny, llamas, tiny_prompt):
    target, _ = llamas
    settings = DecodeSettings(tree="2-2")
    for name in ("ngram", "prompt-lookup"):
        with pytest.raises(Refusal, match="drafts chains only") as refused:
            speculative_generate(target, tiny.draft(name), tiny_prompt, settings)
        assert refused.value.reason == "tree_scribe" and refused.value.values == {"scribe": name}
    with pytest.raises(Refusal, match="lean forward") as refused:
        speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, settings)   # GPT-2: transformers' forward
    assert refused.value.reason == "tree_master"


@pytest.mark.parametrize("text, reason", [("3-x", "tree_unreadable"), ("3--1", "tree_unreadable"), ("9-1", "tree_branching"),
                                          ("0-1", "tree_branching"), ("8-8-8", "tree_too_big")])
def test_a_tree_shape_that_is_not_one_is_refused_with_its_reason(text, reason):
    with pytest.raises(SettingsError) as refused:
        DecodeSettings(tree=text)
    assert refused.value.reason == reason


def test_a_shape_reads_as_its_branching_and_a_chain_as_k_ones():
    assert DecodeSettings(tree="3-2-1-1").shape == TreeShape(branching=(3, 2, 1, 1))
    assert DecodeSettings(k=5).shape == TreeShape(branching=(1, 1, 1, 1, 1))
    assert DecodeSettings(tree="dynamic-3-20").shape == TreeShape(width=3, budget=20, depth=MAX_K)
    assert DecodeSettings.from_dict(DecodeSettings(tree="2-1").as_dict()).tree == "2-1"
