"""A plain install of the project works: its wheel carries the migrations and the web
page's files (the vendored SDK too), and with no C compiler it carries the pure-Python
engine instead of failing.

The wheel is built from a copy of the project's files (so the checkout gets no
``build/`` folder), installed into a folder of its own, and run by a child Python
that cannot see the checkout. Everything is offline: ``--no-build-isolation`` uses
this environment's setuptools (the ``test`` extra pins one that builds wheels) and
``--no-deps``/``--no-index`` fetch nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.migrations import discover

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("pyproject.toml", "setup.py", "README.md", "engine", "bot", "migrations")
"""What the Dockerfile copies to build the image: all a wheel is made from."""
STEP_TIMEOUT = 60
"""Seconds one pip or Python step may take (each takes 1–3 s here; the build whose
compiler is missing runs mypy first, about 15 s)."""

CHILD = """
import json, sys
from pathlib import Path

site, database, checkout = sys.argv[1:]
sys.path.insert(0, site)
assert not any(Path(p or ".").resolve() == Path(checkout) for p in sys.path), sys.path

import asyncio
from importlib.resources import files

import bot.migrations
import engine
from bot.store import Store


async def open_and_close() -> None:
    async with await Store.open(database):
        pass


asyncio.run(open_and_close())
print(json.dumps({
    "bot": bot.migrations.__file__,
    "migrations": str(files("migrations")),
    "compiled": engine.compiled_modules(),
}))
"""


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run ``args`` in ``cwd``; fail the test with its output unless it exits 0.

    Returns its stdout and stderr, joined."""
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


def install_wheel(tmp_path: Path, **env: str) -> tuple[Path, str]:
    """Build the project's wheel from a copy of what the Dockerfile ships, with ``env``
    added to the build's environment, and install it into a folder of its own.

    Returns:
        The folder installed into, and the wheel build's output.
    """
    source = tmp_path / "source"
    source.mkdir()
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    build = ("wheel", "-v", "--no-deps", "--no-build-isolation", "--no-index", "-w", "dist")
    output = run(*pip, *build, source, cwd=tmp_path, env={**os.environ, **env})
    (wheel,) = (tmp_path / "dist").glob("tuque-*.whl")
    site = tmp_path / "site"
    run(*pip, "install", "--no-deps", "--no-index", "--target", site, wheel, cwd=tmp_path)
    return site, output


def run_installed(tmp_path: Path, site: Path) -> dict[str, Any]:
    """What the installed bot reports (see ``CHILD``), run where it cannot see the checkout."""
    database = tmp_path / "data" / "tuque.db"
    # -I: no PYTHONPATH, no current folder on sys.path; the venv's packages stay visible.
    out = run(sys.executable, "-I", "-c", CHILD, site, database, ROOT, cwd=tmp_path)
    found: dict[str, Any] = json.loads(out.splitlines()[-1])
    return found


def test_installed_wheel_migrates_a_new_database(tmp_path: Path) -> None:
    """Built as a wheel and installed away from the checkout, the bot brings a new SQLite
    file to the newest schema version with the migrations the wheel carries."""
    site, _ = install_wheel(tmp_path, TUQUE_COMPILE="0")
    found = run_installed(tmp_path, site)
    assert Path(found["bot"]).is_relative_to(site)
    assert Path(found["migrations"]).is_relative_to(site)
    assert found["compiled"] == []
    with sqlite3.connect(tmp_path / "data" / "tuque.db") as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    assert version == len(discover()) >= 1
    # The web table's page and the page inside Discord, with the vendored SDK and its
    # licence: an install has no Node to make them.
    static = site / "bot" / "web" / "static"
    shipped = {p.relative_to(static).as_posix() for p in static.rglob("*") if p.is_file()}
    checkout = ROOT / "bot" / "web" / "static"
    expected = {p.relative_to(checkout).as_posix() for p in checkout.rglob("*") if p.is_file()}
    assert shipped == expected and "vendor/LICENSE" in shipped and "js/activity.js" in shipped


def test_without_a_compiler_the_wheel_carries_the_pure_engine(tmp_path: Path) -> None:
    """The default build compiles the rules core; when the C compiler cannot run it says
    so in one line and the wheel installs and runs the pure sources instead."""
    site, output = install_wheel(tmp_path, CC=str(tmp_path / "no-such-cc"))
    assert "compiling failed" in output and "installing the pure-Python engine" in output
    assert not [p for p in site.rglob("*") if p.suffix in (".so", ".pyd")]
    found = run_installed(tmp_path, site)
    assert found["compiled"] == []
    assert Path(found["bot"]).is_relative_to(site)
