"""Make the web table's screenshots in ``docs/images/`` (docs/web.md "The page").

Starts the session manager and the web server on a free loopback port (no Discord), deals
a Tuque game (a member against a computer) and a six-hand game (a member and five
computers) from fixed seeds, plays the member's cards through the page in Debian's
Chromium, and photographs each moment of :data:`PHOTOGRAPHED` at 360 × 740 and
1280 × 800, light and dark: the middle of a hand with a card in the trick
(``web-{tuque,six}-{360,desktop}-{light,dark}.png``), and for Tuque a bidding moment
(``web-tuque-bidding-…``) and a hand's end, its summary beside the next hand's bidding
(``web-tuque-hand-end-…``). Then an event's live standings page
(issue 42, docs/events.md "On the web"): a progressive euchre night of eight, two
rounds played and a table of the third finished, at desktop width (README's
``event-standings.png``) and 360 px (``event-standings-360.png``).

Run from the repository: ``.venv/bin/python docs/make_screenshots.py [tuque] [six]
[event]`` (every picture when none is named; Playwright from the test extras,
``/usr/bin/chromium``). A script, not a test: it looks, it checks nothing.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from unittest import mock

from PIL import Image
from playwright.async_api import Browser, Page, async_playwright

from bot.events.event import Event
from bot.events.model import Config, Format, TableResult
from bot.sessions import GameSessions
from bot.settings import Settings
from bot.store import SeatKind, SeatRow, Store
from bot.store.settings import GuildSettings
from bot.web.links import Links
from bot.web.server import WebServer
from engine.variants import VARIANTS

OUT = Path(__file__).resolve().parent / "images"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SIZES = {"360": (360, 740), "desktop": (1280, 800)}
MAX_BYTES = 250_000
"""A screenshot larger than this is stored with a 256-colour palette (docs stay small)."""
GAMES = {"tuque": ("tuque", 2, 2024), "six": ("six_hand", 6, 7)}
"""Each screenshot's game: the variant, its seats and the seed it is dealt from."""
MEMBER = 101
NIGHT = {201: "Ann", 202: "Bob", 203: "Chloé", 204: "Dev", 205: "Émile", 206: "Fern"}
NIGHT |= {207: "Gus", 208: "Hana"}
"""The euchre night's members, by user id."""
NIGHT_RESULTS = (
    (TableResult((10, 7)), TableResult((6, 10), loners=(3,))),
    (TableResult((10, 4)), TableResult((9, 10))),
)
"""Each table's result in the night's first two rounds: the sides' points, the seats
whose going alone marched."""


async def start_game(sessions: GameSessions, variant: str, players: int, seed: int) -> int:
    """Deal ``variant`` from ``seed``: the member in seat 0, easy computers elsewhere."""
    sides = VARIANTS[variant].configured(VARIANTS[variant].options()).sides
    seats = [SeatRow(0, SeatKind.HUMAN, MEMBER, display_name="Ann", side=sides[0])] + [
        SeatRow(n, SeatKind.COMPUTER, level="easy", side=sides[n]) for n in range(1, players)
    ]
    # The manager deals from a random seed; a fixed one makes the same pictures each run.
    with mock.patch("bot.sessions.manager.secrets.randbits", return_value=seed):
        session = await sessions.start(1, 2, variant, {}, seats)
    sessions.rescue()
    return session.id


MOMENTS = {
    "bidding": """() => document.querySelector('#summary').hidden
        && document.querySelectorAll('#actions [data-action]:not([disabled])').length > 0""",
    "": """() => document.querySelectorAll('#trick .card').length > 0
        && document.querySelectorAll('#hand .card[data-action]').length > 0
        && [...document.querySelectorAll('.seat .tricks')]
             .some((t) => !t.textContent.startsWith('0'))""",
    "hand-end": """() => !document.querySelector('#summary').hidden
        && document.querySelectorAll('#actions [data-action]:not([disabled])').length > 0""",
}
"""Each moment photographed, by its name in the file's (mid-hand has none), as a test
in the page: the member's turn to bid on hand 1; her turn to follow with a card in the
trick and a trick already won; her turn to bid on the next hand with the last hand's
summary beside the table."""
PHOTOGRAPHED = {"tuque": ("bidding", "", "hand-end"), "six": ("",)}
"""The moments each game is photographed at, in the order play reaches them."""


async def play_to(page: Page, moment: str) -> None:
    """Click the member's choices (a card first, else the first button) until the page
    shows ``moment`` (a key of :data:`MOMENTS`) on her turn."""
    await page.wait_for_selector('body[data-state="live"]')
    for _ in range(300):
        await page.wait_for_selector("[data-action]:not([disabled])", timeout=20_000)
        # Let a completed trick sweep away before looking at the table.
        await page.wait_for_timeout(1800)
        if await page.evaluate(MOMENTS[moment]):
            return
        cards = await page.query_selector_all(
            "#hand [data-action]:not([disabled]), #tableaus [data-action]:not([disabled])"
        )
        buttons = await page.query_selector_all("#actions [data-action]:not([disabled])")
        await (cards or buttons)[0].click()
    raise RuntimeError(f"no {moment or 'mid-hand'} moment in 300 moves")


async def euchre_night(store: Store) -> int:
    """A progressive euchre night of :data:`NIGHT` over four rounds of 20 minutes (a
    point for a loner's march): rounds 1 and 2 played (:data:`NIGHT_RESULTS`), round 3
    seated now with its first table finished. Returns the event's id."""
    config = Config(
        "Friday euchre night",
        "euchre",
        Format.PROGRESSIVE,
        rounds=4,
        seed=2026,
        minutes=20,
        loner_bonus=1,
    )
    row = await store.create_event(1, 2, 201, config, starts_at=time.time())
    for member, name in NIGHT.items():
        await store.upsert_player(1, member, name)
        row = await store.change_event(row.id, partial(Event.join, member=member))
    row = await store.change_event(row.id, lambda e: e.start(), seated=True)
    for results in NIGHT_RESULTS:
        for table, result in enumerate(results, 1):
            row = await store.change_event(row.id, partial(_record, table=table, result=result))
        row = await store.change_event(row.id, lambda e: e.end_round())
        row = await store.change_event(row.id, lambda e: e.next_round(), seated=True)
    row = await store.change_event(row.id, lambda e: e.record(3, 1, TableResult((10, 8))))
    return row.id


def _record(event: Event, table: int, result: TableResult) -> Event:
    """``event`` with ``table``'s ``result`` in the round in play."""
    return event.record(event.round_no, table, result)


async def photograph_standings(browser: Browser, url: str) -> None:
    """The standings page at ``url`` at desktop width and 360 px, light, whole."""
    for size, name in (("desktop", "event-standings"), ("360", "event-standings-360")):
        width, height = SIZES[size]
        context = await browser.new_context(
            viewport={"width": width, "height": height}, color_scheme="light"
        )
        page = await context.new_page()
        await page.goto(url)
        await page.wait_for_selector("#standings[data-state='live']")
        png = await page.screenshot(full_page=True)
        await context.close()
        path = OUT / f"{name}.png"
        path.write_bytes(_small(png))
        print(f"{path.relative_to(OUT.parent.parent)}: {path.stat().st_size // 1000} KB")


async def photograph(browser: Browser, url: str, name: str) -> None:
    """The table at ``url`` in each size and theme, as web-``name``-<size>-<theme>.png."""
    for size, (width, height) in SIZES.items():
        for theme in ("light", "dark"):
            context = await browser.new_context(
                viewport={"width": width, "height": height}, color_scheme=theme
            )
            page = await context.new_page()
            await page.goto(url)
            await page.wait_for_selector('body[data-state="live"]')
            await page.wait_for_timeout(1200)  # the trick's cards travel in
            png = await page.screenshot()
            await context.close()
            path = OUT / f"web-{name}-{size}-{theme}.png"
            path.write_bytes(_small(png))
            print(f"{path.relative_to(OUT.parent.parent)}: {path.stat().st_size // 1000} KB")


def _small(png: bytes) -> bytes:
    """``png`` itself, or with a 256-colour palette if larger than :data:`MAX_BYTES`."""
    if len(png) <= MAX_BYTES:
        return png
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(256)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


async def main(names: list[str]) -> int:
    """Make the pictures ``names`` names (``tuque``, ``six``, ``event``), or all."""
    wanted = set(names or [*GAMES, "event"])
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "tuque.db")
        pool = ThreadPoolExecutor(max_workers=1)
        links = Links(b"screenshots only, never a real key", "", 3600)
        defaults = GuildSettings.defaults(Settings(discord_token=None))
        server = WebServer.without_discord(store, pool, links, defaults)
        sessions = server.sessions
        links.base_url = await server.start("127.0.0.1", 0)
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for name, (variant, players, seed) in GAMES.items():
                    if name not in wanted:
                        continue
                    game_id = await start_game(sessions, variant, players, seed)
                    url = links.seat_link(game_id, 0, MEMBER)
                    player = await browser.new_page(viewport={"width": 1280, "height": 800})
                    await player.goto(url)
                    for moment in PHOTOGRAPHED[name]:
                        await play_to(player, moment)
                        await photograph(browser, url, "-".join(filter(None, (name, moment))))
                    await player.close()
                if "event" in wanted:
                    event_id = await euchre_night(store)
                    token = links.event_token(event_id)
                    await photograph_standings(
                        browser, f"{links.base_url}/event/{event_id}?t={token}"
                    )
                await browser.close()
        finally:
            await server.close()
            await sessions.close()
            await store.close()
            pool.shutdown(wait=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
