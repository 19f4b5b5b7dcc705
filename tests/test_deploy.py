"""deploy/'s files agree with the code they configure: the compose file's nginx site is the template filled in,
the names of the settings and the ready URL are the app's, and the launcher refuses what cannot work in words."""
import subprocess
import sys
from pathlib import Path

from deploy import replicas
from specdec_core.services.archive import ENV_VAR
from ui.shared.visitors import PROXY_VAR
from ui.shared.warm_start import READY_PATH

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


def test_the_compose_file_s_nginx_site_is_the_template_filled_in():
    expected = replicas.nginx_site(["app1:8501", "app2:8501"], "80")
    assert (DEPLOY / "compose" / "nginx.conf").read_text() == expected  # remake it with nginx_site when this fails


def test_deploy_names_the_settings_and_the_ready_url_the_app_reads():
    assert replicas.READY_PATH == READY_PATH and replicas.PROXIES_VAR == PROXY_VAR
    compose, dockerfile = (DEPLOY / "compose" / "compose.yaml").read_text(), (DEPLOY / "Dockerfile").read_text()
    for name in (ENV_VAR, PROXY_VAR, replicas.COOKIE_SECRET_VAR):
        assert f"{name}:" in compose
    assert READY_PATH in dockerfile and "serve.py" in dockerfile
    assert "UNTESTED" in compose and "UNTESTED" in dockerfile  # said plainly where no container runtime runs


def test_the_launcher_refuses_an_archive_replicas_cannot_share_in_words():
    done = subprocess.run([sys.executable, "-m", "deploy.replicas", "--archive", "/tmp/class.sqlite"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "postgresql://" in done.stderr and "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "deploy.replicas", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--replicas" in done.stdout and "--nginx-site" in done.stdout
