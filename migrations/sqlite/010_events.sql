-- Server events, "euchre nights" (issue 42; docs/events.md). Conventions as in 001.
--   * record: the event as bot.events.event.Event.to_record() gives it (a JSON object,
--     format "tuque-event"): its options, sign-ups, entries and every round's seating
--     and results. It holds no card: every deal is rebuilt from the seatings' seeds.
--     status mirrors the record's, for the queries that look for open events.
--   * Every change of an event (a Join, a Leave, the Start, a table's result, the next
--     round, the Cancel) rewrites its record in one transaction that first locks the
--     event's row: of two racing changes the second sees the first's (two hosts
--     pressing Start start one event).
--   * event_tables: the game each table of each round plays, written in the
--     transaction that creates the game, so a table has one game (the primary key) and
--     a game one table (UNIQUE game_id).
--   * scheduled_event_id: the Discord Scheduled Event shown in the server's Events;
--     signup_message_id, standings_message_id: the bot's posts in the channel.

CREATE TABLE events (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id             INTEGER NOT NULL,
    channel_id           INTEGER NOT NULL,
    host_id              INTEGER NOT NULL,
    status               TEXT    NOT NULL
                         CHECK (status IN ('sign-up', 'running', 'between rounds',
                                           'finished', 'cancelled')),
    record               TEXT    NOT NULL
                         CHECK (json_valid(record) AND json_type(record) = 'object'),
    starts_at            REAL    NOT NULL,
    round_started_at     REAL,
    scheduled_event_id   INTEGER,
    signup_message_id    INTEGER,
    standings_message_id INTEGER,
    created_at           REAL    NOT NULL,
    updated_at           REAL    NOT NULL
) STRICT;

CREATE INDEX events_open ON events (guild_id)
    WHERE status IN ('sign-up', 'running', 'between rounds');
CREATE UNIQUE INDEX events_by_scheduled_event ON events (scheduled_event_id)
    WHERE scheduled_event_id IS NOT NULL;

CREATE TABLE event_tables (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round_no INTEGER NOT NULL CHECK (round_no >= 1),
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    game_id  INTEGER NOT NULL UNIQUE REFERENCES games (id),
    PRIMARY KEY (event_id, round_no, table_no)
) STRICT, WITHOUT ROWID;
