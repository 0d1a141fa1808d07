"""The web table in a real browser (Debian's Chromium through Playwright): whole games
played by clicking (by keyboard: test_accessibility.py), two members each seeing only
their own hand, both screens at once with Discord, a reconnect mid-trick, and forged or
malformed socket messages sent from the page, each refused with nothing changed."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from browser import STEP, open_page, page_errors, play_one, seq_of, watched
from playwright.async_api import Browser, Page
from test_socket import rows
from web_helpers import ANN, BOB, Web, engine_cards, running_web

from bot import render
from bot.sessions import Session
from bot.web.local import running
from bot.web.protocol import MAX_MESSAGE_BYTES
from bot.web.server import BURST
from engine.actions import ACTIONS
from engine.variants import VARIANTS
from tests.bot.e2e import (
    Table,
    dealt_from,
    newest_hand,
    play_turn,
    running_bot,
    started_game,
    table_message,
)
from tests.discord_double.models import walk_components


@pytest.fixture
async def limited_web(tmp_path: Path) -> AsyncIterator[Web]:
    async with running_web(tmp_path / "tuque.db") as started:
        yield started


def seat_url(web: Web, game_id: int, seat: int | None, member: int | None) -> str:
    return f"{web.server.address}/table/{game_id}?t={web.links.token(game_id, seat, member)}"


async def play_to_the_end(page: Page, rng: random.Random) -> int:
    """Play the page's seat to the game's end; the number of actions clicked."""
    moves = 0
    while await play_one(page, rng):
        moves += 1
        assert moves < 2_000, "the game never ended"
    return moves


async def hand_on_page(page: Page) -> list[str]:
    cards = await page.query_selector_all("#hand .card[data-card]")
    return [str(await c.get_attribute("data-card")) for c in cards]


async def assert_the_end_shown(page: Page, session: Session) -> None:
    """The page shows the game's result naming a winner, a score pad row per hand
    played, and never threw."""
    assert session.table.finished and session.table.result is not None
    result = await page.inner_text("#result")
    sides = session.game.view(None).sides
    won = session.table.result.winner
    winners = [n for n, side in zip(session.seating.names, sides, strict=True) if side == won]
    assert any(name in result for name in winners)
    pad_rows = await page.query_selector_all("#pad tbody tr")
    assert len(pad_rows) == len(session.game.hand_results)
    assert page_errors(page) == []


async def test_a_whole_tuque_game_played_by_clicking_against_the_computer(
    web: Web, browser: Browser
) -> None:
    """The bot's table, whose rematch is Discord's, says where its Rematch button is.
    (A whole four-hand Euchre game is README's first command, below.)"""
    # A short game: every hand's steps are the same at any target.
    session = await web.start("tuque", [ANN, None], target=5)
    page = await open_page(browser, seat_url(web, session.id, 0, ANN))
    assert await play_to_the_end(page, random.Random("tuque")) > 5
    await assert_the_end_shown(page, session)
    assert await page.is_visible("#rematch-discord") and await page.is_hidden("#rematch")


async def test_two_members_in_two_pages_each_see_only_their_own_hand(
    web: Web, browser: Browser
) -> None:
    session = await web.start("euchre", [ANN, None, BOB, None])
    ann = await open_page(browser, seat_url(web, session.id, 0, ANN))
    bob = await open_page(browser, seat_url(web, session.id, 2, BOB), width=360, height=740)
    watcher = await open_page(browser, seat_url(web, session.id, None, None))
    rng = random.Random(2)
    for _ in range(12):
        # Between members' moves nothing changes: compare each page with the engine then.
        async with asyncio.timeout(STEP / 1000):
            while session.table.bot_to_move:
                await asyncio.sleep(0.01)
        if session.table.finished:
            break
        game, seq = session.game, session.table.seq
        for page, seat in ((ann, 0), (bob, 2), (watcher, None)):
            await page.wait_for_function("n => Number(document.body.dataset.seq) === n", arg=seq)
            # A completed trick is held a moment before it sweeps (a new deal cuts it short).
            await page.wait_for_selector("#trick:not(.complete)", state="attached")
            view = game.view(seat)
            assert set(await hand_on_page(page)) == {c.code for c in view.hand}
            # Every card the page names is one its viewer's engine view shows.
            shown = await page.eval_on_selector_all(
                "[data-card]", "cards => cards.map((c) => c.dataset.card)"
            )
            assert set(shown) <= engine_cards(view), seat
        assert await play_one(ann if game.turn == 0 else bob, rng)
    for page in (ann, bob, watcher):
        assert page_errors(page) == []


async def test_a_page_whose_socket_drops_mid_trick_reconnects_and_plays_on(
    web: Web, browser: Browser
) -> None:
    session = await web.start("euchre", [ANN, None, None, None])
    page = await open_page(browser, seat_url(web, session.id, 0, ANN))
    rng = random.Random(3)
    while not session.game.view(None).trick.plays or session.game.turn != 0:
        assert await play_one(page, rng)
    await page.wait_for_selector("#trick .card[data-card]")
    shown = await seq_of(page)
    # The server drops every socket of the game, as a proxy or a phone's network would.
    (viewer,) = web.server.screen.viewers(session.id)
    await viewer.socket.close()
    await page.wait_for_selector("body:not([data-state='live'])")
    await page.wait_for_selector("body[data-state='live']")
    assert await seq_of(page) == shown == session.table.seq
    assert len(web.server.screen.viewers(session.id)) == 1
    # The trick in progress is still on the table and the page plays on.
    assert await page.query_selector_all("#trick .card[data-card]")
    assert await play_one(page, rng)
    assert session.table.seq > shown
    assert page_errors(page) == []


# Each bad message sent from inside the page over a socket of its own, as a modified
# client would; the frames it is answered with, and the close code.
_SEND = """
async ([url, messages]) => {
  const socket = new WebSocket(url);
  const frames = [];
  socket.onmessage = (event) => frames.push(JSON.parse(event.data));
  const closed = new Promise((resolve) => { socket.onclose = (e) => resolve(e.code); });
  await new Promise((resolve) => { socket.onopen = resolve; });
  while (!frames.some((f) => f.type === "view" || f.type === "refused")) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const message of messages) socket.send(message);
  const answers = messages.length;
  while (frames.filter((f) => f.type === "refused").length < answers) {
    const code = await Promise.race([
      closed, new Promise((resolve) => setTimeout(() => resolve(null), 20))]);
    if (code !== null) return {frames, code};
  }
  socket.close();
  return {frames, code: await closed};
}
"""


async def test_forged_and_malformed_messages_from_the_page_change_nothing(
    limited_web: Web, browser: Browser
) -> None:
    web = limited_web
    session = await web.start("euchre", [ANN, None, BOB, None])
    other = await web.start("euchre", [ANN, None, None, None])
    page = await open_page(browser, seat_url(web, session.id, 0, ANN))
    await page.wait_for_function(
        "seq => Number(document.body.dataset.seq) >= seq", arg=session.table.seq
    )
    token = web.links.token(session.id, 0, ANN)
    ws = f"{web.server.address.replace('http', 'ws', 1)}/ws/{session.id}?t={token}"
    async with asyncio.timeout(20):
        while session.table.bot_to_move:
            await asyncio.sleep(0.01)
    seq = session.table.seq
    await page.wait_for_function("seq => Number(document.body.dataset.seq) === seq", arg=seq)
    # An action no seat may take now: out of turn, or not among the seat's legal ones.
    legal = {a.id for a in session.game.legal_actions(0)} if session.game.turn == 0 else set()
    illegal = next(a.id for a in ACTIONS if a.id not in legal)
    before = await rows(web)

    async def send(messages: list[str], url: str = ws) -> tuple[list[str], int]:
        answer = await page.evaluate(_SEND, [url, messages])
        kinds = [f["kind"] for f in answer["frames"] if f["type"] == "refused"]
        return kinds, answer["code"]

    act = json.dumps
    bad = {
        "another seat": act({"type": "act", "seq": seq, "action": 0, "seat": 2}),
        "another game": act({"type": "act", "seq": seq, "action": 0, "game": other.id}),
        "unknown type": act({"type": "resign"}),
        "malformed JSON": '{"type": "act", "seq":',
        "a string seq": act({"type": "act", "seq": str(seq), "action": 0}),
    }
    for name, message in bad.items():
        kinds, _ = await send([message])
        assert kinds == ["malformed"], name
    assert (await send([act({"type": "act", "seq": seq + 5, "action": 0})]))[0] == ["stale"]
    assert (await send([act({"type": "act", "seq": seq, "action": 10**6})]))[0] == ["unknown"]
    kinds, _ = await send([act({"type": "act", "seq": seq, "action": illegal})])
    assert kinds == ["illegal"]
    # This game's link on another game's socket.
    elsewhere = ws.replace(f"/ws/{session.id}?", f"/ws/{other.id}?")
    kinds, code = await send([], elsewhere)
    assert kinds == ["link"] and code == 4401
    # An oversized frame closes the socket (1009); a flood is refused and closed (1008).
    _, code = await send(["x" * (MAX_MESSAGE_BYTES + 1)])
    assert code == 1009
    kinds, code = await send([act({"type": "act", "seq": seq + 9, "action": 0})] * (BURST + 4))
    assert "flood" in kinds and code == 1008
    assert await rows(web) == before
    # The page itself is unharmed and shows the same view.
    assert await seq_of(page) == session.table.seq == seq
    assert page_errors(page) == []


async def test_a_move_in_the_page_shows_on_discord_and_a_discord_click_in_the_page(
    table: Table, browser: Browser
) -> None:
    async with running_bot(table, web_port=0) as bot:
        game_id, to_act, _ = await started_game(table, bot)
        session = bot.sessions.session(game_id)
        assert session is not None
        hand = newest_hand(table, to_act)
        assert hand is not None
        (seat_link,) = [str(c["url"]) for c in walk_components(hand.components) if c.get("url")]
        page = await open_page(browser, seat_link)
        seq = session.table.seq
        assert await play_one(page, random.Random(4))
        await table.double.idle()
        assert session.table.seq > seq
        public = session.game.view(None)
        assert render.table_status(public, session.seating) in table_message(table).text
        # A click on Discord's buttons: the page shows the view after it.
        before = session.table.seq
        while session.table.seq == before:
            assert await play_turn(table, bot, game_id, random.Random(5))
        await table.double.idle()
        await page.wait_for_function(
            "seq => Number(document.body.dataset.seq) === seq", arg=session.table.seq
        )
        seat = session.table.seats.index(
            next(s for s in session.table.seats if s.member == to_act.id)
        )
        assert sorted(await hand_on_page(page)) == sorted(
            c.code for c in session.game.view(seat).hand
        )
        assert page_errors(page) == []


async def test_a_newcomer_starts_a_game_from_the_home_page_and_plays_it_to_the_end(
    tmp_path: Path, browser: Browser
) -> None:
    """README's first command: ``tuque-web``'s home page starts a four-hand Euchre game
    against computers; the table plays to its end by clicking; "Play again" starts the
    same game, options and level; the home page offers those choices first next time."""
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        async with running(
            tmp_path / "web.db",
            host="127.0.0.1",
            port=0,
            name="Ann",
            move_delay=0,
            executor=pool,
            rate=1000,
            burst=1000,
        ) as local:
            context = await browser.new_context(reduced_motion="reduce")
            page = await watched(await context.new_page())
            await page.goto(local.address)
            euchre = page.locator("details", has=page.locator('input[value="euchre"]'))
            await euchre.locator("summary").click()
            await euchre.locator('select[name="level"]').select_option("easy")
            target = euchre.locator('select[name="target"] option').first
            await euchre.locator('select[name="target"]').select_option(
                await target.get_attribute("value")
            )
            await euchre.locator('input[name="stick_the_dealer"]').check()
            await euchre.locator('button[type="submit"], input[type="submit"]').click()
            await page.wait_for_selector("body[data-state='live']")
            assert "/table/" in page.url
            game_id = int(page.url.split("/table/")[1].split("?")[0])
            session = local.sessions.session(game_id)
            assert session is not None and len(session.table.seats) == 4
            assert await play_to_the_end(page, random.Random(6)) > 5
            await assert_the_end_shown(page, session)
            assert await page.get_attribute("#home", "href") == "/"
            assert await page.is_hidden("#rematch-discord")
            await page.click("#rematch button")
            await page.wait_for_url(lambda url: f"/table/{game_id}?" not in url)
            await page.wait_for_selector("body[data-state='live']")
            again = local.sessions.session(int(page.url.split("/table/")[1].split("?")[0]))
            assert again is not None and again.id != game_id
            assert again.game.variant.name == "euchre"
            assert again.game.options == session.game.options
            assert [s.level for s in again.table.seats] == [None, "easy", "easy", "easy"]
            await page.goto(local.address)
            assert await page.locator("details").count() == len(VARIANTS)
            opened = page.locator("details[open]")
            assert await opened.locator('input[name="variant"]').get_attribute("value") == "euchre"
            assert await opened.locator('select[name="level"]').input_value() == "easy"
            assert await opened.locator('input[name="stick_the_dealer"]').is_checked()
    finally:
        pool.shutdown(wait=True)


@pytest.mark.parametrize("size", [(1024, 576), (1280, 720)], ids=["1024x576", "1280x720"])
async def test_in_a_short_window_nothing_on_the_felt_overlaps(
    web: Web, browser: Browser, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """A Tuque deal in which Ann bids first, seen in a short window (a laptop, Discord's
    Activity panel): the felt's cards shrink with its height, and the up-card with its
    caption, the two tableaus and the two plates keep apart."""
    dealt_from(monkeypatch, 8)
    session = await web.start("tuque", [ANN, None])
    assert session.game.turn == 0 and session.game.view(0).up_card is not None
    width, height = size
    page = await open_page(browser, seat_url(web, session.id, 0, ANN), width=width, height=height)
    boxes = await page.eval_on_selector_all(
        "#upcard, .tableau, .seat",
        "els => els.map((e) => { const r = e.getBoundingClientRect();"
        " return [e.id || e.className, r.left, r.top, r.right, r.bottom]; })",
    )
    assert len(boxes) == 5, boxes
    for n, (a, *one) in enumerate(boxes):
        for b, *other in boxes[n + 1 :]:
            apart = (
                one[2] <= other[0] or other[2] <= one[0] or one[3] <= other[1] or other[3] <= one[1]
            )
            assert apart, f"{a} {one} overlaps {b} {other}"
    assert page_errors(page) == []
