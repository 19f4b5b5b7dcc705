"""The class server asks the network nothing: a name look-up in its process is refused, and logged with its caller.

Its pairs load from folders (assets/, SCRIPTORIUM_MODEL_DIR), never from a hub, so a name to look up
other than localhost is a request the server never needs. A refusal keeps such a query in the process
(tools/no_network.py watches for any that leave) and names, in the log, the code that asked. Addresses
written as numbers need no look-up and pass, as does localhost (/etc/hosts).
"""
from __future__ import annotations

import ipaddress
import socket
import sys
import traceback

from streamlit.logger import get_logger

log = get_logger(__name__)

LOOK_UPS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex", "socket.gethostbyaddr"}
LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
_state = {"installed": False, "refusing": False}


def refuse_name_look_ups() -> None:
    """From now on, refuse look-ups of names in this process (an audit hook, added once: hooks stay for good)."""
    if not _state["installed"]:
        sys.addaudithook(_audit)
        _state["installed"] = True
    _state["refusing"] = True


def _audit(event: str, args: tuple) -> None:
    if not _state["refusing"] or event not in LOOK_UPS or not args or _needs_no_network(args[0]):
        return
    host = args[0]
    callers = " < ".join(f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno} {f.name}" for f in reversed(traceback.extract_stack()[-9:-1]))
    log.warning("refused a look-up of %r: the class server asks the network nothing (asked by %s)", host, callers)
    raise socket.gaierror(socket.EAI_NONAME, f"look-ups of names are refused on the class server: {host!r}")


def _needs_no_network(host) -> bool:
    """A number, a local name, or no host at all (a server binding every address)."""
    if host is None or host in ("", b""):
        return True
    name = host.decode() if isinstance(host, bytes) else str(host)
    if name.lower() in LOCAL_NAMES:
        return True
    try:
        ipaddress.ip_address(name.split("%")[0])
        return True
    except ValueError:
        return False
