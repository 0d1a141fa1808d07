"""A real PostgreSQL server for the tests, started by the tests themselves.

The server comes from the ``pgserver`` package (a test dependency): PostgreSQL's own
binaries in a wheel, so README's test command needs no PostgreSQL set up by hand on
any machine. Each pytest worker starts one server in its own temporary folder, on a
Unix socket, and stops it at exit. Each test gets an empty database of its own,
``CREATE DATABASE``'d from a template that already holds the bot's schema (or from
``template0`` when the test migrates itself).

The folder is in memory (``/dev/shm``) where that has room (:func:`data_folder`): most
store tests make a database, and on a virtual machine's disk each ``CREATE DATABASE``
took some 300 ms, against 25 ms in memory. A run stopped by force may leave its folder
there (``tuque-tests-pg-*``) until the machine restarts.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

import asyncpg

with warnings.catch_warnings():
    # pgserver keeps its lock file under XDG_RUNTIME_DIR, and where that is unset (as in
    # CI) in /tmp, which is what the tests want: not a warning in every worker.
    warnings.simplefilter("ignore")
    import pgserver

_counter = itertools.count()

MEMORY = Path("/dev/shm")
"""Linux's shared memory file system, where the servers' data goes when it has room."""
MEMORY_NEEDED = 4 << 30
"""Bytes free in :data:`MEMORY` for a worker to keep its server's data there."""
_IN_MEMORY = "tuque-tests-pg-"


def data_folder(fallback: Path) -> Path:
    """Where a worker's server keeps its data: a new folder in :data:`MEMORY` where it
    has :data:`MEMORY_NEEDED` free, else ``fallback`` (the worker's temporary folder)."""
    if MEMORY.is_dir() and shutil.disk_usage(MEMORY).free >= MEMORY_NEEDED:
        return Path(tempfile.mkdtemp(prefix=_IN_MEMORY, dir=MEMORY)) / "data"
    return fallback


class PostgresServer:
    """One running server; ``database()`` makes a new database and returns its URL."""

    def __init__(self, folder: Path) -> None:
        # pgserver runs the server as its own system user when the tests run as root.
        self._server = pgserver.get_server(folder, cleanup_mode="delete")
        self.admin_url = self._server.get_uri()
        self._template: str | None = None

    @property
    def pid(self) -> int:
        """The server's main process (its connections are its children)."""
        pid = self._server.get_pid()
        assert pid is not None
        return pid

    def url(self, database: str) -> str:
        """The ``postgresql://`` URL of ``database`` on this server."""
        return self._server.get_uri(database)

    async def database(self, *, migrated: bool = True) -> str:
        """A new, empty database: with the bot's schema when ``migrated`` (from a
        template migrated once), else with nothing at all. Returns its URL."""
        name = f"t{os.getpid()}_{next(_counter)}"
        template = await self._migrated_template() if migrated else "template0"
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            await conn.close()
        return self.url(name)

    async def drop(self, url: str) -> None:
        """Drop the database at ``url`` (:meth:`database`'s), its connections closed."""
        name = url.rsplit("/", 1)[1].split("?", 1)[0]
        conn = await asyncpg.connect(self.admin_url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    async def _migrated_template(self) -> str:
        if self._template is None:
            # Imported here: the bot's store is what the tests test, not what starts them.
            from bot.store import Store

            name = f"template_{os.getpid()}"
            conn = await asyncpg.connect(self.admin_url)
            try:
                await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
            finally:
                await conn.close()
            store = await Store.open(self.url(name))
            await store.close()
            self._template = name
        return self._template

    def stop(self) -> None:
        """Stop the server and delete its folder. At once: nothing it holds is kept, and
        a clean shutdown's checkpoint first writes out every database the tests made
        (some 20 s at the end of a worker's run)."""
        from pgserver._commands import pg_ctl

        server = self._server
        with contextlib.suppress(subprocess.CalledProcessError):
            pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata, user=server.system_user)
        server.cleanup()
        holder = Path(server.pgdata).parent
        if holder.parent == MEMORY and holder.name.startswith(_IN_MEMORY):
            shutil.rmtree(holder, ignore_errors=True)
