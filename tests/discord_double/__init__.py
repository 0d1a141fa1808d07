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

Pieces: `server.DiscordDouble` (the server and the scripting API), `models` (users, guilds,
channels, application emojis, `StoredMessage`, `InteractionRecord`), `spec` (every request
against `discord-api-spec/openapi.json`, with jsonschema), `validation` (Discord's documented
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
    "ScriptError",
    "SelectInfo",
    "StoredMessage",
    "User",
]
