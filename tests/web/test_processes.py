"""The web table past one process: two bot stacks (session manager, store, web server)
on one PostgreSQL database, as shard processes are. A game runs on ``one``; pages at it
connect to ``other``, which learns each change from PostgreSQL's ``NOTIFY`` and shows it
from the store: each viewer their own view, the same as the running process sends."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from web_helpers import ANN, BOB, Page, Web, running_web

from bot.store.asks import ANSWERS, ASKS
from bot.store.changes import CHANNEL
from bot.web.screen import GAME_OVER
from bot.web.server import ELSEWHERE
from tests.postgres import PostgresServer


@pytest.fixture
async def webs(postgres: PostgresServer) -> AsyncIterator[tuple[Web, Web]]:
    """Two stacks on one new database, each listening for the other's changes."""
    database = await postgres.database()
    async with (
        running_web(database, remote=True) as one,
        running_web(database, remote=True) as other,
    ):
        for web in (one, other):
            assert web.server.remote is not None
            await asyncio.wait_for(web.server.remote.feed.listening.wait(), 10)
        yield one, other


async def seated(web: Web, game_id: int, seat: int | None, member: int | None) -> Page:
    page = await web.page(game_id, web.links.token(game_id, seat, member))
    await page.until(lambda: page.views)
    return page


async def move(pages: list[Page], watchers: list[Page]) -> None:
    """The seat on turn plays its first legal action on its page; every page and watcher
    shows the move."""
    view = pages[0].view["view"]
    turn = view["turn"]
    seq = pages[turn].view["seq"]
    await pages[turn].act(seq, pages[turn].view["view"]["legal"][0]["id"])
    for page in (*pages, *watchers):
        await page.until(lambda page=page: page.view["seq"] > seq)


async def test_pages_on_another_process_see_each_move_as_their_own_view(
    webs: tuple[Web, Web],
) -> None:
    """Each page on the other process is sent, after each move, the very view (same
    tag) its viewer's page on the running process is sent: the member's own hand, and
    the public view to a spectator."""
    one, other = webs
    session = await one.start("tuque", [ANN, BOB])
    assert other.sessions.session(session.id) is None
    here = [await seated(one, session.id, seat, m) for seat, m in enumerate((ANN, BOB))]
    there = [await seated(other, session.id, seat, m) for seat, m in enumerate((ANN, BOB))]
    watcher = await seated(other, session.id, None, None)
    for _ in range(6):
        await move(here, [*there, watcher])
        for mine, theirs in zip(here, there, strict=True):
            await theirs.until(lambda m=mine, t=theirs: t.view["seq"] == m.view["seq"])
            assert theirs.view["tag"] == mine.view["tag"]
            assert theirs.view["view"] == mine.view["view"]
    seq = session.table.seq
    await watcher.until(lambda: watcher.view["seq"] == seq)
    assert watcher.view["view"]["hand"] == [] and watcher.view["view"]["legal"] == []
    assert set(there[0].view["view"]["hand"]).isdisjoint(there[1].view["view"]["hand"])


async def test_a_move_from_another_process_is_made_by_the_running_one(
    webs: tuple[Web, Web],
) -> None:
    """Members play on pages the other process serves: the running process decides each
    move (stored once, shown on its own pages too), and relays its refusals: out of
    turn, stale, and a hint where hints are off, each changing nothing."""
    one, other = webs
    session = await one.start("tuque", [ANN, BOB])
    there = [await seated(other, session.id, seat, m) for seat, m in enumerate((ANN, BOB))]
    here = await seated(one, session.id, 0, ANN)
    for _ in range(3):
        await move(there, [here])
    assert len((await one.store.load_game(session.id)).actions) == session.table.seq
    assert here.view["seq"] == session.table.seq
    turn = session.game.turn
    assert turn is not None
    waiting, on_turn = there[1 - turn], there[turn]
    seq = session.table.seq
    await waiting.act(seq, on_turn.view["view"]["legal"][0]["id"])
    await on_turn.act(seq - 1, on_turn.view["view"]["legal"][0]["id"])
    await on_turn.socket.send_json({"type": "hint", "seq": seq})
    await waiting.until(lambda: waiting.of("refused"))
    await on_turn.until(lambda: len(on_turn.of("refused")) == 2)
    assert waiting.of("refused")[0]["kind"] == "illegal"
    assert [f["kind"] for f in on_turn.of("refused")] == ["stale", "no_hints"]
    assert on_turn.of("refused")[1]["reason"] == "Hints are off in rated games on this server."
    assert session.table.seq == seq
    assert len((await one.store.load_game(session.id)).actions) == seq


async def test_a_hint_from_another_process_is_the_running_ones(webs: tuple[Web, Web]) -> None:
    """A hint asked on the other process is the running process's search and words,
    counted there once."""
    one, other = webs
    session = await one.start("tuque", [ANN, None])
    page = await seated(other, session.id, 0, ANN)
    await page.until(lambda: page.view["view"]["turn"] == 0)
    seq = page.view["seq"]
    await page.socket.send_json({"type": "hint", "seq": seq})
    await page.until(lambda: page.of("hint"))
    hint = page.of("hint")[0]
    assert hint["seq"] == seq and hint["text"]
    assert hint["action"] in [legal["id"] for legal in page.view["view"]["legal"]]
    assert session.aids.hinted is not None and session.aids.hinted[:2] == (seq, hint["action"])


async def test_an_unanswered_move_is_refused_saying_so(webs: tuple[Web, Web]) -> None:
    """No process running the game hears the ask (its listener is down): the page is
    told so after the relay's wait, and the game and the store keep no trace of it."""
    one, other = webs
    assert one.server.remote is not None and other.server.remote is not None
    session = await one.start("tuque", [ANN, BOB])
    turn = session.game.turn
    assert turn is not None
    page = await seated(other, session.id, turn, (ANN, BOB)[turn])
    await one.server.remote.feed.close()
    other.server.remote.relay.timeout = 0.5
    seq = page.view["seq"]
    await page.act(seq, page.view["view"]["legal"][0]["id"])
    await page.until(lambda: page.of("refused"))
    refused = page.of("refused")[0]
    assert refused["kind"] == ELSEWHERE and refused["seq"] == seq
    assert "did not answer in time" in refused["reason"]
    assert session.table.seq == seq
    assert len((await one.store.load_game(session.id)).actions) == seq
    assert await one.store.asked(1) is None


async def test_the_end_of_a_game_reaches_the_other_process_and_closes_its_pages(
    webs: tuple[Web, Web],
) -> None:
    """A member resigns on the running process: the pages on the other get the final
    view, with the running process's result, then close as game over."""
    one, other = webs
    session = await one.start("tuque", [ANN, BOB])
    mine = await seated(one, session.id, 0, ANN)
    theirs = await seated(other, session.id, 0, ANN)
    async with session.lock:
        await one.sessions._take(session, session.table.resign(1))
    for page in (mine, theirs):
        assert page.reader is not None
        await asyncio.wait_for(page.reader, 10)
        assert page.socket.close_code == GAME_OVER
    assert theirs.view["view"]["result"] == mine.view["view"]["result"]
    assert theirs.view["view"]["result"]["ending"] == "resigned"
    assert theirs.view["view"]["legal"] == []
    # Over: a new page is refused, as on the running process.
    late = await other.page(session.id, other.links.token(session.id, None, None))
    await late.until(lambda: late.of("refused"))
    assert late.of("refused")[0]["kind"] == "no_game"


async def test_a_lost_listener_reconnects_and_shows_what_it_missed(
    webs: tuple[Web, Web],
) -> None:
    """The listening connection drops; a move made meanwhile reaches the page once the
    feed listens again (every game shown is read afresh then)."""
    one, other = webs
    remote = other.server.remote
    assert remote is not None
    remote.feed.first_pause = 0.3
    session = await one.start("tuque", [ANN, BOB])
    here = [await seated(one, session.id, seat, m) for seat, m in enumerate((ANN, BOB))]
    theirs = await seated(other, session.id, None, None)
    remote.feed.drop()
    await asyncio.wait_for(_cleared(remote.feed.listening), 5)
    await move(here, [])
    seq = session.table.seq
    await asyncio.wait_for(remote.feed.listening.wait(), 10)
    await theirs.until(lambda: theirs.view["seq"] == seq)


async def _cleared(event: asyncio.Event) -> None:
    while event.is_set():
        await asyncio.sleep(0.01)


async def test_the_notifications_name_games_and_rows_only(webs: tuple[Web, Web]) -> None:
    """Each stored change is announced once committed, as ``{"game", "seq"}``; a move
    relayed from the other process is asked and answered as ``{"ask", "game"}`` and
    ``{"ask"}``: no card, no action, no hint's words."""
    one, other = webs
    heard: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
    listener = await one.store.connect_raw()
    try:
        for channel in (CHANNEL, ASKS, ANSWERS):
            await listener.add_listener(
                channel, lambda _c, _p, channel, payload: heard.put_nowait((channel, payload))
            )
        session = await one.start("tuque", [ANN, BOB])
        here = [await seated(one, session.id, seat, m) for seat, m in enumerate((ANN, BOB))]
        seq = session.table.seq
        await move(here, [])
        channel, payload = await asyncio.wait_for(heard.get(), 5)
        assert (channel, json.loads(payload)) == (CHANNEL, {"game": session.id, "seq": seq + 1})
        there = [await seated(other, session.id, seat, m) for seat, m in enumerate((ANN, BOB))]
        await move(there, [])
        got = [await asyncio.wait_for(heard.get(), 5) for _ in range(3)]
        ask = json.loads(got[0][1])["ask"]
        assert [(channel, json.loads(payload)) for channel, payload in got] == [
            (ASKS, {"ask": ask, "game": session.id}),
            (CHANNEL, {"game": session.id, "seq": seq + 2}),
            (ANSWERS, {"ask": ask}),
        ]
    finally:
        await listener.close()
