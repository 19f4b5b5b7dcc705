"""A class server under a hostile student: a browser's clear_cache message empties nothing that a class shares.

Streamlit honours a client's clear_cache whatever the toolbar shows, and it used to empty every
session's caches, the loaded models included. The real server runs here; a client sends the message
while other sessions open pages and step, as tools.classroom_load's sessions do.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from websockets.sync.client import connect

from tools.browser import app_process
from tools.classroom_load import open_and_step

pytestmark = pytest.mark.timeout(300)
CLEARS = 5


def send_clear_cache(base: str) -> None:
    with connect(base.replace("http", "ws") + "/_stcore/stream", subprotocols=["streamlit"]) as socket:
        message = BackMsg()
        message.clear_cache = True
        socket.send(message.SerializeToString())
        time.sleep(0.5)  # the server reads the message before the socket closes


def test_clear_cache_from_a_browser_reloads_no_model_and_breaks_no_session(tmp_path):
    log = tmp_path / "server.log"
    with app_process(archive=tmp_path / "archive.sqlite", log=log) as (base, _):
        lecturer = open_and_step(base, "poetry", 1, 0)
        with ThreadPoolExecutor(3) as pool:
            crowd = [pool.submit(open_and_step, base, "poetry", seed, 2) for seed in (2, 3, 4)]
            for _ in range(CLEARS):
                send_clear_cache(base)
            students = [future.result() for future in crowd]
        after = open_and_step(base, "poetry", 5, 1)
    text = log.read_text()
    assert [s.error for s in [lecturer, *students, after]] == [""] * 5
    assert all(s.sheets and all(s.sheets) for s in [lecturer, *students, after])
    assert text.count("loaded pair poetry") == 1, text
    assert text.count("refused a browser's request to clear the shared caches") == CLEARS
    assert "Traceback" not in text
