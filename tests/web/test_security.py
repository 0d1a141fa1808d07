"""The web server closed to other sites (docs/web.md, "Closed to other sites"): it
answers only the names it is reached by (no DNS rebinding), takes forms and opens
sockets for its own pages (and the Activity's) only, frames nowhere but the Activity
in Discord, sends its policy headers on every answer, and refuses a body nested too
deep or a message that gives a key twice as malformed, changing nothing."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest
from browser import STEP, chromium, page_errors, play_one, watched
from playwright.async_api import Route
from test_local import local
from web_helpers import ANN, BOB, Web, running_web

from bot.web.activity import ActivityAuth
from bot.web.sites import ACTIVITY_POLICY, PAGE_POLICY, activity_origin

CLIENT_ID = 4242
"""The application whose Activity the bot-like server below signs members in to."""

PUBLIC = "https://tuque.example.org"
"""The bot-like server's ``WEB_URL``: a reverse proxy in front of it."""

FOREIGN = "rebound.example"
"""A name an attacker points at the server's address."""


async def no_instance(application_id: int, instance_id: str) -> dict[str, Any] | None:
    raise AssertionError("no request here reaches Discord")


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[Web]:
    """The bot's server, as behind ``WEB_URL`` with Activities on."""
    activity = ActivityAuth(CLIENT_ID, "a client secret", no_instance)
    async with running_web(tmp_path / "tuque.db", activity=activity, public_url=PUBLIC) as web:
        yield web


def port_of(web: Web) -> int:
    assert web.server.address is not None
    port = urlsplit(web.server.address).port
    assert port is not None
    return port


async def test_tuque_web_answers_its_own_names_only(tmp_path: Path) -> None:
    """``tuque-web`` under a name pointed at it (DNS rebinding): 421 and nothing else,
    for the home page that lists the seats' links and for a form that starts a game;
    under its own names it answers, and a form from another origin of this machine
    (another port) starts nothing."""
    async with local(tmp_path / "web.db") as (table, http):
        port = urlsplit(table.address).port
        foreign = {"Host": f"{FOREIGN}:{port}"}
        async with http.get("/", headers=foreign) as response:
            assert response.status == 421 and await response.read() == b""
        form = {"variant": "tuque"}
        headers = {**foreign, "Origin": f"http://{FOREIGN}:{port}"}
        async with http.post("/new", data=form, headers=headers) as response:
            assert response.status == 421 and await response.read() == b""
        for name in ("127.0.0.1", "localhost", "LocalHost.", "[::1]"):
            async with http.get("/", headers={"Host": f"{name}:{port}"}) as response:
                assert response.status == 200, name
        other_port = {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port + 1}"}
        async with http.post("/new", data=form, headers=other_port) as response:
            assert response.status == 400
        assert await table.sessions.store.active_games() == []
        own = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}
        async with http.post("/new", data=form, headers=own, allow_redirects=False) as r:
            assert r.status == 303
            assert r.headers["Content-Security-Policy"] == PAGE_POLICY
        assert len(await table.sessions.store.active_games()) == 1


async def test_the_bot_answers_its_public_name_and_this_machine_only(web: Web) -> None:
    """The bot's server answers ``WEB_URL``'s name (through its proxy), this machine's
    and an address in digits; a foreign name is a 421 with no content, on every route,
    and a request naming no host a 400."""
    port = port_of(web)
    base = web.server.address
    for host in ("tuque.example.org", f"127.0.0.1:{port}", "localhost", "10.1.2.3:80"):
        async with web.http.get(f"{base}/activity", headers={"Host": host}) as response:
            assert response.status == 200, host
    for path in ("/", "/activity", "/api/activity/config", "/static/table.css", "/nowhere"):
        async with web.http.get(f"{base}{path}", headers={"Host": FOREIGN}) as response:
            assert response.status == 421 and await response.read() == b"", path
            assert response.headers["X-Content-Type-Options"] == "nosniff"
    # HTTP/1.0 needs no Host: only a program that is not a browser sends none.
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /activity HTTP/1.0\r\n\r\n")
    status = await reader.readline()
    writer.close()
    await writer.wait_closed()
    assert status.split()[1] == b"400"


async def test_a_socket_opens_from_the_servers_own_pages_only(web: Web) -> None:
    """The websocket's ``Origin``: the server's own (as reached, or ``WEB_URL``'s behind
    a proxy that sends its own ``Host``), the Activity's proxy, or none (no browser)
    open it; another site's page, another Activity's, or an opaque one (``null``) get a
    403 and no socket."""
    session = await web.start("tuque", [ANN, None])
    token = web.links.token(session.id, 0, ANN)
    url = f"{web.server.address}/ws/{session.id}"
    port = port_of(web)
    let_in = (
        None,
        f"http://127.0.0.1:{port}",
        PUBLIC,
        activity_origin(CLIENT_ID),
    )
    for origin in let_in:
        headers = {} if origin is None else {"Origin": origin}
        async with web.http.ws_connect(url, params={"t": token}, headers=headers) as socket:
            hello = await socket.receive_json()
            assert hello["type"] == "hello", origin
    kept_out = (
        f"http://{FOREIGN}:{port}",
        f"http://127.0.0.1:{port + 1}",
        activity_origin(CLIENT_ID + 1),
        "null",
    )
    for origin in kept_out:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await web.http.ws_connect(url, params={"t": token}, headers={"Origin": origin})
        assert refused.value.status == 403, origin


async def test_every_answer_carries_the_policy_and_only_discord_frames_the_activity(
    web: Web,
) -> None:
    """Pages, files, JSON and errors: a Content-Security-Policy and ``nosniff``; every
    answer may be framed by no one (``frame-ancestors 'none'``, ``X-Frame-Options:
    DENY``) but the Activity's page, which Discord's clients frame."""
    session = await web.start("tuque", [ANN, None])
    token = web.links.token(session.id, 0, ANN)
    base = web.server.address
    answers = [
        ("GET", f"/table/{session.id}?t={token}", None, 200),
        ("GET", f"/table/{session.id}?t=forged", None, 403),
        ("GET", "/static/js/main.js", None, 200),
        ("GET", "/static/table.css", None, 200),
        ("GET", "/api/activity/config", None, 200),
        ("POST", "/api/activity/token", b"{}", 400),
        ("GET", "/nowhere", None, 404),
        ("POST", "/activity", None, 405),
    ]
    for method, path, body, status in answers:
        async with web.http.request(method, f"{base}{path}", data=body) as response:
            assert response.status == status, path
            headers = response.headers
            assert headers["X-Content-Type-Options"] == "nosniff", path
            assert headers["Content-Security-Policy"] == PAGE_POLICY, path
            assert headers["X-Frame-Options"] == "DENY", path
    assert "frame-ancestors 'none'" in PAGE_POLICY and "script-src 'self'" in PAGE_POLICY
    for path in ("/", "/activity?instance_id=i-1"):
        async with web.http.get(f"{base}{path}") as response:
            assert response.status == 200
            headers = response.headers
            assert headers["Content-Security-Policy"] == ACTIVITY_POLICY
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert "X-Frame-Options" not in headers
    ancestors = ACTIVITY_POLICY.split("frame-ancestors ")[1].split()
    assert ancestors == [
        "https://discord.com",
        "https://*.discord.com",
        "https://discordapp.com",
        "https://*.discordapp.com",
        "https://*.discordsays.com",
    ]


async def test_a_body_nested_too_deep_or_with_a_key_twice_is_malformed(
    web: Web, caplog: pytest.LogCaptureFixture
) -> None:
    """100,000 ``[`` on each Activity route: 400 ``malformed`` saying why, as any body
    that is no JSON object, and nothing logged as an error; a key twice likewise."""
    base = web.server.address
    deep = b"[" * 100_000
    twice = b'{"code": "a", "code": "b", "instance_id": "i-1"}'
    with caplog.at_level(logging.WARNING):
        for path in ("/api/activity/token", "/api/activity/tables", "/api/activity/start"):
            for body, why in ((deep, "nested too deep"), (twice, "key twice")):
                async with web.http.post(f"{base}{path}", data=body) as response:
                    assert response.status == 400, path
                    answer = await response.json()
                assert answer["error"] == "malformed" and why in answer["reason"], path
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_an_act_that_gives_a_key_twice_is_refused_and_changes_nothing(web: Web) -> None:
    """``{"type": "act", "seq": N, "action": X, "action": Y}``: refused as malformed
    (an act is exactly its three keys), whichever action came last, the game as it was."""
    session = await web.start("tuque", [ANN, BOB])
    turn = session.game.turn
    assert turn is not None
    member = (ANN, BOB)[turn]
    page = await web.page(session.id, web.links.token(session.id, turn, member))
    await page.until(lambda: page.views)
    seq = page.view["seq"]
    legal = page.view["view"]["legal"][0]["id"]
    await page.socket.send_str(
        f'{{"type": "act", "seq": {seq}, "action": 10000, "action": {legal}}}'
    )
    await page.until(lambda: page.of("refused"))
    (refused,) = page.of("refused")
    assert refused["kind"] == "malformed" and "twice" in refused["reason"]
    # The next act is decided on the game as it was: the same seq still plays.
    await page.act(seq, legal)
    await page.until(lambda: page.view["seq"] > seq)
    assert session.game.log[seq].id == legal
    await page.close()


async def test_the_pages_run_under_the_policy_and_only_discord_frames_the_activity(
    tmp_path: Path,
) -> None:
    """In Chromium, ``tuque-web``'s home page starts a game whose table connects and
    plays under the policy, nothing blocked (``watched`` pages fail on any violation,
    as an inline script shows); another site's page that frames the table, the home
    page or the Activity's page shows none of them, and Discord's shows the Activity."""
    async with local(tmp_path / "web.db") as (table, _), chromium() as browser:
        context = await browser.new_context(reduced_motion="reduce")
        page = await watched(await context.new_page())
        await page.goto(f"{table.address}/")
        await page.locator("details[open] button[type=submit]").click()
        await page.wait_for_selector("body[data-state='live']")
        assert await page.get_attribute("html", "data-theme") in ("light", "dark")
        rng = random.Random(43)
        for _ in range(3):
            await play_one(page, rng)
        assert page_errors(page) == []
        await page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.ran = true'; document.head.append(s); }"
        )
        assert await page.evaluate("window.ran") is None
        async with asyncio.timeout(STEP / 1000):
            while not page_errors(page):
                await asyncio.sleep(0.01)  # the report's trip from the page
        (blocked,) = page_errors(page)
        assert blocked.startswith("script-src-elem blocked inline"), blocked

        seat = page.url
        framer = await watched(await context.new_page())
        framed = {
            "http://other.example/": [seat, f"{table.address}/", f"{table.address}/activity"],
            "https://discord.com/app": [f"{table.address}/activity"],
        }

        async def serve(route: Route) -> None:
            frames = "".join(f'<iframe src="{url}"></iframe>' for url in framed[route.request.url])
            await route.fulfill(body=frames, content_type="text/html")

        await framer.route(lambda url: url in framed, serve)
        shown = {}
        for parent, urls in framed.items():
            await framer.goto(parent)
            await framer.wait_for_load_state("load")
            shown[parent] = [frame.url for frame in framer.main_frame.child_frames]
            assert len(shown[parent]) == len(urls)
        assert not any(url.startswith(table.address) for url in shown["http://other.example/"])
        assert shown["https://discord.com/app"] == framed["https://discord.com/app"]
