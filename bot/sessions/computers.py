"""Computer turns: the moves the bot plays itself, thought out in a worker.

A computer seat, an away or resigned member's seat, and a member's forced move that
their auto-play choice covers are all decided here (the table says whose moves the bot
plays). The thinking runs in an executor (a process pool in production) on the seat's
own view only, so a computer sees no more than a person would; the session manager
runs each game's moves, stores and shows them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Executor

from bot.table import Table
from engine.actions import ACTIONS, Action
from engine.ai.search import SearchPlayer
from engine.players import make_player
from engine.view import PlayerView

__all__ = [
    "HAND_END_PAUSE",
    "HINT_SECONDS",
    "QUICK_LEVELS",
    "SLOWER_FROM",
    "SLOWEST",
    "Computers",
    "advise",
    "choose_action",
]

QUICK_LEVELS = frozenset({"random", "easy", "normal"})
"""The levels that play by a rule rather than search: they decide on the event loop.
A normal computer decides in 0.08 ms (p99 0.7 ms, bench: 4,000 decisions of four
games), where sending its view to a worker and back costs ten times that in pickling
alone, and a worker's hand-offs (its pipes, the pool's threads) as much again: at 300
busy games, a third of the bot's computers' CPU was the trip, not the thinking."""


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


HAND_END_PAUSE = 3.0
"""How many move delays a computer waits before a hand's first move (3 s by default)."""

SLOWER_FROM = 1.0
"""Seconds of the request budget's backlog (requests waiting for their turn, over the
pace they leave at) from which computers pause longer between moves: the tables are
then edited less often than the computers play. Each second more adds one move delay."""
SLOWEST = 3.0
"""The most move delays a computer's pause grows to under load."""


class Computers:
    """Decides the moves the bot plays itself; the session manager stores and shows
    them, one runner per game.

    Args:
        executor: where computer players think (a process pool in production).
        move_delay: seconds to wait before each computer move (a guild's own in
            ``move_delays`` wins).
    """

    def __init__(
        self,
        executor: Executor,
        *,
        move_delay: float,
        backlog: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.executor = executor
        self.move_delay = move_delay
        self._backlog = backlog
        self.move_delays: dict[int, float] = {}
        """Guild id -> its own computer move delay (``/tuque settings`` keeps it up to
        date); other guilds' computers wait ``move_delay``."""
        self.on_decision: Callable[[str, float], None] | None = None
        """Called with the level and the seconds of each computer decision, from asking
        the executor to its answer (the bot's metrics set it)."""

    def delay(self, table: Table, guild_id: int) -> float:
        """Seconds to wait before the bot's move at ``table`` in ``guild_id``: the guild's
        move delay, and ``HAND_END_PAUSE`` times that while the table shows the hand just
        over (the computer would open the next hand), so that everyone can read its last
        trick and result before the next hand's first move replaces them; otherwise
        :meth:`slowed` times the delay while the bot is behind."""
        delay = self.move_delays.get(guild_id, self.move_delay)
        if table.game.view(None).hand_just_over is not None:
            return delay * HAND_END_PAUSE
        return delay * self.slowed()

    def slowed(self) -> float:
        """How many times longer than usual computers pause now: 1, and while the request
        budget's backlog holds more than ``SLOWER_FROM`` seconds of requests, one more
        for each second past it, up to ``SLOWEST`` (issue 41). The back-pressure of a
        crowd: its tables are then edited every few seconds, so a computer that played
        every second would move several cards between two pictures, and its changes
        would take the bot's time from the members' clicks and the pictures; the
        members' own moves are never slowed."""
        return min(SLOWEST, 1.0 + max(0.0, self._backlog() - SLOWER_FROM))

    async def decide(self, table: Table) -> Action:
        """The move the bot plays now at ``table`` (``table.bot_to_move``): the member's
        forced move, or the computer's choice from the seat's own view only, thought
        out in the executor (a search) or at once (:data:`QUICK_LEVELS`).

        Raises whatever the executor raises (a broken worker): the caller's turn
        timer sweep starts the computer again.
        """
        game = table.game
        seat = game.turn
        assert seat is not None
        forced = table.forced(seat)
        if forced is not None:
            return forced
        level = table.level_of(seat)
        seq = game.log_length
        seed = hash((game.seed, seq, seat)) & ((1 << 62) - 1)
        asked = time.perf_counter()
        if level in QUICK_LEVELS:
            action_id = choose_action(level, seed, game.view(seat))
        else:
            loop = asyncio.get_running_loop()
            action_id = await loop.run_in_executor(
                self.executor, choose_action, level, seed, game.view(seat)
            )
        if self.on_decision is not None:
            self.on_decision(level, time.perf_counter() - asked)
        return ACTIONS[action_id]
