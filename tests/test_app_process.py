"""The test server ends whole: under a wrapper that passes no signal on (as strace in tools/no_network), the
server it started used to outlive the test and hold a port and 700 MB until the machine was restarted."""
import os
import urllib.request

import pytest

from tools.browser import app_process

# sh runs the server as its child (the trailing command keeps it from exec'ing), and dies of SIGTERM alone
SIGNAL_SWALLOWING_WRAPPER = ("sh", "-c", '"$@"; exit 0', "sh")


def test_a_wrapped_server_leaves_no_process_behind(tmp_path):
    with app_process(archive=tmp_path / "archive.sqlite", wrapper=SIGNAL_SWALLOWING_WRAPPER) as (base, group):
        assert urllib.request.urlopen(base + "/_stcore/health", timeout=10).status == 200
    with pytest.raises(ProcessLookupError):
        os.killpg(group, 0)  # no process of the server's group is left
    with pytest.raises(OSError):
        urllib.request.urlopen(base + "/_stcore/health", timeout=5)
