"""Start N replicas of the class server on consecutive loopback ports, all filing runs into one archive.

    .venv/bin/python -m deploy.replicas --replicas 2 --first-port 8601 \
        --archive postgresql://scriptorium@127.0.0.1/scriptorium \
        --nginx-site /etc/nginx/sites-enabled/scriptorium.conf --listen 80

Each replica is serve.py (the server's guards, its warm start) on 127.0.0.1:<port>, told that a proxy on this
machine fronts it (SCRIPTORIUM_TRUSTED_PROXIES=127.0.0.1: it counts a visitor by the address nginx passes on). The
launcher waits until every replica answers /_scriptorium/ready, writes nginx's site file for these ports
when asked (deploy/nginx/scriptorium.conf.template), then stays in the foreground: a replica that ends is
started again after --restart-after seconds, and Ctrl-C or SIGTERM stops them all. Each replica's output
goes to <logs>/replica-<port>.log. Other settings (SCRIPTORIUM_WARM_PAIRS, the run limits, the operator's
token) pass through the environment to every replica. The replicas share one cookie secret
(STREAMLIT_SERVER_COOKIE_SECRET, random per launch unless set), so a browser moved from one to another
keeps a valid XSRF cookie; replicas on several machines need it set alike on each.
"""
from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "nginx" / "scriptorium.conf.template"
READY_PATH = "/_scriptorium/ready"  # ui/shared/warm_start.READY_PATH (this launcher imports nothing of the app)
HOST = "127.0.0.1"  # replicas listen on loopback only: the proxy is the way in
PROXIES_VAR = "SCRIPTORIUM_TRUSTED_PROXIES"  # whose X-Real-IP a replica believes
COOKIE_SECRET_VAR = "STREAMLIT_SERVER_COOKIE_SECRET"  # Streamlit's server.cookieSecret; set it alike on every machine
SHARED_SECRET = secrets.token_hex(32)  # this launcher's replicas share it where the variable is not set


def replica_command(port: int) -> list[str]:
    return [sys.executable, "serve.py", "--server.port", str(port), "--server.address", HOST,
            "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]


def start_replica(port: int, archive: str, logs: Path) -> subprocess.Popen:
    env = dict(os.environ, SCRIPTORIUM_ARCHIVE=archive)
    env.setdefault(PROXIES_VAR, HOST)  # nginx on this machine says who asks (ui/shared/visitors.py)
    # one cookie secret for every replica: a browser moved to another replica keeps a valid XSRF cookie
    env.setdefault(COOKIE_SECRET_VAR, SHARED_SECRET)
    log = open(logs / f"replica-{port}.log", "a")
    return subprocess.Popen(replica_command(port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # its own group: Ctrl-C in this terminal reaches the launcher


def is_ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}{READY_PATH}", timeout=2) as answer:
            return answer.status == 200
    except (urllib.error.URLError, OSError):  # not listening yet, or 503 while its pairs load
        return False


def wait_ready(replicas: dict[int, subprocess.Popen], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    waiting = set(replicas)
    while waiting:
        for port in sorted(waiting):
            if replicas[port].poll() is not None:
                raise SystemExit(f"error: the replica on port {port} ended (code {replicas[port].returncode}) "
                                 f"before it was ready; see its log")
            if is_ready(port):
                print(f"  replica on port {port} is ready", flush=True)
                waiting.discard(port)
        if waiting and time.monotonic() > deadline:
            raise SystemExit(f"error: replicas on ports {sorted(waiting)} were not ready within {timeout:.0f} s")
        time.sleep(0.5)


def nginx_site(replicas: list[str], listen: str) -> str:
    """The template filled in: one server line per replica (host:port), and what nginx listens on."""
    servers = "\n".join(f"    server {replica} max_fails=1 fail_timeout=10s;" for replica in replicas)
    return TEMPLATE.read_text().replace("@SERVERS@", servers).replace("@LISTEN@", listen)


def supervise(replicas: dict[int, subprocess.Popen], archive: str, logs: Path, restart_after: float) -> None:
    """Until told to stop: a replica that ends is said, and started again after restart_after seconds."""
    ended_at: dict[int, float] = {}
    while True:
        for port, process in replicas.items():
            if process.poll() is not None and port not in ended_at:
                print(f"  replica on port {port} ended (code {process.returncode}); the proxy sends its browsers "
                      f"to the others", flush=True)
                ended_at[port] = time.monotonic()
            if port in ended_at and restart_after >= 0 and time.monotonic() - ended_at[port] >= restart_after:
                replicas[port] = start_replica(port, archive, logs)
                del ended_at[port]
                print(f"  replica on port {port} started again", flush=True)
        time.sleep(0.5)


def stop_all(replicas: dict[int, subprocess.Popen]) -> None:
    for process in replicas.values():
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in replicas.values():
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m deploy.replicas", description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2, help="how many app processes (default 2)")
    parser.add_argument("--first-port", type=int, default=8601, help="the first replica's port; the others follow")
    parser.add_argument("--archive", required=True, help="the archive every replica files runs into: a postgresql:// URL")
    parser.add_argument("--logs", type=Path, default=Path("replica-logs"), help="folder for each replica's log")
    parser.add_argument("--nginx-site", type=Path, help="write nginx's site file for these replicas here")
    parser.add_argument("--listen", default="80", help="what nginx listens on, as nginx's listen takes it (default 80)")
    parser.add_argument("--ready-timeout", type=float, default=600, help="seconds to wait for the replicas' warm start")
    parser.add_argument("--restart-after", type=float, default=5,
                        help="seconds before a replica that ended is started again (negative: never)")
    args = parser.parse_args(argv)
    if args.replicas < 1 or not 1 <= args.first_port <= 65535 - args.replicas:
        parser.error("--replicas must be at least 1, on ports that exist")
    if not args.archive.startswith("postgresql://"):
        parser.error("--archive must be a postgresql:// URL: replicas cannot share an SQLite file across machines, "
                     "and on one machine they would queue on its one lock")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    args.logs.mkdir(parents=True, exist_ok=True)
    ports = [args.first_port + i for i in range(args.replicas)]
    replicas = {port: start_replica(port, args.archive, args.logs) for port in ports}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop_all runs in the finally below
    try:
        print(f"  starting {len(ports)} replicas on ports {ports[0]}–{ports[-1]}; logs in {args.logs}", flush=True)
        wait_ready(replicas, args.ready_timeout)
        if args.nginx_site:
            args.nginx_site.write_text(nginx_site([f"{HOST}:{port}" for port in ports], args.listen))
            print(f"  wrote nginx's site file {args.nginx_site}: reload nginx to use it", flush=True)
        print("  all replicas ready", flush=True)
        supervise(replicas, args.archive, args.logs, args.restart_after)
    except KeyboardInterrupt:
        pass
    finally:
        stop_all(replicas)
    return 0


if __name__ == "__main__":
    sys.exit(main())
