"""Paths and small helpers shared by the tests (imported as a top-level module: tests/ has no
__init__.py, so the installed sandgate — not the source tree — is what the tests import)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
CONFORMANCE = REPO / "tests" / "conformance"
EXAMPLES = REPO / "examples"
