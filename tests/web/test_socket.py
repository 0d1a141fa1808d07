"""The web table's socket: each page sees its own view, refusals change nothing,
and a page resumes from the view it holds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import select
from web_helpers import ANN, BOB, EVE, Page, Web, cards_in, engine_cards, running_web

from bot.sessions import Session
from bot.store.schema import metadata
from bot.web.protocol import MAX_MESSAGE_BYTES, action_kind, tag_of
from bot.web.screen import GAME_OVER
from bot.web.server import BURST, LINK_REFUSED
from engine.actions import NameTrump, Pass, Play
from engine.cards import Card, Suit


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[Web]:
    async with running_web(tmp_path / "tuque.db") as started:
        yield started


async def rows(web: Web) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read behind the store's back."""
    async with web.store._read() as db:
        return {
            table.name: [tuple(row) for row in await db.execute(select(table).order_by(*table.c))]
            for table in metadata.sorted_tables
        }


async def seated(web: Web, game_id: int, seat: int, member: int) -> Page:
    page = await web.page(game_id, web.links.token(game_id, seat, member))
    await page.until(lambda: page.views)
    return page


async def test_each_page_sees_its_own_hand_and_a_spectator_none(web: Web) -> None:
    """Two members' pages and a spectator's: each view is the engine's view of its seat."""
    session = await web.start("euchre", [ANN, None, BOB, None])
    ann = await seated(web, session.id, 0, ANN)
    bob = await seated(web, session.id, 2, BOB)
    watcher = await web.page(session.id, web.links.token(session.id, None, None))
    await watcher.until(lambda: watcher.views)
    for page in (ann, bob, watcher):
        await settled(session, page)
    game = session.game
    for page, seat in ((ann, 0), (bob, 2), (watcher, None)):
        view = page.view["view"]
        assert view["seat"] == seat
        assert view["hand"] == [c.code for c in game.view(seat).hand]
    assert not set(ann.view["view"]["hand"]) & set(bob.view["view"]["hand"])
    assert watcher.view["view"]["hand"] == [] and watcher.view["view"]["legal"] == []
    assert cards_in(watcher.view["view"]) <= engine_cards(game.view(None))
    hello = ann.of("hello")[0]
    assert hello["v"] == 1 and hello["seat"] == 0 and hello["timer"]["away_seconds"] == 15 * 60


async def test_a_move_on_one_page_reaches_every_page(web: Web) -> None:
    """The player on turn acts on their page; every page gets the next view."""
    session = await web.start("tuque", [ANN, BOB])
    turn = session.game.turn
    assert turn is not None
    pages = [await seated(web, session.id, seat, m) for seat, m in enumerate((ANN, BOB))]
    seq = pages[turn].view["seq"]
    await pages[turn].act(seq, pages[turn].view["view"]["legal"][0]["id"])
    for page in pages:
        await page.until(lambda page=page: page.view["seq"] > seq)
    assert len(session.game.log) == seq + 1


async def settled(session: Session, page: Page) -> None:
    """Wait until the computers wait on a member and ``page`` shows that."""
    async with asyncio.timeout(10):
        while session.table.bot_to_move:
            await asyncio.sleep(0.01)
    await page.until(lambda: page.view["seq"] == session.table.seq)


async def refused(page: Page, send: Any) -> dict[str, Any]:
    count = len(page.of("refused"))
    await send()
    await page.until(lambda: len(page.of("refused")) > count)
    return page.of("refused")[-1]


async def test_bad_acts_are_refused_with_a_reason_and_change_nothing(web: Web) -> None:
    """Stale seq, out of turn, an unknown action, a seat or game named, bad JSON, a
    spectator's act: each gets a reason frame, and the store is as it was."""
    session = await web.start("tuque", [ANN, BOB])
    turn = session.game.turn
    assert turn is not None
    members = (ANN, BOB)
    on_turn = await seated(web, session.id, turn, members[turn])
    waiting = await seated(web, session.id, 1 - turn, members[1 - turn])
    watcher = await web.page(session.id, web.links.token(session.id, None, None))
    await watcher.until(lambda: watcher.views)
    seq = on_turn.view["seq"]
    legal = on_turn.view["view"]["legal"][0]["id"]
    before = await rows(web)
    cases = [
        (on_turn, {"type": "act", "seq": seq - 1, "action": legal}, "stale"),
        (waiting, {"type": "act", "seq": seq, "action": legal}, "illegal"),
        (on_turn, {"type": "act", "seq": seq, "action": 10_000}, "unknown"),
        (on_turn, {"type": "act", "seq": seq, "action": legal, "seat": 1 - turn}, "malformed"),
        (on_turn, {"type": "act", "seq": seq, "action": legal, "game": 99}, "malformed"),
        (on_turn, {"type": "act", "seq": True, "action": legal}, "malformed"),
        (on_turn, {"type": "resign"}, "malformed"),
        (watcher, {"type": "act", "seq": seq, "action": legal}, "spectator"),
    ]
    for page, message, kind in cases:
        frame = await refused(page, lambda page=page, m=message: page.socket.send_json(m))
        assert frame["kind"] == kind and frame["reason"], message
    frame = await refused(on_turn, lambda: on_turn.socket.send_str("{not json"))
    assert frame["kind"] == "malformed"
    frame = await refused(on_turn, lambda: on_turn.socket.send_bytes(b"\x00"))
    assert frame["kind"] == "malformed"
    assert await rows(web) == before
    assert len(session.game.log) == seq and not on_turn.socket.closed


async def test_an_oversized_message_closes_the_page_and_changes_nothing(web: Web) -> None:
    session = await web.start("tuque", [ANN, BOB])
    page = await seated(web, session.id, 0, ANN)
    before = await rows(web)
    await page.socket.send_str("x" * (MAX_MESSAGE_BYTES + 1))
    await page.reader
    assert page.socket.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    assert await rows(web) == before


async def test_a_flood_is_refused_and_closed_and_changes_nothing(web: Web) -> None:
    session = await web.start("tuque", [ANN, BOB])
    turn = session.game.turn
    assert turn is not None
    page = await seated(web, session.id, turn, (ANN, BOB)[turn])
    before = await rows(web)
    stale = {"type": "act", "seq": 0, "action": 0}
    for _ in range(BURST * 3):
        await page.socket.send_json(stale)
    await page.reader
    assert page.socket.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION
    assert page.of("refused")[-1]["kind"] == "flood"
    assert await rows(web) == before


@pytest.mark.parametrize(
    "forge",
    ["altered", "other game", "other seat", "expired", "stranger"],
)
async def test_a_forged_link_is_refused_with_a_reason(web: Web, forge: str) -> None:
    """A link altered, for another game, another seat, expired, or a stranger's seat
    opens nothing: a reason frame, then the close code; the page is a 403 saying why."""
    session = await web.start("tuque", [ANN, BOB])
    other = await web.start("tuque", [ANN, EVE])
    good = web.links.token(session.id, 0, ANN)
    signature = good.partition(".")[2]
    token = {
        "altered": web.links.token(session.id, 1, ANN).partition(".")[0] + "." + signature,
        "other game": web.links.token(other.id, 0, ANN),
        "other seat": web.links.token(session.id, 1, ANN),
        "expired": web.links.token(session.id, 0, ANN, now=0),
        "stranger": web.links.token(session.id, 0, EVE),
    }[forge]
    page = await web.page(session.id, token)
    await page.reader
    assert page.socket.close_code == LINK_REFUSED
    assert [f["type"] for f in page.frames] == ["refused"] and page.frames[0]["reason"]
    assert web.server.address is not None
    answer = await web.http.get(f"{web.server.address}/table/{session.id}", params={"t": token})
    assert answer.status == 403 and page.frames[0]["reason"].split(":")[0] in await answer.text()
    answer = await web.http.get(f"{web.server.address}/table/{session.id}", params={"t": good})
    assert answer.status == 200 and answer.headers["Referrer-Policy"] == "no-referrer"


async def test_a_page_resumes_from_the_view_it_holds(web: Web) -> None:
    """Reconnecting with the seq and tag held: 'resumed' and no view while nothing
    changed; a fresh view once something did."""
    session = await web.start("tuque", [ANN, BOB])
    turn = session.game.turn
    assert turn is not None
    member = (ANN, BOB)[turn]
    page = await seated(web, session.id, turn, member)
    held = page.view
    await page.close()
    again = await web.page(session.id, held["token"], seq=str(held["seq"]), tag=held["tag"])
    await again.until(lambda: again.of("resumed"))
    assert not again.views and again.of("resumed")[0]["seq"] == held["seq"]
    await again.act(held["seq"], held["view"]["legal"][0]["id"])
    await again.until(lambda: again.views)
    await again.close()
    late = await web.page(session.id, held["token"], seq=str(held["seq"]), tag=held["tag"])
    await late.until(lambda: late.views)
    assert late.view["seq"] == held["seq"] + 1 and not late.of("resumed")


async def test_the_pages_close_after_the_last_view_of_a_resigned_game(web: Web) -> None:
    """A member resigns on Discord's path: the pages get the final view, then close."""
    session = await web.start("tuque", [ANN, BOB])
    page = await seated(web, session.id, 0, ANN)
    async with session.lock:
        change = session.table.resign(1)
        await web.sessions._take(session, change)
    await asyncio.wait_for(page.reader, 5)
    assert page.socket.close_code == GAME_OVER
    assert page.view["view"]["result"]["ending"] == "resigned"
    assert page.view["view"]["legal"] == []


async def test_each_legal_action_says_its_kind_and_card(web: Web) -> None:
    """A card's action names its card and 'play' (or 'discard', ...); a bid names none."""
    session = await web.start("euchre", [ANN, None, None, None])
    page = await seated(web, session.id, 0, ANN)
    await settled(session, page)
    view = page.view["view"]
    engine = {a.id: a for a in session.game.view(0).legal_actions}
    assert {a["id"] for a in view["legal"]} == set(engine)
    for entry in view["legal"]:
        action = engine[entry["id"]]
        assert entry["kind"] == action_kind(action)
        card = getattr(action, "card", None)
        assert entry["card"] == (None if card is None else card.code)
    assert action_kind(Pass()) == "pass" and action_kind(NameTrump(Suit.HEARTS)) == "name_trump"
    assert action_kind(Play(Card.parse("TH"))) == "play"
    grouped = [code for group in view["hand_groups"] for code in group["cards"]]
    assert sorted(grouped) == sorted(view["hand"])
    assert view["words"]["score"] and view["words"]["status"]


async def test_view_frames_carry_the_turn_clock_outside_the_view(web: Web) -> None:
    """Each view and resumed frame has the turn's start as the store keeps it and the
    server's time; a move that passes the turn starts it afresh; the tag ignores it."""
    session = await web.start("tuque", [ANN, BOB])
    turn = session.game.turn
    assert turn is not None
    page = await seated(web, session.id, turn, (ANN, BOB)[turn])
    first = page.view
    started = await web.store.turn_started(session.id)
    assert first["clock"]["turn_started"] == started <= first["clock"]["now"]
    assert "clock" not in first["view"] and tag_of(first["view"]) == first["tag"]
    await page.act(first["seq"], first["view"]["legal"][0]["id"])
    await page.until(lambda: page.view["seq"] > first["seq"])
    assert page.view["clock"]["turn_started"] >= started
    held = page.view
    await page.close()
    again = await web.page(session.id, held["token"], seq=str(held["seq"]), tag=held["tag"])
    await again.until(lambda: again.of("resumed"))
    assert again.of("resumed")[0]["clock"]["turn_started"] == held["clock"]["turn_started"]


async def test_a_hint_is_answered_to_its_page_and_counted_once(web: Web) -> None:
    """On turn, with a computer at the table: a hint frame with one of the legal actions
    and the hint's words, counted once however often asked; the other page gets none."""
    session = await web.start("euchre", [ANN, None, BOB, None])
    ann = await seated(web, session.id, 0, ANN)
    bob = await seated(web, session.id, 2, BOB)
    await settled(session, ann)
    turn = session.game.turn
    page = ann if turn == 0 else bob
    other = bob if page is ann else ann
    seq = page.view["seq"]
    for _ in range(2):
        await page.socket.send_json({"type": "hint", "seq": seq})
    await page.until(lambda: len(page.of("hint")) == 2)
    hint = page.of("hint")[0]
    assert hint["seq"] == seq and hint["text"] and "**" not in hint["text"]
    assert hint["action"] in {a["id"] for a in page.view["view"]["legal"]}
    assert not other.of("hint") and not page.of("refused")
    assert cards_in(hint) <= engine_cards(session.game.view(turn))
    assert await hints_counted(web, session.id) == 1


async def hints_counted(web: Web, game_id: int) -> int:
    """The hints the store counted in the game, over its seats."""
    async with web.store._read() as db:
        seats = metadata.tables["seats"]
        query = select(seats.c.hints).where(seats.c.game_id == game_id)
        return sum((await db.execute(query)).scalars())


async def test_a_hint_is_refused_stale_to_a_spectator_and_where_hints_are_off(
    web: Web,
) -> None:
    """An earlier turn's hint, a waiting seat's, a spectator's, a malformed one, and any
    in a rated game (every seat a member's): refused with a reason, nothing counted."""
    session = await web.start("euchre", [ANN, None, BOB, None])
    ann = await seated(web, session.id, 0, ANN)
    bob = await seated(web, session.id, 2, BOB)
    await settled(session, ann)
    turn = session.game.turn
    on_turn, waiting = (ann, bob) if turn == 0 else (bob, ann)
    watcher = await web.page(session.id, web.links.token(session.id, None, None))
    await watcher.until(lambda: watcher.views)
    seq = on_turn.view["seq"]
    rated = await web.start("tuque", [ANN, EVE])
    eve_turn = rated.game.turn
    assert eve_turn is not None
    rated_page = await seated(web, rated.id, eve_turn, (ANN, EVE)[eve_turn])
    before = await rows(web)
    cases = [
        (on_turn, {"type": "hint", "seq": seq - 1}, "stale"),
        (waiting, {"type": "hint", "seq": seq}, "stale"),
        (watcher, {"type": "hint", "seq": seq}, "spectator"),
        (on_turn, {"type": "hint", "seq": seq, "action": 0}, "malformed"),
        (on_turn, {"type": "hint", "seq": -1}, "malformed"),
        (rated_page, {"type": "hint", "seq": rated_page.view["seq"]}, "no_hints"),
    ]
    for page, message, kind in cases:
        frame = await refused(page, lambda page=page, m=message: page.socket.send_json(m))
        assert frame["kind"] == kind and frame["reason"], message
    assert not any(p.of("hint") for p in (ann, bob, watcher, rated_page))
    assert await rows(web) == before
