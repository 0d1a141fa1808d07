-- Moves and hints from web pages on a process that does not run their game, relayed to
-- the process that does (issue 35; docs/web.md, "Past one process"). A row lives from
-- the ask until its asker reads the answer or gives up: the notifications that carry
-- them name the row, never its action, which may be a card. action NULL: a hint.
-- answer: the running process's answer as a JSON object, NULL until it answers. Only
-- PostgreSQL relays (SQLite is one process); the table keeps the schemas alike.
CREATE TABLE web_asks (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id   INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    action    INTEGER,
    answer    TEXT,
    asked_at  REAL    NOT NULL
);
