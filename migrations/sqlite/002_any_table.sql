-- Tables of two to six seats with any side structure (RULES.md §3–§7): partners,
-- teams of three, each for themself. Conventions as in 001, and:
--   * Seats are 0..n-1 with n from 2 to 6. seats.side is the engine's scoring side
--     of the seat (Variant.sides), 0..n-1, side k always holding seat k; every game
--     stored by 001 had two sides, side = seat % 2, which is how old rows are filled.
--   * A hand's points live in hand_points, one row per side whose score the hand
--     changed: several sides may score in one hand (Tuque to 61, Call-Ace partners)
--     and points are negative where the rules deduct (two- and three-hand, Auction,
--     Jackpot's chips). 001's hands.points_side/points (the one side that scored)
--     become that side's row.
--   * A hand with maker_seat NULL and no hand_tricks rows was thrown in; a Jackpot
--     hand has no maker either but is played, so it has tricks (and chips).
--   * results.side and results.rank: the seat's side and that side's final place,
--     1 = the winning side and only it (outcome 'win'), then the others by final
--     score, ties sharing a place (1, 2, 2, 4). 001's results were win 1, loss 2.
--
-- SQLite cannot change a CHECK or drop a column in place, so seats and the three
-- tables that reference it (hands, hand_tricks, results) are rebuilt. The runner
-- migrates with foreign keys enforced, where a DROP TABLE deletes its rows first
-- (cascading from hands to hand_tricks) and a RENAME rewrites the references to the
-- renamed table. So: the new tables are filled while they reference each other under
-- their new names, the old ones are dropped children first (nothing references them
-- by then), and the renames turn every reference into the final name. Indexes and
-- foreign keys are 001's.

PRAGMA defer_foreign_keys = ON;

CREATE TABLE seats_002 (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    side    INTEGER NOT NULL CHECK (side BETWEEN 0 AND seat),
    kind    TEXT    NOT NULL CHECK (kind IN ('human', 'computer')),
    user_id INTEGER,
    level   TEXT    CHECK (length(level) > 0),
    PRIMARY KEY (game_id, seat),
    CHECK ((kind = 'human') = (user_id IS NOT NULL)),
    CHECK (kind = 'computer' OR level IS NULL)
) STRICT, WITHOUT ROWID;

INSERT INTO seats_002 (game_id, seat, side, kind, user_id, level)
SELECT game_id, seat, seat % 2, kind, user_id, level FROM seats;

-- One row per finished hand. The points are in hand_points.
CREATE TABLE hands_002 (
    game_id     INTEGER NOT NULL,
    hand_no     INTEGER NOT NULL CHECK (hand_no >= 0),
    maker_seat  INTEGER,
    alone       INTEGER NOT NULL CHECK (alone IN (0, 1)),
    march       INTEGER NOT NULL CHECK (march IN (0, 1)),
    euchred     INTEGER NOT NULL CHECK (euchred IN (0, 1)),
    recorded_at REAL    NOT NULL,
    PRIMARY KEY (game_id, hand_no),
    FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE,
    FOREIGN KEY (game_id, maker_seat) REFERENCES seats_002 (game_id, seat),
    CHECK (NOT (march AND euchred)),
    CHECK (maker_seat IS NOT NULL OR (alone = 0 AND march = 0 AND euchred = 0))
) STRICT, WITHOUT ROWID;

INSERT INTO hands_002 (game_id, hand_no, maker_seat, alone, march, euchred, recorded_at)
SELECT game_id, hand_no, maker_seat, alone, march, euchred, recorded_at FROM hands;

-- What a hand did to each side's score; a side the hand left alone has no row, so
-- SUM(points) over a game's hands is each side's final score (Jackpot: chips).
CREATE TABLE hand_points (
    game_id INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    side    INTEGER NOT NULL CHECK (side BETWEEN 0 AND 5),
    points  INTEGER NOT NULL CHECK (points <> 0),
    PRIMARY KEY (game_id, hand_no, side),
    FOREIGN KEY (game_id, hand_no) REFERENCES hands_002 (game_id, hand_no) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

INSERT INTO hand_points (game_id, hand_no, side, points)
SELECT game_id, hand_no, points_side, points FROM hands WHERE points_side IS NOT NULL;

-- Tricks each seat took in a hand, as in 001: a seat that did not play (sitting out
-- while a partner goes alone or defends alone, or a thrown-in hand) has no row.
CREATE TABLE hand_tricks_002 (
    game_id INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    tricks  INTEGER NOT NULL CHECK (tricks >= 0),
    PRIMARY KEY (game_id, hand_no, seat),
    FOREIGN KEY (game_id, hand_no) REFERENCES hands_002 (game_id, hand_no) ON DELETE CASCADE,
    FOREIGN KEY (game_id, seat) REFERENCES seats_002 (game_id, seat)
) STRICT, WITHOUT ROWID;

INSERT INTO hand_tricks_002 (game_id, hand_no, seat, tricks)
SELECT game_id, hand_no, seat, tricks FROM hand_tricks;

-- One row per seat when a game ends with a winner, as in 001, with the seat's side
-- and that side's place.
CREATE TABLE results_002 (
    game_id     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('win', 'loss')),
    score       INTEGER NOT NULL,
    vs_computer INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
    side        INTEGER NOT NULL CHECK (side BETWEEN 0 AND 5),
    rank        INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 6),
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id) REFERENCES games (id) ON DELETE CASCADE,
    FOREIGN KEY (game_id, seat) REFERENCES seats_002 (game_id, seat),
    CHECK ((outcome = 'win') = (rank = 1))
) STRICT, WITHOUT ROWID;

INSERT INTO results_002 (game_id, seat, user_id, outcome, score, vs_computer, side, rank)
SELECT game_id, seat, user_id, outcome, score, vs_computer, seat % 2,
       CASE outcome WHEN 'win' THEN 1 ELSE 2 END
FROM results;

DROP TABLE hand_tricks;
DROP TABLE results;
DROP TABLE hands;
DROP TABLE seats;

ALTER TABLE seats_002 RENAME TO seats;
ALTER TABLE hands_002 RENAME TO hands;
ALTER TABLE hand_tricks_002 RENAME TO hand_tricks;
ALTER TABLE results_002 RENAME TO results;

CREATE INDEX seats_by_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX results_by_user ON results (user_id) WHERE user_id IS NOT NULL;
