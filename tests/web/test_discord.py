"""Both screens at once, against the Discord double: the member's hand message links to
their seat and the table message to the public view, a move made on the web shows in
the table message, and a click on Discord shows on the page."""

from __future__ import annotations

import asyncio
import json
import random

import aiohttp

from bot import render
from tests.bot.e2e import Table, newest_hand, play_turn, running_bot, started_game, table_message
from tests.discord_double.models import walk_components


def links(components: list[dict[str, object]]) -> list[str]:
    return [str(c["url"]) for c in walk_components(components) if c.get("url")]


async def test_a_web_move_shows_on_discord_and_a_discord_click_on_the_web(table: Table) -> None:
    async with running_bot(table, web_port=0) as bot, aiohttp.ClientSession() as http:
        game_id, to_act, _ = await started_game(table, bot)
        session = bot.sessions.session(game_id)
        assert session is not None and bot.web is not None
        hand = newest_hand(table, to_act)
        assert hand is not None and hand.ephemeral
        (seat_link,) = links(hand.components)
        (watch_link,) = links(table_message(table).components)
        assert f"/table/{game_id}?t=" in seat_link and seat_link != watch_link
        # No public post carries a seat's link: only the table's spectator link.
        for post in table.double.channel_messages(table.channel):
            assert set(links(post.components)) <= {watch_link}
        socket = await http.ws_connect(
            seat_link.replace("http", "ws", 1).replace("/table/", "/ws/")
        )
        frames = [json.loads((await socket.receive()).data) for _ in range(2)]
        assert [f["type"] for f in frames] == ["hello", "view"]
        view = frames[1]
        seq = view["seq"]
        await socket.send_json(
            {"type": "act", "seq": seq, "action": view["view"]["legal"][0]["id"]}
        )
        moved = json.loads((await socket.receive()).data)
        assert moved["type"] == "view" and moved["seq"] > seq
        await table.double.idle()
        public = session.game.view(None)
        assert render.table_status(public, session.seating) in table_message(table).text
        # Now a click on Discord: the page is sent the view after it.
        before = session.table.seq
        while session.table.seq == before:
            assert await play_turn(table, bot, game_id, random.Random(1))
        await table.double.idle()
        async with asyncio.timeout(10):
            while moved["seq"] < session.table.seq:
                moved = json.loads((await socket.receive()).data)
        assert moved["view"]["hand"] == [
            c.code for c in session.game.view(moved["view"]["seat"]).hand
        ]
        await socket.close()
