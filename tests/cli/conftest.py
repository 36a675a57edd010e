"""Fixtures for the CLI tests: run ``pasyans`` in-process, or as the installed script."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from pasyans.cli import app

Invoke = Callable[..., Result]
RunScript = Callable[..., "subprocess.CompletedProcess[str]"]

CONSOLE_SCRIPT = Path(sys.executable).parent / "pasyans"
"""The ``pasyans`` script that ``uv sync`` installs next to the venv's Python."""


@pytest.fixture
def invoke() -> Invoke:
    """``invoke(args, stdin=None)``: ``pasyans ARGS`` in this process; stdin is a pipe and
    stdout is not a terminal, as in a script."""

    def run(args: list[str], stdin: str | None = None) -> Result:
        return CliRunner().invoke(app, args, input=stdin)

    return run


@pytest.fixture
def run_script() -> RunScript:
    """``run_script(args, stdin="")``: the real console script in a subprocess."""
    assert CONSOLE_SCRIPT.exists(), f"no console script at {CONSOLE_SCRIPT}; run uv sync"
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}

    def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(CONSOLE_SCRIPT), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            check=False,
        )

    return run
