"""The class's pairs load as the server starts (#50: 30 tabs on a cold server waited 36 s at the median)."""
from tools.browser import app_process, wait_for_line
from tools.classroom_load import open_and_step
from ui.shared.warm_start import WARM_VAR, pairs_to_warm


def test_the_default_pair_is_warmed_unless_the_operator_names_others(monkeypatch):
    monkeypatch.delenv(WARM_VAR, raising=False)
    assert pairs_to_warm() == ["poetry"]
    monkeypatch.setenv(WARM_VAR, " tiny , no-such-pair,poetry")
    assert pairs_to_warm() == ["tiny", "poetry"]  # a name this server does not serve is left out
    monkeypatch.setenv(WARM_VAR, "")
    assert pairs_to_warm() == []


def test_the_server_loads_the_pair_before_its_first_visitor_and_says_so(tmp_path):
    log = tmp_path / "server.log"
    with app_process(archive=tmp_path / "archive.sqlite", log=log) as (base, _):
        wait_for_line(log, "The pair poetry is loaded and timed", 60)  # the load runs beside the listening server
        first = open_and_step(base, "poetry", 7, 0)
    text = log.read_text()
    assert "模型組 poetry 已載入並計時" in text and "The pair poetry is loaded and timed" in text
    assert not first.error and first.sheets[0]
    assert text.count("loaded pair poetry") == 1  # the first page found it loaded


def test_the_ready_url_answers_503_while_the_pairs_load_and_200_once_they_have():
    """A proxy or deploy/replicas.py sends a class to a replica once it answers 200."""
    from ui.shared.server_guard import _readiness
    from ui.shared.warm_start import ready, warm

    ready.clear()  # as warm_in_background leaves it
    try:
        assert _readiness().status_code == 503
        warm(["no such pair"], say=lambda _: None)  # a pair that fails to load is said; the server still serves
        assert _readiness().status_code == 200
    finally:
        ready.set()
