-- Initial schema. Conventions:
--   * Discord snowflakes (guild, channel, message, user ids) are INTEGER (they fit in 63 bits).
--   * Timestamps are REAL seconds since the Unix epoch (UTC).
--   * Booleans are INTEGER 0/1 with a CHECK.
--   * Seats are the engine's seat numbers 0..n-1 (n = 2 or 4). The two sides of
--     every supported game are seat % 2 (2 players: side = seat; 4 players: partners).

CREATE TABLE players (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL CHECK (length(display_name) > 0),
    updated_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT;

-- AUTOINCREMENT so a game id is never reused: ids live on in the custom_id of
-- old Discord buttons, which must never drive a newer game.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    table_message_id INTEGER,
    thread_id        INTEGER,
    variant          TEXT    NOT NULL CHECK (length(variant) > 0),
    options          TEXT    NOT NULL DEFAULT '{}'
                     CHECK (json_valid(options) AND json_type(options) = 'object'),
    seed             INTEGER NOT NULL,
    first_dealer     INTEGER NOT NULL CHECK (first_dealer >= 0),
    status           TEXT    NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'finished', 'resigned', 'forfeited', 'abandoned')),
    -- A seat of the winning side; NULL while active and for abandoned games.
    winner_seat      INTEGER CHECK (winner_seat >= 0),
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL,
    turn_started_at  REAL    NOT NULL,
    reminded         INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    CHECK ((status = 'active') = (finished_at IS NULL)),
    CHECK ((status IN ('active', 'abandoned')) = (winner_seat IS NULL))
) STRICT;

CREATE INDEX games_active_by_channel ON games (guild_id, channel_id) WHERE status = 'active';

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind    TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
    user_id INTEGER,
    level   TEXT    CHECK (length(level) > 0),
    PRIMARY KEY (game_id, seat),
    CHECK ((kind = 'human') = (user_id IS NOT NULL)),
    CHECK (kind = 'computer' OR level IS NULL)
) STRICT, WITHOUT ROWID;

CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

-- The engine's append-only action log; the primary key makes applying the same
-- action twice impossible.
CREATE TABLE game_actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL CHECK (seq >= 0),
    action  TEXT    NOT NULL CHECK (length(action) > 0),
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- One row per finished hand. maker_seat is NULL when everybody passed and the
-- hand was thrown in; then nobody scores and the flags are 0.
CREATE TABLE hands (
    game_id     INTEGER NOT NULL,
    hand_no     INTEGER NOT NULL CHECK (hand_no >= 0),
    maker_seat  INTEGER,
    alone       INTEGER NOT NULL CHECK (alone IN (0, 1)),
    points_side INTEGER CHECK (points_side IN (0, 1)),
    points      INTEGER NOT NULL CHECK (points >= 0),
    march       INTEGER NOT NULL CHECK (march IN (0, 1)),
    euchred     INTEGER NOT NULL CHECK (euchred IN (0, 1)),
    recorded_at REAL    NOT NULL,
    PRIMARY KEY (game_id, hand_no),
    FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE,
    FOREIGN KEY (game_id, maker_seat) REFERENCES seats (game_id, seat),
    CHECK (NOT (march AND euchred)),
    CHECK ((points_side IS NULL) = (points = 0)),
    CHECK (maker_seat IS NOT NULL OR (points = 0 AND alone = 0 AND march = 0 AND euchred = 0))
) STRICT, WITHOUT ROWID;

-- Tricks each seat took in a hand; a seat that did not play (sitting out while
-- the partner goes alone, or a thrown-in hand) has no row, so AVG(tricks)
-- is "tricks per hand played".
CREATE TABLE hand_tricks (
    game_id INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    tricks  INTEGER NOT NULL CHECK (tricks >= 0),
    PRIMARY KEY (game_id, hand_no, seat),
    FOREIGN KEY (game_id, hand_no) REFERENCES hands (game_id, hand_no) ON DELETE CASCADE,
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
) STRICT, WITHOUT ROWID;

-- One row per seat when a game ends with a winner. user_id is copied from seats
-- (NULL = computer) so the stats queries need no join; vs_computer = 1 when any
-- seat of the game was a computer (such games are never rated).
CREATE TABLE results (
    game_id     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('win', 'loss')),
    score       INTEGER NOT NULL,
    vs_computer INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE,
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat)
) STRICT, WITHOUT ROWID;

CREATE INDEX results_by_user ON results (user_id) WHERE user_id IS NOT NULL;

-- OpenSkill (Plackett-Luce) rating per guild, player and variant; wins and
-- losses count rated (all-human) games only.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    variant    TEXT    NOT NULL CHECK (length(variant) > 0),
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    losses     INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, variant, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,
    challenger_id INTEGER NOT NULL,
    opponent_id   INTEGER NOT NULL,
    variant       TEXT    NOT NULL CHECK (length(variant) > 0),
    options       TEXT    NOT NULL DEFAULT '{}'
                  CHECK (json_valid(options) AND json_type(options) = 'object'),
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'accepted', 'declined', 'expired', 'cancelled')),
    created_at    REAL    NOT NULL,
    expires_at    REAL    NOT NULL,
    resolved_at   REAL,
    CHECK (challenger_id <> opponent_id),
    CHECK (expires_at >= created_at),
    CHECK ((status = 'open') = (resolved_at IS NULL))
) STRICT;

CREATE INDEX challenges_open ON challenges (expires_at) WHERE status = 'open';
