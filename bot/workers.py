"""Where computer players think and tables are drawn: process pools whose workers die
with the bot.

The computers' pool has as many workers as ``COMPUTER_PROCESSES`` (by default the cores
there are: the hard level's search is CPU-bound); the drawing pool has one. Workers
are started with "spawn", a fresh interpreter: forking the bot, which already runs the
database thread, could copy a held lock into the child, and a "forkserver" is one
more process that outlives a bot killed with SIGKILL. Workers run nicer than the bot
(:data:`NICENESS`), so the event loop answers clicks first. Every worker watches its parent
and exits within ``PARENT_POLL`` seconds of the bot's death, however the bot died;
multiprocessing's resource tracker then sees its last user gone and exits too.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

__all__ = ["NICENESS", "PARENT_POLL", "computer_pool", "drawing_pool"]

PARENT_POLL = 0.5
"""Seconds between a worker's checks that the bot is still alive."""

NICENESS = 10
"""How much nicer than the bot its workers are: where they share a core with it (one
core for all, as a small host gives), the event loop that answers clicks within
Discord's 3 s goes first, and a table's drawing or a search waits (a table waiting
merges its edits; a click waiting past 3 s is lost). At 300 busy games on one core,
workers as nice as the bot let clicks go unanswered past 3 s once the budget was
used in full."""


def _worker_start(parent: int) -> None:
    """Worker initializer: yield the CPU to the bot (:data:`NICENESS`), and end this
    process once ``parent`` is gone (its ppid changes)."""
    os.nice(NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        # No cleanup to do: the worker holds nothing but a search in progress.
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def computer_pool(processes: int = 1) -> ProcessPoolExecutor:
    """A pool of ``processes`` worker processes for the computer players' moves and the
    hints (started as moves are asked for, up to ``processes``). Raises ``ValueError``
    if ``processes`` < 1."""
    return _pool(processes)


def drawing_pool() -> ProcessPoolExecutor:
    """A pool of one worker process that draws the tables' pictures: a drawing in a
    thread of the bot would hold the GIL for milliseconds at a time and stall the
    event loop (bench/discord_load.py at 100 games: a click's p99 70-300 ms in a thread,
    50 ms in this process), and a computer's search must not hold up a table."""
    return _pool(1)


def _pool(processes: int) -> ProcessPoolExecutor:
    # The initializer runs in every worker: each one exits with the bot.
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_start,
        initargs=(os.getpid(),),
    )
