"""Open one page of the app in Streamlit's AppTest, with settings given as the URL would give them."""
from streamlit.testing.v1 import AppTest

TIMEOUT = 120  # the first run imports torch and loads the models


def open_page(page: str, language: str = "zh", **query: str) -> AppTest:
    """page: a file name under pages/ without .py; query: URL parameters such as k="2"."""
    app = AppTest.from_file("../app.py", default_timeout=TIMEOUT)
    app.query_params.update({"language": "English" if language == "en" else "繁體中文", **query})
    app.run()
    if page != "parable":
        app.switch_page(f"pages/{page}.py").run()
    return app



