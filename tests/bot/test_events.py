"""Events end to end through the Discord double (issue 42): ``/tuque event new``, the
sign-up message and the server's Discord Scheduled Event, members who join by the
button or by marking Interested, the rounds' tables opened as games open, played by
members who click only what they see, the standings and the results post with its CSV;
and forged, stale and racing clicks on Join, Leave, Start and Cancel."""

from __future__ import annotations

import asyncio
import csv
import io
import random
import sqlite3
from collections.abc import Awaitable, Sequence
from fractions import Fraction
from typing import cast

from e2e import Table, running_bot

from bot.client import TuqueBot
from bot.cogs.events import EventsCog
from bot.events.event import Status
from bot.events.scoring import match_points
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
    rec = await t.double.slash(t.ann, t.channel, "tuque", "event", "new", **options)
    await rec.settled()
    await t.double.wait_until(lambda: any(m.buttons for m in t.double.channel_messages(t.channel)))
    sign_up = next(m for m in t.double.channel_messages(t.channel) if m.buttons)
    event_id = int(button(sign_up, "Join").split(":")[2])
    await t.double.wait_until(lambda: _scheduled(bot, event_id), 5)
    return event_id, sign_up


def _scheduled(bot: TuqueBot, event_id: int) -> bool:
    return any(
        guild.get_scheduled_event(e.id) is not None
        for guild in bot.guilds
        for e in guild.scheduled_events
    )


async def play_turn(t: Table, bot: TuqueBot, games: Sequence[int], rng: random.Random) -> bool:
    """At the first of ``games`` waiting on a member, that member plays: their first
    move at a table by a click on their hand (brought by the table's "Show my hand"),
    the others on the web table (``GameSessions.act``, the path a page's move takes),
    which costs no interaction's round trip. False if no game waits on a member."""
    for game_id in games:
        session = bot.sessions.session(game_id)
        if session is None or session.finished:
            continue
        seat = session.game.turn
        if seat is None or session.table.moves_itself(seat):
            continue
        member = session.table.seats[seat].member
        assert member is not None
        seq = len(session.game.log)
        user = t.double.users[member]
        if any(f"tuque:act:{game_id}:" in str(m.components) for m in t.double.ephemerals_for(user)):
            action = rng.choice(session.game.legal_actions(seat))
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
            await (await t.double.click(user, hand, rng.choice(ids))).settled()
        return True
    return False


def _hand(t: Table, user: User, prefix: str) -> StoredMessage | None:
    for message in reversed(t.double.ephemerals_for(user)):
        if any(b.custom_id and b.custom_id.startswith(prefix) for b in message.buttons):
            return message
    return None


async def play_out(t: Table, bot: TuqueBot, event_id: int, rng: random.Random) -> None:
    """Members play every table of every round until the event is over."""
    cog = events_cog(bot)
    for _ in range(2000):
        if (await bot.store.load_event(event_id)).event.closed:
            return
        if not await play_turn(t, bot, sorted(cog._games), rng):
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
    rng = random.Random(7)
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
        await play_out(t, bot, event_id, rng)
        await t.double.wait_until(lambda: scheduled.status == COMPLETED, 5)
        await t.double.wait_until(
            lambda: any(m.attachments for m in t.double.channel_messages(t.channel)), 5
        )
        event = (await bot.store.load_event(event_id)).event
        row = await bot.store.load_event(event_id)
    assert event.status is Status.FINISHED and event.round_no == 3
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
    on an event that is not there and one on an event cancelled are each refused with a
    sentence and change nothing; two hosts pressing Start at once start it once."""
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

        # A stale Start on the message as it was, then the host cancels (the Discord
        # event, active, can only end); then a Join.
        assert "started already" in await refused(t, t.double.forge_click(t.ann, sign_up, start))
        cancel = f"tuque:event:{event_id}:cancel"
        await (await t.double.forge_click(t.ann, sign_up, cancel)).settled()
        assert (await bot.store.load_event(event_id)).event.status is Status.CANCELLED
        assert "cancelled" in await refused(t, t.double.forge_click(t.eve, sign_up, join))
        assert row.scheduled_event_id is not None
        scheduled = t.double.scheduled_event(row.scheduled_event_id)
        await t.double.wait_until(lambda: scheduled.status == COMPLETED, 5)


def event_tables(t: Table) -> list[tuple[int]]:
    with sqlite3.connect(t.db) as db:
        return db.execute("SELECT game_id FROM event_tables").fetchall()
