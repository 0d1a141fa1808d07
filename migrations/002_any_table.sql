-- Tables of two to six seats with any side structure (RULES.md §3–§7): partners,
-- teams of three, each for themself. Conventions as in 001, and:
--   * seats.side is the engine's scoring side of the seat (Variant.sides); games
--     stored by 001 were two-sided with side = seat % 2, which is how they are filled.
--   * hands.points_side is the side that gained the most points in the hand (any
--     side number now); points stays that gain (never negative: a hand whose only
--     score is a deduction, RULES.md §5 and §7 Auction, has no points_side).
--   * results.side and results.rank: the seat's side and that side's final place,
--     1 = the winner (ties share a place); 001's results were win = 1, loss = 2.
-- SQLite cannot change a CHECK in place: seats and hands are rebuilt (create, copy,
-- drop, rename) with foreign keys off, as the runner runs every migration, and its
-- PRAGMA foreign_key_check before the commit finds any reference the rebuild broke.

CREATE TABLE seats_002 (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    side    INTEGER NOT NULL CHECK (side BETWEEN 0 AND 5),
    kind    TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
    user_id INTEGER,
    level   TEXT    CHECK (length(level) > 0),
    PRIMARY KEY (game_id, seat),
    CHECK ((kind = 'human') = (user_id IS NOT NULL)),
    CHECK (kind = 'computer' OR level IS NULL)
) STRICT, WITHOUT ROWID;

INSERT INTO seats_002 (game_id, seat, side, kind, user_id, level)
SELECT game_id, seat, seat % 2, kind, user_id, level FROM seats;

DROP TABLE seats;
ALTER TABLE seats_002 RENAME TO seats;

CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE hands_002 (
    game_id     INTEGER NOT NULL,
    hand_no     INTEGER NOT NULL CHECK (hand_no >= 0),
    maker_seat  INTEGER,
    alone       INTEGER NOT NULL CHECK (alone IN (0, 1)),
    points_side INTEGER CHECK (points_side BETWEEN 0 AND 5),
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

INSERT INTO hands_002 SELECT * FROM hands;

DROP TABLE hands;
ALTER TABLE hands_002 RENAME TO hands;

ALTER TABLE results ADD COLUMN side INTEGER NOT NULL DEFAULT 0 CHECK (side BETWEEN 0 AND 5);
ALTER TABLE results ADD COLUMN rank INTEGER NOT NULL DEFAULT 1 CHECK (rank BETWEEN 1 AND 6);
UPDATE results SET side = seat % 2, rank = CASE outcome WHEN 'win' THEN 1 ELSE 2 END;
