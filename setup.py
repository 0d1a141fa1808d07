"""The build: the engine compiled with mypyc when it can be, the pure sources when not.

A wheel or a plain ``pip install .`` compiles the modules in ``COMPILED`` to C extension
modules that import in place of the sources (same behaviour: ``tests/test_compiled.py``
replays the goldens through them and holds the compiled hard level to the pure one's
moves; about 1.7 times the hands per second, 4 to 5 times the search's iterations, see
``docs/players.md`` and ``docs/ai.md``). Compiling needs mypy (a build requirement in
pyproject.toml) and a C compiler with the Python headers. ``TUQUE_COMPILE`` chooses:

* unset or ``auto``: compile, and if that fails (no compiler, no headers, no mypy) say so
  in one line and install the pure sources, which behave the same, only slower;
* ``1``: compile or fail the build (the Docker image's build stage);
* ``0``: the pure sources only.

``TUQUE_COMPILE_OPT`` is the C compiler's optimisation level, 3 unless set (``0`` to ``3``):
the test of the build uses 0, the same mypyc output in under half the build time.

Editable installs (``pip install -e .``, the tests) never compile, so an edited module is
never shadowed by a stale compiled one. The bot's start-up line says which is in use
(``engine.compiled_modules``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

COMPILED = [
    "engine/core.py",
    "engine/game.py",
    "engine/ai/sim.py",
    "engine/ai/solver.py",
    "engine/ai/sampler.py",
    "engine/ai/search.py",
]
"""The modules mypyc compiles: the rules core, the public API over it, and the hard
level's search (its playouts, solver, deal sampler and tree)."""

MODE = os.environ.get("TUQUE_COMPILE", "auto")
OPT_LEVEL = os.environ.get("TUQUE_COMPILE_OPT", "3")
BUILDS = {"build", "build_ext", "bdist_wheel", "install"}
"""The setup commands that produce installed modules; metadata and editable ones do not."""


def _say(message: str) -> None:
    # stderr, so pip shows it with -v and in a failed build's log.
    print(f"tuque: {message}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` that, unless compiling is required, falls back to the pure sources."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError, OSError) as error:
            if MODE == "1":
                raise
            # A half-built set must not ship: the shared mypyc library without its
            # modules' shims (or the reverse) would not import.
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            _say(f"compiling failed ({error}); installing the pure-Python engine")
        else:
            _say(f"compiled with mypyc: {', '.join(COMPILED)}")


def _extensions() -> list[Any]:
    """mypyc's extension modules, or none for a pure or metadata-only build."""
    if MODE == "0" or "editable_wheel" in sys.argv or not BUILDS & set(sys.argv[1:]):
        return []
    if MODE not in ("1", "auto"):
        raise SystemExit(f"TUQUE_COMPILE={MODE!r}: expected 1, 0 or auto")
    if OPT_LEVEL not in ("0", "1", "2", "3"):
        raise SystemExit(f"TUQUE_COMPILE_OPT={OPT_LEVEL!r}: expected 0, 1, 2 or 3")
    try:
        from mypyc.build import mypycify
    except ImportError:
        if MODE == "1":
            raise
        _say("mypy is not installed; installing the pure-Python engine")
        return []
    # The other engine modules are read for their types, not compiled, so their typing
    # (dataclass tricks mypy flags, such as Card.index) is not held against the build.
    return list(mypycify(["--follow-imports=silent", *COMPILED], opt_level=OPT_LEVEL))


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
