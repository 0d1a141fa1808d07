"""The benches run as documented: every ``python -m bench.NAME`` that bench/README.md, README.md
or docs/ names starts (``--help``) from the repository root in a fresh process of this
venv's Python, with nothing added to its ``sys.path``; no document gives the form that
cannot work (``python bench/NAME.py``); no bench is named like a package it would shadow."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [
    ROOT / "bench" / "README.md",
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
_COMMAND = re.compile(r"python -m bench\.([a-z_]+)")
_SCRIPT = re.compile(r"python \S*bench/[a-z_]+\.py")


def _documented() -> list[str]:
    """Every bench module a document runs, in order of first mention."""
    names = (name for doc in DOCUMENTS for name in _COMMAND.findall(doc.read_text()))
    return list(dict.fromkeys(names))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """``python args`` from the repository root, as a reader runs it: no PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("name", _documented())
def test_a_documented_bench_prints_its_help(name: str) -> None:
    """``python -m bench.NAME --help`` imports the bench and everything it needs."""
    run = _run("-m", f"bench.{name}", "--help")
    assert run.returncode == 0, run.stderr[-3000:]
    assert "usage:" in run.stdout


def test_every_bench_command_is_documented_and_every_helper_imports() -> None:
    """bench/README.md documents each bench with a command line; the others (helpers such as
    ``bench.oracle``) import from the root alike."""
    commands = {p.stem for p in (ROOT / "bench").glob("*.py") if "__main__" in p.read_text()}
    assert commands <= set(_documented())
    helpers = sorted({p.stem for p in (ROOT / "bench").glob("*.py")} - commands - {"__init__"})
    run = _run(
        "-c",
        "import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]",
        *(f"bench.{name}" for name in helpers),
    )
    assert run.returncode == 0, run.stderr[-3000:]


def test_no_document_runs_a_bench_as_a_file() -> None:
    """``python bench/NAME.py`` puts bench/ first on sys.path, where the root's packages
    are not: the documents and the benches' docstrings say ``python -m bench.NAME``."""
    for doc in [*DOCUMENTS, *sorted((ROOT / "bench").glob("*.py"))]:
        assert not _SCRIPT.findall(doc.read_text()), doc.name


def test_no_bench_is_named_like_a_package_of_the_root() -> None:
    """A bench module named like ``engine`` or ``bot`` would shadow that package for any
    process that has bench/ on sys.path (the bug of the old bench/bot.py)."""
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert not {p.stem for p in (ROOT / "bench").glob("*.py")} & packages


def test_the_web_bench_measures_every_figure_in_a_quick_run() -> None:
    """``bench.web_load --quick`` (a few seconds) prints the click latency, the memory per
    socket and the bytes per card of both screens, with no click left without its view."""
    run = _run("-m", "bench.web_load", "--quick")
    assert run.returncode == 0, run.stderr[-3000:]
    for figure in ("p50", "memory per open socket", "bytes per card", "Discord bodies"):
        assert figure in run.stdout, run.stdout
    row = next(line for line in run.stdout.splitlines() if line.split()[:2] == ["4", "12"])
    # ... refused, no view, bot CPU, CPU/click ("2.500 ms"), generator CPU, open.
    clicks, no_view = int(row.split()[2]), int(row.split()[-6])
    assert clicks > 0 and no_view == 0, row


def test_the_events_bench_plays_a_night_at_its_smallest() -> None:
    """``bench.events_load`` at its smallest (one event of four members, one round of one
    hand, members clicking at once) finishes its night and prints every figure, with no
    click missed and no 429."""
    run = _run(
        "-m", "bench.events_load", "--events", "1", "--members", "4", "--rounds", "1",
        "--hands", "1", "--think", "0", "--deadline", "60",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    lines = {k: v.split() for k, _, v in (x.partition(":") for x in run.stdout.splitlines())}
    assert lines["finished"][:3] == ["1", "of", "1"], run.stdout
    assert lines["429 answers"][0] == "0", run.stdout
    assert "0 missed" in " ".join(lines["card and bid clicks"]), run.stdout
    for figure in ("standings edits per event", "round 1 start", "table lag p50 / p95 / p99"):
        assert figure in lines and "none" not in lines[figure], run.stdout
    assert "bot CPU per card" in lines, run.stdout


def test_the_drawing_bench_compares_two_checkouts_at_its_smallest() -> None:
    """``bench.drawing`` at its smallest, this checkout against itself as the base: the
    CPU a picture of each and their ratio, and the same JPEG files from both."""
    root = str(Path(__file__).resolve().parent.parent)
    run = _run(
        "-m", "bench.drawing", "--rounds", "1", "--games", "4", "--pictures", "8",
        "--base", root,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert re.search(r"this\s+CPU ms a picture: best\s+[\d.]+", run.stdout), run.stdout
    assert "this/base CPU a picture" in run.stdout, run.stdout
    assert "the same JPEG files as base, every one" in run.stdout, run.stdout
