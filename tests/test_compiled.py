"""The compiled build (setup.py, ``TUQUE_COMPILE=1``): mypyc builds the rules core
(``engine/core.py``, ``engine/game.py``) and the search player (``engine/ai/``) in a copy of
the checkout; the compiled modules replay every golden playthrough byte for byte, and the
compiled hard level chooses exactly the actions the pure one does with the same shares of
its search (its playouts, solver and sampler drawing the same numbers), which holds the
search's compiled modules to the pure ones."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMPILED_MODULES = (
    "engine.core",
    "engine.game",
    "engine.ai.sim",
    "engine.ai.solver",
    "engine.ai.sampler",
    "engine.ai.search",
)
"""The modules the build must compile (setup.py's ``COMPILED``)."""

HARD_TABLES = (
    ("tuque", {}, 2),
    ("euchre", {"stick_the_dealer": True}, 1),
    ("six_hand", {"double_pack": True}, 1),  # the double pack's own playouts and solver
)
"""The hands on which the compiled and pure hard levels are compared (a hand or two of
each: every module of the search runs in each): variant, options, hands (seeds 0, 1,
...)."""


def hard_decisions(iterations: int = 200) -> list[list[object]]:
    """Every decision of the hard level at a fixed iteration count (every seat hard) over
    the hands of :data:`HARD_TABLES`: the action id, the share of the search behind each
    option and the iterations it used. A pure function of the engine that is imported."""
    from engine.ai.search import SearchPlayer
    from engine.game import Game

    out: list[list[object]] = []
    for variant, options, hands in HARD_TABLES:
        for seed in range(hands):
            game = Game(variant, seed=seed, **options)
            hard = SearchPlayer(seed=seed, iterations=iterations)
            game.deal()
            while game.turn is not None:
                view = game.view(game.turn)
                action = hard.choose(view, view.legal_actions)
                shares = sorted(hard.last_shares.items())
                out.append([action.id, shares, hard.last_iterations])
                game.apply(game.turn, action)
    return out


def test_the_compiled_build_plays_exactly_as_the_sources(tmp_path: Path) -> None:
    for name in ("engine", "tests"):
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    # gcc's optimisation changes no behaviour here (no fast-math), and -O0 builds in
    # under half the time of the shipped -O3: the test holds mypyc's translation.
    env = {**os.environ, "TUQUE_COMPILE": "1", "TUQUE_COMPILE_OPT": "0"}
    build = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]

    show = (
        "import importlib, sys; print(*(importlib.import_module(m).__file__ for m in sys.argv[1:]))"
    )
    where = subprocess.run(
        [sys.executable, "-c", show, *COMPILED_MODULES],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    for path in where.stdout.split():  # the extension modules, not the sources
        assert path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), path

    # A copy is a blank filled in, not a new game: compiled, Game.__new__ runs __init__,
    # which must not draw a seed from the OS (nor deal, nor check options) for a blank.
    blank = (
        "import random; from engine.game import Game; g = Game('tuque', seed=3); g.deal(); "
        "random.SystemRandom.randrange = None; c = g.copy(); assert c.view(0) == g.view(0)"
    )
    subprocess.run([sys.executable, "-c", blank], cwd=tmp_path, check=True)

    # The goldens replay every variant's whole games through the compiled rules, byte for
    # byte; the engine's property tests run against the pure modules in the suite itself.
    tests = ["tests/engine/test_golden_playthroughs.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *tests],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]

    # The same seeded decisions, compiled (in the copy) and pure (here): floats, RNG draws,
    # dict orders and ties must all agree for the moves and the search's shares to match.
    decide = (
        "import json; from tests.test_compiled import hard_decisions; "
        "print(json.dumps(hard_decisions()))"
    )
    compiled = subprocess.run(
        [sys.executable, "-c", decide],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert compiled.returncode == 0, compiled.stderr[-3000:]
    assert json.loads(compiled.stdout) == json.loads(json.dumps(hard_decisions()))
