"""The compiler's class options (setup.py, mypyc) without mypy at run time.

mypyc reads ``@mypyc_attr(...)`` from the sources and compiled classes never call it;
pure installs have no ``mypy_extensions``, so at run time the decorator is a no-op here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

__all__ = ["mypyc_attr"]

_C = TypeVar("_C")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_C], _C]:
        """The class unchanged: the options are the compiler's business."""
        return lambda cls: cls
