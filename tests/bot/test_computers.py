"""The bot's pace: a computer waits its move delay, and three times that before a
hand's first move, while the table shows the hand just over (its last trick and
result) for everyone to read."""

from __future__ import annotations

import asyncio
import dataclasses
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from bot.budget import Priority, RequestBudget
from bot.sessions.computers import HAND_END_PAUSE, QUICK_LEVELS, SLOWEST, Computers
from engine.game import Game
from tests.bot.test_table import computer, last_card, member, moved_on, table_of


def test_a_computer_pauses_longer_before_a_hands_first_move() -> None:
    with ThreadPoolExecutor(1) as pool:
        computers = Computers(pool, move_delay=1.0)
        computers.move_delays[99] = 0.5
        table = moved_on(table_of("tuque", member(0, 1), computer(1)), last_card)
        assert computers.delay(table, 1) == 1.0
        assert table.game.view(None).hand_just_over is None
        game = table.game.copy()
        (seat,) = [s for s in range(2) if game.turn == s]
        game.apply(seat, game.legal_actions(seat)[0])  # the hand's last card
        if game.turn is None:
            game.deal()
        over = dataclasses.replace(table, game=game)
        assert over.game.view(None).hand_just_over is not None
        assert computers.delay(over, 1) == HAND_END_PAUSE * 1.0 == 3.0
        assert computers.delay(over, 99) == 1.5  # a guild's own delay, three times
        # Once the next hand's first move is made, the usual pace again.
        turn = over.game.turn
        assert turn is not None
        after: Game = over.game.copy()
        after.apply(turn, after.legal_actions(turn)[0])
        assert computers.delay(dataclasses.replace(over, game=after), 1) == 1.0


async def test_computers_slow_down_while_the_request_budget_is_backed_up() -> None:
    """Back-pressure (issue 41): past a second of requests waiting for the budget, each
    second more adds a move delay to a computer's pause, to three; a hand's first move
    keeps its own longer pause; nothing waiting, the usual pace."""
    budget = RequestBudget(10, headroom=0.0)  # 10 a second: 10 waiting fill a second
    with ThreadPoolExecutor(1) as pool:
        computers = Computers(pool, move_delay=1.0, backlog=lambda: budget.backlog)
        table = moved_on(table_of("tuque", member(0, 1), computer(1)), last_card)
        assert budget.backlog == 0.0
        assert computers.delay(table, 1) == 1.0
        # Two turns go at once (AHEAD of the departures): the 25 others wait.
        waits = [asyncio.create_task(budget.turn(Priority.ROUTINE)) for _ in range(27)]
        await asyncio.sleep(0)
        assert budget.waiting == 25
        assert budget.backlog == 2.5
        assert computers.delay(table, 1) == 2.5
        waits += [asyncio.create_task(budget.turn(Priority.ROUTINE)) for _ in range(50)]
        await asyncio.sleep(0)
        assert computers.delay(table, 1) == SLOWEST * 1.0 == 3.0
        for wait in waits:
            wait.cancel()
        await asyncio.gather(*waits, return_exceptions=True)
        assert budget.backlog == 0.0
        assert computers.delay(table, 1) == 1.0


class _Counting(ThreadPoolExecutor):
    """A pool that counts what is sent to it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.sent = 0

    def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
        self.sent += 1
        return super().submit(*args, **kwargs)


async def test_a_rule_playing_computer_decides_at_once_and_a_search_in_the_worker() -> None:
    """The quick levels cost less to decide than to send to a worker: only the search goes
    there; both choose among the seat's legal moves."""
    with _Counting() as pool:
        computers = Computers(pool, move_delay=0.0)
        for level in sorted(QUICK_LEVELS):
            table = table_of("euchre", computer(0, level), member(1, 1), member(2, 2), member(3, 3))
            table = moved_on(table, lambda game: game.turn == 0)
            action = await computers.decide(table)
            assert action in table.game.legal_actions(0)
        assert pool.sent == 0
        table = table_of("tuque", computer(0, "hard"), member(1, 1))
        table = moved_on(table, lambda game: game.turn == 0)
        assert await computers.decide(table) in table.game.legal_actions(0)
        assert pool.sent == 1
