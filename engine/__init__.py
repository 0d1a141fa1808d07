"""Tuque's rules engine: the rules core, the public game API, the computer players."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import pkgutil


def compiled_modules() -> list[str]:
    """The engine's modules that run compiled (mypyc extension modules, ``setup.py``).

    Returns:
        Dotted module names, sorted; empty when every module runs from its Python
        source (an editable install, or a build with no C compiler: the same rules,
        slower).
    """
    names = [info.name for info in pkgutil.walk_packages(__path__, f"{__name__}.")]
    found = []
    for name in names:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            found.append(name)
    return sorted(found)
