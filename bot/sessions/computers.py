"""Computer turns: the moves the bot plays itself, thought out in a worker.

A computer seat, an away or resigned member's seat, and a member's forced move that
their auto-play choice covers are all played here, one game's moves after another
with the guild's move delay between them. The thinking runs in an executor (a
process pool in production) on the seat's own view only, so a computer sees no more
than a person would; the move itself is stored by the session manager, which this
module calls back through :class:`Mover`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from typing import Protocol

from bot.sessions.delivery import Background
from bot.sessions.state import Session
from engine.actions import ACTIONS, Action
from engine.ai.search import SearchPlayer
from engine.players import make_player
from engine.view import PlayerView

__all__ = ["HINT_SECONDS", "Computers", "Mover", "advise", "choose_action"]

log = logging.getLogger(__name__)


def choose_action(level: str, seed: int, view: PlayerView) -> int:
    """A computer player's action id; runs in a worker so the event loop never waits on it.

    Takes only the seat's view: a computer seat sees no more than a person would.
    """
    player = make_player(level, seed)
    return player.choose(view, view.legal_actions).id


HINT_SECONDS = 0.8
"""How long the hard computer searches for a hint: the answer, with the worker's round
trip, within a second (p95 1.008 s on a loaded machine when the search had the whole
second). Compiled, 0.8 s buys some 45,000 iterations a card, five times what a second
bought the pure search."""


def advise(seed: int, view: PlayerView) -> tuple[int, dict[int, float]]:
    """A hint for ``view``'s seat: the hard computer's action id and every action's
    share of its search, by action id (empty where the hard level plays by the normal
    level's rule, as in the bidding of Auction, two- and three-hand).

    Runs in a worker, like ``choose_action``; takes only the seat's view.
    """
    player = SearchPlayer(seed=seed, time_budget=HINT_SECONDS)
    action = player.choose(view, view.legal_actions)
    return action.id, dict(player.last_shares)


class Mover(Protocol):
    """How a computer's chosen move is stored and shown (the session manager)."""

    async def move_for(self, session: Session, seq: int, seat: int, action: Action) -> bool:
        """Play ``action`` for ``seat`` if the game is still at log length ``seq`` and the
        bot still plays that seat; return whether the computer should keep moving."""
        ...

    def refresh(self, session: Session, seat: int) -> None:
        """Queue an update of the member's hand view in ``seat`` (its buttons)."""
        ...


class Computers:
    """Runs the moves the bot plays itself, at most one runner per game.

    Args:
        executor: where computer players think (a process pool in production).
        background: where the runners run.
        sessions: every running game, by id (for :meth:`rescue`).
        mover: stores and shows each move.
        move_delay: seconds to wait before each computer move (a guild's own in
            ``move_delays`` wins).
    """

    def __init__(
        self,
        executor: Executor,
        background: Background,
        sessions: Mapping[int, Session],
        mover: Mover,
        *,
        move_delay: float,
    ) -> None:
        self.executor = executor
        self.background = background
        self.sessions = sessions
        self.mover = mover
        self.move_delay = move_delay
        self.move_delays: dict[int, float] = {}
        """Guild id -> its own computer move delay (``/tuque settings`` keeps it up to
        date); other guilds' computers wait ``move_delay``."""
        self.on_decision: Callable[[str, float], None] | None = None
        """Called with the level and the seconds of each computer decision, from asking
        the executor to its answer (the bot's metrics set it)."""

    def schedule(self, session: Session) -> None:
        """Start the computer's moves if a computer is on turn and none is under way."""
        if session.finished or not session.moves_itself(session.game.turn):
            return
        if session.computer is not None and not session.computer.done():
            return
        session.computer = self.background.spawn(self._run(session), f"computer-{session.id}")

    async def _run(self, session: Session) -> None:
        loop = asyncio.get_running_loop()
        while not session.finished and session.moves_itself(session.game.turn):
            await asyncio.sleep(self.move_delays.get(session.guild_id, self.move_delay))
            game = session.game
            seat = game.turn
            assert seat is not None
            seq = len(game.log)
            forced = session.forced(seat)
            try:
                if forced is not None:
                    action_id = forced.id
                elif session.is_computer(seat):
                    level = session.seats[seat].level or session.standin_level
                    seed = hash((game.seed, seq, seat)) & ((1 << 62) - 1)
                    asked = time.perf_counter()
                    action_id = await loop.run_in_executor(
                        self.executor, choose_action, level, seed, game.view(seat)
                    )
                    if self.on_decision is not None:
                        self.on_decision(level, time.perf_counter() - asked)
                else:
                    # The member changed their auto-play choice during the pause: their
                    # hand, not refreshed for a move that was to play itself, needs its buttons.
                    self.mover.refresh(session, seat)
                    return
                if not await self.mover.move_for(session, seq, seat, ACTIONS[action_id]):
                    return
            except Exception:
                # The turn timer's sweep starts the computer again (rescue); a member
                # whose forced move failed gets their buttons meanwhile.
                log.exception("game %d: computer player failed", session.id)
                if forced is not None:
                    self.mover.refresh(session, seat)
                return

    def rescue(self) -> int:
        """Restart the moves of every computer on turn that has none under way.

        Returns:
            how many games were rescued (a worker or store failure had stopped them).
        """
        rescued = 0
        for session in list(self.sessions.values()):
            stopped = session.computer is None or session.computer.done()
            if stopped and not session.finished and session.moves_itself(session.game.turn):
                log.info("game %d: computer on turn with no move under way; restarting", session.id)
                self.schedule(session)
                rescued += 1
        return rescued
