"""The scriptorium's position inspector, from issue #27's classroom run: every judged token on its chart,
rare probabilities readable, no spoiler of the master's character, and stories that fit the round."""
import pytest

from specdec_core.algorithm.trace import Trace
from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings
from ui.scriptorium.moments import moments
from ui.scriptorium.sheet import display_piece
from ui.scriptorium.stepper import _slot_label, _story, probability_text
from ui.shared.i18n import markdown_literal


@pytest.fixture(autouse=True)
def english(in_english):
    """These words are read outside a page run: in English."""


@pytest.fixture(scope="module")
def shaky(tiny, tiny_prompt) -> list[Trace]:
    """Runs whose scribe draws rare tokens often (a shaky hand spreads q over the whole vocabulary)."""
    settings = [DecodeSettings(k=4, seed=seed, noise=0.9, max_new_tokens=24) for seed in range(6)]
    return [speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt, s) for s in settings]


def test_every_judged_token_is_on_its_own_chart(shaky):
    for trace in shaky:
        for r in trace.rounds:
            assert all(step.token in {c.token for c in step.candidates} for step in r.drafted)
            assert r.next_token in {c.token for c in r.next_dist_top}


def test_a_rare_probability_never_reads_zero():
    assert probability_text(0.00004) != "0.000" and probability_text(0.00004).startswith("4.0e")
    assert probability_text(0.25) == "0.250" and probability_text(0.0) == "0.000"


def test_the_new_tokens_tab_hides_the_masters_character_until_he_has_looked(shaky):
    r = shaky[0].rounds[0]
    assert r.next_piece not in _slot_label(r, len(r.drafted), judged=False)
    assert _slot_label(r, len(r.drafted), judged=True).endswith(markdown_literal(display_piece(r.next_piece)))


def test_the_last_round_with_no_room_to_draft_is_told_as_the_master_alone(tiny, tiny_prompt):
    traces = [speculative_generate(tiny.as_target(), tiny.draft("lm"), tiny_prompt,
                                   DecodeSettings(k=3, seed=seed, max_new_tokens=9, stop_at_eos=False)) for seed in range(8)]
    last_rounds = [t.rounds[-1] for t in traces if t.rounds[-1].k == 0]
    assert last_rounds, "no run ended on a round with one token left"
    for r, trace in ((r, t) for t in traces for r in t.rounds[-1:] if r.k == 0):
        story = _story(r, moments(trace)[-1])
        assert "0 drafted" not in story and "drafts nothing" in story


def test_a_round_that_gains_one_token_says_token(shaky):
    corrected = [(t, r) for t in shaky for r in t.rounds if r.next_kind == "corrected" and r.n_accepted == 0]
    assert corrected
    trace, r = corrected[0]
    story = _story(r, next(m for m in moments(trace) if m.round == r.index and m.stage == "verdict"))
    assert story.endswith("gains 1 token.")


def test_a_small_p_over_q_reads_as_the_worked_table_reads_it():
    """#36: p/q read 0.00 where the worked table said 0.0012."""
    from ui.scriptorium.stepper import ratio_text

    assert ratio_text(0.0012) == "0.0012" and ratio_text(0.05) == "0.050" and ratio_text(0.00003) == "3.0e-05"
    assert ratio_text(2.5) == "2.50" and ratio_text(0.53) == "0.53" and ratio_text(0.0) == "0.00"
    assert all(float(ratio_text(x)) > 0 for x in (1e-9, 0.0004, 0.004, 0.0999))


def test_the_unjudged_new_tokens_mark_is_in_the_readers_language(shaky):
    """#36: the pill of the new token read "new · ？" with a full-width question mark in English too."""
    import streamlit as st

    r = shaky[0].rounds[0]
    assert _slot_label(r, len(r.drafted), judged=False) == "new · ?"
    st.session_state["language"] = "zh"
    assert _slot_label(r, len(r.drafted), judged=False).endswith(" · ？")


def test_the_whole_text_sets_a_chat_answer_apart_from_its_question(shaky):
    """#36: the scriptorium's whole text read "purr?The answer…": a chat answer glued to its question."""
    from ui.scriptorium.stepper import whole_text

    chat = Trace.from_json(shaky[0].to_json())
    chat.extra.update(prompt_as_typed="Why do cats purr?", answer_is_a_turn=True)
    assert whole_text(chat) == "Why do cats purr?\n\n" + chat.text
    chat.extra.pop("prompt_as_typed")  # a trace filed before runs kept the typed prompt: its own question
    assert whole_text(chat) == chat.prompt_text + "\n\n" + chat.text
    verse = shaky[0]  # a continuation follows its opening directly
    assert verse.extra["answer_is_a_turn"] is False and whole_text(verse) == verse.prompt_text + verse.text
