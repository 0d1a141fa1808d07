"""Finishing a stored game in store tests as the bot does: the table decides what the
result counts for each seat (``bot.table.standings``, docs/rulings.md R26), the store
writes it (``Store.finish_game``)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.store import GameStatus, RatingChange, Store
from bot.table import Ending, Seat, standings


async def finish_game(
    store: Store,
    game_id: int,
    status: GameStatus,
    winner_seat: int | None = None,
    scores: Mapping[int, int] | None = None,
    *,
    now: float | None = None,
) -> list[RatingChange]:
    """End the game with ``winner_seat``'s side the winner and ``scores`` (by seat; a
    side's seats share its score) as the final scores; ``ABANDONED`` with neither."""
    if winner_seat is None:
        return await store.finish_game(game_id, status, now=now)
    assert scores is not None
    rows = (await store.load_game(game_id)).seats
    seats = [Seat(r.seat, r.side or 0, r.user_id, r.level, r.resigned) for r in rows]
    side_score = {s.side: scores[s.number] for s in seats}
    result = standings(
        seats,
        [side_score[side] for side in range(len(side_score))],
        Ending(status.value),
        seats[winner_seat].side,
    )
    return await store.finish_game(game_id, status, result, now=now)
