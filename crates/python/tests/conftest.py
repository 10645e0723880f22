"""Shared fixtures: the experiments program (the Rust API's consumer the Python results are
compared with, bit for bit)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _binary() -> Path:
    env = os.environ.get("LIE_INTEGRATORS_BIN")
    if env:
        return Path(env)
    return ROOT / "target" / "debug" / "lie-integrators"


@pytest.fixture(scope="session")
def cli() -> Callable[..., Tuple[int, Any, str]]:
    """Run the experiments program: ``cli("run", "free-rigid-body", ...)`` returns the exit
    code, the parsed JSON of standard output (or ``None``) and standard error."""
    exe = _binary()
    if not exe.is_file():
        if os.environ.get("LIE_INTEGRATORS_BIN"):
            pytest.fail(f"LIE_INTEGRATORS_BIN={exe} does not exist")
        pytest.skip(f"{exe} is not built (scripts/test builds it)")

    def run(*args: str) -> Tuple[int, Any, str]:
        p = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300)
        out = json.loads(p.stdout) if p.stdout.strip().startswith(("{", "[")) else None
        return p.returncode, out, p.stderr

    return run


def json_lines(text: str) -> List[Dict[str, Any]]:
    """Parse JSON lines."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]
