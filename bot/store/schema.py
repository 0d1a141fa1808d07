"""The tables the store's queries are built on, as SQLAlchemy Core ``Table`` objects.

The migrations own the schema (``migrations/sqlite``, ``migrations/postgresql``):
these declarations only give the queries their columns and each column the Python
type it binds and returns, so one query runs on SQLite and on PostgreSQL. They
describe the newest migration of both folders; ``tests/bot/test_store_backends.py``
checks them against a migrated database of each kind.

Conventions, as in the migrations: Discord snowflakes and seeds are 64-bit integers;
times are seconds since the Unix epoch (``Double``); flags are integers 0/1; a game's
options are a JSON object in a text column.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Double, Integer, MetaData, Table, Text

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("guild_id", BigInteger, primary_key=True),
    Column("user_id", BigInteger, primary_key=True),
    Column("display_name", Text, nullable=False),
    Column("updated_at", Double, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("table_message_id", BigInteger),
    Column("thread_id", BigInteger),
    Column("variant", Text, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("status", Text, nullable=False),
    Column("winner_seat", Integer),
    Column("created_at", Double, nullable=False),
    Column("updated_at", Double, nullable=False),
    Column("finished_at", Double),
    Column("turn_started_at", Double, nullable=False),
    Column("reminded", Integer, nullable=False),
    Column("ping_message_id", BigInteger),
    Column("over_message_id", BigInteger),
    Column("over_channel_message_id", BigInteger),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", BigInteger, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("side", Integer, nullable=False),
    Column("kind", Text, nullable=False),
    Column("user_id", BigInteger),
    Column("level", Text),
    Column("hints", Integer, nullable=False),
    Column("resigned_at", Double),
)

game_actions = Table(
    "game_actions",
    metadata,
    Column("game_id", BigInteger, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("action", Text, nullable=False),
)

hands = Table(
    "hands",
    metadata,
    Column("game_id", BigInteger, primary_key=True),
    Column("hand_no", Integer, primary_key=True),
    Column("maker_seat", Integer),
    Column("alone", Integer, nullable=False),
    Column("march", Integer, nullable=False),
    Column("euchred", Integer, nullable=False),
    Column("recorded_at", Double, nullable=False),
)

hand_points = Table(
    "hand_points",
    metadata,
    Column("game_id", BigInteger, primary_key=True),
    Column("hand_no", Integer, primary_key=True),
    Column("side", Integer, primary_key=True),
    Column("points", Integer, nullable=False),
)

hand_tricks = Table(
    "hand_tricks",
    metadata,
    Column("game_id", BigInteger, primary_key=True),
    Column("hand_no", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("tricks", Integer, nullable=False),
)

results = Table(
    "results",
    metadata,
    Column("game_id", BigInteger, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", BigInteger),
    Column("outcome", Text, nullable=False),
    Column("score", Integer, nullable=False),
    Column("vs_computer", Integer, nullable=False),
    Column("side", Integer, nullable=False),
    Column("rank", Integer, nullable=False),
)

ratings = Table(
    "ratings",
    metadata,
    Column("guild_id", BigInteger, primary_key=True),
    Column("variant", Text, primary_key=True),
    Column("user_id", BigInteger, primary_key=True),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("updated_at", Double, nullable=False),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("message_id", BigInteger),
    Column("challenger_id", BigInteger, nullable=False),
    Column("opponent_id", BigInteger, nullable=False),
    Column("variant", Text, nullable=False),
    Column("options", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("created_at", Double, nullable=False),
    Column("expires_at", Double, nullable=False),
    Column("resolved_at", Double),
)

lobbies = Table(
    "lobbies",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("message_id", BigInteger),
    Column("host_id", BigInteger, nullable=False),
    Column("variant", Text, nullable=False),
    Column("options", Text, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("level", Text, nullable=False),
    Column("invited", Integer, nullable=False),
    Column("status", Text, nullable=False),
    Column("game_id", BigInteger),
    Column("created_at", Double, nullable=False),
    Column("expires_at", Double, nullable=False),
    Column("resolved_at", Double),
    Column("rematch_of", BigInteger),
)

lobby_seats = Table(
    "lobby_seats",
    metadata,
    Column("lobby_id", BigInteger, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("user_id", BigInteger),
    Column("level", Text),
    Column("accepted", Integer, nullable=False),
)

guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", BigInteger, primary_key=True),
    Column("reminder_minutes", Double),
    Column("away_minutes", Double),
    Column("computer_delay_seconds", Double),
    Column("hints_in_rated", Integer),
    Column("default_variant", Text),
    Column("updated_at", Double, nullable=False),
    Column("updated_by", BigInteger),
    Column("threads", Integer),
    Column("event_host_role_id", BigInteger),
)

member_prefs = Table(
    "member_prefs",
    metadata,
    Column("user_id", BigInteger, primary_key=True),
    Column("autoplay", Text, nullable=False),
    Column("updated_at", Double, nullable=False),
)

web_asks = Table(
    "web_asks",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("game_id", BigInteger, nullable=False),
    Column("member_id", BigInteger, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action", Integer),
    Column("answer", Text),
    Column("asked_at", Double, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("host_id", BigInteger, nullable=False),
    Column("status", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("starts_at", Double, nullable=False),
    Column("round_started_at", Double),
    Column("scheduled_event_id", BigInteger),
    Column("signup_message_id", BigInteger),
    Column("standings_message_id", BigInteger),
    Column("created_at", Double, nullable=False),
    Column("updated_at", Double, nullable=False),
)

event_tables = Table(
    "event_tables",
    metadata,
    Column("event_id", BigInteger, primary_key=True),
    Column("round_no", Integer, primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("game_id", BigInteger, nullable=False),
)
