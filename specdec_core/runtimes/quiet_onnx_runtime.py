"""ONNX Runtime, imported with its telemetry off: the app asks the network nothing.

The Linux wheel of ONNX Runtime 1.32 carries a telemetry client that, from threads of its own, looks up
mobile.events.data.microsoft.com once a session exists, and would send events there. The class server's
probe without a network (tools/no_network.py) saw those look-ups in two of five runs.
`onnxruntime.disable_telemetry_events()` leaves the look-ups as they are; the ORT_DISABLE_TELEMETRY variable,
set before the runtime starts, stops them (tests/test_quiet_onnx_runtime.py watches the process's connects).
Every module of this app imports the runtime from here.
"""
import os

os.environ["ORT_DISABLE_TELEMETRY"] = "1"

import onnxruntime as ort  # noqa: E402 - after the variable, which the runtime reads as it starts

__all__ = ["ort"]
