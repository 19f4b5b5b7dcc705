"""A cache rolled back must give the logits that recomputing from scratch gives."""
import pytest
import torch

from specdec_core.runtimes.cached_lm import CachedLM, last_logits

SEQUENCE = [1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 4, 5]


def test_rollback_then_extend_equals_recompute(tiny):
    lm = CachedLM(tiny.target)
    lm.logits(SEQUENCE[:10])  # cache 10 positions
    lm.rollback(6)  # reject the last four
    assert lm.cache_len == 6 and lm.cache.get_seq_length() == 6
    branch = SEQUENCE[:6] + [13, 14, 15]
    cached = lm.logits(branch, n_last=3)
    fresh = last_logits(tiny.target, torch.tensor([branch]), n_last=3)[0]
    assert torch.allclose(cached, fresh, atol=1e-5)


def test_multi_token_forward_matches_one_at_a_time(tiny):
    lm = CachedLM(tiny.target)
    lm.logits(SEQUENCE[:5])
    together = lm.logits(SEQUENCE[:9], n_last=4)
    lm.rollback(5)
    single = torch.stack([lm.logits(SEQUENCE[: 6 + i])[-1] for i in range(4)])
    assert torch.allclose(together, single, atol=1e-5)


def test_a_cache_out_of_step_is_refused(tiny):
    lm = CachedLM(tiny.target)
    lm.logits(SEQUENCE[:5])
    with pytest.raises(RuntimeError, match="roll it back"):
        lm.logits([2] + SEQUENCE[1:7])


def test_rolling_back_past_the_end_changes_nothing(tiny):
    lm = CachedLM(tiny.target)
    lm.logits(SEQUENCE[:5])
    lm.rollback(9)
    assert lm.cache_len == 5 and lm.cache.get_seq_length() == 5


@pytest.mark.parametrize("rows", [
    [[5, 6, 7, 8], [5, 6, 7, 9], [5, 6, 7, 8], [5, 6, 2, 3]],   # a shared prompt, repeated and distinct tails
    [[5, 6, 7], [5, 6, 7]],                                       # every row the same: one token still fed
    [[4, 6, 7], [5, 6, 7]],                                       # nothing shared
    [[3], [9], [3]],                                              # one position
])
def test_a_drafts_batch_reads_each_row_as_a_plain_forward_does(tiny, rows):
    """The proof's draft reads each distinct row once after the prefix all rows share: the scores it gives each
    row are those of a forward over that whole row alone, in the rows' own order."""
    draft = tiny.draft("lm")
    sequences = torch.tensor(rows)
    scores, valid = draft.batch_next_logits(sequences)
    alone = last_logits(draft.model, sequences)[:, -1, : draft.vocab_size]
    assert valid.all() and scores.shape == alone.shape
    torch.testing.assert_close(scores, alone, rtol=1e-4, atol=1e-4)
    assert not torch.allclose(scores[0], scores[-1]) or rows[0] == rows[-1]   # rows are not all given one answer
