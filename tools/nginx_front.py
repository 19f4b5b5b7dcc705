"""Debian's nginx run in a temporary folder with deploy/'s site file, on loopback: the proxy of the replica test
and of tools.replicas_load. Nothing system-wide is touched: the folder holds its own main file, logs and pid.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

MAIN = """\
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log {folder}/access.log;
    include {site};
}}
"""


class NoNginx(RuntimeError):
    """nginx is not on this machine; the message says what to install."""


def nginx_program() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found is None:
        raise NoNginx("nginx was not found: install Debian's nginx package (apt-get install nginx)")
    return found


@contextmanager
def nginx_in_front(site_text: str, port: int, timeout: float = 30) -> Iterator[Path]:
    """nginx serving `site_text` (a site file listening on 127.0.0.1:port) until the block ends; yields its folder,
    where error.log and access.log are."""
    program = nginx_program()
    folder = Path(tempfile.mkdtemp(prefix="scriptorium-nginx-"))
    folder.chmod(0o755)  # its workers run as an unprivileged user and make their temporary folders here
    site = folder / "scriptorium.conf"
    site.write_text(site_text)
    (folder / "nginx.conf").write_text(MAIN.format(folder=folder, site=site))
    subprocess.run([program, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-t", "-q"], check=True,
                   capture_output=True, text=True)
    subprocess.run([program, "-p", str(folder), "-c", str(folder / "nginx.conf")], check=True)
    try:
        _wait_listening(port, timeout)
        yield folder
    finally:
        subprocess.run([program, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-s", "stop"], capture_output=True)
        _wait_gone(folder / "nginx.pid")
        shutil.rmtree(folder, ignore_errors=True)


def _wait_listening(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).close()
            return
        except urllib.error.HTTPError:  # nginx answered, whatever the replica said
            return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"nginx did not answer on port {port} within {timeout:.0f} s")


def _wait_gone(pid_file: Path, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
