"""Turn errors the bot swallows into test failures.

discord.py catches exceptions in event handlers, command callbacks, views and dynamic
items and only logs them (ERROR, under the `discord` logger), and asyncio only logs a
task's unretrieved exception. `LogGuard` collects both so a test can fail on them.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Sequence
from typing import Any

DEFAULT_LOGGERS = ("discord", "asyncio")


class LogGuard(logging.Handler):
    """Collects ERROR+ records from the given loggers and the event loop's exception handler."""

    def __init__(self, loggers: Sequence[str] = DEFAULT_LOGGERS) -> None:
        super().__init__(level=logging.ERROR)
        self.logger_names = tuple(loggers)
        self.records: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous_handler: Any = None

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the formatted record (message plus traceback)."""
        text = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        self.records.append(text)

    def _loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        self.records.append(f"event loop: {context.get('message')}: {exc!r}")
        if self._previous_handler is not None:
            self._previous_handler(loop, context)
        else:
            loop.default_exception_handler(context)

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start collecting from the loggers and from `loop`."""
        for name in self.logger_names:
            logging.getLogger(name).addHandler(self)
        self._loop = loop
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_exception)

    def uninstall(self) -> None:
        """Stop collecting; collects garbage first so dropped failed tasks still report."""
        gc.collect()
        for name in self.logger_names:
            logging.getLogger(name).removeHandler(self)
        if self._loop is not None:
            self._loop.set_exception_handler(self._previous_handler)
            self._loop = None

    def take(self) -> list[str]:
        """Return the collected records and forget them (for tests that provoke errors)."""
        taken, self.records = self.records, []
        return taken

    def check(self) -> None:
        """Raise AssertionError if anything was collected."""
        if self.records:
            raise AssertionError("errors were logged:\n" + "\n".join(self.records))
