"""The suite's own guarantees: it never reaches the network, and sandgate alone stays SDK-free."""

from __future__ import annotations

import socket
import subprocess
import sys

import grpc
import grpc.aio
import pytest

from conftest import NetworkAttempt


def test_import_sandgate_does_not_import_cwsandbox() -> None:
    code = "import sys, sandgate; sandgate.check({'resources': {'cpu': '1'}}); print('cwsandbox' in sys.modules, 'grpc' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"], out.stdout + out.stderr


@pytest.mark.parametrize(
    "open_connection",
    [
        lambda: socket.create_connection(("127.0.0.1", 9)),
        lambda: socket.socket().connect(("127.0.0.1", 9)),
        lambda: grpc.insecure_channel("127.0.0.1:9"),
        lambda: grpc.aio.insecure_channel("127.0.0.1:9"),
        lambda: grpc.aio.secure_channel("api.cwsandbox.com:443", grpc.ssl_channel_credentials()),
    ],
)
def test_the_guard_refuses_every_connection(open_connection: object) -> None:
    with pytest.raises(NetworkAttempt):
        open_connection()  # type: ignore[operator]


def test_starting_a_sandbox_hits_the_guard() -> None:
    """Sandbox.start() is the SDK's first network step: the guard stops it before any traffic."""
    from cwsandbox import Sandbox

    sb = Sandbox(resources={"cpu": "1"}, base_url="https://api.cwsandbox.com")
    with pytest.raises(NetworkAttempt):
        sb.start().result(timeout=30)
