"""The event-host role (issue 42): a role the server picks in ``/tuque settings`` lets
its members create events and start or cancel them, as Manage Events does; a member
with neither is refused ephemerally and nothing changes."""

from __future__ import annotations

from e2e import Table, running_bot
from test_events import button, event_rows, new_event, refused
from test_guild_settings import make_manager, settings

from bot.events.event import Status


async def test_the_event_host_role_creates_and_starts_and_no_one_else(table: Table) -> None:
    """Ann and Cat hold the server's event-host role, without Manage Events: Ann creates
    an event and Cat starts it; Eve, with neither, is refused both with a sentence
    naming the role, and nothing is stored or posted."""
    t = table
    make_manager(t, t.bob)
    hosts = t.double.add_role(t.guild, "Hosts")
    cat = t.double.add_user("cat", guild=t.guild)
    for member in (t.ann, cat):
        t.guild.members[member.id].role_ids.append(hosts.id)
    async with running_bot(t) as bot:
        answer = await settings(t, t.bob, event_host_role=hosts)
        assert f"<@&{hosts.id}>" in answer

        posts = list(t.double.channel_messages(t.channel))
        rec = await t.double.slash(
            t.eve, t.channel, "tuque", "event", "new", name="No", game="tuque", format="swiss",
            rounds=1, hands=1,
        )  # fmt: skip
        await rec.settled()
        assert rec.original is not None and rec.original.ephemeral
        assert "Manage Events" in rec.original.text and f"<@&{hosts.id}>" in rec.original.text
        assert event_rows(t) == ((), (), ()) and t.double.channel_messages(t.channel) == posts

        event_id, sign_up = await new_event(
            t, bot, name="Quick night", game="tuque", format="swiss", rounds=1, hands=1
        )
        for member in (t.bob, cat):
            await (await t.double.click(member, sign_up, button(sign_up, "Join"))).settled()
        start = button(sign_up, "Start")
        assert "host" in await refused(t, t.double.click(t.eve, sign_up, start))
        await (await t.double.click(cat, sign_up, start)).settled()
        assert (await bot.store.load_event(event_id)).event.status is Status.RUNNING
