"""What a player sees at the web table, measured in Chromium (issue 43, items 1-8 and
11): the hand's summary and the last trick beside the felt, never over it; actions
drawn afresh after each move; the trick's cards from their own seats, every finished
trick shown; the turn timer readable and saying "Hurry!"; the whole title on a phone;
a move played for you not offered as yours; five sides' score pad whole; and the
table, your hand and the tools in every size of Discord's Activity panel without
scrolling."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import pytest
from browser import STEP, open_page, page_errors, play_one
from playwright.async_api import Browser, Page
from test_browser import seat_url
from web_helpers import ANN, Web

from bot.sessions import Session
from bot.sessions.computers import Computers
from bot.table import Table
from engine.actions import Action
from tests.bot.e2e import dealt_from

PANELS = ((1024, 576), (1280, 720), (1920, 1080), (390, 800))
"""Discord's Activity panel: in the desktop client's window at each common screen size
(16:9), and on a phone (portrait, the whole screen under Discord's bar)."""


# The boxes of what a player must follow on the felt and in their hand, by selector.
_FOLLOWED = (
    "#table .seat, #upcard:not([hidden]), #bidlog:not([hidden]), .tableau, #trick .card,"
    " #hand .card, #actions:not([hidden])"
)

_COVERS = """([box, followed]) => {
  const over = document.querySelector(box).getBoundingClientRect();
  const cut = (r) => r.width > 0 && r.height > 0 && over.left < r.right && r.left < over.right
    && over.top < r.bottom && r.top < over.bottom;
  return [...document.querySelectorAll(followed)]
    .filter((el) => cut(el.getBoundingClientRect()))
    .map((el) => el.id || el.className || el.tagName);
}"""


async def covered(page: Page, box: str, also: str = "") -> list[str]:
    """What of the table and the hand (and of ``also``, a selector) the element
    ``box`` covers: empty, nothing."""
    followed = f"{_FOLLOWED}, {also}" if also else _FOLLOWED
    return list(await page.evaluate(_COVERS, [box, followed]))


async def resize(page: Page, width: int, height: int) -> None:
    """The window at ``width`` × ``height``, once the page has laid itself out again (the
    felt's size follows a frame later: main.js's ResizeObserver)."""
    await page.set_viewport_size({"width": width, "height": height})
    await page.evaluate(
        "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
    )


_FITS = """() => {
  const bottom = (s) => Math.max(0, ...[...document.querySelectorAll(s)]
    .map((el) => el.getBoundingClientRect().bottom));
  const top = (s) => document.querySelector(s).getBoundingClientRect().top;
  return {
    page: document.documentElement.scrollHeight,
    felt: bottom("#table"), mine: top("#mine"), hand: bottom("#hand .card"),
    actions: bottom("#actions:not([hidden])"), tools: bottom("#tools"), score: bottom("#score"),
  };
}"""


async def assert_fits(page: Page, width: int, height: int) -> None:
    """At ``width`` × ``height`` the page does not scroll: the bar (score and tools),
    the felt, your hand and your choices all show, the felt above your hand."""
    await resize(page, width, height)
    at: dict[str, float] = await page.evaluate(_FITS)
    where = f"{width} × {height}: {at}"
    assert at["page"] <= height, where
    assert max(at["felt"], at["hand"], at["actions"], at["tools"], at["score"]) <= height, where
    assert at["felt"] <= at["mine"] + 1, where


_SMALLEST_TEXT = """() => {
  let smallest = null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.checkVisibility({ visibilityProperty: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue; // read aloud only (.sr-only)
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (!smallest || size < smallest[0]) {
      smallest = [size, el.className || el.tagName, node.textContent];
    }
  }
  for (const el of document.querySelectorAll("#table *, #mine *")) {
    const after = getComputedStyle(el, "::after");
    if (!["none", "normal", '""'].includes(after.content) && el.checkVisibility()) {
      const size = parseFloat(after.fontSize);
      if (size < smallest[0]) smallest = [size, `${el.className}::after`, after.content];
    }
  }
  return smallest;
}"""


async def settled(session: Session, *, forced_waits: bool) -> None:
    """Until the game waits on a member (or on the member's forced move held back by
    the test, while ``forced_waits``), or is over."""

    def waits() -> bool:
        table = session.table
        if table.finished or not table.bot_to_move:
            return True
        return forced_waits and table.forced(table.game.turn) is not None

    async with asyncio.timeout(STEP / 1000):
        while not waits():
            await asyncio.sleep(0.01)


async def shows(page: Page, seq: int) -> None:
    await page.wait_for_function("n => Number(document.body.dataset.seq) === n", arg=seq)


async def test_a_euchre_game_at_360_px_and_at_desktop_width(
    web: Web, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann plays a Euchre game at 360 px until she opens the bidding of a hand whose
    predecessor's summary still shows. On the way: the title is whole; the turn timer
    says "Hurry!" (a reminder at 0 minutes) in digits of 11 px, the page's smallest
    text; her choices are never left greyed after a move; her last card, played for her
    after a pause, is not offered as her turn. Then the summary and the last trick (as
    cards) cover nothing of the new hand at 360 px and at desktop width, the summary
    closes, and the page fits every size of Discord's panel."""
    dealt_from(monkeypatch, 43)
    web.server.timer_defaults = dataclasses.replace(web.server.timer_defaults, reminder_minutes=0)
    # The bot plays Ann's forced last card once the test has looked at her page.
    looked = asyncio.Event()
    decide = Computers.decide

    async def after_a_look(self: Computers, table: Table) -> Action:
        if table.forced(table.game.turn) is not None:
            await looked.wait()
        return await decide(self, table)

    monkeypatch.setattr(Computers, "decide", after_a_look)
    session = await web.start("euchre", [ANN, None, None, None])
    page = await open_page(browser, seat_url(web, session.id, 0, ANN), width=360, height=740)

    # The whole title, the hand's number in it (it was cut: "Euchre (four-…").
    await page.wait_for_selector("#title .hand-no")
    title = await page.eval_on_selector(
        "#title",
        "t => [t.textContent, t.scrollWidth <= t.clientWidth, t.getBoundingClientRect().right]",
    )
    assert title[0] == "Euchre (four-hand) · hand 1" and title[1] and title[2] <= 360, title

    rng = random.Random(43)
    moved = False
    while True:
        await settled(session, forced_waits=not looked.is_set())
        assert not session.table.finished, "no hand of the game opened with Ann's bid"
        await shows(page, session.table.seq)
        if session.table.forced(0) is not None and session.game.turn == 0:
            # Her last card is on its way: not raised, not offered, said so.
            await page.wait_for_selector("#prompt:not(.yours)")
            assert await page.query_selector_all("[data-action]") == []
            prompt = await page.inner_text("#prompt")
            assert prompt.startswith("Your last card is played for you.\n"), prompt
            assert not await page.is_visible("#timer")
            looked.set()
            continue
        await page.wait_for_selector("[data-action]:not([disabled])")
        # A finished trick is held a moment over the new hand's up-card: let it sweep.
        await page.wait_for_selector("#trick:not(.complete)", state="attached")
        if not moved:
            # The turn timer: red from the reminder on, "Hurry!" by the prompt, its
            # digits no smaller than the table's smallest words.
            await page.wait_for_selector("[data-seat-plate='0'] #timer.late")
            assert await page.inner_text("#prompt .hurry") == "Hurry!"
            assert "hurry" in str(await page.get_attribute("#timer", "aria-label"))
            assert (
                await page.eval_on_selector(
                    "#timer .time", "t => parseFloat(getComputedStyle(t).fontSize)"
                )
                >= 11
            )
            smallest = await page.evaluate(_SMALLEST_TEXT)
            assert smallest[0] >= 11, smallest
        else:
            # The choices drawn for this view are not greyed as if a move were on its way.
            assert not await page.evaluate("document.body.classList.contains('acting')")
            filters = await page.eval_on_selector_all(
                "[data-action]", "els => els.map((el) => getComputedStyle(el).filter)"
            )
            assert set(filters) == {"none"}, filters
        if await page.is_visible("#summary") and await page.is_visible("#upcard"):
            break
        assert await play_one(page, rng)
        moved = True

    # The summary of the hand before, while Ann bids on the new up-card: beside the
    # felt, never over the new hand's plates, up-card or Ann's hand.
    last = session.game.view(0).hand_just_over
    assert last is not None and last.last_trick is not None
    await page.click("#last-trick")
    for width, height in ((360, 740), (1280, 800)):
        await resize(page, width, height)
        # The summary leaves the tools be; on a phone the last trick lies over the bar,
        # until a tap on it.
        assert await covered(page, "#summary", "#tools") == [], width
        assert await covered(page, "#review") == [], width
        # The last trick as its cards, each under its player's name.
        shown = await page.eval_on_selector_all(
            "#review-cards li",
            "lis => lis.map((li) => [li.querySelector('.card').getAttribute('aria-label'),"
            " li.querySelector('.who').textContent])",
        )
        assert len(shown) == len(last.last_trick.plays), shown
    await page.click("#review")
    assert not await page.is_visible("#review")
    for width, height in PANELS:
        await assert_fits(page, width, height)
    await page.click("#summary-close")
    assert not await page.is_visible("#summary")
    assert page_errors(page) == []


_STALE_LAUNCH = """async () => {
  const { TrickArea, launched } = await import("/static/js/trick.js");
  const root = document.createElement("div");
  document.querySelector("#center").append(root);
  const area = new TrickArea(root);
  const view = (plays) => ({ hand_no: 99, seat: 0, sides: [0, 1, 0, 1], trick: { plays } });
  // Ann clicked her A♠ once (far off the screen), and it never reached a trick.
  launched.set("AS", new DOMRect(-5000, -5000, 10, 10));
  area.show(view([[1, "AS"]]), null, ["Ann", "CPU 2", "CPU 3", "CPU 4"]);
  const card = root.querySelector(".card");
  const [travel] = card.getAnimations();
  const [first] = travel.effect.getKeyframes();
  const moved = /translate\\(([-\\d.]+)px, ([-\\d.]+)px\\)/;
  const start = first.transform.match(moved).slice(1).map(Number);
  travel.finish(); // where it lands: the travel's end
  const to = card.getBoundingClientRect();
  const from = [to.left + to.width / 2 + start[0], to.top + to.height / 2 + start[1]];
  const plate = document.querySelector('[data-seat-plate="1"]').getBoundingClientRect();
  root.remove();
  return { from, plate: [plate.left + plate.width / 2, plate.top + plate.height / 2] };
}"""

_EVERY_TRICK = """async () => {
  const { TrickArea } = await import("/static/js/trick.js");
  const root = document.createElement("div");
  document.querySelector("#center").append(root);
  const seen = new Set();
  new MutationObserver((changes) => {
    for (const change of changes) for (const el of change.addedNodes) seen.add(el.dataset.card);
  }).observe(root, { childList: true });
  const area = new TrickArea(root);
  const names = ["Ann", "CPU 2", "CPU 3", "CPU 4"];
  const view = { hand_no: 99, seat: 0, sides: [0, 1, 0, 1], trick: { plays: [] } };
  const trick = (codes) => ({ plays: codes.map((code, seat) => [seat, code]), winner: 0 });
  // Three tricks finish while the first is held (a spectator's table, or a seat out).
  area.show(view, trick(["9C", "TC", "JC", "QC"]), names);
  area.show(view, trick(["9D", "TD", "JD", "QD"]), names);
  area.show(view, trick(["9H", "TH", "JH", "QH"]), names);
  while (area.busy) await new Promise((r) => setTimeout(r, 20));
  root.remove();
  return [...seen].sort();
}"""


async def test_a_computers_card_comes_from_its_seat_and_every_finished_trick_shows(
    web: Web, browser: Browser
) -> None:
    """The page's trick, driven with views of its own: a computer's A♠ travels from the
    computer's plate, not from where the viewer once clicked an A♠ of theirs; three
    tricks finished within one hold are each shown."""
    session = await web.start("euchre", [ANN, None, None, None])
    page = await open_page(browser, seat_url(web, session.id, 0, ANN))
    await page.wait_for_selector("[data-seat-plate='1']")
    await page.emulate_media(reduced_motion="no-preference")
    travel = await page.evaluate(_STALE_LAUNCH)
    assert travel["from"] == pytest.approx(travel["plate"], abs=2), travel
    await page.emulate_media(reduced_motion="reduce")
    shown = await page.evaluate(_EVERY_TRICK)
    assert shown == sorted(f"{rank}{suit}" for rank in "9TJQ" for suit in "CDH"), shown
    assert page_errors(page) == []


async def test_five_sides_pad_and_twenty_bids_fit_the_window(
    web: Web, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Auction game (five players, each a side) at 1280 px: once a hand is in the
    score pad, the pad shows whole in its column; and while Ann chooses among the bids,
    every size of Discord's panel shows the bar, the felt, her hand and her choices
    without scrolling (the bids scroll in their own box where they must)."""
    dealt_from(monkeypatch, 8)
    session = await web.start("auction", [ANN, None, None, None, None])
    page = await open_page(browser, seat_url(web, session.id, 0, ANN), width=1280, height=800)
    rng = random.Random(8)
    while not (
        await page.query_selector("#pad tbody tr") and await page.query_selector(".suit-row")
    ):
        assert await play_one(page, rng), "the game ended before a second hand's bidding"
    await page.wait_for_selector(".suit-row [data-action]:not([disabled])")
    pad: Any = await page.eval_on_selector(
        "#side",
        "side => [side.scrollWidth, side.clientWidth, side.querySelector('#pad').dataset.sides]",
    )
    assert pad[0] <= pad[1] and pad[2] == "5", pad
    for width, height in PANELS[:3]:
        await assert_fits(page, width, height)
    assert page_errors(page) == []
