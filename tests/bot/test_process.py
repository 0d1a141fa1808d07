"""The real ``tuque-bot`` process: killed with SIGKILL mid-game, restarted, stopped cleanly.

The bot runs in a subprocess (``launch_bot.py``) against the loopback Discord double
in this process. A member plays against the computer with the buttons they can see;
the bot is killed while the member is to act and again while the computer is about
to move, restarted on the same database file each time, and the member finishes the
game with the buttons of before the kills. No process of a killed bot outlives it,
and SIGTERM or SIGINT end the bot with code 0. Every wait is for an event, with a
long bound only as a guard against a hang, so a busy machine slows the tests down
without failing them.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from e2e import Table, action_buttons, game_posts, newest_hand

from engine.game import RECORD_FORMAT, RECORD_VERSION, Game
from tests.discord_double import StoredMessage

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("launch_bot.py")
COMPUTER_SEAT = 1  # "/tuque bot" seats the member first
# Only a guard against a hang: every wait below ends on an event (a message, a click's
# answer, the bot's READY, a process's exit), and a loaded 2-core CI machine once took
# over 30 s to bring a restarted bot up.
HANG_GUARD = 120.0


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (zombies count as gone)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (not exited, not zombies)."""
    living = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


async def gone_within(pids: set[int], seconds: float = HANG_GUARD) -> set[int]:
    """Wait for ``pids`` to end (at most ``seconds``); return those still alive."""
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    return alive(pids)


@asynccontextmanager
async def bot_process(t: Table, move_delay: float) -> AsyncIterator[subprocess.Popen[bytes]]:
    """``tuque-bot`` on the table's database, connected to the double and ready; its
    stderr goes to ``bot.log`` beside the database (read it with ``log_of``)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": t.double.token,
        "DATABASE_PATH": str(t.db),
        "DEV_GUILD_ID": str(t.guild.id),
        "COMPUTER_MOVE_DELAY_SECONDS": str(move_delay),
        "TABLE_EDIT_DELAY_SECONDS": "0",
        "LOG_LEVEL": "INFO",
    }
    # The gateway sessions before this bot: a killed bot's may still be listed (the
    # double drops it when it notices the closed socket), so count new ones, not all.
    # The launcher notes each READY in this file: wait for one more line than before
    # (discord.py holds READY until its guilds have come, 2 s or more on a busy machine).
    ready_file = t.db.parent / "ready.log"
    env["LAUNCH_READY_FILE"] = str(ready_file)
    before = readies(ready_file)
    log = (t.db.parent / "bot.log").open("ab")
    process = subprocess.Popen(
        [sys.executable, str(LAUNCHER), t.double.api_url, t.double.gateway_url],
        env=env,
        cwd=t.db.parent.parent,
        stderr=log,
    )
    try:
        await t.double.wait_until(
            lambda: readies(ready_file) > before or process.poll() is not None,
            timeout=HANG_GUARD,
        )
        assert process.poll() is None, log_of(t)[-3000:]
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=HANG_GUARD)
        log.close()


def readies(ready_file: Path) -> int:
    """How many times the bots of this test have been ready (lines in ``ready_file``)."""
    return len(ready_file.read_text().splitlines()) if ready_file.exists() else 0


def log_of(t: Table) -> str:
    """Everything the bot processes of this test wrote to stderr."""
    return (t.db.parent / "bot.log").read_text()


async def click(t: Table, message: StoredMessage, custom_id: str) -> StoredMessage | None:
    """Ann clicks; returns the bot's answer (an edited or new message), if any."""
    rec = await t.double.click(t.ann, message, custom_id)
    await rec.response(timeout=HANG_GUARD)
    await t.double.idle(timeout=HANG_GUARD)
    return rec.original


async def ann_to_act(t: Table, timeout: float = HANG_GUARD) -> StoredMessage:
    """Wait until Ann's newest hand shows action buttons; return it."""
    await t.double.wait_until(lambda: newest_hand(t, t.ann) is not None, timeout=timeout)
    message = newest_hand(t, t.ann)
    assert message is not None
    return message


def show_my_hand(t: Table) -> tuple[StoredMessage, str] | None:
    """The table message and its "Show my hand" custom_id, while the game offers it."""
    for message in game_posts(t):
        for button in message.buttons:
            if button.label == "Show my hand" and button.custom_id:
                return message, button.custom_id
    return None


async def fresh_hand(t: Table) -> StoredMessage | None:
    """Ann presses the table's "Show my hand" (after a restart the bot cannot edit the
    hands it sent before, so this is how a member picks the game up again); None if the
    game ended first (its last table edit takes the button away)."""
    await t.double.wait_until(
        lambda: game_over(t) or show_my_hand(t) is not None, timeout=HANG_GUARD
    )
    found = show_my_hand(t)
    if found is None:
        return None
    shown = await click(t, *found)
    assert shown is not None and shown.ephemeral
    return shown


def stored_game(t: Table) -> Game:
    """The game as the database has it (the bot being down)."""
    with sqlite3.connect(t.db) as db:
        variant, options, seed, first_dealer = db.execute(
            "SELECT variant, options, seed, first_dealer FROM games"
        ).fetchone()
        actions = [a for (a,) in db.execute("SELECT action FROM game_actions ORDER BY seq")]
    record = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "variant": variant,
        "options": json.loads(options),
        "seed": seed,
        "first_dealer": first_dealer,
        "actions": actions,
    }
    return Game.from_record(record)


def game_over(t: Table) -> bool:
    return any("Game over" in m.text for m in game_posts(t))


async def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the bot; every process it started must end on its own."""
    family = descendants(process.pid)
    assert family, "the bot has its computer worker running"
    process.kill()
    process.wait(timeout=HANG_GUARD)
    assert await gone_within(family) == set(), "processes outlived the killed bot"


async def stop(t: Table, process: subprocess.Popen[bytes], signum: int) -> None:
    """Stop the bot with ``signum``: exit code 0, no traceback, no process left behind."""
    family = descendants(process.pid)
    process.send_signal(signum)
    # Waited for without blocking the loop: the double must answer the gateway's close
    # (an AutoShardedClient waits for Discord's reply to its close frame).
    deadline = time.monotonic() + HANG_GUARD
    while process.poll() is None and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert process.wait(timeout=1) == 0
    assert "Traceback" not in log_of(t)
    assert await gone_within(family) == set()


async def start_and_act(t: Table) -> None:
    """Ann starts a game against the computer and takes her first action."""
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", target=5)
    await rec.response(timeout=HANG_GUARD)
    hand = await ann_to_act(t)
    await click(t, hand, action_buttons(hand)[0])


async def test_killed_mid_game_and_mid_computer_move_then_finished_with_old_buttons(
    table: Table,
) -> None:
    t = table
    t.db.parent.mkdir(parents=True)
    async with bot_process(t, move_delay=1.0) as bot:
        await start_and_act(t)
        old_hand = await ann_to_act(t)
        # Ann is to act: kill the bot mid-game.
        await kill(bot)
    async with bot_process(t, move_delay=1.0) as bot:
        # The button from before the kill still works.
        await click(t, old_hand, action_buttons(old_hand)[0])
        while newest_hand(t, t.ann) is not None and not game_over(t):
            hand = await ann_to_act(t)
            await click(t, hand, action_buttons(hand)[-1])
            if action_buttons(t.double.message(hand.id)) == []:
                break  # the computer is to move, after its 1 s pause
        # Mid-computer-move: the computer is on turn and its move is under way.
        await kill(bot)
    assert stored_game(t).turn == COMPUTER_SEAT
    async with bot_process(t, move_delay=0) as bot:
        # The computer moves on restart; Ann plays on from the table.
        deadline = time.monotonic() + HANG_GUARD
        while not game_over(t) and time.monotonic() < deadline:
            hand = await fresh_hand(t)
            if hand is None:
                break  # the game ended meanwhile
            if action_buttons(hand):
                await click(t, hand, action_buttons(hand)[0])
            else:
                await asyncio.sleep(0.05)
        assert game_over(t), log_of(t)[-3000:]
        await stop(t, bot, signal.SIGTERM)
    with sqlite3.connect(t.db) as db:
        assert db.execute("SELECT status FROM games").fetchall() == [("finished",)]
        seqs = [s for (s,) in db.execute("SELECT seq FROM game_actions ORDER BY seq")]
    assert seqs == list(range(len(seqs)))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_stop_signal_closes_the_bot_cleanly(table: Table, signum: int) -> None:
    """Ctrl-C or ``docker stop``: exit code 0, no traceback, no process left behind."""
    t = table
    t.db.parent.mkdir(parents=True)
    async with bot_process(t, move_delay=0) as bot:
        await start_and_act(t)
        await t.double.wait_until(lambda: descendants(bot.pid) != set(), timeout=HANG_GUARD)
        await stop(t, bot, signum)
