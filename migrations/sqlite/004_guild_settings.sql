-- Server settings (/tuque settings): one row per guild that changed any. Conventions as
-- in 001.
--   * NULL is "the bot's default", which the operator sets in the environment
--     (TURN_REMINDER_MINUTES, TURN_AWAY_MINUTES, COMPUTER_MOVE_DELAY_SECONDS) or the
--     code holds (hints off in rated games, Tuque as the default game); a guild with
--     no row uses every default.
--   * The turn timer (docs/rulings.md R9): reminder_minutes into a member's turn they
--     are reminded; away_minutes into it the computer plays their cards for the rest
--     of the hand. The two are set together, the reminder first.

CREATE TABLE guild_settings (
    guild_id               INTEGER PRIMARY KEY,
    reminder_minutes       REAL    CHECK (reminder_minutes > 0),
    away_minutes           REAL    CHECK (away_minutes > 0),
    computer_delay_seconds REAL    CHECK (computer_delay_seconds >= 0),
    hints_in_rated         INTEGER CHECK (hints_in_rated IN (0, 1)),
    default_variant        TEXT    CHECK (length(default_variant) > 0),
    updated_at             REAL    NOT NULL,
    updated_by             INTEGER,
    CHECK ((reminder_minutes IS NULL) = (away_minutes IS NULL)),
    CHECK (away_minutes > reminder_minutes)
) STRICT;
