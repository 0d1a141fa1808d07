"""Helpers of the bot's end-to-end tests: a table of three members, the bot on a real
database file, and members who act only on what they can see."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.client import TuqueBot
from bot.faces import emoji_name
from bot.sessions import Session
from bot.settings import Settings
from engine.cards import CARDS, Card
from engine.game import Game
from tests.discord_double import DiscordDouble, StoredMessage
from tests.discord_double.models import Channel, Guild, User, walk_components
from tests.discord_double.ratelimits import TEST_SPEED

GAP = Settings.model_fields["table_edit_gap_seconds"].default
"""The bot's default gap between two table edits in a channel (seconds)."""

QUIET = 0.015
"""How long the double's ``idle`` wants the loop calm while the bot runs in it: three of
its polls. The bot's work outside the loop (its database thread, computers, drawer) is
reported busy (``_thread_work_seen``), so the calm needs only to span a turn of the
loop that reads what the sockets brought."""

REQUESTS_PER_SECOND = round(50 / TEST_SPEED)
"""The bot's request budget against the double's global limit, thirty times Discord's."""

CARD_CODE = re.compile(r"\b(?:[6-9TJQKA][CDHS]|B[123])\b")
"""A card's text form (as in logs and custom_ids)."""


@dataclass
class Table:
    """A guild with one channel and three members: two players and a stranger."""

    double: DiscordDouble
    guild: Guild
    channel: Channel
    ann: User
    bob: User
    eve: User
    db: Path


@asynccontextmanager
async def running_bot(
    t: Table, executor: Executor | None = None, **settings_: Any
) -> AsyncIterator[TuqueBot]:
    """The bot on the table's database, against the double; computers think in a thread
    (or in ``executor``), move at once, and table edits are not delayed and keep the
    gap between them of the double's rate limits, thirty times faster than Discord's
    (``settings_`` override any setting); the double's ``idle`` waits for an edit still
    to be made and for the bot's jobs in threads, then for a calm of ``QUIET``. Members
    are pinged after the bot's default delay, which a test's member never waits out:
    tests of the ping set ``turn_ping_delay_seconds``."""
    settings = Settings(
        **{
            "discord_token": "unused-by-the-double",
            "database_path": t.db,
            "dev_guild_id": t.guild.id,
            "computer_move_delay_seconds": 0,
            "table_edit_delay_seconds": 0,
            "table_edit_gap_seconds": GAP * TEST_SPEED,
            "discord_requests_per_second": REQUESTS_PER_SECOND,
            **settings_,
        }
    )
    pool = executor or ThreadPoolExecutor(max_workers=1)
    # Tables are drawn in a thread: a process per test would cost a second to start;
    # tests/bot/test_process.py runs the bot with its own drawing process.
    drawer = ThreadPoolExecutor(max_workers=1)
    bot = TuqueBot(settings, executor=pool, drawer=drawer, guild_ready_timeout=0.05)
    quiet = t.double.quiet
    try:
        with _thread_work_seen(asyncio.get_running_loop()) as in_threads:
            async with t.double.running(bot):
                busy = partial(_busy, bot, in_threads)
                t.double.busy.append(busy)
                # Every wait of the bot's outside the loop is reported: idle need not
                # wait for one to look finished.
                t.double.quiet = QUIET
                try:
                    yield bot
                finally:
                    t.double.quiet = quiet
                    t.double.busy.remove(busy)
    finally:
        pool.shutdown(wait=True)
        drawer.shutdown(wait=True)


@contextmanager
def _thread_work_seen(loop: asyncio.AbstractEventLoop) -> Iterator[Callable[[], bool]]:
    """While open, every job that ``loop`` hands to a thread (``run_in_executor``: the
    store's SQLite thread, the computers, the drawer, ``asyncio.to_thread``) counts until
    its result is back in the loop; yields whether one is out."""
    out: set[asyncio.Future[Any]] = set()
    original = loop.run_in_executor

    def run_in_executor(executor: Any, func: Callable[..., Any], *args: Any) -> Any:
        future = original(executor, func, *args)
        out.add(future)
        # Called in the loop with the waiter's wake-up: the loop has work from then on.
        future.add_done_callback(out.discard)
        return future

    loop.run_in_executor = run_in_executor  # type: ignore[method-assign]
    try:
        yield lambda: bool(out)
    finally:
        loop.run_in_executor = original  # type: ignore[method-assign]


def dealt_from(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every game the bot starts is dealt from ``seed`` (and its computers, seeded from
    the game's, choose alike): a test's game is the same game on every run."""
    # The sessions module's own: patched in ``secrets`` itself, it would give every
    # message discord.py sends one nonce, and Discord would take only the first.
    monkeypatch.setattr("bot.sessions.manager.secrets", SimpleNamespace(randbits=lambda _: seed))


def _busy(bot: TuqueBot, in_threads: Callable[[], bool]) -> bool:
    """Whether the bot holds work back that the double cannot see: a table edit waiting
    for its channel's turn, a request discord.py keeps until a spent rate-limit bucket
    resets (its ``Ratelimit`` queue, discord.py 2.7) or a global 429's wait is over, or
    a job in a thread."""
    if in_threads() or bot.sessions.showing() or bot.budget.waiting:
        return True
    http = bot.http
    if not http._global_over.is_set():
        return True
    return any(r._pending_requests or r._sleeping.locked() for r in http._buckets.values())


_HANDLERS = ("CommandTree-invoker", "discord-ui-view-dispatch-")
"""The names discord.py 2.7 gives the tasks that run a command's and a component's
handler."""


def handling() -> bool:
    """Whether a slash command's or a component's handler is still running (between two
    tries of a request it makes none the double could see)."""
    return any(
        task.get_name().startswith(_HANDLERS) and not task.done() for task in asyncio.all_tasks()
    )


def db_snapshot(t: Table) -> tuple[Any, ...]:
    """Everything a bad click could change in the database."""
    with sqlite3.connect(t.db) as db:
        return tuple(
            tuple(db.execute(f"SELECT * FROM {name}").fetchall())
            for name in ("games", "game_actions", "hands", "results", "ratings", "challenges")
        )


def offered(message: StoredMessage, game_id: int, seq: int) -> list[tuple[str, str | None]]:
    """The actions ``message`` offers at ``seq``: ``(custom_id, select value or None)``."""
    prefix = (f"tuque:act:{game_id}:{seq}:", f"tuque:pick:{game_id}:{seq}:")
    found: list[tuple[str, str | None]] = [
        (b.custom_id, None)
        for b in message.buttons
        if b.custom_id and b.custom_id.startswith(prefix)
    ]
    for select in message.selects:
        if select.custom_id.startswith(prefix):
            found += [(select.custom_id, value) for _, value in select.options]
    return found


def action_buttons(message: StoredMessage) -> list[str]:
    return [
        b.custom_id for b in message.buttons if b.custom_id and b.custom_id.startswith("tuque:act:")
    ]


def newest_hand(t: Table, user: User) -> StoredMessage | None:
    """The user's newest ephemeral that carries action buttons."""
    for message in reversed(t.double.ephemerals_for(user)):
        if action_buttons(message):
            return message
    return None


def game_posts(t: Table) -> list[StoredMessage]:
    """Every public message in the channel and in the game threads started from it,
    oldest first: where a game's posts go with threads on (the default) or off."""
    threads = [c for c in t.guild.threads.values() if c.parent_id == t.channel.id]
    posts = [m for c in (t.channel, *threads) for m in t.double.channel_messages(c)]
    return sorted(posts, key=lambda m: m.id)


def latest_post(t: Table) -> StoredMessage:
    """The newest of :func:`game_posts`."""
    return game_posts(t)[-1]


def table_message(t: Table) -> StoredMessage:
    """The game's table message (the first game's): in its thread, or in the channel
    where the game plays without one."""
    found = _table_or_none(t)
    assert found is not None, "no table message"
    return found


def _table_or_none(t: Table) -> StoredMessage | None:
    return next(
        (
            m
            for m in game_posts(t)
            if any(b.custom_id and b.custom_id.startswith("tuque:hand:") for b in m.buttons)
            # A finished game's table: its picture, and no button.
            or (
                any(c.get("type") == 12 for c in walk_components(m.components))
                and " · game #" in m.text
            )
        ),
        None,
    )


async def send_challenge(
    t: Table, channel: Channel | None = None, **options: Any
) -> tuple[StoredMessage, str]:
    """Ann challenges Bob in ``channel`` (the table's by default); return the invitation
    and its Accept button's custom_id."""
    where = channel or t.channel
    before = len(t.double.channel_messages(where))
    rec = await t.double.slash(t.ann, where, "tuque", "challenge", opponent=t.bob, **options)
    await rec.settled()
    # Under injected faults the post may still be on its way when the double looks idle.
    await t.double.wait_until(lambda: len(t.double.channel_messages(where)) > before, 10)
    invite = t.double.latest_message(where)
    accept = next(b.custom_id for b in invite.buttons if b.label == "Accept")
    assert accept is not None
    return invite, accept


async def challenge_and_accept(t: Table, **options: Any) -> int:
    invite, accept = await send_challenge(t, **options)
    await (await t.double.click(t.bob, invite, accept)).settled()
    match = re.search(r"game #(\d+)", t.double.message(invite.id).text)
    assert match, t.double.message(invite.id).text
    # The table (drawn in a worker) and its thread follow the answer to the click.
    await t.double.wait_until(lambda: _table_or_none(t) is not None, 10)
    await t.double.idle()
    return int(match.group(1))


async def wait_for_forced_move(t: Table, session: Session, seq: int) -> None:
    """The member to act has one legal action and auto-play plays it (the last trick by
    default): wait for that move instead of racing it with a click."""
    await t.double.wait_until(lambda: session.finished or len(session.game.log) > seq, 20)
    await t.double.idle()


async def opened(t: Table, bot: TuqueBot, game_id: int) -> None:
    """Wait until the game's opening is over: its table message and thread are posted
    and stored, and then its first turn's clock started (the opening's last write), so
    a snapshot of the database holds."""
    session = bot.sessions.session(game_id)
    assert session is not None
    await t.double.wait_until(lambda: session.discord.thread_tried, timeout=10)
    for _ in range(200):
        row = await bot.store.load_game(game_id)
        stored = (row.table_message_id, row.thread_id)
        shown = (session.discord.table_message_id, session.discord.thread_id)
        if stored == shown and row.turn_started_at > row.created_at:
            break
        await asyncio.sleep(0.05)
    await t.double.idle()


async def play_turn(t: Table, bot: TuqueBot, game_id: int, rng: random.Random) -> bool:
    """The player to act clicks one of the buttons they see; False once the game is over."""
    session = bot.sessions.session(game_id)
    if session is None:
        return False
    seat = session.game.turn
    assert seat is not None
    seq = len(session.game.log)
    if session.table.forced(seat) is not None:
        await wait_for_forced_move(t, session, seq)
        return True
    user = {t.ann.id: t.ann, t.bob.id: t.bob}[session.table.seats[seat].member]  # type: ignore[index]
    message = newest_hand(t, user)
    buttons = [b for b in action_buttons(message) if f":{seq}:" in b] if message else []
    if not buttons:
        # Token expired, never given, or its edit still on the way: the table's button
        # brings a fresh hand (the table itself may still be on its way under faults).
        await t.double.wait_until(lambda: _table_or_none(t) is not None, timeout=10)
        show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
        clicked = await t.double.click(user, table_message(t), show)  # type: ignore[arg-type]
        await clicked.response(timeout=10)
        await clicked.settled()
        message = newest_hand(t, user)
        assert message is not None
        buttons = action_buttons(message)
    await (await t.double.click(user, message, rng.choice(buttons))).settled()  # type: ignore[arg-type]
    return True


async def started_game(t: Table, bot: TuqueBot) -> tuple[int, User, User]:
    """A fresh challenge game; returns its id, the member to act and the other one."""
    game_id = await challenge_and_accept(t)
    session = bot.sessions.session(game_id)
    assert session is not None and session.game.turn is not None
    to_act = t.ann if session.table.seats[session.game.turn].member == t.ann.id else t.bob
    return game_id, to_act, (t.bob if to_act is t.ann else t.ann)


async def assert_refused(t: Table, bot: TuqueBot, game_id: int, click: Callable[[], Any]) -> str:
    """Run a bad click; it must get an ephemeral answer and change nothing."""
    before_db = db_snapshot(t)
    session = bot.sessions.session(game_id)
    before_game = session.game.to_record() if session else None
    rec = await click()
    await rec.settled()
    assert rec.acknowledged
    reply = rec.original
    assert reply is not None and reply.ephemeral, "a refusal must be ephemeral"
    assert db_snapshot(t) == before_db
    session = bot.sessions.session(game_id)
    assert (session.game.to_record() if session else None) == before_game
    return reply.text


def _shows(text: str, card: Card) -> bool:
    """Whether ``text`` shows ``card`` (not only its double-pack twin, ``A♦'`` for ``A♦``)."""
    return re.search(re.escape(card.pretty()) + "(?!')", text) is not None


def assert_nothing_hidden_shown(
    t: Table,
    game_id: int,
    records: Sequence[logging.LogRecord],
    members: Mapping[int, User],
    *,
    expect_discards: bool = True,
    public: Sequence[StoredMessage] | None = None,
) -> None:
    """No kitty card or discard in a public message, a custom_id or a log line, and none
    in a member's ephemerals but their own discards (``members``: seat -> member).

    ``expect_discards``: the game must have had a discard (a check that the check ran).
    ``public``: the game's public messages (default: the channel's and its threads')."""
    with sqlite3.connect(t.db) as db:
        actions = [
            a
            for (a,) in db.execute(
                "SELECT action FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        variant, options, seed, first_dealer = db.execute(
            "SELECT variant, options, seed, first_dealer FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    # Replay the log to learn each hand's kitty and who discarded what.
    game = Game(variant, seed=seed, first_dealer=first_dealer, **json.loads(options))
    kitty: dict[int, set[Card]] = {}
    discards: dict[tuple[int, int], set[Card]] = {}
    dealt: dict[tuple[int, int], set[Card]] = {}
    for entry in actions:
        actor = game.turn
        game.replay(entry)
        if entry.startswith("deal "):
            zones = game.zones()
            kitty[game.hand_no] = {c for c in CARDS if zones["kitty"] >> c.index & 1}
            for seat in range(game.variant.players):
                mask = zones[f"hand:{seat}"]
                dealt[game.hand_no, seat] = {c for c in CARDS if mask >> c.index & 1}
        elif entry.startswith("call ") and len(entry.split()[1]) == 2:
            # RULES.md §7 Auction: the called card is named aloud; where it lies is not.
            kitty[game.hand_no].discard(Card.parse(entry.split()[1]))
            for (hand_no, _), cards in discards.items():
                if hand_no == game.hand_no:
                    cards.discard(Card.parse(entry.split()[1]))
        elif entry.startswith("discard ") and Card.parse(entry.split()[1]) != game.up_card:
            assert actor is not None
            discards.setdefault((game.hand_no, actor), set()).add(Card.parse(entry.split()[1]))

    # Each hand's last trick, public: the table shows it into the next hand, whose
    # kitty may hold one of its cards again (the pack is shuffled anew).
    last_trick = {
        r.hand_no: {card for _, card in r.last_trick.plays}
        for r in game.hand_results
        if r.last_trick is not None
    }

    def hidden(hand_no: int, seat: int | None) -> set[Card]:
        """The kitty and every discard but the viewer's own, in that hand, less the
        hand before's last trick (played face up) and the viewer's own hand as dealt (a
        Cornish loner may discard the very card the viewer gave, RULES.md §6)."""
        found = set(kitty.get(hand_no, ()))
        for other in range(game.variant.players):
            if other != seat:
                found |= discards.get((hand_no, other), set())
        own = dealt.get((hand_no, seat), set()) if seat is not None else set()
        return found - last_trick.get(hand_no - 1, set()) - own

    def hand_of(version: Any) -> int:
        footers = [e.get("footer", {}).get("text", "") for e in version.embeds]
        # A Components V2 message says its hand in a text display's small print.
        footers += [c.get("content", "") for c in walk_components(version.components)]
        numbers = [int(m) for f in footers for m in re.findall(r"hand (\d+)", f)]
        return numbers[0] if numbers else 0

    def faces_of(cards: set[Card]) -> set[str]:
        """The emoji names of ``cards`` that no other card shares: a double pack's two
        copies have one face, and the viewer may hold the twin of a hidden card."""
        others = {emoji_name(c) for c in CARDS if c not in cards}
        return {emoji_name(c) for c in cards} - others

    assert any(discards.values()) or not expect_discards
    if public is None:
        public = game_posts(t)
    for version in [v for m in public for v in (*m.history, m.snapshot())]:
        # JSON quotes with ", never with the ' that marks a second copy (A♦').
        seen = [version.embeds, version.components]
        text = str(version.content) + json.dumps(seen, ensure_ascii=False)
        shown = {c for c in hidden(hand_of(version), None) if _shows(text, c)}
        assert not shown, f"a public message shows {shown}"
        for custom_id in re.findall(r"'custom_id': '([^']*)'", str(version.components)):
            assert not CARD_CODE.search(custom_id), custom_id
    for record in records:
        assert not CARD_CODE.search(record.getMessage()), record.getMessage()
    for seat, user in members.items():
        for message in t.double.ephemerals_for(user):
            for version in (*message.history, message.snapshot()):
                # The texts, not the buttons: an Auction maker's call offers every card
                # she does not hold, widow and discards included, and names no place.
                texts = [c for c in walk_components(version.components) if c.get("type") == 10]
                text = json.dumps([version.embeds, texts], ensure_ascii=False)
                secret = hidden(hand_of(version), seat)
                shown = {c for c in secret if _shows(text, c)}
                shown |= {f for f in faces_of(secret) if re.search(rf"\b{f}\b", text)}
                assert not shown, f"{user.name} was shown {shown} (hand {hand_of(version)}): {text}"
