"""α by drafted position from rounds built by hand, whose counts are known."""
from types import SimpleNamespace

import pytest

from specdec_core.algorithm.acceptance import alpha_by_position, pooled_alpha, position_counts
from specdec_core.algorithm.trace import drafted_and_accepted


def test_each_position_counts_the_rounds_that_reached_it_and_those_that_sealed_it():
    # (drafted, accepted): all 4 sealed; 2 of 4; 0 of 4; 1 of 2 (a short draft, as prompt lookup writes); 3 of 3
    outcomes = [(4, 4), (4, 2), (4, 0), (2, 1), (3, 3)]
    assert position_counts(outcomes) == {
        1: (5, 4),  # every round reached the 1st; (4, 0) rejected it
        2: (4, 3),  # (4, 0) stopped before; (2, 1) rejected it
        3: (3, 2),  # (4, 4), (4, 2) rejecting it, (3, 3); the 2-token draft never had a 3rd
        4: (1, 1),  # (4, 4) only: (3, 3) drafted no 4th, (4, 2) stopped at its 3rd
    }
    assert alpha_by_position(outcomes) == {1: 4 / 5, 2: 3 / 4, 3: 2 / 3, 4: 1.0}
    assert pooled_alpha(outcomes) == pytest.approx((4 + 3 + 2 + 1) / (5 + 4 + 3 + 1))


def test_positions_no_round_reached_are_absent_not_zero():
    # k = 6 asked, but every round's 2nd token was rejected: positions 3 to 6 were never judged
    outcomes = [(6, 1), (6, 0), (6, 1)]
    assert alpha_by_position(outcomes) == {1: 2 / 3, 2: 0.0}  # the 2nd was judged twice and never sealed: a real 0
    assert alpha_by_position([]) == {} and pooled_alpha([]) is None
    assert alpha_by_position([(0, 0), (0, 0)]) == {} and pooled_alpha([(0, 0)]) is None  # plain rounds draft nothing


def test_a_trace_s_rounds_give_their_drafted_and_accepted_counts():
    rounds = [SimpleNamespace(draft_forwards=4, n_accepted=2), SimpleNamespace(draft_forwards=0, n_accepted=0)]
    traces = [SimpleNamespace(rounds=rounds[:1]), SimpleNamespace(rounds=rounds[1:])]
    assert drafted_and_accepted(traces) == [(4, 2), (0, 0)]
