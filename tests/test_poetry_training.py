"""Pieces of the poetry training that decide what the master learns and how its form is judged."""
import torch

from training.poetry import data, form

QUATRAIN = "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。"
PROVERB = "一寸光陰一寸金，寸金難買寸光陰。"
PROSE = "學而時習之，不亦說乎？有朋自遠方來，不亦樂乎？"


def test_verse_is_lines_of_five_or_seven():
    assert data.is_verse(QUATRAIN) and data.is_verse(PROVERB)
    assert not data.is_verse(PROSE)
    assert not data.is_verse("床前明月光。")          # one line is not a poem's form


def test_the_given_share_of_windows_open_at_a_poem_start():
    ids = torch.arange(10_000)
    starts = torch.tensor([100, 2_000, 7_000])
    x, y = data.start_weighted_windows(ids, starts, 0.5, 16, 32, torch.Generator().manual_seed(0))
    firsts = x[:, 0].tolist()
    assert sum(f in (100, 2_000, 7_000) for f in firsts) >= 8      # 8 by construction, more by chance only
    assert torch.equal(y, x + 1)                                    # targets are the next tokens


def test_form_counts_lines_as_long_as_the_first():
    heads = ["床前明月光，", "朝辭白帝彩雲間，"]
    texts = ["疑是地上霜。舉頭望明月，低頭思故鄉。", "千里江陵一日還。兩岸猿聲啼不住，輕舟過萬重山。"]
    result = form.score(heads, texts)
    assert result["lines"] == 6
    assert result["line_length_right"] == 5 / 6                    # 輕舟過萬重山 has six
    assert result["poems_all_right"] == 0.5
    assert result["next_line_right"] == 1.0


def test_the_next_line_must_have_the_heads_length_and_a_mark():
    assert form.next_line_right("床前明月光，", "疑是地上霜。")
    assert not form.next_line_right("床前明月光，", "疑是地上霜")          # no mark
    assert not form.next_line_right("床前明月光，", "疑是，地上霜。")      # mark too early
    assert not form.next_line_right("床前明月光，", "疑是地上霜霜。")      # too long


def test_a_poem_without_its_full_stop_is_not_all_right():
    assert form.score(["床前明月光，"], ["疑是地上霜"])["poems_all_right"] == 0.0
    assert form.score(["床前明月光，"], [""])["poems_all_right"] == 0.0


def test_form_prompts_are_first_lines_of_verse_only():
    assert form.prompts([QUATRAIN, PROSE, PROVERB]) == ["床前明月光，", "一寸光陰一寸金，"]


def test_unfinished_last_lines_are_not_counted():
    assert form.finished_lines("疑是地上霜。舉頭望明月，低頭思") == ["疑是地上霜", "舉頭望明月"]


def test_invented_form_counts_kept_lengths_and_lines_per_poem():
    result = form.invented_score(["江城春色早，", "一夜西風吹落葉，"],
                                 ["山深鳥語遲。花開滿野徑，春去不知時。", "寒山遠寺鐘。"])
    assert result["lines"] == 4 and result["lines_after_first"] == 2.0
    assert result["clauses_keep_length"] == 3 / 4                  # 寒山遠寺鐘 has five, not seven


def test_the_invented_first_lines_are_verse_lines():
    assert len(form.INVENTED_HEADS) == 20
    assert all(len(h) - 1 in (5, 7) and h.endswith("，") for h in form.INVENTED_HEADS)


def test_a_poems_editorial_notes_and_spaces_are_dropped():
    from training.poetry.build_corpus import body_of
    poem = {"paragraphs": ["床前明月光，疑是地上霜（一作看月光）。", "舉頭望明月， 低頭思故鄉。"]}
    assert body_of(poem) == QUATRAIN


def test_poems_with_lost_characters_or_no_ending_are_refused():
    from training.poetry.build_corpus import reject_reason
    assert reject_reason(QUATRAIN) is None
    assert reject_reason("床前□月光，疑是地上霜。") == "other_symbols"
    assert reject_reason("床前明月光，疑是地上霜，") == "unfinished"
    assert reject_reason("床前明月光。") == "length"


def test_the_held_out_poems_are_about_two_percent_and_fixed_by_id():
    from training.poetry.build_corpus import is_held_out
    ids = [f"poem-{i}" for i in range(20_000)]
    share = sum(map(is_held_out, ids)) / len(ids)
    assert 0.015 < share < 0.025
    # a poem's side depends on its id alone (sha256): the same seven of the first 300, on any machine
    assert [i for i in range(300) if is_held_out(ids[i])] == [39, 105, 109, 212, 236, 252, 272]
