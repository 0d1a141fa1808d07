"""Event places in ``/tuque stats`` and the leaderboard (issue 42): a finished event in
the store counts for each member who played it, its winner's event win shows on the
leaderboard, and a computer never takes a place."""

from __future__ import annotations

import time

from e2e import Table, running_bot

from bot.events.event import Event, Status
from bot.events.model import Config, Fill, Format, TableResult
from bot.store.base import Connection
from bot.store.records import _rate


def night(event: Event, members: tuple[int, ...]) -> Event:
    """``members`` join, the night starts and its one round is played: the computer
    wins its match by the most points of the night; seat 0 wins the members' match."""
    for member in members:
        event = event.join(member)
    event = event.start()
    rnd = event.current
    assert rnd is not None
    for seating in rnd.seatings:
        if None in seating.seats:
            points = (30, 5) if seating.seats[0] is None else (5, 30)
        else:
            points = (20, 10)
        event = event.record(rnd.number, seating.table, TableResult(points))
    return event.end_round()


async def test_a_finished_night_shows_in_stats_and_the_leaderboard(table: Table) -> None:
    """The members' match winner won the night (the computer, with more points, has no
    place); every member played it and stood on the podium; the winner's event win is
    beside their record on the leaderboard; a stats of another game shows no event."""
    t = table
    members = (t.ann.id, t.bob.id, t.eve.id)
    config = Config(
        "Friday night", "tuque", Format.SWISS, rounds=1, seed=7, hands=1, fill=Fill.COMPUTERS
    )
    async with running_bot(t) as bot:
        store = bot.store
        row = await store.create_event(
            t.guild.id, t.channel.id, t.ann.id, config, starts_at=time.time() + 3600
        )
        row = await store.change_event(row.id, lambda e: night(e, members))
        assert row.event.status is Status.FINISHED
        played = next(s for s in row.event.rounds[0].seatings if None not in s.seats)
        winner, loser = (t.double.users[m] for m in played.seats if m is not None)

        async def rated(db: Connection) -> None:
            await _rate(db, t.guild.id, "tuque", [[winner.id], [loser.id]], [1, 2], time.time())

        await store._write(rated)

        async def stats(member: object, **options: object) -> str:
            rec = await t.double.slash(t.eve, t.channel, "tuque", "stats", member=member, **options)
            await rec.settled()
            assert rec.original is not None
            return rec.original.text

        assert "1 played · 1 won · 1 on the podium" in await stats(winner)
        assert "1 played · 0 won · 1 on the podium" in await stats(loser)
        assert "Events" not in await stats(winner, variant="euchre")

        board = await t.double.slash(t.eve, t.channel, "tuque", "leaderboard")
        await board.settled()
        assert board.original is not None
        lines = board.original.text.splitlines()
        assert [str(winner.id) in line for line in lines if "1 event won" in line] == [True]
