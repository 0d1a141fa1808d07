"""``tuque-web``: the home page starts games against computers and lists the unfinished
ones, forged forms start nothing, and the console script serves a game in a browser's
place from its start line to Ctrl-C."""

from __future__ import annotations

import asyncio
import html
import json
import signal
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.store import SeatKind, SeatRow, Store
from bot.web.local import LOCAL_GUILD, LOCAL_MEMBER, ForeignDatabase, LocalTable, running
from engine.variants import VARIANTS
from engine.view import Phase


@asynccontextmanager
async def local(db: Path) -> AsyncIterator[tuple[LocalTable, aiohttp.ClientSession]]:
    """``tuque-web``'s pieces on a free loopback port, computers in a thread, at once."""
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        async with (
            running(db, host="127.0.0.1", port=0, name="Ann", move_delay=0, executor=pool) as table,
            aiohttp.ClientSession(table.address) as http,
        ):
            yield table, http
    finally:
        pool.shutdown(wait=True)


async def new_game(http: aiohttp.ClientSession, origin: str, **form: str) -> aiohttp.ClientResponse:
    """``/new`` posted as the home page's form is, from ``origin`` (the server's address)."""
    headers = {"Origin": origin}
    async with http.post("/new", data=form, headers=headers, allow_redirects=False) as response:
        await response.read()
        return response


def seat_link(response: aiohttp.ClientResponse) -> tuple[int, str]:
    """The game and token of the seat link a ``/new`` redirects to."""
    assert response.status == 303, response.status
    where = urlsplit(response.headers["Location"])
    assert where.path.startswith("/table/")
    return int(where.path.removeprefix("/table/")), parse_qs(where.query)["t"][0]


async def first_view(http: aiohttp.ClientSession, game: int, token: str) -> list[dict]:
    """The frames a page of ``game`` opened with ``token`` is sent, up to its first view."""
    frames: list[dict] = []
    async with http.ws_connect(f"/ws/{game}", params={"t": token}) as ws:
        async with asyncio.timeout(10):
            while not frames or frames[-1]["type"] != "view":
                frames.append(json.loads((await ws.receive()).data))
    return frames


async def test_home_page_offers_every_game(tmp_path: Path) -> None:
    """The home page has a form for each variant and lists no game before the first."""
    async with local(tmp_path / "web.db") as (_, http), http.get("/") as response:
        text = await response.text()
    assert response.status == 200 and response.headers["Cache-Control"] == "no-store"
    # Its links carry tokens, and its forms must post with their Origin (no-referrer
    # would make a browser send "Origin: null").
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert text.count('action="/new"') == len(VARIANTS)
    for key, variant in VARIANTS.items():
        assert f'value="{key}"' in text and variant.title in text
    assert "Your games" not in text


async def test_a_form_starts_the_game_at_the_persons_seat(tmp_path: Path) -> None:
    """``/new`` deals the game asked for, the person at seat 0 and computers of the level
    elsewhere, and redirects to the person's seat, whose page sees their hand."""
    async with local(tmp_path / "web.db") as (table, http):
        response = await new_game(http, table.address, variant="euchre", level="easy", target="7")
        game, token = seat_link(response)
        row = await table.sessions.store.load_game(game)
        async with http.get(response.headers["Location"]) as page:
            assert page.status == 200 and "text/html" in page.headers["Content-Type"]
        frames = await first_view(http, game, token)
    assert (row.guild_id, row.variant, row.options) == (LOCAL_GUILD, "euchre", {"target": 7})
    assert row.seats[0] == SeatRow.human(0, LOCAL_MEMBER, "Ann", side=0)
    assert [(s.kind, s.level) for s in row.seats[1:]] == [(SeatKind.COMPUTER, "easy")] * 3
    hello, view = frames[0], frames[-1]
    assert hello["type"] == "hello" and hello["home"] == "/" and hello["timer"] is None
    assert hello["rematch"] == f"/table/{game}/rematch"
    seen = view["view"]
    # Five cards, or six when the computers ordered up before the page opened and Ann
    # deals: she takes the up-card and has yet to discard.
    assert seen["seat"] == 0 and len(seen["hand"]) == seen["hand_sizes"][0]
    assert seen["hand_sizes"][0] == (6 if seen["phase"] == Phase.DISCARD.value else 5)


@pytest.mark.parametrize(
    ("form", "reason"),
    [
        ({}, "There is no game ''"),
        ({"variant": "poker"}, "There is no game 'poker'"),
        ({"variant": "tuque", "level": "random"}, "no computer level 'random'"),
        ({"variant": "tuque", "target": "7"}, "not a target here: choose 5, 10"),
        ({"variant": "tuque", "target": "9" * 5000}, "not a target here"),
        ({"variant": "euchre", "target": "-1"}, "not a target here"),
        ({"variant": "call_ace", "players": "9"}, "not a number of players"),
        ({"variant": "tuque", "players": "4"}, "Tuque has no number of players"),
        ({"variant": "tuque", "double_pack": "yes"}, "no adjustable option 'double pack'"),
        ({"variant": "euchre", "stick_the_dealer": "no"}, "Tick stick the dealer"),
        ({"variant": "tuque", "seat": "1"}, "'seat' is not an option"),
        ([("variant", "tuque"), ("variant", "euchre")], "'variant' twice"),
    ],
)
async def test_a_forged_form_starts_nothing(tmp_path: Path, form: object, reason: str) -> None:
    """A form the page never sends is a 400 page saying why, and no game is stored."""
    async with local(tmp_path / "web.db") as (table, http):
        async with http.post("/new", data=form, allow_redirects=False) as response:
            text = await response.text()
        active = await table.sessions.store.active_games()
    assert response.status == 400 and reason in html.unescape(text)
    assert active == [] and table.games() == []


async def test_a_form_from_another_site_starts_nothing(tmp_path: Path) -> None:
    """A form posted by another site's page (its ``Origin``) is refused."""
    async with local(tmp_path / "web.db") as (table, http):
        headers = {"Origin": "http://example.org"}
        async with http.post("/new", data={"variant": "tuque"}, headers=headers) as response:
            assert response.status == 400
        assert await table.sessions.store.active_games() == []


async def test_play_again_needs_the_seats_token_and_the_games_end(tmp_path: Path) -> None:
    """The table's Play again is refused with another game's token, with none, and
    before the game is over: nothing is started (the browser test plays one)."""
    async with local(tmp_path / "web.db") as (table, http):
        game, token = seat_link(await new_game(http, table.address, variant="tuque"))
        other, _ = seat_link(await new_game(http, table.address, variant="euchre"))
        answers = []
        for asked, form in ((other, {"t": token}), (game, {}), (game, {"t": token})):
            async with http.post(f"/table/{asked}/rematch", data=form) as response:
                answers.append((response.status, html.unescape(await response.text())))
        assert len(table.games()) == 2
    assert [status for status, _ in answers] == [400] * 3
    assert "isn't over yet" in answers[-1][1]


async def test_an_unfinished_game_goes_on_at_the_next_start(tmp_path: Path) -> None:
    """A game left unfinished is listed under "Your games" at the next start, with its
    score as the table writes it, and its link opens the person's seat where the game
    stood."""
    async with local(tmp_path / "web.db") as (table, http):
        game, _ = seat_link(await new_game(http, table.address, variant="tuque"))
    async with local(tmp_path / "web.db") as (table, http):
        async with http.get("/") as response:
            text = await response.text()
        [session] = table.games()
        link = table.seat_link(session)
        frames = await first_view(http, game, parse_qs(urlsplit(link).query)["t"][0])
    assert session.id == game and "Your games" in text and f"Game #{game}: Tuque" in text
    assert "Ann: 0 · CPU 2: 0 (to 10)" in html.unescape(text)
    assert link.replace("&", "&amp;") in text
    assert frames[-1]["seq"] == session.table.seq and len(frames[-1]["view"]["hand"]) > 0


async def test_a_bots_database_is_refused(tmp_path: Path) -> None:
    """A database holding a Discord bot's games is not played: its computers would move
    where no member sees them."""
    store = await Store.open(tmp_path / "bot.db")
    seats = [SeatRow.human(0, 7, "Bea", side=0), SeatRow.computer(1, "easy", side=1)]
    await store.create_game(5, 6, "tuque", {}, 1, 0, seats)
    await store.close()
    with pytest.raises(ForeignDatabase):
        async with local(tmp_path / "bot.db"):
            pass


async def line(stream: asyncio.StreamReader) -> str:
    async with asyncio.timeout(30):
        return (await stream.readline()).decode()


async def test_the_console_script_serves_a_game_until_ctrl_c(tmp_path: Path) -> None:
    """``tuque-web --port 0`` prints its address, its home page starts a game whose page
    sees its hand, a second ``tuque-web`` on its port stops with one line and exit 2,
    and Ctrl-C stops it with exit 0."""
    script = Path(sys.executable).parent / "tuque-web"
    env = {"XDG_DATA_HOME": str(tmp_path), "PATH": str(script.parent)}
    process = await asyncio.create_subprocess_exec(
        script, "--port", "0", "--delay", "0", env=env, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    try:
        start = await line(process.stdout)
        assert start.startswith("tuque-web: playing at http://127.0.0.1:"), start
        assert str(tmp_path / "tuque" / "web.db") in start
        address = start.split()[3].rstrip("/")
        async with aiohttp.ClientSession(address) as http:
            async with http.get("/") as home:
                assert home.status == 200
            response = await new_game(http, address, variant="tuque")
            game, token = seat_link(response)
            async with http.get(response.headers["Location"]) as page:
                assert page.status == 200
            frames = await first_view(http, game, token)
        assert frames[-1]["view"]["seat"] == 0 and len(frames[-1]["view"]["hand"]) > 0
        port = urlsplit(address).port
        second = await asyncio.create_subprocess_exec(
            script, "--port", str(port), env=env, stderr=asyncio.subprocess.PIPE
        )
        async with asyncio.timeout(30):
            _, said = await second.communicate()
        assert second.returncode == 2
        assert said.decode().splitlines() == [
            f"tuque-web: cannot listen at 127.0.0.1:{port}: Address already in use: "
            "choose another --port (0: any free one)"
        ]
        process.send_signal(signal.SIGINT)
        async with asyncio.timeout(30):
            rest = (await process.stdout.read()).decode()
            assert await process.wait() == 0
        assert rest == "tuque-web: stopped; unfinished games go on at the next start\n"
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
