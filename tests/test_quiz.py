"""Three questions per act (#27): every question in both languages with a right answer and a reason."""
from app_pages import open_page

from ui.parable.quiz import QUIZ


def test_every_act_has_three_questions_in_both_languages():
    assert sorted(QUIZ) == [1, 2, 3, 4, 5] and all(len(questions) == 3 for questions in QUIZ.values())
    for questions in QUIZ.values():
        for question, options, right, why in questions:
            assert 0 <= right < len(options) >= 2
            for text in (question, why, *options):
                assert set(text) == {"zh", "en"} and text["zh"] and text["en"]
                assert not any("\u4e00" <= ch <= "\u9fff" for ch in text["en"])
            assert any("\u4e00" <= ch <= "\u9fff" for ch in question["zh"] + why["zh"])


def test_an_answer_is_marked_and_explained():
    app = open_page("parable", "en")
    right = QUIZ[4][0][2]
    app.radio(key="quiz_4_0_en").set_value(right).run()
    app.radio(key="quiz_4_1_en").set_value(0).run()  # resampling from p: the wrong answer
    assert not app.exception
    assert any(s.value.startswith("Right. ") and "iron rule" in s.value for s in app.success)
    assert any(e.value.startswith("Not quite. ") for e in app.error)
