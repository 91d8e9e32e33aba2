"""Shared paths for the Python package's tests (scripts/test runs them in a fresh venv with the
wheel installed; tests/run-python-tests says how)."""

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(scope="session")
def workspace_cli() -> str:
    """The workspace's own `toolscope` binary (cargo build), the reference for the wheel."""
    path = os.environ.get("TOOLSCOPE_WORKSPACE_CLI")
    if not path or not Path(path).is_file():
        pytest.fail("TOOLSCOPE_WORKSPACE_CLI must name the workspace's target/debug/toolscope")
    return path


@pytest.fixture(scope="session")
def installed_cli() -> str:
    """The `toolscope` command the wheel installed into this venv."""
    path = shutil.which("toolscope", path=str(Path(sys.executable).parent))
    if path is None:
        pytest.fail("the wheel did not put `toolscope` on this venv's PATH")
    return path
