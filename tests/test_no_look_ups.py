"""The class server refuses name look-ups in its own process and logs who asked; numbers and localhost pass."""
import logging
import socket

import pytest

from ui.shared import no_look_ups


@pytest.fixture
def refusing():
    no_look_ups.refuse_name_look_ups()
    yield
    no_look_ups._state["refusing"] = False      # the hook stays for good; only the server process refuses


def test_a_name_is_refused_and_its_caller_named(refusing, caplog):
    with caplog.at_level(logging.WARNING, logger=no_look_ups.log.name):
        with pytest.raises(socket.gaierror, match="refused on the class server"):
            socket.getaddrinfo("elsewhere.example", 443)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "'elsewhere.example'" in said and "test_no_look_ups.py" in said


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", None, "0.0.0.0"])
def test_numbers_and_local_names_need_no_network_and_pass(refusing, host):
    assert socket.getaddrinfo(host, 8501, type=socket.SOCK_STREAM)


def test_other_processes_keep_their_look_ups():
    assert not no_look_ups._state["refusing"]
    assert no_look_ups._needs_no_network("localhost") and not no_look_ups._needs_no_network("huggingface.co")
