"""The graph runtime asks the network nothing: ONNX Runtime's telemetry would look up its collector's name
from threads of its own once a session exists (found by tools/no_network.py in two of five runs)."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tools.browser import ROOT

# A process that runs a one-node graph, then waits while the runtime's own threads would do their work: the
# telemetry's look-up came about 8 s after the first session, later on a busy machine.
RUN_AND_WAIT = """
import time
{runtime}
from onnx import TensorProto, helper
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
graph = helper.make_graph([helper.make_node("Neg", ["x"], ["y"])], "g", [x],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
ort.InferenceSession(model.SerializeToString()).run(None, {{"x": __import__("numpy").ones(1, "float32")}})
print("session", flush=True)
time.sleep(600)
"""
WATCH_S = 30  # after the session: over three times the look-up's usual delay
DNS = re.compile(r"connect\(\d+, \{sa_family=AF_INET6?, sin6?_port=htons\(53\)")


def connects_to_port_53(runtime: str, tmp_path) -> int:
    """Port-53 connects of a process running `runtime`'s session, watched for WATCH_S after the session (or
    until the first one)."""
    trace = tmp_path / "connect.strace"
    clean = {name: value for name, value in os.environ.items() if name != "ORT_DISABLE_TELEMETRY"}  # this process set it
    process = subprocess.Popen(["strace", "-f", "--seccomp-bpf", "-e", "trace=connect", "-o", str(trace), sys.executable,
                                "-c", RUN_AND_WAIT.format(runtime=runtime)], cwd=ROOT, env=clean, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert process.stdout.readline().strip() == "session"
        for _ in range(WATCH_S * 2):
            if DNS.search(trace.read_text()):
                break
            time.sleep(0.5)
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # strace and the process it traces
        process.wait(timeout=30)
    return len(DNS.findall(trace.read_text()))


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_the_graph_runtime_looks_nothing_up_and_would_without_the_variable(tmp_path):
    # the negative control first: the runtime imported on its own, as before this module, looks its collector up
    # (8.5 s after the session, in each of four runs here); a machine without a network may give it nothing to try
    if connects_to_port_53("import onnxruntime as ort", tmp_path) == 0:
        pytest.skip("the runtime looks nothing up here even with its telemetry on: this machine cannot tell them apart")
    assert connects_to_port_53("from specdec_core.runtimes.quiet_onnx_runtime import ort", tmp_path) == 0
