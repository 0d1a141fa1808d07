"""Make the web table's screenshots in ``docs/images/`` (docs/web.md "The page").

Starts the session manager and the web server on a free loopback port (no Discord), deals
a Tuque game (a member against a computer) and a six-hand game (a member and five
computers) from fixed seeds, plays the member's cards through the page in Debian's
Chromium until the middle of a hand with a card in the trick, and photographs that
moment at 360 × 740 and 1280 × 800, light and dark:
``web-{tuque,six}-{360,desktop}-{light,dark}.png``.

Run from the repository: ``.venv/bin/python docs/make_screenshots.py`` (Playwright
from the test extras, ``/usr/bin/chromium``). A script, not a test: it looks, it checks
nothing.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from unittest import mock

from PIL import Image
from playwright.async_api import Browser, Page, async_playwright

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


async def play_to_mid_hand(page: Page) -> None:
    """Click the member's choices (a card first, else the first button) until their turn
    comes with a card in the trick and a trick already won this hand."""
    await page.wait_for_selector('body[data-state="live"]')
    for _ in range(200):
        await page.wait_for_selector("[data-action]:not([disabled])", timeout=20_000)
        # Let a completed trick sweep away before looking at the table.
        await page.wait_for_timeout(1800)
        ready = await page.evaluate(
            """() => document.querySelectorAll('#trick .card').length > 0
                && document.querySelectorAll('#hand .card[data-action]').length > 0
                && [...document.querySelectorAll('.seat .tricks')]
                     .some((t) => !t.textContent.startsWith('0'))"""
        )
        if ready:
            return
        cards = await page.query_selector_all(
            "#hand [data-action]:not([disabled]), #tableaus [data-action]:not([disabled])"
        )
        buttons = await page.query_selector_all("#actions [data-action]:not([disabled])")
        await (cards or buttons)[0].click()
    raise RuntimeError("no mid-hand moment in 200 moves")


async def photograph(browser: Browser, url: str, name: str) -> None:
    """The table at ``url`` in each size and theme, as ``name``-<size>-<theme>.png."""
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


async def main() -> int:
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
                    game_id = await start_game(sessions, variant, players, seed)
                    url = links.seat_link(game_id, 0, MEMBER)
                    player = await browser.new_page(viewport={"width": 1280, "height": 800})
                    await player.goto(url)
                    await play_to_mid_hand(player)
                    await player.close()
                    await photograph(browser, url, name)
                await browser.close()
        finally:
            await server.close()
            await sessions.close()
            await store.close()
            pool.shutdown(wait=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
