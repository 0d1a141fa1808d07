-- Lobbies: a table opened in a channel that members join, or a challenge of
-- several members, until its game starts. Conventions as in 001.
--   * A lobby has the variant's seat count; lobby_seats holds its taken seats only,
--     a member or a computer each. Seats left empty at the start are filled with
--     computers of the lobby's level.
--   * invited = 1: a challenge of several members (/tuque challenge with more than one
--     member); its seats are reserved for the invited members (accepted = 0 until
--     they accept), nobody else may join, and the game starts when all have accepted.
--   * A member holds at most one seat of a lobby (UNIQUE (lobby_id, user_id); SQLite
--     lets computers' NULL user ids repeat). Two members taking the last seat at once:
--     the PRIMARY KEY lets one of them have it.
--   * status 'started' names the game (game_id); the host is always seated (seat 0 at
--     first) and cannot leave; closing the lobby is 'cancelled'.

CREATE TABLE lobbies (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    host_id     INTEGER NOT NULL,
    variant     TEXT    NOT NULL CHECK (length(variant) > 0),
    options     TEXT    NOT NULL DEFAULT '{}'
                CHECK (json_valid(options) AND json_type(options) = 'object'),
    seats       INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 6),
    level       TEXT    NOT NULL CHECK (length(level) > 0),
    invited     INTEGER NOT NULL DEFAULT 0 CHECK (invited IN (0, 1)),
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'started', 'cancelled', 'declined', 'expired')),
    game_id     INTEGER REFERENCES games (id),
    created_at  REAL    NOT NULL,
    expires_at  REAL    NOT NULL,
    resolved_at REAL,
    CHECK (expires_at >= created_at),
    CHECK ((status = 'open') = (resolved_at IS NULL)),
    CHECK ((status = 'started') = (game_id IS NOT NULL))
) STRICT;

CREATE INDEX lobbies_open ON lobbies (expires_at) WHERE status = 'open';

CREATE TABLE lobby_seats (
    lobby_id INTEGER NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    kind     TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
    user_id  INTEGER,
    level    TEXT    CHECK (length(level) > 0),
    accepted INTEGER NOT NULL DEFAULT 1 CHECK (accepted IN (0, 1)),
    PRIMARY KEY (lobby_id, seat),
    UNIQUE (lobby_id, user_id),
    CHECK ((kind = 'human') = (user_id IS NOT NULL)),
    CHECK ((kind = 'computer') = (level IS NOT NULL)),
    CHECK (kind = 'human' OR accepted = 1)
) STRICT, WITHOUT ROWID;
