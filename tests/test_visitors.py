"""Who asks (ui/shared/visitors.py): an address, a loopback tab's own session, and behind a proxy the address
the proxy passes on, trusted only from a loopback peer and only where the server was told a proxy fronts it."""
from types import SimpleNamespace

import pytest

from ui.shared import visitors

SESSION = SimpleNamespace(session_id="abc")


def asked_by(monkeypatch, peer: str | None, forwarded: str | None, behind_proxy: bool) -> str:
    """visitor() for a tab whose connection came from `peer` (None: loopback, as Streamlit gives it) with
    X-Real-IP `forwarded`, on a server told (or not) that a proxy fronts it."""
    headers = {} if forwarded is None else {"X-Real-IP": forwarded}
    monkeypatch.setattr(visitors, "get_script_run_ctx", lambda suppress_warning=True: SESSION)
    monkeypatch.setattr(visitors, "st", SimpleNamespace(context=SimpleNamespace(ip_address=peer, headers=headers)))
    if behind_proxy:
        monkeypatch.setenv(visitors.PROXY_VAR, "1")
    else:
        monkeypatch.delenv(visitors.PROXY_VAR, raising=False)
    return visitors.visitor()


@pytest.mark.parametrize("peer, forwarded, behind_proxy, who", [
    ("10.0.0.7", None, False, "10.0.0.7"),            # a student straight to the server
    (None, None, False, "session abc"),               # a tab on this machine: a visitor of its own
    (None, "10.0.0.7", True, "10.0.0.7"),             # through the proxy: the address it passes on
    (None, "10.0.0.7", False, "session abc"),         # a header no proxy was said to set is not believed
    ("10.0.0.8", "10.0.0.7", True, "10.0.0.8"),       # a student reaching a replica directly names no one else
    (None, "127.0.0.1", True, "session abc"),         # a tab that reached the proxy over loopback is its own
    (None, None, True, "session abc"),                # a loopback tab that came round the proxy
])
def test_who_asks(monkeypatch, peer, forwarded, behind_proxy, who):
    assert asked_by(monkeypatch, peer, forwarded, behind_proxy) == who
