"""Turn timers: reminders for slow members, the computer for away ones, and the rescue
of computers that stopped.

The store keeps each game's turn start (``touch_turn``) and says which turns are due
(``due_turn_timers``): reminded once (``mark_reminded`` decides, so two sweeps cannot
both remind), then, at the forfeit time, the member is away and the computer plays
their cards for the rest of the hand (docs/rulings.md R9).
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from bot import replies
from bot.sessions.computers import Computers
from bot.sessions.delivery import Delivery, posting
from bot.sessions.state import Session
from bot.store import Store, TimerDue

__all__ = ["TurnTimers"]


class TurnTimers:
    """The turn-timer sweep of every running game.

    Args:
        store: the database, which holds the turn timers.
        sessions: every running game, by id.
        delivery: posts the reminders and away notices.
        computers: plays for away members, and is rescued at each sweep.
    """

    def __init__(
        self,
        store: Store,
        sessions: Mapping[int, Session],
        delivery: Delivery,
        computers: Computers,
    ) -> None:
        self.store = store
        self.sessions = sessions
        self.delivery = delivery
        self.computers = computers

    async def tick(
        self, remind_after: float, forfeit_after: float, now: float | None = None
    ) -> None:
        """Remind slow players, forfeit games left too long, and restart computers that
        stopped (``now``: seconds since the epoch; tests pass their own). The delays are
        the bot's defaults, in seconds; a server's own turn timer wins (``/tuque settings``)."""
        now = time.time() if now is None else now
        for timer in await self.store.due_turn_timers(now, remind_after, forfeit_after):
            session = self.sessions.get(timer.game_id)
            if session is None or session.finished:
                continue
            seat = session.game.turn
            if seat is None or session.is_computer(seat):
                continue
            user = session.seats[seat].user_id
            if timer.due is TimerDue.FORFEIT:
                async with session.lock:
                    if session.finished or session.game.turn != seat:
                        continue
                    session.away.add(seat)
                    then = (
                        "it keeps their seat for the rest of the game"
                        if session.goes_on_without(seat)
                        else "their side forfeits"
                    )
                    self.delivery.post(
                        session,
                        "away notice",
                        posting(
                            content=f"<@{user}> is away: the computer plays their cards for "
                            f"the rest of this hand. If they are not back by its end, {then}; "
                            "**Show my hand** brings them back.",
                            nonce=replies.nonce(),
                        ),
                    )
                    self.computers.schedule(session)
            elif await self.store.mark_reminded(session.id):
                minutes = max(1, round((timer.forfeit_after - timer.remind_after) / 60))
                self.delivery.post(
                    session,
                    "turn reminder",
                    posting(
                        content=f"<@{user}>, it's your turn in game #{session.id}. "
                        f"Play within {minutes} minute{'' if minutes == 1 else 's'} "
                        "or the computer plays for you.",
                        nonce=replies.nonce(),
                    ),
                )
        self.computers.rescue()
