"""The compiled rules core (setup.py, ``TUQUE_COMPILE=1``): mypyc builds ``engine/core.py``
and ``engine/game.py`` in a copy of the checkout, and the compiled modules replay every
golden playthrough byte for byte and pass the engine's property tests."""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_compiled_core_plays_exactly_as_the_sources(tmp_path: Path) -> None:
    for name in ("engine", "tests"):
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    env = {**os.environ, "TUQUE_COMPILE": "1"}
    build = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]

    show = "import engine.core, engine.game; print(engine.core.__file__, engine.game.__file__)"
    where = subprocess.run(
        [sys.executable, "-c", show], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    for path in where.stdout.split():  # the extension modules, not the sources
        assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), path

    tests = ["tests/engine/test_golden_playthroughs.py", "tests/engine/test_engine_properties.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *tests],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
