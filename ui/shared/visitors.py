"""Who asks: the visitor a class server counts a share for, and the operator who may do more.

A visitor is a network address. A tab on this machine's own loopback (the lecturer's laptop, the tests)
is a visitor of its own, since every local tab shares one address. Behind a proxy every tab would share
the proxy's address: a server there must be told the client's (docs/class-server.md).

The operator is whoever started the server. They may set OPERATOR_VAR to a token of their choosing;
a tab that gives it on the archive page may then delete any run, not only its own.
"""
from __future__ import annotations

import hmac
import os

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

OPERATOR_VAR = "SCRIPTORIUM_OPERATOR_TOKEN"
OPERATOR_KEY = "operator"  # st.session_state: this tab gave the operator's token
OUTSIDE = ""  # code run outside any tab (a test, a tool): the operator's, as the command line's runs are


def visitor() -> str:
    """The asking tab's network address, or its own session when it comes over the loopback."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return OUTSIDE
    address = st.context.ip_address
    return address if isinstance(address, str) and address else f"session {ctx.session_id}"  # AppTest's is a mock


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
