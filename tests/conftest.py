"""Shared fixtures: the built `glossa` binary and a helper to run it."""
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def glossa_bin() -> str:
    path = os.environ.get("GLOSSA_BIN", str(REPO / ".build" / "debug" / "glossa"))
    assert os.access(path, os.X_OK), f"glossa binary not found at {path}: run `swift build` (make test does)"
    return path


@pytest.fixture(scope="session")
def run(glossa_bin):
    """Runs glossa with arguments and optional stdin bytes; returns the CompletedProcess."""

    def _run(*args, stdin: bytes | None = None, timeout: float = 120):
        return subprocess.run([glossa_bin, *args], input=stdin, capture_output=True, timeout=timeout)

    return _run
