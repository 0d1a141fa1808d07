"""The build: the pure-Python package, or with ``TUQUE_COMPILE=1`` the rules core compiled.

mypyc compiles ``engine/core.py`` and ``engine/game.py`` to C extension modules that
import in place of the sources (same behaviour: ``tests/test_compiled.py`` replays the
goldens through them; about 1.7 times the hands per second, see ``docs/players.md``).
It needs mypy and a C compiler::

    pip install '.[compile]'
    TUQUE_COMPILE=1 pip install --no-build-isolation .

Editable installs and the tests run the pure sources, so an edited module is never
shadowed by a stale compiled one.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = ["engine/core.py", "engine/game.py"]
"""The modules mypyc compiles: the rules core and the public API over it."""

if os.environ.get("TUQUE_COMPILE") == "1":
    from mypyc.build import mypycify

    # The other engine modules are read for their types, not compiled, so their typing
    # (dataclass tricks mypy flags, such as Card.index) is not held against the build.
    setup(ext_modules=mypycify(["--follow-imports=silent", *COMPILED], opt_level="3"))
else:
    setup()
