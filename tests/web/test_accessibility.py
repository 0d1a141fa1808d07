"""The web table for everyone, with any body (issue 43, docs/web.md "Accessibility"):
axe-core finds no serious or critical violation at any phase of a Tuque, a Euchre and an
Auction game, at 360 px and desktop width, light and dark; the keyboard alone plays a
whole game with the focus kept on the hand or the choices after every move; the live
region says every card played, and who played it; and every target a finger needs is
44 px tall (and a fanned card 44 px wide where it shows)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from browser import (
    LOOKS,
    open_page,
    page_errors,
    play_one,
    seq_of,
    violations_in_every_look,
)
from playwright.async_api import Browser, Page
from test_browser import seat_url
from test_local import local, new_game, seat_link
from web_helpers import ANN, Web

from engine.actions import Play, parse_action
from engine.cards import Card
from engine.game import Game
from tests.bot.e2e import dealt_from


async def moment(page: Page) -> str:
    """What the page shows now, as the accessibility check tells its moments apart: the
    view's phase, and whether a hand's summary or the game's result is over the table."""
    phase = await page.get_attribute("body", "data-phase")
    over = [s for s in ("#summary", "#result") if await page.is_visible(s)]
    return " + ".join([str(phase), *over])


@pytest.mark.parametrize(
    ("variant", "seats", "target"),
    [("tuque", 2, 5), ("euchre", 4, 3), ("auction", 5, 2)],
    ids=["tuque", "euchre", "auction"],
)
async def test_no_serious_violation_at_any_moment_of_a_game(
    web: Web,
    browser: Browser,
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    seats: int,
    target: int,
) -> None:
    """One game dealt from a fixed seed, played by clicking at 360 px; at each moment
    first seen (a phase, a hand's summary, the result) axe-core looks at every width and
    theme."""
    dealt_from(monkeypatch, 43)
    session = await web.start(variant, [ANN, *[None] * (seats - 1)], target=target)
    page = await open_page(browser, seat_url(web, session.id, 0, ANN), width=360, height=740)
    rng = random.Random(variant)
    looked: dict[str, list[str]] = {}
    while True:
        await page.wait_for_selector("[data-action]:not([disabled]), body[data-over='1']")
        now = await moment(page)
        if now not in looked:
            looked[now] = await violations_in_every_look(page)
        if not await play_one(page, rng):
            break
    # The hand's end and the game's end were looked at too.
    assert any("summary" in m for m in looked) and any("result" in m for m in looked), list(looked)
    # Each violation once, with where it was seen.
    found: dict[str, list[str]] = {}
    for now, lines in looked.items():
        for line in lines:
            look, violation = line.split(": ", 1)
            found.setdefault(violation, []).append(f"{now} ({look})")
    assert found == {}, "\n".join(f"{v}\n    at {', '.join(at)}" for v, at in found.items())
    assert page_errors(page) == []


ENABLED = "[data-action]:not([disabled])"

# Every text the live region (#status) is given, kept in the page as it changes.
_LISTEN = """
() => {
  window.heard = [];
  const region = document.querySelector("#status");
  new MutationObserver(() => window.heard.push(region.textContent))
    .observe(region, { childList: true, characterData: true, subtree: true });
}
"""

_RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def in_words(card: Card) -> str:
    """A card as a screen reader is told it ("10 of hearts", "jack of spades")."""
    rank, suit = card.code[0], card.code[1]
    return f"{_RANKS.get(rank, rank)} of {_SUITS[suit]}"


def cards_played(game: Game) -> list[tuple[int, int, Card]]:
    """Every card played in ``game``, in order: (hand number, seat, card), replayed from
    its log (which says the action, not the seat)."""
    record = game.to_record()
    again = Game.from_record({**record, "actions": []})
    played = []
    for entry in record["actions"]:
        hand, seat = again.hand_no, again.turn
        again.replay(entry)
        if entry.startswith("play "):
            action = parse_action(entry)
            assert isinstance(action, Play) and seat is not None
            played.append((hand, seat, action.card))
    return played


async def focus_in(page: Page) -> str:
    """Where the focus is: the focused element's id or its action, and the part of the
    page it is in."""
    return await page.evaluate(
        """() => {
          const el = document.activeElement;
          const part = el?.closest("#hand, #tableaus, #actions, #mine, #result")?.id ?? "the page";
          return `${el?.id || el?.dataset?.action || el?.tagName} in ${part}`;
        }"""
    )


async def test_the_keyboard_alone_plays_a_whole_game_its_place_kept_and_every_card_said(
    web: Web, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Euchre game played with one Tab to the first choice, then only the arrow keys and
    Enter: after every move the focus is on a choice when there is one, else on the hand
    and choices' section, never on the page; the result takes it at the game's end. The
    live region said every card of every hand, with who played it."""
    dealt_from(monkeypatch, 43)
    session = await web.start("euchre", [ANN, None, None, None], target=3)
    page = await open_page(browser, seat_url(web, session.id, 0, ANN), width=360, height=740)
    await page.evaluate(_LISTEN)
    rng = random.Random("keys")
    await page.wait_for_selector(ENABLED)
    for _ in range(80):
        await page.keyboard.press("Tab")
        if await page.evaluate(f"document.activeElement?.matches({ENABLED!r})"):
            break
    else:
        raise AssertionError("no legal action takes the keyboard's focus")
    moves = 0
    while True:
        await page.wait_for_selector(f"{ENABLED}, body[data-over='1']")
        if await page.get_attribute("body", "data-over") == "1":
            break
        where = await focus_in(page)
        assert await page.evaluate(f"document.activeElement.matches({ENABLED!r})"), (moves, where)
        for _ in range(rng.randrange(3)):
            await page.keyboard.press("ArrowRight")
        seq = await seq_of(page)
        await page.keyboard.press("Enter")
        await page.wait_for_function(
            "seq => Number(document.body.dataset.seq) > seq || document.body.dataset.over === '1'",
            arg=seq,
        )
        moves += 1
        where = await focus_in(page)
        assert where.split(" in ")[1] in ("hand", "tableaus", "actions", "mine", "result"), (
            moves,
            where,
        )
        assert moves < 500, "the game never ended"
    assert session.table.finished and moves > 10
    assert (await focus_in(page)).endswith("in result")

    heard = "\n".join(await page.evaluate("window.heard"))
    names = session.seating.names
    played = cards_played(session.game)
    assert len({hand for hand, _, _ in played}) > 1
    unsaid = [
        (hand, f"{names[seat]} played {in_words(card)}")
        for hand, seat, card in played
        if f"{names[seat]} played {in_words(card)}" not in heard
    ]
    assert unsaid == [], heard
    assert page_errors(page) == []


# How far a finger reaches each element matched by a selector: the longest run of pixels,
# across its middle and then down the middle of that run, where the page's hit test
# finds the element (a fanned card shows only its strip; a button's hit area may be
# larger than its look).
_REACH = """
(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.getClientRects().length)
  .map((el) => {
    el.scrollIntoView({ block: "nearest" });
    const r = el.getBoundingClientRect();
    const hits = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === el || el.contains(hit));
    };
    const run = (points) => {
      let best = [0, 0], from = null;
      points.forEach(([x, y], i) => {
        if (!hits(x, y)) { from = null; return; }
        from ??= i;
        if (i - from + 1 > best[0]) best = [i - from + 1, (from + i) / 2];
      });
      return best;
    };
    const across = [];
    const y = r.top + r.height / 2;
    for (let x = Math.floor(r.left) - 12; x <= r.right + 12; x++) across.push([x, y]);
    const [wide, middle] = run(across);
    const x = across[Math.round(middle)][0];
    const down = [];
    for (let y = Math.floor(r.top) - 12; y <= r.bottom + 12; y++) down.push([x, y]);
    const name = el.id || el.dataset.card || el.textContent.trim();
    return [name, wide, run(down)[0]];
  })
"""

TARGET = 44
"""Pixels a finger's target takes at least, each way (WCAG 2.5.5, Apple's and Google's guides)."""


async def short_targets(page: Page, selector: str, *, tall: bool = True) -> list[str]:
    """The elements of ``selector`` a finger reaches on less than ``TARGET`` px across (and
    down, if ``tall``), with their reach."""
    reach = await page.evaluate(_REACH, selector)
    return [
        f"{name}: {wide} x {high} px"
        for name, wide, high in reach
        if wide < TARGET or (tall and high < TARGET)
    ]


async def test_a_finger_reaches_each_tool_choice_and_card_of_a_hand_on_44_px(
    web: Web, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Tuque deal (seven cards in hand, the bidding's buttons) at 360 px and desktop
    width: the tools and the choices reach 44 px each way, each card of the fanned hand
    44 px across."""
    dealt_from(monkeypatch, 43)
    session = await web.start("tuque", [ANN, None], target=5)
    page = await open_page(browser, seat_url(web, session.id, 0, ANN), width=360, height=740)
    await page.wait_for_selector(f"#actions {ENABLED}")
    assert len(await page.query_selector_all("#hand .card")) == 7
    short: list[str] = []
    for look, width, height in LOOKS:
        await page.set_viewport_size({"width": width, "height": height})
        for selector, tall in (
            ("#tools button", True),
            ("#actions button", True),
            ("#hand .card", False),
        ):
            short += [
                f"{look}, {selector}: {s}" for s in await short_targets(page, selector, tall=tall)
            ]
    assert short == [], "\n".join(short)
    assert page_errors(page) == []


async def test_the_home_pages_games_are_44_px_tall_and_it_has_no_serious_violation(
    tmp_path: Path, browser: Browser
) -> None:
    """``tuque-web``'s home page listing a game: a finger reaches each of "Your games" on
    44 px each way, and axe-core finds nothing serious at either width or theme."""
    async with local(tmp_path / "web.db") as (table, http):
        seat_link(await new_game(http, table.address, variant="tuque"))
        page = await open_page(browser, table.address, width=360, height=740, ready=".games a")
        short: list[str] = []
        for look, width, height in LOOKS:
            await page.set_viewport_size({"width": width, "height": height})
            short += [f"{look}: {s}" for s in await short_targets(page, ".games a")]
        assert short == [], "\n".join(short)
        assert await violations_in_every_look(page) == []
        assert page_errors(page) == []
