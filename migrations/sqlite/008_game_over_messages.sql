-- The game-over messages, whose Rematch buttons go once the rematch starts (issue 33):
-- remembered so that a restart can still edit them. over_message_id is the post in the
-- game's thread (its channel where it has none), over_channel_message_id its copy in the
-- channel where the game had a thread. NULL: not posted (yet).
ALTER TABLE games ADD COLUMN over_message_id INTEGER;
ALTER TABLE games ADD COLUMN over_channel_message_id INTEGER;
