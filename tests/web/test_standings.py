"""An event's standings on the web (bot/web/standings.py, docs/events.md "On the web"):
the data names no seed and no card and carries names as text, the link opens its own
event only, a poll holding the standings is answered 304 until they change, and an
event's table and the Activity are told of the event."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from web_helpers import CHANNEL, GUILD, SECRET, Web, cards_in, running_web

from bot.events.model import Config, Format, TableResult
from bot.store import EventRow, SeatRow, Store
from bot.web.links import LinkRefused, Links
from bot.web.standings import standings_data
from engine.variants import VARIANTS

NAMES = {11: "Ann", 12: "<b>Bob</b> & co", 13: "Cy", 14: "Di", 15: "Ed"}
T0 = 1_000_000.0


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[Web]:
    async with running_web(tmp_path / "tuque.db") as started:
        yield started


async def running_event(store: Store, *, now: float = T0) -> EventRow:
    """A progressive euchre night of five (computers fill two tables), round 1 seated at
    ``now`` with 20 minutes on its clock."""
    config = Config(
        "Friday <night>", "euchre", Format.PROGRESSIVE, rounds=3, seed=987654321, minutes=20
    )
    row = await store.create_event(GUILD, CHANNEL, 11, config, starts_at=now, now=now)
    for member, name in NAMES.items():
        await store.upsert_player(GUILD, member, name)
        row = await store.change_event(row.id, lambda e, m=member: e.join(m), now=now)
    return await store.change_event(row.id, lambda e: e.start(), seated=True, now=now)


async def test_the_data_shows_the_round_and_standings_and_nothing_hidden(web: Web) -> None:
    """Round 1 of 3 with its clock and progress; a line per member, each named as text
    (a computer "a computer"); no seed of the event or of a table, no card."""
    row = await running_event(web.store)
    row = await web.store.change_event(
        row.id, lambda e: e.record(1, 1, TableResult((7, 3), loners=())), now=T0
    )
    data = standings_data(row, NAMES)
    assert data["headline"] == "Round 1 of 3" and data["ends_at"] == T0 + 20 * 60
    assert data["tables"] == {"finished": 1, "of": 2}
    assert data["name"] == "Friday <night>" and data["score_name"] == "Points"
    assert {line["name"] for line in data["lines"]} == set(NAMES.values())
    assert [line["place"] for line in data["lines"]][:1] == [1]
    assert {line["now"] for line in data["lines"]} == {"Table 1 · finished", "Table 2"}
    text = json.dumps(data)
    seeds = {row.event.config.seed} | {s.seed for s in row.event.rounds[0].seatings}
    assert not any(str(seed) in text for seed in seeds), "a seed deals the cards"
    assert "seed" not in text and cards_in(data) == set()


async def test_the_api_answers_its_link_and_a_poll_until_the_standings_change(web: Web) -> None:
    """A standings token opens its own event's data (a table's token, another event's,
    an altered one are 403); a poll naming its ETag is a 304 until a table finishes."""
    row = await running_event(web.store)
    url = f"{web.server.address}/api/event/{row.id}"
    token = web.links.event_token(row.id)
    for refused in (web.links.token(row.id, None, None), web.links.event_token(row.id + 1)):
        async with web.http.get(url, params={"t": refused}) as answer:
            assert answer.status == 403 and (await answer.json())["error"] == "link"
    async with web.http.get(url, params={"t": token}) as answer:
        assert answer.status == 200
        tag, first = answer.headers["ETag"], await answer.json()
        assert answer.headers["Cache-Control"] == "no-store"
    assert first["round"] == 1 and first["poll"] > 0
    assert web.links.check_event(first["token"], row.id) > 0
    async with web.http.get(url, params={"t": token}, headers={"If-None-Match": tag}) as answer:
        assert answer.status == 304
    await web.store.change_event(row.id, lambda e: e.record(1, 2, TableResult((2, 10))))
    async with web.http.get(url, params={"t": token}, headers={"If-None-Match": tag}) as answer:
        assert answer.status == 200 and (await answer.json())["tables"]["finished"] == 1
    async with web.http.get(f"{web.server.address}/event/{row.id}", params={"t": token}) as page:
        assert page.status == 200 and "event.js" in await page.text()
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    async with web.http.get(f"{web.server.address}/event/{row.id}", params={"t": "x.y"}) as page:
        assert page.status == 403


def test_a_standings_token_opens_no_table_and_a_table_token_no_standings() -> None:
    links = Links(SECRET, "", 600)
    with pytest.raises(LinkRefused):
        links.check(links.event_token(5), 5)
    with pytest.raises(LinkRefused):
        links.check_event(links.token(5, None, None), 5)
    with pytest.raises(LinkRefused, match="expired"):
        links.check_event(links.event_token(5, now=T0), 5)
    assert links.event_link(5).startswith("/event/5?t=")


async def test_an_event_table_says_its_round_and_clock_and_the_activity_finds_it(
    web: Web,
) -> None:
    """The hello of a table of the round in play names the event, round N of M, the
    clock's end and the standings link; the Activity's list of the channel's events
    gives a seated member their seat's link and another member none."""
    row = await running_event(web.store, now=1e9)
    seating = row.event.rounds[0].seatings[0]
    sides = VARIANTS["euchre"].sides
    seats = [
        SeatRow.computer(n, "easy", side=sides[n])
        if m is None
        else SeatRow.human(n, m, side=sides[n])
        for n, m in enumerate(seating.seats)
    ]
    session = await web.sessions.start(
        GUILD, CHANNEL, "euchre", {}, seats, seed=seating.seed, event_table=(row.id, 1, 1)
    )
    page = await web.page(session.id, web.links.token(session.id, None, None))
    await page.until(lambda: page.of("hello"))
    event = page.of("hello")[0]["event"]
    assert event["name"] == "Friday <night>" and (event["round"], event["rounds"]) == (1, 3)
    assert event["ends_at"] == 1e9 + 20 * 60 and event["standings"].startswith("http")
    await page.close()
    member = next(m for m in seating.seats if m is not None)
    seat = seating.seats.index(member)
    listed = await web.server.standings.here(GUILD, CHANNEL, member)
    assert listed[0]["event"] == row.id and listed[0]["table"] is not None
    link = urlsplit(listed[0]["table"])
    assert link.path == f"/table/{session.id}"
    assert web.links.check(parse_qs(link.query)["t"][0], session.id).seat == seat
    stranger = await web.server.standings.here(GUILD, CHANNEL, 999)
    assert stranger[0]["table"] is None
