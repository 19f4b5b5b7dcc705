"""The count scribe: a proper distribution, and pruned counts that back off to shorter contexts."""
import pytest
import torch

from specdec_core.drafts.ngram import NgramModel

SEQUENCES = [[1, 5, 6, 7, 2], [1, 5, 6, 8, 2], [1, 5, 9, 2]]


def test_probabilities_sum_to_one_after_any_context():
    model = NgramModel.fit(SEQUENCES, 3, 10)
    for context in ([1], [1, 5], [5, 6], [3, 4]):
        assert torch.isclose(model.probs(context).sum(), torch.tensor(1.0), atol=1e-6)


def test_pruned_ngrams_back_off_to_the_shorter_context():
    full, pruned = NgramModel.fit(SEQUENCES, 3, 10), NgramModel.fit(SEQUENCES, 3, 10, min_count=2)
    assert (1, 5) in pruned.tables[3]                                   # 1 5 6 seen twice: kept
    assert (5, 6) in full.tables[3] and (5, 6) not in pruned.tables[3]  # 5 6 7, 5 6 8 once each: left out
    assert torch.allclose(pruned.probs([5, 6]), pruned.probs([6]))      # so it reads the bigram
    assert not torch.allclose(full.probs([5, 6]), full.probs([6]))      # which the full counts do not
    assert torch.isclose(pruned.probs([5, 6]).sum(), torch.tensor(1.0), atol=1e-6)


def test_small_ids_and_counts_are_stored_in_two_bytes_and_large_counts_in_more(tmp_path):
    model = NgramModel.fit(SEQUENCES, 2, 10)
    model.save(tmp_path / "bigram.safetensors")
    loaded = NgramModel.load(tmp_path / "bigram.safetensors")
    assert {name: values.dtype.itemsize for name, values in loaded.arrays.items()} == {
        "unigram": 2, "ngrams_2": 2, "counts_2": 2}
    assert torch.equal(loaded.probs([5]), model.probs([5]))
    model.arrays["counts_2"][0] = 70_000                                 # past two bytes: kept whole
    model.save(tmp_path / "large.safetensors")
    large = NgramModel.load(tmp_path / "large.safetensors")
    assert large.arrays["counts_2"].dtype.itemsize == 4 and large.arrays["counts_2"][0] == 70_000
    model.arrays["counts_2"][0] = -1                                     # never a count: refused, not wrapped
    with pytest.raises(ValueError, match="never negative"):
        model.save(tmp_path / "negative.safetensors")


def test_a_batch_scores_each_row_as_alone_and_says_which_rows_have_no_proposal():
    """Stateless scribes score each distinct row once in a batch: repeated and distinct rows, and rows
    without a proposal (prompt lookup finds no earlier occurrence), give what each row gives alone."""
    from specdec_core.drafts.ngram import NgramDraft
    from specdec_core.drafts.prompt_lookup import PromptLookupDraft

    rows = torch.tensor([[1, 2, 3, 1], [4, 5, 6, 7], [1, 2, 3, 1], [2, 3, 1, 2], [4, 5, 6, 7]])
    ngram = NgramDraft(NgramModel.fit([[1, 2, 3, 1, 2, 4, 5, 6, 7, 2, 1]], order=3, vocab_size=8))
    lookup = PromptLookupDraft(vocab_size=8)
    for scribe in (ngram, lookup):
        scores, valid = scribe.batch_next_logits(rows)
        for i, row in enumerate(rows.tolist()):
            alone = scribe.next_logits(row)
            assert bool(valid[i]) == (alone is not None)
            if alone is not None:
                assert torch.equal(scores[i], alone)
    assert lookup.batch_next_logits(rows)[1].tolist() == [True, False, True, True, False]
