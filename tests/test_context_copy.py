"""Context copies for a draft with a partial head: which tokens the context offers, the scores they
get (forced cases), that every path of the scribe applies them alike, that decoding with them stays
exact (greedy equals the master's), and that the fit can decline them."""
import math

import pytest
import torch

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.drafts import SubsetLMDraft
from specdec_core.drafts.context_copy import CopyScores, continuations, with_copies
from specdec_core.settings import DecodeSettings, SamplingConfig
from tests.test_shared_embedding_draft import llama_master, llama_pair
from training.smollm2.copy_scores import GRID, SEEN_OFFSET, alpha_by_scores, best_scores
from training.smollm2.draft_files import draft_from_master
from training.smollm2.evaluate import SEEN_STRIDE
from training.smollm2.prompts import (
    EXTRA_TOPICS,
    TEMPLATES,
    UNSEEN_TOPICS,
    split_topics,
    training_prompts,
    unseen_topic_prompts,
)
from training.smollm2.scoring import logits_along

SCORES = CopyScores(off_head_short=-2.0, off_head_long=3.0, in_head_long=1.5, in_head_longer=2.5)


def as_dict(tokens):
    follow, match = continuations(tokens)
    return dict(zip(follow.tolist(), match.tolist()))


def test_continuations_follow_earlier_occurrences_of_the_last_token():
    #           0  1  2  3  4  5  6  7
    tokens = [5, 7, 9, 4, 7, 8, 5, 7]
    assert as_dict(tokens) == {9: 2, 8: 1}                # "5 7" matched before 9, only "7" before 8


def test_a_continuation_seen_after_several_matches_keeps_its_longest():
    assert as_dict([1, 3, 9, 2, 3, 9, 1, 3]) == {9: 2}
    assert as_dict([1, 2, 3, 9, 4, 2, 3, 9, 1, 2, 3]) == {9: 3}


def test_matches_are_told_apart_up_to_three_tokens():
    assert as_dict([1, 2, 3, 4, 9, 1, 2, 3, 4]) == {9: 3}  # four tokens match: counted as three
    assert as_dict([5, 2, 3, 9, 1, 2, 3]) == {9: 2}


def test_no_earlier_occurrence_and_short_contexts_offer_nothing():
    assert as_dict([1, 2, 3]) == {}
    assert as_dict([4]) == {}
    assert as_dict([]) == {}


def test_the_last_token_repeated_continues_itself():
    assert as_dict([6, 6]) == {6: 1}
    assert as_dict([6, 6, 6]) == {6: 2}
    assert as_dict([6, 6, 6, 6]) == {6: 3}


def head_logits(vocab=12, head=(0, 1, 2, 3, 4, 5)):
    in_head = torch.zeros(vocab, dtype=torch.bool)
    in_head[list(head)] = True
    logits = torch.full((vocab,), -math.inf)
    logits[list(head)] = torch.tensor([1.0, 4.0, 0.5, 2.0, -1.0, 3.0])
    return logits, in_head


def test_off_head_continuations_score_from_the_heads_best_and_in_head_ones_gain_a_bonus():
    logits, in_head = head_logits()
    #         "0 1" before 3 (in the head, long), "1" before 9 (off, short), "0 1" before 10 (off, long)
    tokens = [0, 1, 3, 6, 1, 9, 0, 1, 10, 0, 1]
    out = with_copies(logits, tokens, in_head, SCORES)
    assert out[3] == 2.0 + 1.5
    assert out[9] == 4.0 - 2.0
    assert out[10] == 4.0 + 3.0
    untouched = [t for t in range(12) if t not in (3, 9, 10)]
    assert torch.equal(out[untouched], logits[untouched])
    assert logits[9] == -math.inf                           # the input is left as it was


def test_a_match_of_three_gains_the_larger_bonus_in_the_head_and_the_long_score_off_it():
    logits, in_head = head_logits()
    #         "2 0 1" before 5 (in the head) and before 11 (off it)
    out = with_copies(logits, [2, 0, 1, 5, 2, 0, 1, 11, 2, 0, 1], in_head, SCORES)
    assert out[5] == 3.0 + 2.5
    assert out[11] == 4.0 + 3.0


def test_minus_infinity_leaves_a_kind_out():
    logits, in_head = head_logits()
    out = with_copies(logits, [0, 1, 9, 0, 1], in_head, CopyScores())
    assert torch.equal(out, logits)
    assert with_copies(logits, [0, 1, 2], in_head, SCORES) is logits     # nothing to copy: nothing made


def test_scores_round_trip_through_their_file_and_a_broken_file_is_named(tmp_path):
    assert CopyScores.load(tmp_path) is None
    SCORES.save(tmp_path)
    assert CopyScores.load(tmp_path) == SCORES
    CopyScores().save(tmp_path)
    assert CopyScores.load(tmp_path) == CopyScores()        # -inf survives JSON
    (tmp_path / "context_copy.json").write_text('{"off_head_short": -3, "off_head_long": 3, "in_head_long": 1}')
    assert CopyScores.load(tmp_path) == CopyScores(-3.0, 3.0, 1.0, 0.0)   # a file from before the third tier
    (tmp_path / "context_copy.json").write_text('{"off_head_long": "lots", "x": 1}')
    with pytest.raises(ValueError, match="context_copy.json"):
        CopyScores.load(tmp_path)


@pytest.fixture(scope="module")
def master(tiny):
    return llama_master(tiny.vocab_size)


@pytest.fixture(scope="module")
def scribe(master, tiny):
    vocab_ids = torch.arange(3, tiny.vocab_size, 2)
    draft = draft_from_master(master, [1], vocab_ids).eval()
    return SubsetLMDraft("copying", draft, vocab_ids, tiny.vocab_size, SCORES)


def test_the_cached_batched_and_cache_free_paths_score_alike(scribe, tiny):
    sequence = [1, 4, 6, 4, 6, 9, 4, 6]                     # 4 and 6 are off the head; "4 6" repeats
    start = 4
    along = logits_along(scribe, sequence, start, len(sequence) - start + 1)
    for j in range(len(sequence) - start + 1):
        context = sequence[: start + j]
        scribe.start()
        cached = scribe.next_logits(context)
        batched, valid = scribe.batch_next_logits(torch.tensor([context, context]))
        assert valid.all()
        torch.testing.assert_close(cached, along[j], atol=1e-4, rtol=0)
        torch.testing.assert_close(batched[1], along[j], atol=1e-4, rtol=0)
    assert torch.isfinite(along[-1][4])                     # after "4 6", the earlier "4" (off the head) is offered
    assert along[-2][6] == along[-2][scribe.vocab_ids].max() - 2.0   # after "9 4", "6" followed "1 4" and "6 4"


def test_greedy_decoding_with_copies_equals_the_masters(master, tiny, scribe):
    pair = llama_pair(master, tiny)
    prompt = [1, 4, 6, 8, 4, 6, 8, 4]
    settings = DecodeSettings(k=3, sampling=SamplingConfig(0.0), max_new_tokens=24, stop_at_eos=False)
    plain = plain_generate(pair.as_target(), prompt, settings)
    fast = speculative_generate(pair.as_target(), scribe, prompt, settings)
    assert fast.tokens == plain.tokens
    assert any(r.n_accepted for r in fast.rounds)


def test_the_fit_declines_copies_that_cost_alpha_and_takes_those_that_pay():
    logits, in_head = head_logits()
    context = [0, 1, 9, 0, 1]                               # offers 9, off the head, after a long match
    p_on_copy = torch.full((12,), -math.inf)
    p_on_copy[9] = 0.0                                      # the master writes the copy
    alphas = alpha_by_scores([(context, logits, p_on_copy)], in_head, GRID)
    best = best_scores(alphas)
    assert alphas[CopyScores()] == 0.0 and alphas[best] > 0.9
    p_on_head = logits.clone()                              # the master agrees with the head
    alphas = alpha_by_scores([(context, logits, p_on_head)], in_head, GRID)
    assert best_scores(alphas) == CopyScores()


def test_the_fit_reads_no_held_out_topic_and_not_the_seen_topics_control():
    training, held_out = split_topics()
    assert not set(UNSEEN_TOPICS) & (set(training) | set(held_out) | set(EXTRA_TOPICS))
    assert len(unseen_topic_prompts()) == len(UNSEEN_TOPICS) * len(TEMPLATES)
    fit_seen = set(training_prompts()[SEEN_OFFSET::SEEN_STRIDE])
    assert fit_seen and not fit_seen & set(training_prompts()[::SEEN_STRIDE])
