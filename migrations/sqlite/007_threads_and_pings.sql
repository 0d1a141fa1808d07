-- A thread per game and a ping on a member's turn (issue 21).

-- Whether a server's games each get a thread started from their table message (NULL:
-- the bot's default, on). Without the thread permissions a game falls back to the
-- channel whatever this says.
ALTER TABLE guild_settings ADD COLUMN threads INTEGER CHECK (threads IN (0, 1));

-- The short message that mentions the member on turn, deleted once they act: one per
-- game at a time, remembered so that a restart still deletes it. NULL: none.
ALTER TABLE games ADD COLUMN ping_message_id INTEGER;
