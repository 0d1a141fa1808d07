"""An event's standings page in a real browser (issue 42, docs/events.md "On the web"):
it shows the round and its clock, follows a round's tables as they finish and the next
round as it is seated, shows names as text, and axe-core finds no serious violation at
360 px and desktop width, light and dark."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from browser import open_page, page_errors, violations_in_every_look
from playwright.async_api import Browser
from test_standings import NAMES, running_event
from web_helpers import Web, running_web

from bot.events.model import TableResult


@pytest.fixture
async def web(tmp_path: Path) -> AsyncIterator[Web]:
    async with running_web(tmp_path / "tuque.db", event_poll=0.2) as started:
        yield started


async def test_the_standings_page_follows_a_round_live(web: Web, browser: Browser) -> None:
    """Round 1 of 3 with its clock; each table's result shows as it is recorded, and the
    next round as it is seated, without a reload; a name with markup is shown as text."""
    row = await running_event(web.store)
    url = f"{web.server.address}/event/{row.id}?t={web.links.event_token(row.id)}"
    page = await open_page(
        browser, url, width=360, height=740, ready="#standings[data-state='live']"
    )
    standings = page.locator("#standings")
    assert await page.locator("h1").text_content() == "Friday <night>"
    assert await standings.locator(".headline").text_content() == "Round 1 of 3"
    # The round was seated at T0, long ago: its clock ran out.
    assert "time's up" in (await standings.locator(".clock").text_content() or "")
    assert await standings.locator(".progress").text_content() == "0 of 2 tables finished"
    names = await standings.locator("tbody .name").all_text_contents()
    assert sorted(names) == sorted(NAMES.values())
    assert await standings.locator("tbody b").count() == 0
    assert await violations_in_every_look(page) == []

    await web.store.change_event(row.id, lambda e: e.record(1, 1, TableResult((10, 2))))
    await page.wait_for_selector("#standings[data-finished='1']")
    said = await standings.locator("[role='status']").text_content()
    assert said == "1 of 2 tables finished: the standings are updated."
    first = await standings.locator("tbody tr").first.locator(".now").text_content()
    assert first == "Table 1 · finished"

    await web.store.change_event(row.id, lambda e: e.record(1, 2, TableResult((4, 6))))
    await web.store.change_event(row.id, lambda e: e.end_round())
    await web.store.change_event(row.id, lambda e: e.next_round(), seated=True)
    await page.wait_for_selector("#standings[data-round='2']")
    assert await standings.locator(".headline").text_content() == "Round 2 of 3"
    assert re.fullmatch(
        r"(19|20):\d\d left", await standings.locator(".clock").text_content() or ""
    )
    assert await standings.locator("[role='status']").text_content() == "Round 2 of 3 has started."
    played = await standings.locator("tbody td:nth-child(4)").all_text_contents()
    assert set(played) == {"1"}
    assert page_errors(page) == []
