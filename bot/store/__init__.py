"""The bot's persistent state. ``Store`` owns every SQL statement of the project.

``Store`` is one class over one database, an SQLite file or PostgreSQL (SQLAlchemy
Core, on one SQLite connection in a thread of its own or on asyncpg); its methods are
written by aggregate, each module with its rows, enums, errors and design notes:

- ``bot.store.base``: opening, migrating and closing the database, read and write
  transactions (row locks on PostgreSQL), ``Shards``, ``StoreError`` and
  ``DatabaseUnusable``.
- ``bot.store.schema``: the tables, as SQLAlchemy Core declares them.
- ``bot.store.games``: games, their seats, action logs, hands, turn timers and
  ends (results and, through ``records``, ratings).
- ``bot.store.challenges``: challenges and their answers.
- ``bot.store.lobbies``: lobbies (tables members join, challenges of several
  members) and their seats until the game starts.
- ``bot.store.events``: events ("euchre nights"): their records, Discord messages
  and the games of their tables.
- ``bot.store.records``: players' names, ratings, the leaderboard and statistics.
- ``bot.store.members``: members' own choices (auto-play of forced moves).
- ``bot.store.settings``: each server's settings (``/tuque settings``) over the bot's
  defaults.
- ``bot.store.copy``: copying an SQLite database into PostgreSQL.
- ``bot.store.asks``: moves and hints a web page on one process asks of the process
  that runs their game (PostgreSQL).
- ``bot.store.changes``: announcing each game change to the bot's other processes on
  PostgreSQL (``NOTIFY`` on commit, where ``announces`` is set) and listening for them.

Import everything from here (``from bot.store import Store, GameRow``).
"""

from __future__ import annotations

from bot.store.asks import Ask, AskQueries
from bot.store.base import (
    BUSY_TIMEOUT_MS,
    SEAT_COUNTS,
    DatabaseUnusable,
    SeatKind,
    StoreClosed,
    StoreError,
)
from bot.store.challenges import (
    ChallengeClosed,
    ChallengeNotFound,
    ChallengePending,
    ChallengeQueries,
    ChallengeRow,
    ChallengeStatus,
)
from bot.store.events import EventNotFound, EventQueries, EventRow, TableOpened
from bot.store.games import (
    AlreadyHere,
    AlreadyPlaying,
    GameNotActive,
    GameNotFound,
    GameQueries,
    GameRow,
    GameStatus,
    HandRecord,
    Outcome,
    SeatRow,
    StaleAction,
    TimerDue,
    TurnTimer,
)
from bot.store.lobbies import (
    LobbyChanged,
    LobbyClosed,
    LobbyNotFound,
    LobbyNotReady,
    LobbyQueries,
    LobbyRow,
    LobbySeat,
    LobbyStatus,
    SeatUnavailable,
    lobby_seating,
)
from bot.store.members import DEFAULT_AUTOPLAY, Autoplay, MemberQueries
from bot.store.records import LeaderboardRow, PlayerStats, RatingChange, RecordQueries
from bot.store.settings import DEFAULT_VARIANT, GuildSettings, SettingsQueries

__all__ = [
    "BUSY_TIMEOUT_MS",
    "DEFAULT_AUTOPLAY",
    "DEFAULT_VARIANT",
    "SEAT_COUNTS",
    "AlreadyHere",
    "AlreadyPlaying",
    "Ask",
    "Autoplay",
    "ChallengeClosed",
    "ChallengeNotFound",
    "ChallengePending",
    "ChallengeRow",
    "ChallengeStatus",
    "DatabaseUnusable",
    "EventNotFound",
    "EventRow",
    "GameNotActive",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "HandRecord",
    "LeaderboardRow",
    "LobbyChanged",
    "LobbyClosed",
    "LobbyNotFound",
    "LobbyNotReady",
    "LobbyRow",
    "LobbySeat",
    "LobbyStatus",
    "Outcome",
    "PlayerStats",
    "RatingChange",
    "SeatKind",
    "SeatRow",
    "SeatUnavailable",
    "StaleAction",
    "Store",
    "StoreClosed",
    "StoreError",
    "TableOpened",
    "TimerDue",
    "TurnTimer",
    "lobby_seating",
]


class Store(
    GameQueries,
    ChallengeQueries,
    LobbyQueries,
    RecordQueries,
    MemberQueries,
    SettingsQueries,
    AskQueries,
    EventQueries,
):
    """Async access to the bot's database. Create with ``await Store.open(path_or_url)``.

    Usable as ``async with await Store.open(path_or_url) as store: ...``. Methods raise
    the ``StoreError`` subclasses documented on each, ``ValueError`` for arguments that
    break the data's rules, ``StoreClosed`` once closed, and
    ``sqlalchemy.exc.SQLAlchemyError`` for I/O trouble.
    """
