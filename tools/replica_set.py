"""deploy/'s recipe run whole on this machine: deploy/replicas.py's replicas, Debian's nginx in front with the site
file the launcher wrote, one archive URL. Used by the replica test and by tools.classroom_load --replicas.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from tools.browser import ROOT, free_port, wait_for_line
from tools.nginx_front import nginx_in_front

READY_LINE = "all replicas ready"  # what deploy/replicas.py prints once every replica answers its ready URL


@dataclass
class ReplicaSet:
    base: str  # the proxy's address: the way in for every browser
    ports: list[int]  # the replicas', on loopback
    archive: str
    logs: Path  # replica-<port>.log for each, launcher.log, nginx's error.log is in nginx_folder
    nginx_folder: Path

    def log(self, port: int) -> str:
        return (self.logs / f"replica-{port}.log").read_text()

    def pids(self) -> list[int]:
        return [pid for port in self.ports if (pid := replica_pid(port)) is not None]


@contextmanager
def replicas_behind_nginx(count: int, archive: str, logs: Path, restart_after: float = 2,
                          ready_timeout: float = 400) -> Iterator[ReplicaSet]:
    first, listen = consecutive_free_ports(count), free_port()
    site, launcher_log = logs / "scriptorium.conf", logs / "launcher.log"
    command = [sys.executable, "-m", "deploy.replicas", "--replicas", str(count), "--first-port", str(first),
               "--archive", archive, "--logs", str(logs), "--nginx-site", str(site),
               "--listen", f"127.0.0.1:{listen}", "--restart-after", str(restart_after)]
    ports = [first + i for i in range(count)]
    with open(launcher_log, "w") as out:
        launcher = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    try:
        if not wait_for_line(launcher_log, READY_LINE, ready_timeout):
            raise TimeoutError(f"the replicas were not ready in {ready_timeout:.0f} s:\n{launcher_log.read_text()}")
        with nginx_in_front(site.read_text(), listen) as nginx_folder:
            yield ReplicaSet(f"http://127.0.0.1:{listen}", ports, archive, logs, nginx_folder)
    finally:
        launcher.send_signal(signal.SIGTERM)  # the launcher stops its replicas
        launcher.wait(60)
        for port in ports:  # one it could not stop would outlive its caller
            if (pid := replica_pid(port)) is not None:
                os.kill(pid, signal.SIGKILL)


def consecutive_free_ports(n: int) -> int:
    """The first of n free loopback ports in a row."""
    while True:
        first = free_port()
        if first + n < 65_000 and all(_free(first + i) for i in range(1, n)):
            return first


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def replica_pid(port: int) -> int | None:
    """The process serving `port` (serve.py with --server.port port), if one runs."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # it ended while we looked
            continue
        if b"serve.py" in arguments and b"--server.port" in arguments:
            if arguments[arguments.index(b"--server.port") + 1] == str(port).encode():
                return int(entry.name)
    return None
