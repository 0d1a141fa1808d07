"""Players' records: their names, ratings, the leaderboard and their statistics.

Ratings move only when a game ends: ``finish_game`` (``bot.store.games``) calls
``_rate`` in the transaction that writes the results, so a game's ratings and its
results are written together or not at all (see ``bot.ratings`` for who is rated).
The statistics read the games' results and hands as ``bot.store.games`` writes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, Double, and_, cast, distinct, func, select, true

from bot.ratings import DEFAULT_RATING, ORDINAL_Z, Rating, rate
from bot.store.base import Connection, StoreBase, _now, dialect_insert, lock_members
from bot.store.schema import games, hand_tricks, hands, players, ratings, results, seats


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
    db: Connection, guild_id: int, user_id: int, display_name: str, now: float
) -> None:
    insert = dialect_insert(db, players).values(
        guild_id=guild_id, user_id=user_id, display_name=display_name, updated_at=now
    )
    await db.execute(
        insert.on_conflict_do_update(
            index_elements=[players.c.guild_id, players.c.user_id],
            set_={
                "display_name": insert.excluded.display_name,
                "updated_at": insert.excluded.updated_at,
            },
        )
    )


async def _rate(
    db: Connection,
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
    # Two games of a member ending at once: the second rates from the first's result.
    await lock_members(db, users)
    current = {
        r.user_id: Rating(r.mu, r.sigma)
        for r in await db.execute(
            select(ratings.c.user_id, ratings.c.mu, ratings.c.sigma).where(
                ratings.c.guild_id == guild_id,
                ratings.c.variant == variant,
                ratings.c.user_id.in_(users),
            )
        )
    }
    before = [[current.get(u, DEFAULT_RATING) for u in team] for team in teams]
    after = [r for team in rate(before, ranks) for r in team]
    flat_before = [r for team in before for r in team]
    insert = dialect_insert(db, ratings)
    await db.execute(
        insert.on_conflict_do_update(
            index_elements=[ratings.c.guild_id, ratings.c.variant, ratings.c.user_id],
            set_={
                "mu": insert.excluded.mu,
                "sigma": insert.excluded.sigma,
                "wins": ratings.c.wins + insert.excluded.wins,
                "losses": ratings.c.losses + insert.excluded.losses,
                "updated_at": insert.excluded.updated_at,
            },
        ),
        [
            {
                "guild_id": guild_id,
                "user_id": u,
                "variant": variant,
                "mu": r.mu,
                "sigma": r.sigma,
                "wins": int(w),
                "losses": int(not w),
                "updated_at": now,
            }
            for w, u, r in zip(won, users, after, strict=True)
        ],
    )
    return [RatingChange(u, b, a) for u, b, a in zip(users, flat_before, after, strict=True)]


def _of_variant(column: ColumnElement[str], variant: str | None) -> ColumnElement[bool]:
    """``column`` is ``variant``; always true when ``variant`` is None (every variant)."""
    return true() if variant is None else column == variant


def _ordinal() -> ColumnElement[float]:
    """The displayed rating (``Rating.ordinal``) of a ``ratings`` row, in SQL."""
    return ratings.c.mu - ORDINAL_Z * ratings.c.sigma


class RecordQueries(StoreBase):
    """The ``Store`` methods on players, the leaderboard and statistics."""

    async def upsert_player(
        self, guild_id: int, user_id: int, display_name: str, *, now: float | None = None
    ) -> None:
        """Record ``display_name`` as the player's current name in the guild."""
        now = _now(now)

        async def work(db: Connection) -> None:
            await _upsert_player(db, guild_id, user_id, display_name, now)

        await self._write(work)

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
        wins = func.sum(ratings.c.wins).label("wins")
        losses = func.sum(ratings.c.losses).label("losses")
        rating = func.max(_ordinal()).label("rating")
        query = (
            select(ratings.c.user_id, players.c.display_name, wins, losses, rating)
            .select_from(
                ratings.outerjoin(
                    players,
                    and_(
                        players.c.guild_id == ratings.c.guild_id,
                        players.c.user_id == ratings.c.user_id,
                    ),
                )
            )
            .where(ratings.c.guild_id == guild_id, _of_variant(ratings.c.variant, variant))
            # One name per user in the guild (the players key): grouping by it changes
            # nothing, and PostgreSQL wants every selected column grouped.
            .group_by(ratings.c.user_id, players.c.display_name)
            .order_by(rating.desc(), wins.desc(), ratings.c.user_id)
            .limit(limit)
            .offset(offset)
        )
        async with self._read() as db:
            rows = (await db.execute(query)).all()
        return [
            LeaderboardRow(
                rank=offset + i + 1,
                user_id=r.user_id,
                display_name=r.display_name,
                wins=int(r.wins),
                losses=int(r.losses),
                rating=float(r.rating),
            )
            for i, r in enumerate(rows)
        ]

    async def leaderboard_count(self, guild_id: int, variant: str | None = None) -> int:
        """How many players the leaderboard of ``leaderboard(guild_id, variant)`` has."""
        query = select(func.count(distinct(ratings.c.user_id))).where(
            ratings.c.guild_id == guild_id, _of_variant(ratings.c.variant, variant)
        )
        async with self._read() as db:
            return int((await db.execute(query)).scalar_one())

    async def player_stats(
        self, guild_id: int, user_id: int, variant: str | None = None
    ) -> PlayerStats:
        """The player's record in the guild for ``variant`` (all variants if None).

        A player who never played gets all zeros and None averages.
        """
        in_games = and_(games.c.guild_id == guild_id, _of_variant(games.c.variant, variant))
        human, computer = results.c.vs_computer == 0, results.c.vs_computer == 1
        won, lost = results.c.outcome == "win", results.c.outcome == "loss"
        count = func.count()
        games_query = (
            select(
                count.filter(human).label("games"),
                count.filter(and_(human, won)).label("wins"),
                count.filter(and_(computer, won)).label("cpu_wins"),
                count.filter(and_(computer, lost)).label("cpu_losses"),
            )
            .select_from(results.join(games, games.c.id == results.c.game_id))
            .where(results.c.user_id == user_id, in_games)
        )
        called_query = (
            select(
                count.label("called"),
                count.filter(hands.c.euchred == 1).label("euchred"),
                count.filter(hands.c.march == 1).label("marches"),
            )
            .select_from(
                hands.join(
                    seats,
                    and_(seats.c.game_id == hands.c.game_id, seats.c.seat == hands.c.maker_seat),
                ).join(games, games.c.id == hands.c.game_id)
            )
            .where(seats.c.user_id == user_id, in_games)
        )
        tricks_query = (
            select(
                count.label("played"),
                # As a float on both databases (PostgreSQL averages integers as NUMERIC).
                func.avg(cast(hand_tricks.c.tricks, Double)).label("avg_tricks"),
            )
            .select_from(
                hand_tricks.join(
                    seats,
                    and_(
                        seats.c.game_id == hand_tricks.c.game_id,
                        seats.c.seat == hand_tricks.c.seat,
                    ),
                ).join(games, games.c.id == hand_tricks.c.game_id)
            )
            .where(seats.c.user_id == user_id, in_games)
        )
        hints_query = (
            select(func.coalesce(func.sum(seats.c.hints), 0))
            .select_from(seats.join(games, games.c.id == seats.c.game_id))
            .where(seats.c.user_id == user_id, in_games)
        )
        rating_query = select(func.max(_ordinal())).where(
            ratings.c.guild_id == guild_id,
            ratings.c.user_id == user_id,
            _of_variant(ratings.c.variant, variant),
        )
        async with self._read() as db:
            g = (await db.execute(games_query)).one()
            c = (await db.execute(called_query)).one()
            t = (await db.execute(tricks_query)).one()
            hints = (await db.execute(hints_query)).scalar_one()
            rating = (await db.execute(rating_query)).scalar_one()
        return PlayerStats(
            user_id=user_id,
            variant=variant,
            games=g.games,
            wins=g.wins,
            losses=g.games - g.wins,
            rating=None if rating is None else float(rating),
            computer_wins=g.cpu_wins,
            computer_losses=g.cpu_losses,
            hands_played=t.played,
            hands_called=c.called,
            hands_made=c.called - c.euchred,
            hands_euchred=c.euchred,
            marches=c.marches,
            avg_tricks=t.avg_tricks,
            hints=int(hints),
        )
