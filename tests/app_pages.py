"""Open one page of the app in Streamlit's AppTest, with settings given as the URL would give them."""
from streamlit.testing.v1 import AppTest

from ui.shared.i18n import UNIT_BLANK
from ui.shared.units import unit_words

TIMEOUT = 120  # the first run imports torch and loads the models


def open_page(page: str, language: str = "zh", keep_measurements: bool = False, **query: str) -> AppTest:
    """page: a file name under views/ without .py; query: URL parameters such as k="2".

    Each page opens as on a server nobody has measured on (the board of ui/shared/measurements.py is the
    server's, and AppTest's server is this process), unless keep_measurements: a second visitor's view."""
    if not keep_measurements:
        from ui.shared.measurements import board
        from ui.speed_lab.glance import glance_board

        board.clear()
        glance_board.clear()
    app = AppTest.from_file("../app.py", default_timeout=TIMEOUT)
    app.query_params.update({"language": language, **query})
    app.run()
    if page != "parable":
        app.switch_page(f"views/{page}.py").run()
    return app






def shown_words(texts, key: str, language: str, unit: str) -> str:
    """A text with its unit blanks filled as a page shows them for a pair that writes in `unit` (other blanks kept)."""
    words = unit_words(language, unit)
    return UNIT_BLANK.sub(lambda blank: words[blank[0][1:-1]], texts.table[key][language])


def set_setting(app: AppTest, key: str, value) -> AppTest:
    """Change a sidebar setting as moving its widget would (the frame copies it into the widget)."""
    app.session_state[key] = value
    return app.run()
