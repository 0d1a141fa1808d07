"""When a table edit is made: ``table_delay`` after the change it shows, never twice.

``Delivery._edit_table_later`` with its Discord part replaced: each edit records the
loop time it began and may be held, as Discord (or discord.py, sleeping on a rate-limit
bucket it emptied) holds a request.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from bot.budget import RequestBudget
from bot.sessions.delivery import Background, Delivery
from bot.sessions.state import DiscordState, Session

DELAY = 5.0
"""Long, so that a loaded machine's late loop cannot pass for a delay: the test ages
the changes instead of waiting (it takes a fifth of a second)."""


class _Edits:
    """A stand-in for the table's Discord edit: records when each began; held until
    released."""

    def __init__(self) -> None:
        self.began: list[float] = []
        self.started = asyncio.Event()
        self.release = asyncio.Event()

    async def update_table(self, _session: Session) -> None:
        self.began.append(asyncio.get_running_loop().time())
        self.started.set()
        await self.release.wait()


def _delivery(edits: _Edits) -> Delivery:
    delivery = Delivery.__new__(Delivery)
    delivery.background = Background()
    delivery.budget = RequestBudget(None)  # no pacing: only the delay and the gap
    delivery.table_delay = DELAY
    delivery.table_gap = 0.0
    delivery._next = {}
    delivery.update_table = edits.update_table  # type: ignore[method-assign]
    return delivery


def _session() -> Session:
    return cast(
        Session,
        SimpleNamespace(id=1, channel_id=10, private=False, discord=DiscordState()),
    )


async def test_a_change_waits_the_delay_once_even_behind_an_edit_under_way() -> None:
    """The first change's edit waits ``table_delay`` from that change (a burst of plays
    shares it); a change made while that edit is under way, and older than the delay
    when it returns, is in the next edit at once, without a second delay."""
    edits = _Edits()
    delivery = _delivery(edits)
    session = _session()
    state = session.discord
    loop = asyncio.get_running_loop()
    delivery.schedule_table_edit(session)
    task: Any = state.table_edit
    state.table_stale_since -= DELAY - 0.2  # made all but 0.2 s of a delay ago
    made = state.table_stale_since
    await edits.started.wait()
    assert edits.began[0] >= made + DELAY - 0.01
    edits.started.clear()
    delivery.schedule_table_edit(session)  # a change while the edit is under way...
    state.table_stale_since -= DELAY  # ...held past its delay (discord.py's sleep)
    released = loop.time()
    edits.release.set()
    await edits.started.wait()
    # At once, not DELAY after the first edit returned (what the loop did before).
    assert edits.began[1] - released < DELAY / 2
    await task
    assert len(edits.began) == 2 and not state.table_stale
