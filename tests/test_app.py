"""The app in Streamlit's AppTest: it renders in both languages and refuses bad prompts politely."""
import pytest
from streamlit.testing.v1 import AppTest


def open_app(language="zh") -> AppTest:
    app = AppTest.from_file("../app.py", default_timeout=60)
    app.session_state["language"] = language
    app.run()
    return app


@pytest.mark.parametrize("language", ["zh", "en"])
def test_scriptorium_renders_a_run(language):
    app = open_app(language)
    assert not app.exception
    assert app.title[0].value.startswith("御筆樓" if language == "zh" else "The Scriptorium")
    assert len(app.metric) == 4
    assert int(app.metric[0].value) > 0


def test_changing_k_changes_the_run():
    app = open_app("en")
    before = [m.value for m in app.metric]
    app.sidebar.slider[0].set_value(1).run()
    assert not app.exception
    assert [m.value for m in app.metric] != before


def test_a_prompt_with_unknown_characters_is_refused_by_name():
    app = open_app("en")
    pair = app.sidebar.selectbox[0].value
    if pair != "tiny":
        app.sidebar.selectbox[0].set_value("tiny").run()
    app.text_input[0].input("春x山").run()
    assert not app.exception
    assert "x" in app.error[0].value and "lacks" in app.error[0].value


def test_an_empty_prompt_is_refused():
    app = open_app("en")
    app.text_input[0].input("  ").run()
    assert not app.exception
    assert "empty" in app.error[0].value
