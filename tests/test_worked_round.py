"""One round worked by hand (#27): the table holds the round's own numbers and reaches its verdict."""
import pytest

from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings
from ui.scriptorium.numbers import table_number
from ui.scriptorium.worked import draft_rows, new_token_rows


@pytest.fixture(autouse=True)
def english(in_english):
    """These words are read outside a page run: in English."""


@pytest.fixture(scope="module")
def rounds(tiny, tiny_prompt):
    trace = speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, DecodeSettings(k=4, seed=7, max_new_tokens=40))
    return trace.rounds


def test_each_reached_token_is_sealed_exactly_when_u_is_below_min_1_p_over_q(rounds):
    for r in rounds:
        rows = draft_rows(r)
        assert len(rows) == len(r.reached)
        for row, step in zip(rows, r.reached):
            assert (row["u"], row["min(1, p/q)"]) == (table_number(step.u), table_number(step.accept_prob))
            assert row["Verdict"].endswith("sealed" if step.u < step.accept_prob else "struck")


def test_the_new_tokens_table_marks_the_token_drawn_and_shows_the_residual_after_a_rejection(rounds):
    corrected = [r for r in rounds if r.next_kind == "corrected"]
    bonus = [r for r in rounds if r.next_kind == "bonus"]
    assert corrected and bonus
    for r in corrected + bonus:
        rows = new_token_rows(r)
        assert sum(row["Token"].endswith("◀") for row in rows) <= 1
        assert ("r(x)" in rows[0]) == (r.next_kind == "corrected")
    r = corrected[0]
    drawn = next(c for c in r.next_dist_top if c.token == r.next_token)
    assert drawn.r > 0  # a correction is drawn where p exceeds q


def test_a_rare_token_keeps_its_significant_digits():
    """#49 defect 10: the worked table read "q 0 · p 0 · min(1, p/q) 0.2771" for a rare token."""
    assert table_number(0.00002) == "2.0e-05" and table_number(0.0000123) == "1.2e-05"
    assert table_number(0.2771) == "0.2771" and table_number(0.0) == "0.0000" and table_number(1.0) == "1.0000"
    assert float(table_number(3.4e-9)) != 0
