"""The bot's pace: a computer waits its move delay, and three times that before a
hand's first move, while the table shows the hand just over (its last trick and
result) for everyone to read."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor

from bot.sessions.computers import HAND_END_PAUSE, Computers
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
