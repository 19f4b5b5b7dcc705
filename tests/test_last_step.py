"""A round whose sealed drafts include the end token (#36): the text stops there, and the step's story,
chips, sheet, worked table and counters all say so, never the drafts after it or the verdict's bonus."""
import pytest

from specdec_core.algorithm.trace import DraftStep, Round, Trace, segments, written_by_round
from ui.scriptorium.moments import moments, positions, progress_at
from ui.scriptorium.sheet import sheet_cells
from ui.scriptorium.stepper import _slot_label, _story
from ui.scriptorium.worked import draft_rows

END = "</s>"


@pytest.fixture(autouse=True)
def english(in_english):
    """These words are read outside a page run: in English."""


def step(token: int, piece: str, accepted: bool) -> DraftStep:
    return DraftStep(token, piece, q=0.5, p=0.5 if accepted else 0.1, accept_prob=1.0 if accepted else 0.2,
                     u=0.1 if accepted else 0.9, accepted=accepted, candidates=[])


def one_round(drafted: list[tuple[str, bool]], next_piece: str, next_kind: str, ends: bool) -> Trace:
    """One round, forced to the verdicts given; `ends`: the round stopped at an end token (a draft or its new token)."""
    steps = [step(10 + i, piece, ok) for i, (piece, ok) in enumerate(drafted)]
    n_accepted = next((i for i, (_, ok) in enumerate(drafted) if not ok), len(drafted))
    r = Round(index=0, context_len=2, k=len(drafted), drafted=steps, n_accepted=n_accepted,
              first_rejected=n_accepted if n_accepted < len(drafted) else None, next_token=99, next_piece=next_piece,
              next_kind=next_kind, next_dist_top=[], target_cache=[1, 7, 5], draft_cache=[1, 6, 5],
              draft_s=0.0, target_s=0.0, other_s=0.0, stopped_at_eos=ends)
    return Trace(pair="hand", scribe="hand", mode="speculative", settings={}, prompt_tokens=[1, 2], prompt_text="春山",
                 tokens=[s.token for s in steps[:n_accepted]] + [99], text="", rounds=[r], prefill_s=0.0, wall_s=1.0)


def ended_run(drafted: list[tuple[str, bool]], next_piece: str, next_kind: str) -> Trace:
    """One round, forced: the verdicts given, the end token sealed among them, so the text stops at it."""
    trace = one_round(drafted, next_piece, next_kind, ends=True)
    trace.tokens = [10 + i for i in range([piece for piece, _ in drafted].index(END) + 1)]
    return trace


@pytest.fixture
def past_the_end() -> Trace:
    """明 月 ∎ 光 all sealed, and the verdict drew the bonus 夜: the text is 明月∎."""
    return ended_run([("明", True), ("月", True), (END, True), ("光", True)], "夜", "bonus")


def verdict(trace: Trace):
    return next(m for m in moments(trace) if m.stage == "verdict")


def test_the_round_writes_up_to_and_including_the_end_token(past_the_end):
    assert written_by_round(past_the_end) == [3]
    assert segments(past_the_end) == [("明", "sealed"), ("月", "sealed"), (END, "sealed")]


def test_seals_stop_at_the_end_token_and_the_counter_adds_what_was_written(past_the_end):
    steps = moments(past_the_end)
    assert [(m.stage, m.sealed) for m in steps] == [("draft", 0), ("seal", 1), ("seal", 2), ("seal", 3), ("verdict", 3)]
    assert [progress_at(past_the_end, m).tokens for m in steps] == [0, 1, 2, 3, 3]


def test_the_story_tells_the_end_as_it_happened(past_the_end):
    r = past_the_end.rounds[0]
    story = _story(r, verdict(past_the_end))
    assert "夜" not in story and "光" not in story  # neither the unwritten bonus nor the draft after the end
    assert "token 3, “∎”, is the end mark" in story
    assert "the one drafted after it is never written" in story  # #49: "the 1 drafted after it are" and "adds none of his own" in story
    assert story.endswith("This round gains 3 tokens.")


def test_the_end_token_as_the_last_draft_says_no_token_follows():
    trace = ended_run([("明", True), (END, True)], "夜", "bonus")
    story = _story(trace.rounds[0], verdict(trace))
    assert "夜" not in story and "both drafted are sealed" in story and story.endswith("gains 2 tokens.")


def test_a_rejection_after_the_end_token_is_not_told_either():
    """The draft after ∎ was struck and a correction drawn: neither is part of the text."""
    trace = ended_run([("明", True), (END, True), ("光", False)], "星", "corrected")
    story = _story(trace.rounds[0], verdict(trace))
    assert "星" not in story and "光" not in story and story.endswith("gains 2 tokens.")


def test_the_chips_stop_at_the_end_token(past_the_end):
    r, moment = past_the_end.rounds[0], verdict(past_the_end)
    slots = positions(r, moment)
    assert slots == [0, 1, 2]
    assert [_slot_label(r, i, judged=True) for i in slots] == ["1 · 明", "2 · 月", "3 · ∎"]


def test_the_sheet_writes_nothing_past_the_end_token(past_the_end):
    cells = [(piece, kind) for piece, kind, *_ in sheet_cells(past_the_end, verdict(past_the_end))][2:]  # after the prompt
    assert cells == [("明", "sealed"), ("月", "sealed"), (END, "sealed"), ("光", "discarded")]


def test_the_worked_table_stops_at_the_end_token(past_the_end):
    rows = draft_rows(past_the_end.rounds[0], verdict(past_the_end).written)
    assert [row["Token"] for row in rows] == ["明", "月", "∎"]



def test_a_correction_that_is_the_end_mark_says_the_text_ends():
    """#49 defect 8: a correction or bonus that is ∎ did not say that the text ends."""
    trace = one_round([("明", True), ("光", False)], END, "corrected", ends=True)
    story = _story(trace.rounds[0], verdict(trace))
    assert story.endswith("“∎” is the end mark: the text ends here.")
    assert progress_at(trace, verdict(trace)).text_tokens == 1  # 明 alone: the end mark is no character
    going_on = one_round([("明", True), ("光", False)], "月", "corrected", ends=False)
    assert "end mark" not in _story(going_on.rounds[0], verdict(going_on))
    assert progress_at(going_on, verdict(going_on)).text_tokens == 2


def test_a_last_draft_struck_leaves_no_rest_of_the_line_to_discard():
    """#49 defect 8: a last draft rejected at position k still said "the rest of the line is discarded"."""
    trace = one_round([("明", True), ("光", False)], "月", "corrected", ends=False)
    story = _story(trace.rounds[0], verdict(trace))
    assert "discarded" not in story and "the line's last draft, at position 2" in story
    middle = one_round([("明", False), ("光", False)], "月", "corrected", ends=False)
    assert "the rest of the line is discarded" in _story(middle.rounds[0], verdict(middle))
