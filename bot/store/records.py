"""Players' records: their names, ratings, the leaderboard and their statistics.

Ratings move only when a game ends: ``finish_game`` (``bot.store.games``) calls
``_rate`` in the transaction that writes the results, so a game's ratings and its
results are written together or not at all (see ``bot.ratings`` for who is rated).
The statistics read the games' results and hands as ``bot.store.games`` writes them.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.ratings import DEFAULT_RATING, ORDINAL_Z, Rating, rate
from bot.store.base import StoreBase, _now


@dataclass(frozen=True)
class RatingChange:
    """How one player's rating moved in a rated game."""

    user_id: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> float:
        """Change of the displayed rating (ordinal)."""
        return self.after.ordinal - self.before.ordinal


@dataclass(frozen=True)
class LeaderboardRow:
    """One line of the leaderboard. ``rank`` counts from 1 over the whole board;
    wins and losses count rated (all-human) games only; ``rating`` is the
    displayed rating (best over variants when the board spans all variants)."""

    rank: int
    user_id: int
    display_name: str | None
    wins: int
    losses: int
    rating: float

    @property
    def games(self) -> int:
        """Rated games played."""
        return self.wins + self.losses

    @property
    def win_rate(self) -> float:
        """Wins / games, from 0.0 to 1.0 (0.0 before any game)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in a guild, for one variant or all (``variant`` None).

    ``games``/``wins``/``losses`` count rated (all-human) games; games with a
    computer seat are counted apart in ``computer_wins``/``computer_losses``.
    Hand figures cover every hand the player played, against humans or not:
    ``hands_called`` hands where they named trump, of which ``hands_made``
    succeeded, ``hands_euchred`` failed and ``marches`` took every trick.
    ``avg_tricks`` is tricks per hand played (None before any hand). ``rating``
    is the displayed rating (best over variants when ``variant`` is None), None
    before any rated game.
    """

    user_id: int
    variant: str | None
    games: int
    wins: int
    losses: int
    rating: float | None
    computer_wins: int
    computer_losses: int
    hands_played: int
    hands_called: int
    hands_made: int
    hands_euchred: int
    marches: int
    avg_tricks: float | None
    hints: int = 0
    """Hints asked for (the Hint button), in every game counted here."""

    @property
    def win_rate(self) -> float:
        """Rated wins / rated games, from 0.0 to 1.0 (0.0 before any game)."""
        return self.wins / self.games if self.games else 0.0


async def _upsert_player(
    db: aiosqlite.Connection, guild_id: int, user_id: int, display_name: str, now: float
) -> None:
    await db.execute(
        """
        INSERT INTO players (guild_id, user_id, display_name, updated_at)
        VALUES (?, ?, ?, ?)
        ON CONFLICT (guild_id, user_id) DO UPDATE
        SET display_name = excluded.display_name, updated_at = excluded.updated_at
        """,
        (guild_id, user_id, display_name, now),
    )


async def _rate(
    db: aiosqlite.Connection,
    guild_id: int,
    variant: str,
    teams: list[list[int]],
    ranks: list[int],
    now: float,
) -> list[RatingChange]:
    """Rate ``teams`` (user ids) by their places ``ranks`` (1 is first) inside the
    caller's transaction, counting a rated win for place 1 and a loss for any other;
    return the changes, one per user in the order given."""
    users = [u for team in teams for u in team]
    won = [rank == 1 for team, rank in zip(teams, ranks, strict=True) for _ in team]
    marks = ", ".join("?" * len(users))
    current = {
        r["user_id"]: Rating(r["mu"], r["sigma"])
        for r in await db.execute_fetchall(
            f"""
            SELECT user_id, mu, sigma FROM ratings
            WHERE guild_id = ? AND variant = ? AND user_id IN ({marks})
            """,
            (guild_id, variant, *users),
        )
    }
    before = [[current.get(u, DEFAULT_RATING) for u in team] for team in teams]
    after = [r for team in rate(before, ranks) for r in team]
    flat_before = [r for team in before for r in team]
    await db.executemany(
        """
        INSERT INTO ratings (guild_id, user_id, variant, mu, sigma, wins, losses, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (guild_id, variant, user_id) DO UPDATE
        SET mu = excluded.mu, sigma = excluded.sigma,
            wins = wins + excluded.wins, losses = losses + excluded.losses,
            updated_at = excluded.updated_at
        """,
        [
            (guild_id, u, variant, r.mu, r.sigma, int(w), int(not w), now)
            for w, u, r in zip(won, users, after, strict=True)
        ],
    )
    return [RatingChange(u, b, a) for u, b, a in zip(users, flat_before, after, strict=True)]


class RecordQueries(StoreBase):
    """The ``Store`` methods on players, the leaderboard and statistics."""

    async def upsert_player(
        self, guild_id: int, user_id: int, display_name: str, *, now: float | None = None
    ) -> None:
        """Record ``display_name`` as the player's current name in the guild."""
        async with self._transaction(write=True) as db:
            await _upsert_player(db, guild_id, user_id, display_name, _now(now))

    async def leaderboard(
        self, guild_id: int, variant: str | None = None, *, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """One page of the guild's leaderboard of rated human players.

        Ordered by displayed rating, then wins, then user id (so pages are
        stable). With ``variant`` None a player's wins and losses are summed over
        variants and their best rating counts. Raises ``ValueError`` for
        ``limit`` < 1 or ``offset`` < 0.
        """
        if limit < 1 or offset < 0:
            raise ValueError("limit must be >= 1 and offset >= 0")
        async with self._transaction(write=False) as db:
            rows = await db.execute_fetchall(
                """
                SELECT r.user_id, p.display_name, SUM(r.wins) AS wins, SUM(r.losses) AS losses,
                       MAX(r.mu - :z * r.sigma) AS rating
                FROM ratings AS r
                LEFT JOIN players AS p ON p.guild_id = r.guild_id AND p.user_id = r.user_id
                WHERE r.guild_id = :guild AND (:variant IS NULL OR r.variant = :variant)
                GROUP BY r.user_id
                ORDER BY rating DESC, wins DESC, r.user_id
                LIMIT :limit OFFSET :offset
                """,
                {
                    "z": ORDINAL_Z,
                    "guild": guild_id,
                    "variant": variant,
                    "limit": limit,
                    "offset": offset,
                },
            )
        return [
            LeaderboardRow(
                rank=offset + i + 1,
                user_id=r["user_id"],
                display_name=r["display_name"],
                wins=r["wins"],
                losses=r["losses"],
                rating=r["rating"],
            )
            for i, r in enumerate(rows)
        ]

    async def leaderboard_count(self, guild_id: int, variant: str | None = None) -> int:
        """How many players the leaderboard of ``leaderboard(guild_id, variant)`` has."""
        async with self._transaction(write=False) as db:
            rows = await db.execute_fetchall(
                """
                SELECT COUNT(DISTINCT user_id) FROM ratings
                WHERE guild_id = :guild AND (:variant IS NULL OR variant = :variant)
                """,
                {"guild": guild_id, "variant": variant},
            )
        return int(next(iter(rows))[0])

    async def player_stats(
        self, guild_id: int, user_id: int, variant: str | None = None
    ) -> PlayerStats:
        """The player's record in the guild for ``variant`` (all variants if None).

        A player who never played gets all zeros and None averages.
        """
        params = {"guild": guild_id, "user": user_id, "variant": variant, "z": ORDINAL_Z}
        async with self._transaction(write=False) as db:
            games = await db.execute_fetchall(
                """
                SELECT COUNT(*) FILTER (WHERE NOT r.vs_computer) AS games,
                       COUNT(*) FILTER (WHERE NOT r.vs_computer AND r.outcome = 'win') AS wins,
                       COUNT(*) FILTER (WHERE r.vs_computer AND r.outcome = 'win') AS cpu_wins,
                       COUNT(*) FILTER (WHERE r.vs_computer AND r.outcome = 'loss') AS cpu_losses
                FROM results AS r JOIN games AS g ON g.id = r.game_id
                WHERE r.user_id = :user AND g.guild_id = :guild
                  AND (:variant IS NULL OR g.variant = :variant)
                """,
                params,
            )
            called = await db.execute_fetchall(
                """
                SELECT COUNT(*) AS called,
                       COUNT(*) FILTER (WHERE h.euchred) AS euchred,
                       COUNT(*) FILTER (WHERE h.march) AS marches
                FROM hands AS h
                JOIN seats AS s ON s.game_id = h.game_id AND s.seat = h.maker_seat
                JOIN games AS g ON g.id = h.game_id
                WHERE s.user_id = :user AND g.guild_id = :guild
                  AND (:variant IS NULL OR g.variant = :variant)
                """,
                params,
            )
            tricks = await db.execute_fetchall(
                """
                SELECT COUNT(*) AS played, AVG(t.tricks) AS avg_tricks
                FROM hand_tricks AS t
                JOIN seats AS s ON s.game_id = t.game_id AND s.seat = t.seat
                JOIN games AS g ON g.id = t.game_id
                WHERE s.user_id = :user AND g.guild_id = :guild
                  AND (:variant IS NULL OR g.variant = :variant)
                """,
                params,
            )
            hints = await db.execute_fetchall(
                """
                SELECT COALESCE(SUM(s.hints), 0) FROM seats AS s
                JOIN games AS g ON g.id = s.game_id
                WHERE s.user_id = :user AND g.guild_id = :guild
                  AND (:variant IS NULL OR g.variant = :variant)
                """,
                params,
            )
            rating = await db.execute_fetchall(
                """
                SELECT MAX(mu - :z * sigma) FROM ratings
                WHERE guild_id = :guild AND user_id = :user
                  AND (:variant IS NULL OR variant = :variant)
                """,
                params,
            )
        g, c, t = next(iter(games)), next(iter(called)), next(iter(tricks))
        return PlayerStats(
            user_id=user_id,
            variant=variant,
            games=g["games"],
            wins=g["wins"],
            losses=g["games"] - g["wins"],
            rating=next(iter(rating))[0],
            computer_wins=g["cpu_wins"],
            computer_losses=g["cpu_losses"],
            hands_played=t["played"],
            hands_called=c["called"],
            hands_made=c["called"] - c["euchred"],
            hands_euchred=c["euchred"],
            marches=c["marches"],
            avg_tricks=t["avg_tricks"],
            hints=next(iter(hints))[0],
        )
