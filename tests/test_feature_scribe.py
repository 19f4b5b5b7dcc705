"""The feature scribe (EAGLE) on a tiny random Llama master.

Decoding must draft exactly what training taught: the q of the 1st, 2nd and 3rd drafted token equals
the training unroll's (true states up to the last verified position, its own guesses after), and after a
verdict the scribe reads the master's true states again. The rule stays exact: greedy output is the
master's, and the proof's batch path passes a goodness-of-fit test. Files round-trip in int8.
"""
from dataclasses import replace

import pytest
import torch

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.decoding.proof import run_proof
from specdec_core.drafts.feature import FEATURE_SCRIBE, FeatureDraft, reads_master_notes
from specdec_core.drafts.subset_lm import over_vocab
from specdec_core.runtimes.feature_scribe import Int8Linear, load_scribe, master_states, save_scribe
from specdec_core.runtimes.lean_llama import LeanLlamaLM, cached_lm_for
from specdec_core.settings import DecodeSettings, SamplingConfig
from tests.test_shared_embedding_draft import llama_master, llama_pair
from training.eagle import train as eagle_train
from training.eagle.train import fresh_scribe, step_mask, unrolled

SEQUENCE = [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 4, 5, 13, 14, 15, 3]
SETTINGS = DecodeSettings(k=3, sampling=SamplingConfig(temperature=0.8), seed=1)


@pytest.fixture(scope="module")
def master(tiny):
    return llama_master(tiny.vocab_size)


@pytest.fixture(scope="module")
def scribe(master):
    torch.manual_seed(5)
    made = fresh_scribe(master, torch.arange(3, master.config.vocab_size)).eval()
    with torch.no_grad():      # a scribe whose layer matters, not the near-identity it starts as
        for param in made.layer.parameters():
            if param.dim() == 2:
                param.normal_(0, 0.3)
    return made


def drafted_by_training(scribe, master, step: int, position: int) -> torch.Tensor:
    """The logits the training unroll gives for the step-th drafted token read at `position`."""
    sequence = torch.tensor([SEQUENCE])
    with torch.no_grad():
        guesses = unrolled(scribe, master, sequence, master_states(master, sequence), noise=0.0)
    head = master.get_output_embeddings().weight[scribe.vocab_ids]
    return over_vocab(guesses[step - 1][0, position] @ head.T, scribe.vocab_ids, master.config.vocab_size)


def test_the_masks_let_step_s_see_true_keys_then_one_guess_per_step():
    mask = step_mask(3, 5)          # (T, 3T): true keys, step-2 keys, step-3 keys
    assert mask[4, :5].tolist() == [True, True, True, False, False]      # true states up to t - 2
    assert mask[4, 5:10].tolist() == [False, False, False, True, False]  # its 2nd-step guess at t - 1
    assert mask[4, 10:].tolist() == [False, False, False, False, True]   # its 3rd-step guess at t


def test_decoding_drafts_what_training_taught_then_reads_the_masters_states_again(scribe, master):
    lm = cached_lm_for(master)
    assert isinstance(lm, LeanLlamaLM)
    draft = FeatureDraft(FEATURE_SCRIBE, scribe, master, master.config.vocab_size)
    draft.start()
    draft.reads_master(lm)
    lm.logits(SEQUENCE[:5])
    draft.prefill(SEQUENCE[:5])
    # a round from a context of 6: the master holds 5 positions, the scribe drafts 3 tokens
    for step, length in enumerate((6, 7, 8), start=1):
        got = draft.next_logits(SEQUENCE[:length])
        torch.testing.assert_close(got, drafted_by_training(scribe, master, step, length - 2), atol=1e-4, rtol=1e-4)
    lm.logits(SEQUENCE[:8], n_last=3)           # the glance; one drafted token sealed, then a correction
    lm.rollback(7)
    draft.rollback(7)
    assert draft.cache_len == 5                 # its guesses are dropped, sealed or not
    got = draft.next_logits(SEQUENCE[:8])       # next round: positions 5 and 6 read the master's true states
    assert draft.cache_len == 7
    torch.testing.assert_close(got, drafted_by_training(scribe, master, 1, 6), atol=1e-4, rtol=1e-4)


def test_greedy_output_is_the_masters(scribe, master, tiny, tiny_prompt):
    greedy = replace(SETTINGS, sampling=SamplingConfig(temperature=0.0), max_new_tokens=40, stop_at_eos=False)
    target = llama_pair(master, tiny).as_target()
    draft = FeatureDraft(FEATURE_SCRIBE, scribe, master, tiny.vocab_size)
    spec = speculative_generate(target, draft, tiny_prompt, greedy)
    assert spec.tokens == plain_generate(target, tiny_prompt, greedy).tokens
    assert any(r.n_accepted for r in spec.rounds) and any(r.n_accepted < len(r.drafted) for r in spec.rounds)


def test_the_proof_of_its_batch_path_passes_and_catches_a_broken_rule(scribe, master, tiny_prompt):
    draft = FeatureDraft(FEATURE_SCRIBE, scribe, master, master.config.vocab_size)
    exact = run_proof(master, draft, tiny_prompt, 20_000, 2, SETTINGS, batch_size=4000)
    assert exact.fit.p_value > 0.001 and exact.fit.tv_ci[0] < 0.01
    broken = run_proof(master, draft, tiny_prompt, 20_000, 2, replace(SETTINGS, rule="accept-all"), batch_size=4000)
    assert broken.fit.p_value < 1e-6      # the negative control: the test can fail


def test_its_files_round_trip_in_int8(scribe, master, tmp_path):
    save_scribe(scribe, tmp_path, {"hidden_size": master.config.hidden_size})
    loaded = load_scribe(master, tmp_path)
    assert isinstance(loaded.fuse, Int8Linear) and torch.equal(loaded.vocab_ids, scribe.vocab_ids)
    floats = load_scribe(master, tmp_path, int8_matmul=False)
    assert (floats.fuse.weight - scribe.fuse.weight).abs().max() < 0.01 * scribe.fuse.weight.abs().max()
    with pytest.raises(ValueError, match="not built for this master"):
        load_scribe(llama_master(master.config.vocab_size, hidden=48), tmp_path)


def test_only_the_feature_rung_reads_the_masters_notes():
    assert reads_master_notes(FEATURE_SCRIBE) and not reads_master_notes("int8-master")
    assert eagle_train.STEPS >= 2     # training unrolls past the first drafted token (EAGLE-3's training-time test)


def test_a_tree_node_drafts_what_the_chain_along_its_path_would(scribe, master):
    """Each node reads its parent's guess at its depth's position and sees only its ancestors: its q is the
    chain's q after the same path."""
    lm = cached_lm_for(master)
    tree_draft = FeatureDraft(FEATURE_SCRIBE, scribe, master, master.config.vocab_size)
    tree_draft.start()
    tree_draft.reads_master(lm)
    lm.logits(SEQUENCE[:5])
    tree_draft.prefill(SEQUENCE[:5])
    context, tokens, parents = SEQUENCE[:6], [7, 9, 10, 11, 12], [-1, -1, 0, 1, 1]
    root = tree_draft.tree_logits(context, [], [], 1)
    first = tree_draft.tree_logits(context, tokens[:2], parents[:2], 2)
    second = tree_draft.tree_logits(context, tokens, parents, 3)
    for got, path in zip([*first, *second], [[7], [9], [7, 10], [9, 11], [9, 12]]):
        chain = FeatureDraft(FEATURE_SCRIBE, scribe, master, master.config.vocab_size)
        chain.start()
        chain.reads_master(lm)
        chain.prefill(SEQUENCE[:5])
        # equal up to float32 rounding: a tree's rows sum in another order (a few ulps of logits near 35); a wrong
        # ancestor or position would move them by whole units
        torch.testing.assert_close(got, chain.next_logits(context + path), atol=1e-5, rtol=1e-6)
    torch.testing.assert_close(root[0], chain.next_logits(context), atol=1e-5, rtol=1e-6)
    tree_draft.keep_path([1, 3])
    assert tree_draft.cache_len == 5                  # guesses forgotten: the master's states come next round


@pytest.mark.parametrize("shape", ["1-1-1", "3-2-1"])
def test_a_greedy_tree_of_the_feature_scribe_writes_the_masters_text(scribe, master, tiny, tiny_prompt, shape):
    greedy = replace(SETTINGS, sampling=SamplingConfig(temperature=0.0), max_new_tokens=40, stop_at_eos=False, tree=shape)
    target = llama_pair(master, tiny).as_target()
    draft = FeatureDraft(FEATURE_SCRIBE, scribe, master, tiny.vocab_size)
    assert speculative_generate(target, draft, tiny_prompt, greedy).tokens == plain_generate(target, tiny_prompt, greedy).tokens


def test_a_sampled_chain_shaped_tree_of_the_feature_scribe_writes_the_chains_tokens(scribe, master, tiny, tiny_prompt):
    target = llama_pair(master, tiny).as_target()
    chain = replace(SETTINGS, max_new_tokens=30, stop_at_eos=False)
    by_chain = speculative_generate(target, FeatureDraft(FEATURE_SCRIBE, scribe, master, tiny.vocab_size), tiny_prompt, chain)
    by_tree = speculative_generate(target, FeatureDraft(FEATURE_SCRIBE, scribe, master, tiny.vocab_size), tiny_prompt,
                                   replace(chain, tree="1-1-1"))
    assert by_tree.tokens == by_chain.tokens
