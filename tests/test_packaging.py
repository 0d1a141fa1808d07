"""A plain install of the project works: its wheel carries the migrations.

The wheel is built from a copy of the project's files (so the checkout gets no
``build/`` folder), installed into a folder of its own, and run by a child Python
that cannot see the checkout. Everything is offline: ``--no-build-isolation`` uses
this environment's setuptools (the ``test`` extra pins one that builds wheels) and
``--no-deps``/``--no-index`` fetch nothing.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.migrations import discover

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("pyproject.toml", "README.md", "engine", "bot", "migrations")
"""What the Dockerfile copies to build the image: all a wheel is made from."""
STEP_TIMEOUT = 60
"""Seconds one pip or Python step may take (each takes 1–3 s here)."""

CHILD = """
import json, sys
from pathlib import Path

site, database, checkout = sys.argv[1:]
sys.path.insert(0, site)
assert not any(Path(p or ".").resolve() == Path(checkout) for p in sys.path), sys.path

import asyncio
from importlib.resources import files

import bot.migrations
from bot.store import Store


async def open_and_close() -> None:
    async with await Store.open(database):
        pass


asyncio.run(open_and_close())
print(json.dumps({
    "bot": bot.migrations.__file__,
    "migrations": str(files("migrations")),
}))
"""


def run(*args: str | Path, cwd: Path) -> str:
    """Run ``args`` in ``cwd``; fail the test with its output unless it exits 0."""
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_installed_wheel_migrates_a_new_database(tmp_path: Path) -> None:
    """Built as a wheel and installed away from the checkout, the bot brings a new SQLite
    file to the newest schema version with the migrations the wheel carries."""
    source = tmp_path / "source"
    source.mkdir()
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    build = ("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", "dist", source)
    run(*pip, *build, cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("tuque-*.whl")
    site = tmp_path / "site"
    run(*pip, "install", "--no-deps", "--no-index", "--target", site, wheel, cwd=tmp_path)

    database = tmp_path / "data" / "tuque.db"
    # -I: no PYTHONPATH, no current folder on sys.path; the venv's packages stay visible.
    out = run(sys.executable, "-I", "-c", CHILD, site, database, ROOT, cwd=tmp_path)

    found = json.loads(out.splitlines()[-1])
    assert Path(found["bot"]).is_relative_to(site)
    assert Path(found["migrations"]).is_relative_to(site)
    with sqlite3.connect(database) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    assert version == len(discover()) >= 1
