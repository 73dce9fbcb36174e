"""Hypothesis profiles, the network guard and the end-of-run summary of the differential suite.

Profiles (``--hypothesis-profile=NAME``; ``ci`` when none is given):
- ``ci``: derandomised (a fixed seed: the same requests on every run), 10,000 generated requests
  in each of the two runs (whole surface, reference) and 2,500 generated error-mapping cases (plus
  the exhaustive error-mapping sweep);
- ``long``: 200,000 requests per run and 50,000 generated error-mapping cases, random seed (printed by
  Hypothesis when something fails; ``--hypothesis-seed=N`` fixes it).
  ``SANDGATE_DIFFERENTIAL_SNAPSHOT=file.json`` writes the counts every 2,000 requests, to follow a
  long run; ``SANDGATE_DIFFERENTIAL_MAX_EXAMPLES`` changes its size (to split it over processes).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

os.environ.setdefault("CWSANDBOX_DISABLE_SIGNAL_HANDLERS", "1")  # Sandbox() would install SIGINT handlers

_COMMON: dict[str, Any] = dict(
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    print_blob=True,
)
settings.register_profile("ci", max_examples=10_000, derandomize=True, **_COMMON)
# SANDGATE_DIFFERENTIAL_MAX_EXAMPLES splits the long run over processes (with --hypothesis-seed=N).
settings.register_profile(
    "long", max_examples=int(os.environ.get("SANDGATE_DIFFERENTIAL_MAX_EXAMPLES", "200000")), **_COMMON
)
settings.register_profile("quick", max_examples=1_000, derandomize=True, **_COMMON)
settings.load_profile(os.environ.get("SANDGATE_DIFFERENTIAL_PROFILE", "ci"))


class NetworkAttempt(AssertionError):
    pass


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise NetworkAttempt(f"the differential suite must never open a connection: {args!r}")


@pytest.fixture(autouse=True, scope="session")
def no_network() -> Iterator[None]:
    """Sockets and gRPC channels cannot be opened while the suite runs."""
    import grpc
    import grpc.aio

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket.socket, "connect", _refuse)
        mp.setattr(socket.socket, "connect_ex", _refuse)
        mp.setattr(socket, "create_connection", _refuse)
        for module in (grpc, grpc.aio):
            mp.setattr(module, "insecure_channel", _refuse)
            mp.setattr(module, "secure_channel", _refuse)
        yield


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from diff_report import REPORTS

    for report in REPORTS:
        if report.total:
            terminalreporter.write_line("")
            for line in report.render():
                terminalreporter.write_line(line)
