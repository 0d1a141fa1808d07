-- Play aids (issue 11): hints taken, members' auto-play choice, rematches.

-- Hints a seat's member asked for in the game; stats show them.
ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0);

-- A member's own choice, the same in every guild: when a forced move (exactly one
-- legal action) is played for them after a short pause.
CREATE TABLE member_prefs (
    user_id    INTEGER PRIMARY KEY,
    autoplay   TEXT    NOT NULL CHECK (autoplay IN ('off', 'last', 'forced')),
    updated_at REAL    NOT NULL
) STRICT;

-- The game an invitation lobby replays with the same seats; one open rematch per game,
-- so two members pressing Rematch at once share one invitation.
ALTER TABLE lobbies ADD COLUMN rematch_of INTEGER REFERENCES games (id);
CREATE UNIQUE INDEX lobbies_one_rematch ON lobbies (rematch_of) WHERE status = 'open';
