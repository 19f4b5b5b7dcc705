"""tools.acceptance_after groups each round's first drafted token by how the round before it ended."""
from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings, SamplingConfig
from tools.acceptance_after import first_acceptance_after


def test_each_round_after_the_first_is_counted_once_under_its_predecessors_ending(tiny, tiny_prompt):
    settings = DecodeSettings(k=2, max_new_tokens=40, sampling=SamplingConfig(temperature=1.0), seed=3, stop_at_eos=False)
    trace = speculative_generate(tiny.as_target(), tiny.scribe("lm"), tiny_prompt, settings)
    after = first_acceptance_after([trace])
    assert set(after) == {"bonus", "corrected"}                       # this run has both kinds of ending
    for kind, values in after.items():
        expected = [now.drafted[0].accept_prob for before, now in zip(trace.rounds, trace.rounds[1:])
                    if before.next_kind == kind and now.drafted]
        assert values == expected and values
