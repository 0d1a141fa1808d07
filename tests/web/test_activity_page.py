"""The page inside Discord in Chromium, against the Discord double: launched from "Open
the table", each page signs in through the SDK's own mock (``DiscordSDKMock``: no
``frame_id`` in the address) with a code the double issued, the bot exchanges it at the
double and checks the instance, and the members play a whole game in their pages while a
third member watches; a member alone starts a game against the computers from the page
and plays in it, her start buttons disabled while a start is pending, and a start refused
for a game of hers already here lists that game; a sign-in the server refuses shows its
reason and opens nothing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import pytest
from browser import chromium, open_page, page_errors, play_one
from playwright.async_api import Browser, Page, Route
from test_activity import start, start_body

from bot.client import TuqueBot
from engine.variants import VARIANTS
from tests.bot.e2e import Table, challenge_and_accept, running_bot, table_message
from tests.discord_double.models import ActivityInstance, User
from tests.discord_double.server import CLIENT_SECRET

ACTIVITY = {"web_port": 0, "discord_client_secret": CLIENT_SECRET}

SIGNED_IN = "body[data-activity='table'], body[data-activity='choosing']"
"""The page signed in: a table opened, or the channel's games to choose from."""
FAILED = "body[data-activity='error']"
SETTLED = f"{SIGNED_IN}, {FAILED}"


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as started:
        yield started


def activity_url(bot: TuqueBot, instance_id: str | None, *codes: str) -> str:
    """The Activity's entry in a plain browser: no ``frame_id``, so the page runs the
    SDK's mock, which answers ``codes`` to ``authorize`` in turn."""
    assert bot.web is not None and bot.web.address is not None
    query = [("instance_id", instance_id)] if instance_id is not None else []
    query += [("mock_code", code) for code in codes]
    return f"{bot.web.address}/activity?{urlencode(query)}"


async def launch(t: Table, bot: TuqueBot, *joining: User) -> tuple[int, str]:
    """A game of Tuque to 5 between Ann and Bob; Ann's "Open the table" starts the Activity (the
    double answers LAUNCH_ACTIVITY with an instance), and ``joining`` join it."""
    # Ann and Bob click every card, the last of each hand too (by default the bot plays
    # it after a pause, which would race the page the test is waiting on).
    for member in (t.ann, t.bob):
        await (await t.double.slash(member, t.channel, "tuque", "autoplay", when="off")).settled()
    game_id = await challenge_and_accept(t, target=5)
    message = table_message(t)
    rec = await t.double.click(t.ann, message, "tuque:launch")
    await rec.settled()
    assert rec.response_type == 12 and rec.activity_instance is not None
    rec.activity_instance.users.extend(user.id for user in joining)
    return game_id, rec.activity_instance.instance_id


async def alone(t: Table, bot: TuqueBot, browser: Browser) -> tuple[ActivityInstance, Page]:
    """Ann alone in an Activity of the channel, her page signed in and choosing a game."""
    instance = t.double.start_activity(t.channel, t.ann)
    page = await open_page(
        browser,
        activity_url(bot, instance.instance_id, t.double.authorize(t.ann)),
        ready="body[data-activity='choosing']",
    )
    return instance, page


async def error_of(page: Page) -> tuple[str | None, str]:
    """The refusal's kind and the words the page shows."""
    kind = await page.get_attribute("body", "data-activity-error")
    return kind, await page.inner_text("#activity-error")


async def test_two_members_play_a_game_in_the_activity_and_a_third_watches(
    table: Table, browser: Browser
) -> None:
    """Ann's and Bob's pages open their seats at once (their only game), Eve's lists the
    channel's game to watch; clicking in the two pages plays it to its end, and Eve's
    page follows it with no hand."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        assert bot.web is not None
        # The pages click the moment their turn shows: faster than a person, and than the
        # flood limit allows one (tests/web/test_browser.py does the same).
        bot.web.rate = bot.web.burst = 1000
        game_id, instance = await launch(t, bot, t.bob, t.eve)
        session = bot.sessions.session(game_id)
        assert session is not None
        ann = await open_page(browser, activity_url(bot, instance, t.double.authorize(t.ann)))
        bob = await open_page(
            browser, activity_url(bot, instance, t.double.authorize(t.bob)), width=360, height=740
        )
        # Eve is in the instance but not at the table: she picks the game to watch, and
        # "Show the games again" signs in afresh (the mock's second code).
        codes = (t.double.authorize(t.eve), t.double.authorize(t.eve))
        eve = await open_page(browser, activity_url(bot, instance, *codes), ready=SIGNED_IN)
        assert await eve.get_attribute("body", "data-activity") == "choosing"
        await eve.click("#activity-refresh")
        await eve.wait_for_selector("body[data-activity='choosing']")
        (choice,) = await eve.query_selector_all("#activity-tables button[data-game]")
        assert await choice.get_attribute("data-game") == str(game_id)
        assert "Watch" in await choice.inner_text()
        await choice.click()
        await eve.wait_for_selector("body[data-state='live']")

        seats = {
            page: session.table.seat_of(user.id) for page, user in ((ann, t.ann), (bob, t.bob))
        }
        for page, seat in seats.items():
            assert await page.get_attribute("body", "data-seat") == str(seat)
        assert await eve.get_attribute("body", "data-seat") == ""
        rng = random.Random(35)
        moves = 0
        while not session.table.finished:
            turn = session.game.turn
            (page,) = [p for p, seat in seats.items() if seat == turn]
            await play_one(page, rng)
            moves += 1
            assert moves < 2_000, "the game never ended"
        for page in (ann, bob, eve):
            await page.wait_for_selector("body[data-over='1']")
            assert page_errors(page) == []
        assert await eve.query_selector_all("#hand .card") == []
        assert session.table.result is not None


async def test_a_member_starts_a_game_against_the_computers_and_plays(
    table: Table, browser: Browser
) -> None:
    """Ann, alone in an Activity of a channel with no game, is offered every game (Tuque
    chosen); "Play the computers" starts Tuque in the channel and opens her seat in the
    same page, where she plays."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        _, page = await alone(t, bot, browser)
        assert await page.query_selector_all("#activity-tables button") == []
        titles = await page.eval_on_selector_all(
            "#activity-variant option", "options => options.map(o => o.textContent)"
        )
        assert titles == [v.title for v in VARIANTS.values()]
        assert await page.input_value("#activity-variant") == "tuque"
        await page.click("#activity-start button[data-start='computers']")
        await page.wait_for_selector("body[data-state='live']")
        assert await page.get_attribute("body", "data-activity") == "table"
        assert await page.get_attribute("body", "data-seat") == "0"
        (session,) = bot.sessions.running()
        assert session.channel_id == t.channel.id
        assert session.table.game.variant.name == "tuque"
        assert [seat.member for seat in session.table.seats] == [t.ann.id, None]
        assert await play_one(page, random.Random(35))
        assert page_errors(page) == []


async def test_a_start_for_a_game_already_here_shows_why_and_lists_it(
    table: Table, browser: Browser
) -> None:
    """While Ann's "Play the computers" waits for its answer the start buttons are
    disabled; refused because she already plays a game here (started by her other page
    since this one listed the channel's games), the page shows the reason and lists the
    game, and the buttons work again."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        instance, page = await alone(t, bot, browser)
        body = await start_body(t, bot, t.ann, instance)
        status, answer = await start(bot, body)
        assert status == 200, answer
        game = answer["game"]
        held = asyncio.Event()

        async def hold(route: Route) -> None:
            await held.wait()
            await route.continue_()

        await page.route("**/api/activity/start", hold)
        await page.click("#activity-start button[data-start='computers']")
        await page.wait_for_selector("body[data-activity='starting']")
        disabled = "buttons => buttons.map(b => b.disabled)"
        assert set(await page.eval_on_selector_all("#activity-start button", disabled)) == {True}
        held.set()
        await page.wait_for_selector("body[data-activity-error='already_here']")
        assert f"game #{game} here" in (await error_of(page))[1]
        listed = await page.eval_on_selector_all(
            "#activity-tables button", "buttons => buttons.map(b => b.dataset.game)"
        )
        assert listed == [str(game)]
        assert set(await page.eval_on_selector_all("#activity-start button", disabled)) == {False}
        assert [s.id for s in bot.sessions.running()] == [game]
        assert page_errors(page) == []


async def test_a_refused_sign_in_shows_why_and_opens_nothing(
    table: Table, browser: Browser
) -> None:
    """Eve not in the instance, a code used already, an instance that is not running, a
    page opened outside Discord: each page shows the refusal's words and no table."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        _, instance = await launch(t, bot)
        used = t.double.authorize(t.ann)
        ann = await open_page(browser, activity_url(bot, instance, used))
        # Each refusal, and words of the reason the page must show.
        cases = {
            "not_participant": (
                activity_url(bot, instance, t.double.authorize(t.eve)),
                "not in this Activity",
            ),
            "code": (activity_url(bot, instance, used), "not valid"),
            "instance": (
                activity_url(bot, "i-0-gc-0-0", t.double.authorize(t.ann)),
                "not running",
            ),
            "outside": (activity_url(bot, None), "Open the table"),
        }
        for kind, (url, reason) in cases.items():
            page = await open_page(browser, url, ready=SETTLED)
            shown, words = await error_of(page)
            assert shown == kind and reason in words, (kind, words)
            assert await page.is_visible("#activity-error")
            assert await page.get_attribute("body", "data-state") == "connecting"
            assert await page.query_selector_all("[data-action]") == []
            # A retry asks Discord again; outside Discord there is nothing to retry.
            assert await page.is_visible("#activity-retry") == (kind != "outside")
            assert page_errors(page) == []
        # The member who did sign in plays on, unharmed.
        assert await ann.get_attribute("body", "data-state") == "live"


async def test_without_the_client_secret_the_page_says_the_activity_is_off(
    table: Table, browser: Browser
) -> None:
    """A bot with the web table and no DISCORD_CLIENT_SECRET: the page says so before it
    asks Discord for anything, with no retry."""
    t = table
    async with running_bot(t, web_port=0) as bot:
        page = await open_page(browser, activity_url(bot, "i-1", "code"), ready=SETTLED)
        kind, words = await error_of(page)
        assert kind == "off" and "DISCORD_CLIENT_SECRET" in words
        assert not await page.is_visible("#activity-retry")
        assert page_errors(page) == []
