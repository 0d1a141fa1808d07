-- The event-host role (issue 42; docs/events.md): members with it may create events
-- and start or cancel them, as members with Manage Events may. NULL: no such role.
ALTER TABLE guild_settings ADD COLUMN event_host_role_id INTEGER;
