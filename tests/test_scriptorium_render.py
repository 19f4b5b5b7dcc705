"""The sheet and the scriptorium's figures read the trace faithfully, moment by moment."""
import pytest

from specdec_core.decoding.generate import speculative_generate
from specdec_core.settings import DecodeSettings
from ui.scriptorium.moments import moments
from ui.scriptorium.plots import cache_figure, candidate_figure
from ui.scriptorium.sheet import display_piece, prompt_tail, sheet_html

LABELS = {key: key for key in ("p", "q", "min", "r", "axis", "master", "scribe", "before", "after", "rolled", "kept", "dropped")}


@pytest.fixture(scope="module")
def trace(tiny, tiny_prompt):
    return speculative_generate(tiny.as_target(), tiny.draft(), tiny_prompt, DecodeSettings(k=4, max_new_tokens=30, stop_at_eos=False))


def test_seals_on_the_sheet_follow_the_moments(trace):
    for moment in moments(trace):
        html = sheet_html(trace, moment)
        done = trace.rounds[: moment.round]
        expected = sum(r.n_accepted for r in done) + moment.sealed
        assert html.count('class="cell sealed') == expected


def test_the_last_moment_shows_every_written_token(trace):
    html = sheet_html(trace, moments(trace)[-1])
    written = html.count('cell sealed') + html.count('cell corrected') + html.count('cell bonus') + html.count('cell plain')
    assert written == len(trace.tokens)


def test_control_tokens_and_spaces_stay_visible():
    assert display_piece("</s>") == "∎"
    assert display_piece("\n") == "↵"
    assert display_piece(" ") == "␣"
    assert display_piece("月") == "月"


def test_candidate_bars_hold_p_q_and_their_minimum(trace):
    step = trace.rounds[0].drafted[0]
    figure = candidate_figure(step.candidates, step.token, LABELS, residual=False)
    by_name = {bar.name: list(bar.y) for bar in figure.data}
    assert by_name["p"] == [c.p for c in step.candidates]
    assert by_name["min"] == [min(c.p, c.q) for c in step.candidates]


def test_cache_bars_drop_exactly_what_the_rollback_drops(trace):
    r = next(r for r in trace.rounds if r.n_accepted < len(r.drafted))
    figure = cache_figure(r, LABELS)
    dropped = dict(zip(figure.data[1].y, figure.data[1].x))
    assert dropped["master · after"] == r.target_cache[1] - r.target_cache[2] == len(r.drafted) - r.n_accepted


def test_a_long_prompt_shows_its_end(trace):
    from dataclasses import replace

    long = replace(trace, prompt_text="序" * 100 + "春山", extra={})     # written before traces kept pieces
    html = sheet_html(long, moments(long)[0])
    assert html.count('class="cell prompt') == 31 and "…" in html


def test_a_bpe_prompt_shows_a_token_per_cell_and_control_tokens_as_marks(trace):
    from dataclasses import replace

    pieces = ["Why", " is", " the", " sky", " blue", "?", "<|im_end|>", "\n", "<|im_start|>", "assistant", "\n"]
    chat = replace(trace, prompt_tokens=list(range(40)), extra={"prompt_pieces": pieces})
    assert prompt_tail(chat) == ["…", *pieces[1:]]          # "Why" would pass 30 characters; " is" … "↵" make 30
    html = sheet_html(chat, moments(chat)[0])
    assert html.count('class="cell prompt') == 11 and 'title="&lt;|im_start|&gt;">⟨<' in html
    whole = replace(chat, prompt_tokens=list(range(3)), extra={"prompt_pieces": ["Hi", "<|im_end|>", "\n"]})
    assert prompt_tail(whole) == ["Hi", "<|im_end|>", "\n"]                  # nothing cut: no ellipsis


def test_a_run_keeps_its_prompts_pieces_and_a_broken_list_falls_back_to_characters(trace, tiny, tiny_prompt):
    from dataclasses import replace

    assert trace.extra["prompt_pieces"] == [tiny.as_target().piece(t) for t in tiny_prompt[-32:]]
    broken = replace(trace, prompt_text="春山", prompt_tokens=[5, 6], extra={"prompt_pieces": [3, None]})
    assert prompt_tail(broken) == ["春", "山"]


def test_each_control_token_has_its_own_mark_and_the_legend_names_it():
    """#36: the poetry sheet drew its start token <s> and its end token </s> both as ∎."""
    from ui.scriptorium.sheet import CONTROL_MARKS, OTHER_CONTROL_MARK
    from ui.scriptorium.texts import TEXT

    assert display_piece("<s>") != display_piece("</s>") == "∎"
    assert len({display_piece(t) for t in ("<s>", "</s>", "<|im_start|>", "<|im_end|>", "<pad>")}) == 5
    assert display_piece("<unk>") == OTHER_CONTROL_MARK
    for language in ("zh", "en"):
        legend = TEXT.table["legend"][language]
        assert all(mark in legend for mark in set(CONTROL_MARKS.values()) | {OTHER_CONTROL_MARK})


def test_a_struck_comma_does_not_read_as_one():
    """#36: a level red line through "，" looked exactly like 一; the strike runs corner to corner."""
    from ui.scriptorium.handout import _cell
    from ui.scriptorium.sheet import STYLE

    assert "line-through" not in STYLE and "linear-gradient(to top right" in STYLE  # corner to corner, in its cell (#49)
    line = next(part for part in _cell(0, 0, "，", "struck") if part.startswith("<line"))
    y1, y2 = (float(line.split(f'{name}="')[1].split('"')[0]) for name in ("y1", "y2"))
    assert y1 != y2


def test_a_scribe_without_a_cache_gets_no_rows(trace):
    r = trace.rounds[0]
    rows = set(cache_figure(r, LABELS, scribe_cache=False).data[0].y)
    assert rows == {"master · before", "master · after", "master · rolled"}
