"""Serve the app where no network exists and list every connection the server tries: it must ask the internet nothing.

Usage (as root, with iproute2 and strace): .venv/bin/python -m tools.no_network

It makes a network namespace that holds loopback alone (`ip netns add`), and inside it runs the real server
under `strace -f -e trace=connect`. A student opens a page; then a client knocks with a websocket from a
foreign Origin, which the server must refuse (403). It prints the refusal's status and every connect() the
server made to an address other than loopback; the README promises there are none. Streamlit runs none of
the app's code before a first page (ui/shared/server_guard.py), so the knock comes after one.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tools.browser import ROOT, app_process
from tools.classroom_load import open_and_step

FOREIGN_ORIGIN = "http://elsewhere.example"
# strace writes `connect(3, {sa_family=AF_INET, sin_port=htons(1), sin_addr=inet_addr("8.8.8.8")}, 16) = -1 ...`
CONNECT = re.compile(r"connect\(\d+, \{sa_family=(AF_INET6?|AF_UNIX|AF_NETLINK)[^}]*\}.*")
LOOPBACK = re.compile(r'inet_addr\("127\.|inet_pton\(AF_INET6, "::1"|sa_family=AF_UNIX|sa_family=AF_NETLINK')


@dataclass
class Probe:
    """What the server did in a world without a network."""

    page_error: str  # the student's page: "" when it opened
    knock_status: int  # the foreign-Origin handshake's HTTP status (403 when refused)
    outside_connects: list[str]  # connect() calls to anything but loopback
    log: str  # the server's terminal


def probe(folder: Path) -> Probe:
    """Inside the namespace: run the server under strace, open a page, knock from a foreign Origin."""
    trace, log = folder / "connect.strace", folder / "server.log"
    wrapper = ("strace", "-f", "--seccomp-bpf", "-e", "trace=connect", "-o", str(trace))
    with app_process(archive=folder / "archive.sqlite", log=log, wrapper=wrapper) as (base, _):
        student = open_and_step(base, "poetry", 1, 0)
        status = knock(base)
    calls = [line for line in trace.read_text().splitlines() if CONNECT.search(line)]
    return Probe(student.error, status, [c for c in calls if not LOOPBACK.search(c)], log.read_text())


def knock(base: str) -> int:
    """Open the app's websocket as a page on another site would; the HTTP status of the answer."""
    try:
        with connect(base.replace("http", "ws") + "/_stcore/stream", origin=FOREIGN_ORIGIN,
                     subprotocols=["streamlit"], open_timeout=30):
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


@contextmanager
def namespace_without_network() -> Iterator[str]:
    """A network namespace with loopback up and no other device or route; removed afterwards.
    Raises subprocess.CalledProcessError where namespaces are not permitted."""
    name = f"scriptorium-{uuid.uuid4().hex[:8]}"
    subprocess.run(["ip", "netns", "add", name], check=True, capture_output=True)
    try:
        subprocess.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"], check=True, capture_output=True)
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def probe_without_network(folder: Path, timeout: float = 400) -> Probe:
    """Run `probe` in a fresh namespace without network (this module again, under `ip netns exec`)."""
    with namespace_without_network() as name:
        subprocess.run(["ip", "netns", "exec", name, sys.executable, "-m", "tools.no_network", "--inside", str(folder)],
                       cwd=ROOT, check=True, timeout=timeout)
    return Probe(**json.loads((folder / "probe.json").read_text()))


def main() -> None:
    if sys.argv[1:2] == ["--inside"]:  # this module again, inside the namespace (probe_without_network)
        folder = Path(sys.argv[2])
        (folder / "probe.json").write_text(json.dumps(asdict(probe(folder))))
        return
    import argparse

    argparse.ArgumentParser(prog="python -m tools.no_network", description=__doc__.splitlines()[0]).parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        result = probe_without_network(Path(folder))
    print(f"student's page: {result.page_error or 'opened'}; foreign-Origin websocket: HTTP {result.knock_status}")
    print(f"connections tried beyond loopback: {len(result.outside_connects)}")
    for line in result.outside_connects:
        print("  " + line)


if __name__ == "__main__":
    main()
