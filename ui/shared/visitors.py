"""Who asks: the visitor a class server counts a share for, and the operator who may do more.

A visitor is a network address. A tab on this machine's own loopback (the lecturer's laptop, the tests)
is a visitor of its own, since every local tab shares one address. Behind a proxy every tab comes from
the proxy's address: PROXY_VAR names the proxies' addresses or networks (deploy/replicas.py sets it to
127.0.0.1, the nginx on the same machine), and a tab that comes through one of them is the address the
proxy passes in its X-Real-IP header. A header from any other peer is not believed, so a student who
reaches a replica directly cannot name another's address (docs/class-server.md). A tab that reached the
proxy over loopback is again a visitor of its own.

The operator is whoever started the server. They may set OPERATOR_VAR to a token of their choosing;
a tab that gives it on the archive page may then delete any run, not only its own.
"""
from __future__ import annotations

import hmac
import ipaddress
import os

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

OPERATOR_VAR = "SCRIPTORIUM_OPERATOR_TOKEN"
PROXY_VAR = "SCRIPTORIUM_TRUSTED_PROXIES"  # comma-separated addresses or networks, e.g. 127.0.0.1 or 172.28.0.0/24
PROXY_HEADER = "X-Real-IP"
LOOPBACK = {"127.0.0.1", "::1"}  # Streamlit's own list: a peer it gives no address
OPERATOR_KEY = "operator"  # st.session_state: this tab gave the operator's token
OUTSIDE = ""  # code run outside any tab (a test, a tool): the operator's, as the command line's runs are


def visitor() -> str:
    """The asking tab's network address, or its own session when it comes over the loopback."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return OUTSIDE
    address = st.context.ip_address  # None for a loopback peer
    if is_trusted_proxy(address if isinstance(address, str) else "127.0.0.1"):
        forwarded = st.context.headers.get(PROXY_HEADER)
        address = None if forwarded in LOOPBACK else forwarded
    return address if isinstance(address, str) and address else f"session {ctx.session_id}"  # AppTest's is a mock


def is_trusted_proxy(peer: str) -> bool:
    """Whether PROXY_VAR names this peer's address or a network holding it (an unreadable entry names nothing)."""
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    for entry in filter(None, (part.strip() for part in os.environ.get(PROXY_VAR, "").split(","))):
        try:
            if address in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


def operator_token_set() -> bool:
    return bool(os.environ.get(OPERATOR_VAR))


def is_operator() -> bool:
    return bool(st.session_state.get(OPERATOR_KEY)) and operator_token_set()


def claim_operator(token: str) -> bool:
    """Whether `token` is the operator's; if it is, this tab is the operator's from now on."""
    wanted = os.environ.get(OPERATOR_VAR, "")
    given = hmac.compare_digest(token.encode(), wanted.encode()) if wanted and token else False
    st.session_state[OPERATOR_KEY] = given
    return given
