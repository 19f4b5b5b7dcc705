"""Who asks (ui/shared/visitors.py): an address, a loopback tab's own session, and behind a proxy the address
the proxy passes on, trusted only from a loopback peer and only where the server was told a proxy fronts it."""
from types import SimpleNamespace

import pytest

from ui.shared import visitors

SESSION = SimpleNamespace(session_id="abc")


def asked_by(monkeypatch, peer: str | None, forwarded: str | None, proxies: str | None) -> str:
    """visitor() for a tab whose connection came from `peer` (None: loopback, as Streamlit gives it) with
    X-Real-IP `forwarded`, on a server told which proxies front it (None: none)."""
    headers = {} if forwarded is None else {"X-Real-IP": forwarded}
    monkeypatch.setattr(visitors, "get_script_run_ctx", lambda suppress_warning=True: SESSION)
    monkeypatch.setattr(visitors, "st", SimpleNamespace(context=SimpleNamespace(ip_address=peer, headers=headers)))
    if proxies is not None:
        monkeypatch.setenv(visitors.PROXY_VAR, proxies)
    else:
        monkeypatch.delenv(visitors.PROXY_VAR, raising=False)
    return visitors.visitor()


@pytest.mark.parametrize("peer, forwarded, proxies, who", [
    ("10.0.0.7", None, None, "10.0.0.7"),                       # a student straight to the server
    (None, None, None, "session abc"),                          # a tab on this machine: a visitor of its own
    (None, "10.0.0.7", "127.0.0.1", "10.0.0.7"),                # through nginx on this machine (deploy/replicas.py)
    (None, "10.0.0.7", None, "session abc"),                    # a header no proxy was said to set is not believed
    ("10.0.0.8", "10.0.0.7", "127.0.0.1", "10.0.0.8"),          # a student reaching a replica directly names no one
    ("172.28.0.5", "10.0.0.7", "172.28.0.0/24", "10.0.0.7"),    # a proxy in a container network (deploy/compose.yaml)
    ("172.29.0.5", "10.0.0.7", "172.28.0.0/24", "172.29.0.5"),  # a peer outside that network
    ("10.0.0.8", "10.0.0.7", "not an address, 10.0.0.8", "10.0.0.7"),  # an unreadable entry names nothing
    (None, "127.0.0.1", "127.0.0.1", "session abc"),            # a tab that reached the proxy over loopback is its own
    (None, None, "127.0.0.1", "session abc"),                   # a loopback tab that came round the proxy
])
def test_who_asks(monkeypatch, peer, forwarded, proxies, who):
    assert asked_by(monkeypatch, peer, forwarded, proxies) == who
