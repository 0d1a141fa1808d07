"""A loopback double of the Discord API for end-to-end tests of the real discord.py client.

It serves the REST routes and the gateway websocket discord.py 2.7 uses, on 127.0.0.1,
and while it runs it points discord.py at itself and blocks any other network access.
Users are scripted from the test; everything the bot sends is stored and checked against
Discord's own OpenAPI description of its API (`spec`) and the documented limits that
description lacks (`validation`). Anything Discord would reject, or the double does not
know, fails the test. With DISCORD_SPEC_REPORT=<file> a pytest run closes with the number
of requests checked per operation.

Typical test (fixtures `double` and `log_guard` come from tests/conftest.py)::

    async def test_challenge(double: DiscordDouble) -> None:
        guild = double.add_guild("Dev")
        table = double.add_channel(guild, "tuque")
        alice = double.add_user("alice", guild=guild)
        bob = double.add_user("bob", guild=guild)
        client = make_bot(guild_ready_timeout=0.05)  # small: READY waits this long
        async with double.running(client):
            rec = await double.slash(alice, table, "tuque", "challenge", opponent=bob)
            await rec.response()                       # the 3-second acknowledgement
            await double.idle()                        # or: await double.wait_until(...)
            invite = double.latest_message(table)
            assert [b.label for b in invite.buttons] == ["Accept", "Decline"]
            await (await double.click(bob, invite, invite.buttons[0].custom_id)).settled()
            assert "accepted" in double.latest_ephemeral(bob).text

Guild scheduled events: the routes list, create, get, modify and delete an event and page
through its users (``/guilds/{guild_id}/scheduled-events[/{id}[/users]]``), under
Discord's rules in `scheduled_events` (status changes, each entity type's fields,
permissions, 100 uncompleted events a guild); GUILD_SCHEDULED_EVENT_CREATE, _UPDATE,
_DELETE, _USER_ADD and _USER_REMOVE go to sessions that identified with the
GUILD_SCHEDULED_EVENTS intent (1 << 16), and GUILD_CREATE carries the guild's events.
What members do in Discord's own UI is scripted::

    event = double.add_scheduled_event(guild, host, "Euchre night", start=t, end=t2,
                                       location="#euchre")     # or channel=<voice channel>
    await double.mark_interested(alice, event)                 # USER_ADD
    await double.mark_not_interested(alice, event)             # USER_REMOVE
    await double.edit_scheduled_event(event, host, name="...") # UPDATE; by=None: Discord
    await double.cancel_scheduled_event(event, host)           # UPDATE, status CANCELED
    await double.delete_scheduled_event(event, host)           # DELETE
    double.scheduled_event(event_id)                           # the event, as stored

Voice and stage channels come from ``add_channel(guild, name, kind=models.GUILD_VOICE)``
(or ``GUILD_STAGE_VOICE``).

Pieces: `server.DiscordDouble` (the server and the scripting API), `models` (users, guilds,
channels, scheduled events, application emojis, `StoredMessage`, `InteractionRecord`),
`scheduled_events` (Discord's rules for events), `spec` (every request against
`discord-api-spec/openapi.json`, with jsonschema), `validation` (Discord's documented
payload limits), `gateway` (one websocket session) and `logguard.LogGuard`; the fixtures live
in tests/conftest.py.
Import it as `tests.discord_double` (from the repository root: `tests` is a package).
"""

from .logguard import LogGuard
from .models import (
    ApplicationEmoji,
    ButtonInfo,
    Channel,
    Guild,
    InteractionRecord,
    Member,
    MessageVersion,
    RequestRecord,
    Role,
    ScheduledEvent,
    SelectInfo,
    StoredMessage,
    User,
)
from .server import DiscordDouble, ScriptError

__all__ = [
    "ApplicationEmoji",
    "ButtonInfo",
    "Channel",
    "DiscordDouble",
    "Guild",
    "InteractionRecord",
    "LogGuard",
    "Member",
    "MessageVersion",
    "RequestRecord",
    "Role",
    "ScheduledEvent",
    "ScriptError",
    "SelectInfo",
    "StoredMessage",
    "User",
]
