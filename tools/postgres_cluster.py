"""A throwaway PostgreSQL cluster in a temporary folder, on loopback, for the tests and the replica tools.

Debian's `postgresql` package gives the programs (`.ci/run` installs it); nothing is configured system-wide.
The cluster trusts local connections, writes no fsync (its data is thrown away) and is removed on stop.
PostgreSQL refuses to run as root, so as root the cluster runs as the package's `postgres` user.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from tools.browser import free_port

USER = "scriptorium"  # the cluster's superuser, whom the URLs name


class NoPostgres(RuntimeError):
    """PostgreSQL's programs are not on this machine; the message says what to install."""


def programs_folder() -> Path:
    """Where initdb and pg_ctl are: on PATH, or Debian's versioned folder (newest first)."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]), reverse=True)
    if versions:
        return Path(versions[0]).parent
    raise NoPostgres("PostgreSQL's initdb was not found: install Debian's postgresql package (apt-get install postgresql)")


class ThrowawayCluster:
    """`with ThrowawayCluster() as cluster: cluster.new_database()` gives a postgresql:// URL to a fresh database."""

    def __init__(self):
        self.bin = programs_folder()
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="scriptorium-postgres-"))
        self.data = self.folder / "data"
        self._as_postgres = os.geteuid() == 0

    def start(self) -> "ThrowawayCluster":
        if self._as_postgres:
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options, "-w", "start")
        return self

    def stop(self) -> None:
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database, and its URL."""
        import psycopg

        name = "archive_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def _run(self, program: str, *arguments: str, check: bool = True) -> None:
        command = [str(self.bin / program), *arguments]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder, timeout=120)
        if check and done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}\n{self.log()}")

    def __enter__(self) -> "ThrowawayCluster":
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *_exc) -> None:
        self.stop()
