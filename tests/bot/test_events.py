"""Events end to end through the Discord double (issue 42): ``/tuque event new``, the
sign-up message and the server's Discord Scheduled Event, members who join by the
button or by marking Interested, the rounds' tables opened as games open, played by
members who click only what they see, the standings and the results post with its CSV;
and forged, stale and racing clicks on Join, Leave, Start and Cancel."""

from __future__ import annotations

import asyncio
import csv
import datetime
import io
import random
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from fractions import Fraction
from functools import partial
from typing import cast

import pytest
from e2e import Table, running_bot

from bot.client import TuqueBot
from bot.cogs.events import EventsCog
from bot.events.event import Status
from bot.events.model import Fill, Round, TableResult
from bot.events.movement import seat_progressive
from bot.events.scoring import match_points
from bot.events.standings import ranks
from bot.sessions.state import record_of
from bot.store import EventRow, GameRow, GameStatus
from engine.game import Game
from tests.discord_double import StoredMessage
from tests.discord_double.models import (
    COMPLETED,
    MANAGE_EVENTS,
    InteractionRecord,
    User,
)


def events_cog(bot: TuqueBot) -> EventsCog:
    # The extension's module is loaded anew by the bot: not the class imported here.
    cog = bot.get_cog("Events")
    assert cog is not None
    return cast(EventsCog, cog)


def host_may_manage_events(t: Table) -> None:
    """Ann, the host, has a role with Manage Events."""
    hosts = t.double.add_role(t.guild, "hosts", permissions=MANAGE_EVENTS)
    t.guild.members[t.ann.id].role_ids.append(hosts.id)


def button(message: StoredMessage, label: str) -> str:
    found = next(b.custom_id for b in message.buttons if b.label == label)
    assert found is not None
    return found


async def new_event(t: Table, bot: TuqueBot, **options: object) -> tuple[int, StoredMessage]:
    """Ann announces an event; returns its id and its sign-up message."""
    before = {m.id for m in t.double.channel_messages(t.channel)}

    def posted() -> list[StoredMessage]:
        return [m for m in t.double.channel_messages(t.channel) if m.buttons and m.id not in before]

    rec = await t.double.slash(t.ann, t.channel, "tuque", "event", "new", **options)
    await rec.settled()
    await t.double.wait_until(posted)
    sign_up = posted()[0]
    event_id = int(button(sign_up, "Join").split(":")[2])
    await t.double.wait_until(lambda: _scheduled(bot, event_id), 5)
    return event_id, sign_up


def _scheduled(bot: TuqueBot, event_id: int) -> bool:
    return any(
        guild.get_scheduled_event(e.id) is not None
        for guild in bot.guilds
        for e in guild.scheduled_events
    )


async def play_turn(
    t: Table,
    bot: TuqueBot,
    games: Sequence[int],
    seed: int,
    absent: Collection[int] = (),
) -> bool:
    """At the first of ``games`` waiting on a member, that member plays: their first
    move at a table by a click on their hand (brought by the table's "Show my hand"),
    the others on the web table (``GameSessions.act``, the path a page's move takes),
    which costs no interaction's round trip. The ``absent`` members do not play. False
    if no game waits on a member who plays."""
    for game_id in games:
        session = bot.sessions.session(game_id)
        if session is None or session.finished:
            continue
        seat = session.game.turn
        if seat is None or session.table.moves_itself(seat):
            continue
        member = session.table.seats[seat].member
        assert member is not None
        if member in absent:
            continue
        seq = len(session.game.log)
        # Each move's own draw: a game is played alike however its moves interleave
        # with the other tables' (its computers draw from its seed).
        moves = random.Random(f"{seed}:{game_id}:{seq}")
        user = t.double.users[member]
        if any(f"tuque:act:{game_id}:" in str(m.components) for m in t.double.ephemerals_for(user)):
            action = moves.choice(session.game.legal_actions(seat))
            await bot.sessions.act(game_id, member, seq, action.id)
            return True
        thread = t.guild.threads.get(session.discord.thread_id or 0)
        posts = t.double.channel_messages(thread) if thread is not None else []
        show = f"tuque:hand:{game_id}"
        table = next((m for m in posts if any(b.custom_id == show for b in m.buttons)), None)
        if table is None:
            continue  # the table is still being opened
        await (await t.double.click(user, table, show)).settled()
        hand = _hand(t, user, f"tuque:act:{game_id}:{seq}:")
        if hand is not None:
            ids = [b.custom_id for b in hand.buttons if b.custom_id and ":act:" in b.custom_id]
            await (await t.double.click(user, hand, moves.choice(ids))).settled()
        return True
    return False


def _hand(t: Table, user: User, prefix: str) -> StoredMessage | None:
    for message in reversed(t.double.ephemerals_for(user)):
        if any(b.custom_id and b.custom_id.startswith(prefix) for b in message.buttons):
            return message
    return None


async def play_out(t: Table, bot: TuqueBot, event_id: int, seed: int) -> None:
    """Members play every table of every round until the event is over."""
    cog = events_cog(bot)
    for _ in range(2000):
        if (await bot.store.load_event(event_id)).event.closed:
            return
        if not await play_turn(t, bot, sorted(cog._games), seed):
            await asyncio.sleep(0.02)
    raise AssertionError("the event did not end")


async def test_a_swiss_night_of_seven_with_a_bye(table: Table) -> None:
    """Seven members of a two-player game, three Swiss rounds of one hand: six join by
    the button and one by marking Interested in the Discord event; the host starts it;
    each round seats three tables and a bye (never twice the same member, no rematch);
    every match's points are the stored game's; the end completes the Discord event and
    posts the results with the podium and a CSV of every round."""
    t = table
    host_may_manage_events(t)
    others = [t.double.add_user(name, guild=t.guild) for name in ("cat", "dan", "fay", "gus")]
    members = [t.ann, t.bob, t.eve, *others]
    seed = 7
    async with running_bot(t) as bot:
        cog = events_cog(bot)
        cog.standings_gap = 0.05
        event_id, sign_up = await new_event(
            t, bot, name="Friday night", game="tuque", format="swiss", rounds=3, hands=1,
            fill="sit out", starts_in=60,
        )  # fmt: skip
        row = await bot.store.load_event(event_id)
        assert row.scheduled_event_id is not None
        scheduled = t.double.scheduled_event(row.scheduled_event_id)
        for member in members[:6]:
            await (await t.double.click(member, sign_up, button(sign_up, "Join"))).settled()
        await t.double.mark_interested(members[6], scheduled)
        await t.double.wait_until(lambda: "In (7)" in str(t.double.message(sign_up.id).embeds), 5)
        await (await t.double.click(t.ann, sign_up, button(sign_up, "Start"))).settled()
        await play_out(t, bot, event_id, seed)
        await t.double.wait_until(lambda: scheduled.status == COMPLETED, 5)
        await t.double.wait_until(
            lambda: any(m.attachments for m in t.double.channel_messages(t.channel)), 5
        )
        event = (await bot.store.load_event(event_id)).event
        row = await bot.store.load_event(event_id)
    assert event.status is Status.FINISHED and event.round_no == 3
    # The night's posts, edits and standings kept to Discord's limits: no 429.
    assert t.double.rate_limited == []
    byes = [rnd.sitting_out for rnd in event.rounds]
    assert all(
        len(rnd.seatings) == 3 and len(b) == 1 for rnd, b in zip(event.rounds, byes, strict=True)
    )
    assert len({b[0] for b in byes}) == 3
    met = [frozenset(s.entries) for rnd in event.rounds for s in rnd.seatings]
    assert len(met) == len(set(met)) == 9
    with sqlite3.connect(t.db) as db:
        for rnd in event.rounds:
            for seating, result in zip(rnd.seatings, rnd.results, strict=True):
                game_id = row.tables[(rnd.number, seating.table)]
                scores = db.execute(
                    "SELECT score FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
                ).fetchall()
                # The seats' own scores: each match's points, and its winner by hand.
                assert result is not None and result.points == tuple(s for (s,) in scores)
                a, b = result.points
                assert match_points(result) == (
                    (1, 0) if a > b else (0, 1) if b > a else (0.5, 0.5)
                )
    results = next(m for m in t.double.channel_messages(t.channel) if m.attachments)
    data = t.double.attachment_bytes(results.attachments[0]).decode()
    lines = list(csv.reader(io.StringIO(data)))
    assert lines[0][-3:] == ["round 1", "round 2", "round 3"] and len(lines) == 8
    # Each line's match points are its rounds' (a bye a win), best first.
    scores = [sum(Fraction(r.replace("½", ".5") or 0) for r in line[-3:]) for line in lines[1:]]
    assert scores == sorted(scores, reverse=True) and sum(scores) == 9 + 3
    assert "🥇" in str(results.embeds)


def event_rows(t: Table) -> tuple[object, ...]:
    """Every stored event, its tables and games: what a bad click could change."""
    with sqlite3.connect(t.db) as db:
        return tuple(
            tuple(db.execute(f"SELECT * FROM {name}").fetchall())
            for name in ("events", "event_tables", "games")
        )


async def refused(t: Table, click: Awaitable[InteractionRecord]) -> str:
    """A bad click: answered ephemerally, and nothing stored changes."""
    before = event_rows(t)
    rec = await (await click).settled()
    assert rec.original is not None and rec.original.ephemeral
    assert event_rows(t) == before
    return rec.original.text


async def test_forged_stale_and_racing_clicks_change_nothing(table: Table) -> None:
    """A stranger's Start or Cancel, a second Join, a Leave of a member not in, a click
    on an event that is not there, one on an event cancelled and a Join of a member
    playing another event are each refused with a sentence and change nothing; two
    hosts pressing Start at once start it once."""
    t = table
    host_may_manage_events(t)
    cat = t.double.add_user("cat", guild=t.guild)
    t.guild.members[cat.id].role_ids.extend(t.guild.members[t.ann.id].role_ids)
    async with running_bot(t) as bot:
        event_id, sign_up = await new_event(
            t, bot, name="Quick night", game="tuque", format="swiss", rounds=1, hands=1
        )
        join, start = button(sign_up, "Join"), button(sign_up, "Start")
        for member in (t.ann, t.bob, cat):
            await (await t.double.click(member, sign_up, join)).settled()
        assert "already" in await refused(t, t.double.click(t.bob, sign_up, join))
        assert "not in" in await refused(
            t, t.double.click(t.eve, sign_up, button(sign_up, "Leave"))
        )
        assert "host" in await refused(t, t.double.click(t.bob, sign_up, start))
        assert "host" in await refused(t, t.double.click(t.eve, sign_up, button(sign_up, "Cancel")))
        forged = f"tuque:event:{event_id + 1}:join"
        assert "no longer exists" in await refused(t, t.double.forge_click(t.bob, sign_up, forged))

        # Ann and Cat (both may manage events) press Start at once: one start.
        clicks = await asyncio.gather(
            t.double.click(t.ann, sign_up, start), t.double.click(cat, sign_up, start)
        )
        answers = [(await c.settled()).original for c in clicks]
        texts = [a.text if a is not None else "" for a in answers]
        assert sum("started already" in text for text in texts) == 1, texts
        await t.double.wait_until(lambda: len(event_tables(t)) == 2, 10)
        row = await bot.store.load_event(event_id)
        assert row.event.round_no == 1 and len(row.event.rounds[0].seatings) == 2
        assert sorted(g for (g,) in event_tables(t)) == sorted(row.round_games(1).values())

        # One seat a night (R37): Bob, playing this event, cannot join another yet.
        other_id, other = await new_event(
            t, bot, name="Later night", game="tuque", format="swiss", rounds=1, hands=1
        )
        other_join = button(other, "Join")
        assert "Quick night" in await refused(t, t.double.click(t.bob, other, other_join))
        other_row = await bot.store.load_event(other_id)
        assert other_row.event.member(t.bob.id) is None

        # A stale Start on the message as it was, then the host cancels (the Discord
        # event, active, can only end); then a Join.
        assert "started already" in await refused(t, t.double.forge_click(t.ann, sign_up, start))
        cancel = f"tuque:event:{event_id}:cancel"
        await (await t.double.forge_click(t.ann, sign_up, cancel)).settled()
        assert (await bot.store.load_event(event_id)).event.status is Status.CANCELLED
        assert "cancelled" in await refused(t, t.double.forge_click(t.eve, sign_up, join))
        await (await t.double.click(t.bob, other, other_join)).settled()  # free again
        assert (await bot.store.load_event(other_id)).event.member(t.bob.id) is not None
        assert row.scheduled_event_id is not None
        scheduled = t.double.scheduled_event(row.scheduled_event_id)
        await t.double.wait_until(lambda: scheduled.status == COMPLETED, 5)


async def test_an_event_moved_cancelled_or_deleted_in_discord_follows_there(
    table: Table,
) -> None:
    """``/tuque event move`` moves the start of the channel's newest event signing up
    and its Discord event (a member who does not host it is refused, nothing changed).
    The other way round, the server's Discord event changed in Discord's own UI, where
    Discord tells the bot: a new start time moves the event's start while it signs up,
    a cancel there cancels it, and a deleted Discord event cancels the event whose it
    was; each sign-up message says so, and a Join after is refused, as is a move."""
    t = table
    host_may_manage_events(t)
    async with running_bot(t) as bot:
        moved_id, moved_sign_up = await new_event(
            t, bot, name="Moved night", game="tuque", format="swiss", rounds=1, hands=1
        )
        deleted_id, deleted_sign_up = await new_event(
            t, bot, name="Deleted night", game="tuque", format="swiss", rounds=1, hands=1
        )
        moved = t.double.scheduled_event(
            cast(int, (await bot.store.load_event(moved_id)).scheduled_event_id)
        )

        def says(message: StoredMessage, words: str) -> bool:
            return words in t.double.message(message.id).text

        # From the bot: Bob hosts nothing; Ann moves the newest, the deleted night.
        rows = event_rows(t)
        rec = await (
            await t.double.slash(t.bob, t.channel, "tuque", "event", "move", starts_in=90)
        ).settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "Only the host" in rec.original.text and event_rows(t) == rows
        asked = time.time()
        rec = await (
            await t.double.slash(t.ann, t.channel, "tuque", "event", "move", starts_in=90)
        ).settled()
        assert rec.original is not None and rec.original.ephemeral
        row = await bot.store.load_event(deleted_id)
        assert asked + 90 * 60 - 1 <= row.starts_at <= time.time() + 90 * 60
        assert (await bot.store.load_event(moved_id)).starts_at < row.starts_at - 30 * 60
        assert f"<t:{int(row.starts_at)}:F>" in rec.original.text
        deleted = t.double.scheduled_event(cast(int, row.scheduled_event_id))
        await t.double.wait_until(
            lambda: deleted.scheduled_start_time.timestamp() == row.starts_at, 5
        )
        await t.double.wait_until(lambda: says(deleted_sign_up, f"<t:{int(row.starts_at)}:F>"), 5)

        # From Discord.
        later = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
        later += datetime.timedelta(days=2)
        # An event elsewhere (not a voice channel's) has an end: it moves with its start.
        end = later + datetime.timedelta(hours=3)
        await t.double.edit_scheduled_event(moved, t.ann, start=later, end=end)
        await t.double.wait_until(lambda: says(moved_sign_up, f"<t:{int(later.timestamp())}:F>"), 5)
        row = await bot.store.load_event(moved_id)
        assert row.starts_at == later.timestamp()
        assert row.event.status is Status.SIGN_UP

        join = button(moved_sign_up, "Join")
        await t.double.cancel_scheduled_event(moved, t.ann)
        await t.double.wait_until(lambda: says(moved_sign_up, "Cancelled"), 5)
        assert (await bot.store.load_event(moved_id)).event.status is Status.CANCELLED
        assert "cancelled" in await refused(t, t.double.forge_click(t.bob, moved_sign_up, join))

        await t.double.delete_scheduled_event(deleted, t.ann)
        await t.double.wait_until(lambda: says(deleted_sign_up, "Cancelled"), 5)
        assert (await bot.store.load_event(deleted_id)).event.status is Status.CANCELLED
        assert (await bot.store.load_event(moved_id)).event.status is Status.CANCELLED
        rows = event_rows(t)
        rec = await (
            await t.double.slash(t.ann, t.channel, "tuque", "event", "move", starts_in=5)
        ).settled()
        assert rec.original is not None and "No euchre night" in rec.original.text
        assert event_rows(t) == rows


def event_tables(t: Table) -> list[tuple[int]]:
    with sqlite3.connect(t.db) as db:
        return db.execute("SELECT game_id FROM event_tables").fetchall()


# --- a progressive night and a duplicate night --------------------------------------


def live(bot: TuqueBot, game_id: int) -> bool:
    """Whether ``game_id`` runs on this bot, not finished."""
    session = bot.sessions.session(game_id)
    return session is not None and not session.finished


def waits_on(bot: TuqueBot, game_id: int, member: int) -> bool:
    """Whether ``game_id`` waits for ``member`` to move (not a computer for them)."""
    session = bot.sessions.session(game_id)
    if session is None or session.finished or session.game.turn is None:
        return False
    seat = session.game.turn
    return session.table.seats[seat].member == member and not session.table.moves_itself(seat)


async def play_until(
    t: Table,
    bot: TuqueBot,
    seed: int,
    done: Callable[[], bool],
    absent: Collection[int] = (),
) -> None:
    """Members (but the ``absent``) play the event's tables until ``done``."""
    cog = events_cog(bot)
    for _ in range(3000):
        if done():
            return
        if not await play_turn(t, bot, sorted(cog._games), seed, absent):
            await asyncio.sleep(0.02)
    raise AssertionError("the tables did not get there")


async def round_opened(bot: TuqueBot, event_id: int, round_no: int) -> dict[int, int]:
    """Once round ``round_no`` is seated and each of its tables not finished runs here
    (after a restart too): its games by table."""
    for _ in range(1500):
        row = await bot.store.load_event(event_id)
        event = row.event
        if event.round_no == round_no and event.status is Status.RUNNING:
            games = row.round_games(round_no)
            results = event.rounds[-1].results
            if len(games) == len(results) and all(
                live(bot, games[n]) for n, r in enumerate(results, 1) if r is None
            ):
                return games
        await asyncio.sleep(0.02)
    live_games = {g: live(bot, g) for g in games.values()} if event.round_no == round_no else {}
    raise AssertionError(
        f"round {round_no} was not opened: {event.status} round {event.round_no}, "
        f"results {event.rounds[-1].results}, games {row.tables}, running {live_games}"
    )


def standings_line(t: Table, message_id: int, member: int) -> str:
    """``member``'s line in the standings message as shown now."""
    description = t.double.message(message_id).embeds[0]["description"]
    return next(line for line in description.splitlines() if f"<@{member}>:" in line)


EVENT_SEED = 2
"""The progressive night's seed."""


def replayed(row: GameRow) -> Game:
    return Game.from_record(record_of(row))


async def test_a_progressive_night_of_thirteen_with_a_no_show_a_leaver_and_a_late_sign_up(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thirteen members, four rounds of one euchre hand, computers filling the seats, a
    loner bonus of 1. Dan never shows in round 1: when the turn timer runs out (R9) a
    computer plays his seat and the standings say he is away; Ned signs up during round
    1 and plays from round 2; the bot restarts as round 1's last table ends; in round 2
    a member whose table has finished leaves, Dan is away again, the bot restarts in
    the middle of the round and Dan comes, which the standings show; the leaver is not
    seated in rounds 3 and 4. Each round's tables are the movement's, nobody partners
    anyone twice, and every line's score is its tables' points counted by hand from
    the stored games (the away seat's for Dan, round 2 for the leaver, no round 1 for
    Ned); the leaver has no place."""
    t = table
    host_may_manage_events(t)
    names = ("cat", "dan", "fay", "gus", "hal", "ivy", "jon", "kim", "lea", "max")
    members = [t.ann, t.bob, t.eve, *(t.double.add_user(n, guild=t.guild) for n in names)]
    dan = members[4]
    ned = t.double.add_user("ned", guild=t.guild)
    seed = 13
    # The event's seed (only the events cog draws with randbelow), so that the night is
    # the same on every run: every deal, every seating, and in Dan's games a turn of his
    # before anyone goes alone without him.
    monkeypatch.setattr(secrets, "randbelow", lambda _: EVENT_SEED)
    async with running_bot(t) as bot:
        events_cog(bot).standings_gap = 0.05
        event_id, sign_up = await new_event(
            t, bot, name="Euchre night", game="euchre", format="progressive", rounds=4,
            hands=1, fill="computers", loner_bonus=1, starts_in=60,
        )  # fmt: skip
        for member in members:
            await (await t.double.click(member, sign_up, button(sign_up, "Join"))).settled()
        await (await t.double.click(t.ann, sign_up, button(sign_up, "Start"))).settled()
        games = await round_opened(bot, event_id, 1)
        rec = await (await t.double.click(ned, sign_up, button(sign_up, "Join"))).settled()
        assert any("next round" in m.text for m in rec.followups)
        row = await bot.store.load_event(event_id)
        assert row.standings_message_id is not None
        standings = row.standings_message_id
        seating = row.event.rounds[-1].seating_of(dan.id)
        assert seating is not None
        dans = games[seating.table]

        # Dan does not come: the other tables finish, his waits on him until the
        # turn timer runs out; then a computer plays his seat.
        def only_dan_waits() -> bool:
            others = [g for g in games.values() if g != dans]
            return not any(live(bot, g) for g in others) and waits_on(bot, dans, dan.id)

        await play_until(t, bot, seed, only_dan_waits, absent={dan.id})
        await bot.sessions.tick(remind_after=60, forfeit_after=120, now=time.time() + 3600)
        await t.double.wait_until(lambda: "*away*" in standings_line(t, standings, dan.id), 5)

        # The bot stops between the round's last result and the next seating.
        async def stopped(row: EventRow) -> None:
            pass

        events_cog(bot)._advance = stopped  # type: ignore[method-assign]
        await play_until(
            t, bot, seed, lambda: not any(map(partial(live, bot), games.values())), {dan.id}
        )
        for _ in range(500):
            if (await bot.store.load_event(event_id)).event.rounds[-1].over:
                break
            await asyncio.sleep(0.02)

    async with running_bot(t) as bot:
        events_cog(bot).standings_gap = 0.05
        games = await round_opened(bot, event_id, 2)
        row = await bot.store.load_event(event_id)
        assert row.event.rounds[0].over
        rnd = row.event.rounds[-1]
        seating = rnd.seating_of(dan.id)
        assert seating is not None and rnd.seating_of(ned.id) is not None
        dans = games[seating.table]
        leaver = next(
            t.double.users[m]
            for s in rnd.seatings
            if s.table != seating.table
            for m in s.seats
            if m is not None and m != ned.id
        )
        await play_until(t, bot, seed, only_dan_waits, absent={dan.id})
        # The leaver's table is over; round 2 is not: it counts for them.
        rec = await (await t.double.click(leaver, sign_up, button(sign_up, "Leave"))).settled()
        assert any("You left" in m.text for m in rec.followups)
        await bot.sessions.tick(remind_after=60, forfeit_after=120, now=time.time() + 3600)
        await t.double.wait_until(lambda: "*away*" in standings_line(t, standings, dan.id), 5)

    async with running_bot(t) as bot:
        events_cog(bot).standings_gap = 0.05
        games = await round_opened(bot, event_id, 2)
        # Dan comes: his move (a click on his hand) shows him back in the standings.
        await play_until(
            t, bot, seed, lambda: waits_on(bot, dans, dan.id) or not live(bot, dans), {dan.id}
        )
        assert live(bot, dans)
        assert await play_turn(t, bot, [dans], seed)
        await t.double.wait_until(lambda: "*away*" not in standings_line(t, standings, dan.id), 5)
        await play_out(t, bot, event_id, seed)
        row = await bot.store.load_event(event_id)
        assert row.scheduled_event_id is not None
        scheduled = t.double.scheduled_event(row.scheduled_event_id)
        await t.double.wait_until(lambda: scheduled.status == COMPLETED, 5)
        await t.double.wait_until(
            lambda: any(m.attachments for m in t.double.channel_messages(t.channel)), 5
        )
        await t.double.wait_until(lambda: "*left*" in standings_line(t, standings, leaver.id), 5)
        stored = {game_id: await bot.store.load_game(game_id) for game_id in row.tables.values()}
    event = row.event
    assert event.status is Status.FINISHED and event.round_no == 4
    # The night's posts, edits and standings kept to Discord's limits: no 429.
    assert t.double.rate_limited == []
    config = event.config

    # Who plays each round: Ned from round 2, the leaver in rounds 1 and 2 only.
    everyone = {m.id for m in members}
    plays = {1: everyone, 2: everyone | {ned.id}, 3: everyone - {leaver.id} | {ned.id}}
    plays[4] = plays[3]
    partnered: set[frozenset[int]] = set()
    history: list[Round] = []
    for rnd in event.rounds:
        players = [m.id for m in event.members if m.plays(rnd.number)]
        assert set(players) == plays[rnd.number]
        tables, out = seat_progressive(
            players, history, round_no=rnd.number, fill=Fill.COMPUTERS, seed=config.seed
        )
        assert tables == tuple(s.seats for s in rnd.seatings) and out == ()
        seated = [m for s in rnd.seatings for m in s.seats if m is not None]
        assert sorted(seated) == sorted(players)
        # Computers at different tables, each partnering a member; no pair twice.
        assert all(s.seats.count(None) <= 1 for s in rnd.seatings)
        assert sum(s.seats.count(None) for s in rnd.seatings) == -len(players) % 4
        for s in rnd.seatings:
            for pair in (frozenset(s.seats[0::2]), frozenset(s.seats[1::2])):
                if None not in pair:
                    assert pair not in partnered
                    partnered.add(pair)
            # The game played is the seating's.
            game = stored[row.tables[(rnd.number, s.table)]]
            assert tuple(seat.user_id for seat in game.seats) == s.seats
            assert game.seed == s.seed
        history.append(rnd)

    # Every score by hand: a member's round is their side's points at their table
    # (Dan's away seat's too) and 1 for each of their loners that marched.
    expected: dict[int, dict[int, int]] = {m: {} for m in everyone | {ned.id}}
    for (round_no, _), game_id in row.tables.items():
        game = replayed(stored[game_id])
        assert game.hand_no == 1 and stored[game_id].status is GameStatus.FINISHED
        marched = [h.alone for h in game.hand_results if h.alone is not None and h.march]
        for seat in stored[game_id].seats:
            if seat.user_id is not None:
                side = seat.seat % 2
                made = sum(h.points[side] for h in game.hand_results)
                expected[seat.user_id][round_no] = made + marched.count(seat.seat)
    lines = {line.members[0]: line for line in event.standings()}
    assert set(lines) == set(expected)
    for member, made in expected.items():
        line = lines[member]
        assert line.rounds == tuple(
            Fraction(made[n]) if n in made else None for n in range(1, 5)
        ), member
        assert line.score == sum(made.values()) == line.points
    assert set(expected[ned.id]) == {2, 3, 4} and set(expected[leaver.id]) == {1, 2}
    assert lines[leaver.id].left and lines[leaver.id].place is None
    placed = sorted((line for line in lines.values() if not line.left), key=lambda s: s.place or 0)
    assert (
        [s.place for s in placed]
        == list(ranks([(s.score,) for s in placed]))
        == sorted(s.place for s in placed)
    )
    results = next(m for m in t.double.channel_messages(t.channel) if m.attachments)
    data = t.double.attachment_bytes(results.attachments[0]).decode()
    assert len(list(csv.reader(io.StringIO(data)))) == 1 + 14
    assert "🥇" in str(results.embeds)
    t.double.check()


async def a_night(
    t: Table, members: Sequence[User], seed: int, **options: object
) -> tuple[EventRow, dict[int, Game]]:
    """A euchre night of ``options`` that ``members`` join by the button and Ann starts,
    played out to its results post: the stored event and each table's game, replayed."""
    async with running_bot(t) as bot:
        events_cog(bot).standings_gap = 0.05
        event_id, sign_up = await new_event(t, bot, game="euchre", starts_in=60, **options)
        for member in members:
            await (await t.double.click(member, sign_up, button(sign_up, "Join"))).settled()
        await (await t.double.click(t.ann, sign_up, button(sign_up, "Start"))).settled()
        await play_out(t, bot, event_id, seed)
        await t.double.wait_until(
            lambda: any(m.attachments for m in t.double.channel_messages(t.channel)), 5
        )
        row = await bot.store.load_event(event_id)
        stored = {g: replayed(await bot.store.load_game(g)) for g in row.tables.values()}
    return row, stored


def deals(game: Game) -> list[tuple[object, ...]]:
    """Each hand's deal of a stored game as replayed: the dealer, every seat's cards
    and the up-card."""
    fresh = Game(game.variant, seed=game.seed, first_dealer=game.first_dealer)
    dealt = []
    for entry in game.log:
        fresh.replay(str(entry))
        if str(entry).startswith("deal"):
            zones = fresh.zones()
            hands = tuple(zones[f"hand:{s}"] for s in range(4))
            dealt.append((fresh.dealer, hands, zones["up-card"]))
    return dealt


async def test_a_duplicate_night_of_three_tables_matchpointed_by_hand(table: Table) -> None:
    """Twelve members, six fixed pairs, two rounds of two boards: every table of a
    round is dealt the same boards (the stored games replayed), and each pair's
    matchpoints and percentage are the test's own count from the boards' points."""
    t = table
    host_may_manage_events(t)
    names = ("cat", "dan", "fay", "gus", "hal", "ivy", "jon", "kim", "lea")
    members = [t.ann, t.bob, t.eve, *(t.double.add_user(n, guild=t.guild) for n in names)]
    row, stored = await a_night(
        t, members, 21, name="Duplicate night", format="duplicate", rounds=2, hands=2
    )
    event = row.event
    assert event.status is Status.FINISHED and len(event.entries) == 6
    # The night's posts, edits and standings kept to Discord's limits: no 429.
    assert t.double.rate_limited == []
    matchpoints: dict[int, Fraction] = {e.number: Fraction(0) for e in event.entries}
    tops: dict[int, int] = {e.number: 0 for e in event.entries}
    for rnd in event.rounds:
        assert len(rnd.seatings) == 3
        games = [stored[row.tables[(rnd.number, s.table)]] for s in rnd.seatings]
        boards = [deals(g) for g in games]
        assert len(boards[0]) == 2 and boards[1] == boards[0] == boards[2]
        for board in range(2):
            # North-South nets, then East-West: each compared with its direction's.
            for side in (0, 1):
                nets = [
                    g.hand_results[board].points[side] - g.hand_results[board].points[1 - side]
                    for g in games
                ]
                for s, net in zip(rnd.seatings, nets, strict=True):
                    beaten = sum(net > o for o in nets) + Fraction(
                        sum(net == o for o in nets) - 1, 2
                    )
                    matchpoints[s.entries[side]] += beaten
                    tops[s.entries[side]] += 2
    assert deals(stored[row.tables[(1, 1)]]) != deals(stored[row.tables[(2, 1)]])
    for line in event.standings():
        assert line.tiebreaks == (matchpoints[line.entry],)
        assert line.score == matchpoints[line.entry] / tops[line.entry] and tops[line.entry] == 8
    assert sum(matchpoints.values()) == 2 * 2 * 2 * 3  # each board: 3 a direction
    t.double.check()


async def test_a_pairs_night_of_seven_as_a_round_robin(table: Table) -> None:
    """Seven members of euchre, pairs, three rounds of one hand, computers filling: three
    partnerships and a member with a computer partner, drawn by lot at the start, meet
    each other once (a round robin, four entries over three rounds); partners sit
    opposite every round; each match's points are its stored game's, a win 1, a draw ½;
    the results post carries the podium and the CSV."""
    t = table
    host_may_manage_events(t)
    names = ("cat", "dan", "fay", "gus")
    members = [t.ann, t.bob, t.eve, *(t.double.add_user(n, guild=t.guild) for n in names)]
    row, stored = await a_night(
        t, members, 13, name="Pairs night", format="pairs", rounds=3, hands=1, fill="computers"
    )
    event = row.event
    assert event.status is Status.FINISHED and event.round_no == 3
    # The night's posts, edits and standings kept to Discord's limits: no 429.
    assert t.double.rate_limited == []
    assert len(event.entries) == 4
    assert sorted(m for e in event.entries for m in e.members if m is not None) == sorted(
        m.id for m in members
    )
    assert sum(None in e.members for e in event.entries) == 1
    partners = {e.number: e.members for e in event.entries}
    won: dict[int, Fraction] = {e.number: Fraction(0) for e in event.entries}
    met = []
    for rnd in event.rounds:
        assert len(rnd.seatings) == 2 and rnd.sitting_out == ()
        for seating in rnd.seatings:
            a, b = seating.entries[:2]
            met.append(frozenset((a, b)))
            # Partners opposite: seats 0 and 2 one entry, 1 and 3 the other.
            assert seating.entries == (a, b, a, b)
            assert (seating.seats[0], seating.seats[2]) == partners[a]
            assert (seating.seats[1], seating.seats[3]) == partners[b]
            game = stored[row.tables[(rnd.number, seating.table)]]
            points = tuple(game.scores)
            assert seating_result(rnd, seating.table).points == points
            first, second = points
            won[a] += 1 if first > second else Fraction(1, 2) if first == second else 0
            won[b] += 1 if second > first else Fraction(1, 2) if first == second else 0
    assert len(met) == len(set(met)) == 6  # every pair of entries met, once
    assert {line.entry: line.score for line in event.standings()} == won
    results = next(m for m in t.double.channel_messages(t.channel) if m.attachments)
    data = t.double.attachment_bytes(results.attachments[0]).decode()
    assert len(list(csv.reader(io.StringIO(data)))) == 1 + 4
    assert "🥇" in str(results.embeds)
    t.double.check()


def seating_result(rnd: Round, table: int) -> TableResult:
    result = next(r for s, r in zip(rnd.seatings, rnd.results, strict=True) if s.table == table)
    assert result is not None
    return result
