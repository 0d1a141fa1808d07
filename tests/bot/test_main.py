"""``tuque-bot`` that cannot start: one line on stderr, exit code 2, no traceback.

The entry point runs in a subprocess, as an operator would start it. The database is
opened before logging in, so its cases need no network; nor does any other: a wrong
token is refused by the Discord double, and "no network" is a loopback port nobody
listens on. Root ignores file permissions, so the read-only and full-disk cases mount
a small tmpfs of their own.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.settings import Settings
from bot.store import Store
from tests.discord_double import DiscordDouble

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("launch_bot.py")


def run_bot(database: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` with a token and ``database``, in ``cwd`` (no ``.env`` there)."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": "MTIz.not-a-real-token.abc",
        "DATABASE_PATH": str(database),
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_bot_at(
    api_url: str, gateway_url: str, token: str, cwd: Path, **variables: str
) -> subprocess.CompletedProcess[str]:
    """``tuque-bot``'s entry point with ``token`` (and the settings ``variables``),
    talking to Discord at ``api_url``."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": token,
        "DATABASE_PATH": str(cwd / "data" / "tuque.db"),
        "PYTHONPATH": str(ROOT),
        **variables,
    }
    return subprocess.run(
        [sys.executable, str(LAUNCHER), api_url, gateway_url],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_one_line(result: subprocess.CompletedProcess[str], start: str) -> str:
    """Exit code 2, no traceback, and the last line of stderr (the only one that is not
    a log record) starting with ``start``; returns that line."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    ours = [line for line in lines if line.startswith("tuque-bot: ")]
    assert ours == [lines[-1]], result.stderr
    assert lines[-1].startswith(start), lines[-1]
    return lines[-1]


def run_unconfigured(cwd: Path, **variables: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``cwd`` with none of the bot's variables but ``variables``."""
    env = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env={**env, **variables, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_first_run_says_where_the_token_goes(tmp_path: Path) -> None:
    """The README's bot command: ``.env`` copied from ``.env.example``, no token yet."""
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    result = run_unconfigured(tmp_path)
    line = assert_one_line(result, "tuque-bot: DISCORD_TOKEN is not set")
    assert "after DISCORD_TOKEN= in .env" in line
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "data").exists(), "nothing is created before the token is set"


def test_a_wrong_setting_is_named(tmp_path: Path) -> None:
    """Out-of-range settings are named on one line, without the token's value."""
    result = run_unconfigured(
        tmp_path, DISCORD_TOKEN="MTIz.secret.x", TURN_REMINDER_MINUTES="0", LOG_LEVEL="LOUD"
    )
    line = assert_one_line(result, "tuque-bot: fix these settings")
    assert "TURN_REMINDER_MINUTES" in line and "LOG_LEVEL" in line
    assert "MTIz.secret.x" not in result.stderr


async def test_a_token_discord_refuses(double: DiscordDouble, tmp_path: Path) -> None:
    """A wrong token: Discord answers 401 at login."""
    result = await asyncio.to_thread(
        run_bot_at, double.api_url, double.gateway_url, "MTIz.wrong.token", tmp_path
    )
    line = assert_one_line(result, "tuque-bot: Discord refused DISCORD_TOKEN")
    assert "developer portal" in line
    assert "MTIz.wrong.token" not in result.stderr


async def test_shards_discord_refuses(double: DiscordDouble, tmp_path: Path) -> None:
    """Discord wants 2 shards and the process says 3: the gateway closes with 4011, and
    the operator reads what to set."""
    double.recommended_shards = 2
    double.require_sharding = True
    result = await asyncio.to_thread(
        run_bot_at,
        double.api_url,
        double.gateway_url,
        double.token,
        tmp_path,
        SHARD_COUNT="3",
        SHARD_IDS="0",
    )
    line = assert_one_line(result, "tuque-bot: Discord refused the shards (4011 Sharding")
    assert "SHARD_COUNT" in line


def test_a_database_url_that_cannot_be_used_is_named(tmp_path: Path) -> None:
    """``DATABASE_URL`` to a server that is not there: the line names ``DATABASE_URL``
    and the URL without its password."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://tuque:hunter2@127.0.0.1:{port}/tuque"
    result = run_unconfigured(tmp_path, DISCORD_TOKEN="MTIz.a.b", DATABASE_URL=url)
    line = assert_one_line(result, "tuque-bot: cannot use the database (DATABASE_URL): ")
    assert f"tuque:***@127.0.0.1:{port}/tuque" in line and "hunter2" not in result.stderr


def test_discord_out_of_reach(tmp_path: Path) -> None:
    """No network: the connection to Discord is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nobody listens on the port once the probe is closed.
    result = run_bot_at(
        f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}/", "MTIz.a.b", tmp_path
    )
    line = assert_one_line(result, "tuque-bot: cannot reach Discord (")
    assert line.endswith("check the network and try again"), line


def assert_refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit code 2 and exactly one line on stderr, naming the database and the problem."""
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    line = result.stderr.strip()
    assert line.startswith("tuque-bot: cannot use the database (DATABASE_PATH): "), line
    for word in words:
        assert word in line, line


def dump(path: Path) -> tuple[int, list[str]]:
    """A database's schema version and every statement that rebuilds it."""
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA user_version").fetchone()[0], list(db.iterdump())


@contextmanager
def mounted_tmpfs(where: Path, *options: str) -> Iterator[Path]:
    """A tmpfs at ``where`` with ``options`` (e.g. ``size=16k``), unmounted afterwards."""
    where.mkdir()
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", ",".join(options or ("size=1m",)), "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mount.stderr.strip()}); needs root")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def test_a_path_that_is_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    assert_refused(run_bot(folder, tmp_path), str(folder), "is a folder")
    assert list(folder.iterdir()) == []


def test_a_folder_that_cannot_be_created(tmp_path: Path) -> None:
    """A parent in the path is a file: the folder cannot be made; the file is untouched."""
    blocker = tmp_path / "data"
    blocker.write_text("notes")
    assert_refused(run_bot(blocker / "tuque.db", tmp_path), "folder cannot be created")
    assert blocker.read_text() == "notes"


def test_a_file_that_is_not_sqlite_is_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "tuque.db"
    content = b"these are my notes, not a database\n" * 200
    path.write_bytes(content)
    assert_refused(run_bot(path, tmp_path), str(path), "not an SQLite database", "left")
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tuque.db"]


def test_a_damaged_database_is_left_as_it_was(tmp_path: Path) -> None:
    """A real database whose pages were overwritten: refused, not repaired or replaced."""
    path = tmp_path / "tuque.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
        db.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 50)
    damaged = bytearray(path.read_bytes())
    damaged[0:100] = b"\xff" * 100  # the header
    path.write_bytes(bytes(damaged))
    assert_refused(run_bot(path, tmp_path), "not an SQLite database")
    assert path.read_bytes() == bytes(damaged)


async def test_a_database_from_newer_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tuque.db"
    async with await Store.open(path):
        pass
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    before = dump(path)
    assert_refused(run_bot(path, tmp_path), "newer than this code", "upgrade the bot")
    assert dump(path) == before


async def test_a_missing_folder_is_created(tmp_path: Path) -> None:
    """The one case that starts: the folders are made and the schema is applied."""
    path = tmp_path / "a" / "b" / "tuque.db"
    async with await Store.open(path):
        pass
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] >= 1


def test_a_read_only_folder(tmp_path: Path) -> None:
    with mounted_tmpfs(tmp_path / "ro", "ro", "size=1m") as folder:
        assert_refused(run_bot(folder / "tuque.db", tmp_path), "cannot be opened")


async def test_a_database_in_a_folder_made_read_only(tmp_path: Path) -> None:
    """An existing database whose folder became read-only: refused, and intact."""
    with mounted_tmpfs(tmp_path / "mnt", "size=1m") as folder:
        path = folder / "tuque.db"
        async with await Store.open(path):
            pass
        before = path.read_bytes()
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        result = run_bot(path, tmp_path)
        assert_refused(result)
        assert "read-only" in result.stderr or "cannot be opened" in result.stderr
        assert path.read_bytes() == before  # nothing could be written, not even a header


def test_a_full_disk(tmp_path: Path) -> None:
    """No room for the schema: refused, saying the disk is full."""
    with mounted_tmpfs(tmp_path / "full", "size=12k") as folder:
        result = run_bot(folder / "tuque.db", tmp_path)
    assert_refused(result, "free some space")
    assert "full" in result.stderr
