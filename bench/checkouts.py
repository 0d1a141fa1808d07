"""Running a bench's measuring step on another checkout's engine (the ``--base`` rounds
of ``bench.engine_speed`` and ``bench.ai``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_in_checkout(script: str | Path, root: str | Path, *args: str) -> str:
    """Run the bench file ``script`` of this checkout with ``args`` in a new process whose
    ``engine`` is the one of the checkout at ``root``; return what it printed.

    The file runs by its path with ``-P`` (no folder of its own on ``sys.path``), and
    ``PYTHONPATH=root`` puts that checkout ahead of the venv's editable install, whose
    finder Python asks last; so ``script`` must import nothing from ``bench``. A compiled
    engine built in place in ``root`` (README, "A faster engine") is the one imported.
    Raises ``subprocess.CalledProcessError`` if the process fails.
    """
    env = {**os.environ, "PYTHONPATH": str(Path(root).resolve())}
    return subprocess.run(
        [sys.executable, "-P", str(script), *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
