"""The page inside Discord in Chromium, against the Discord double: launched from "Open
the table", each page signs in through the SDK's own mock (``DiscordSDKMock``: no
``frame_id`` in the address) with a code the double issued, the bot exchanges it at the
double and checks the instance, and the members play a whole game in their pages while a
third member watches; a member alone starts a game against the computers from the page
and plays in it, her start buttons disabled while a start is pending, and a start refused
for a game of hers already here lists that game; a sign-in the server refuses shows its
reason and opens nothing. And once as inside Discord (``frame_id``), with the real
``DiscordSDK`` in an iframe talking to a page that plays Discord's client
(``discord_client.html``)."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlencode, urlsplit

import pytest
from browser import (
    open_page,
    page_errors,
    play_one,
    violations_in_every_look,
    watched,
)
from playwright.async_api import Browser, FrameLocator, Page, Route
from test_activity import start, start_body

from bot.client import TuqueBot
from bot.cogs.events import EventsCog
from bot.events.model import Config, Format
from engine.variants import VARIANTS
from tests.bot.e2e import Table, challenge_and_accept, dealt_from, running_bot, table_message
from tests.discord_double import DiscordDouble
from tests.discord_double.models import ActivityInstance, User
from tests.discord_double.server import CLIENT_SECRET

ACTIVITY = {"web_port": 0, "discord_client_secret": CLIENT_SECRET}

SIGNED_IN = "body[data-activity='table'], body[data-activity='choosing']"
"""The page signed in: a table opened, or the channel's games to choose from."""
FAILED = "body[data-activity='error']"
SETTLED = f"{SIGNED_IN}, {FAILED}"

DISCORD_CLIENT = (Path(__file__).parent / "discord_client.html").read_text()
"""A page playing Discord's client side of the SDK's RPC around the Activity's iframe."""
FRAME_ID = "frame-1"
"""The ``frame_id`` Discord's client gives the Activity's iframe."""


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


async def open_in_discord(
    browser: Browser,
    double: DiscordDouble,
    bot: TuqueBot,
    instance: ActivityInstance,
    member: User,
) -> tuple[Page, FrameLocator, dict[str, Any]]:
    """The Activity as Discord opens it: in an iframe at the URL mapping's root with
    Discord's query, the real SDK in it talking to a page playing Discord's client
    (``discord_client.html``), which signs ``member`` in with a code the double issued.
    The client's page is served at ``https://discord.com``, as Discord's web client is:
    the SDK takes messages only from origins it knows, and the Activity's page lets
    only Discord's frame it. Returns the client's page (its ``handshakes`` and
    ``commands`` to read), the Activity's frame, and the server's answer to the frame's
    ``POST /api/activity/token``, once it came."""
    assert bot.web is not None and bot.web.address is not None
    activity = f"{bot.web.address}/?" + urlencode(
        {
            "frame_id": FRAME_ID,
            "instance_id": instance.instance_id,
            "platform": "desktop",
            "guild_id": instance.channel.guild.id,
            "channel_id": instance.channel.id,
        }
    )
    address = "https://discord.com/discord-client?" + urlencode(
        {
            "activity": activity,
            "code": double.authorize(member),
            "user_id": member.id,
            "username": member.name,
        }
    )
    context = await browser.new_context(
        viewport={"width": 1280, "height": 800}, reduced_motion="reduce"
    )
    client = await watched(await context.new_page())

    async def serve(route: Route) -> None:
        await route.fulfill(body=DISCORD_CLIENT, content_type="text/html")

    await client.route(lambda url: urlsplit(url).path == "/discord-client", serve)
    signed_in = client.expect_response(lambda r: urlsplit(r.url).path == "/api/activity/token")
    async with signed_in as exchange:
        await client.goto(address)
    answer = await (await exchange.value).json()
    return client, client.frame_locator("#activity"), answer


async def error_of(page: Page) -> tuple[str | None, str]:
    """The refusal's kind and the words the page shows."""
    kind = await page.get_attribute("body", "data-activity-error")
    return kind, await page.inner_text("#activity-error")


async def test_two_members_play_a_game_in_the_activity_and_a_third_watches(
    table: Table, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's and Bob's pages open their seats at once (their only game), Eve's lists the
    channel's game to watch; clicking in the two pages plays it to its end, and Eve's
    page follows it with no hand."""
    t = table
    # The same game every run: a deal these clicks end in two hands (73 moves, some 17 s
    # alone); other deals took up to eight (291 moves, 57 s).
    dealt_from(monkeypatch, 9)
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
        # The table inside the Activity, for everyone (tests/web/test_accessibility.py).
        assert await violations_in_every_look(page) == []
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
        # The channel's games with a refusal shown, for everyone.
        assert await violations_in_every_look(page) == []
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


async def test_the_real_sdk_signs_in_through_discords_client_and_opens_a_table(
    table: Table, browser: Browser
) -> None:
    """Inside Discord (``frame_id`` in the address) the page runs the real ``DiscordSDK``:
    a parent page playing Discord's client answers its handshake, AUTHORIZE (Ann's code
    from the double) and AUTHENTICATE (the token the server got for it), and Ann, signed
    in through the server, starts a game against the computers and sees its table."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        instance = t.double.start_activity(t.channel, t.ann)
        client, page, answer = await open_in_discord(browser, t.double, bot, instance, t.ann)
        assert answer["member"] == str(t.ann.id) and answer["channel"] == str(t.channel.id)
        await page.locator("body[data-activity='choosing']").wait_for()
        await page.locator("#activity-start button[data-start='computers']").click()
        await page.locator("body[data-state='live']").wait_for()
        assert await page.locator("body").get_attribute("data-activity") == "table"
        assert await page.locator("body").get_attribute("data-seat") == "0"
        assert await page.locator("[data-action]:not([disabled])").count() > 0
        (session,) = bot.sessions.running()
        assert session.channel_id == t.channel.id
        assert [seat.member for seat in session.table.seats] == [t.ann.id, None]

        client_id = str(t.double.application_id)
        assert await client.evaluate("handshakes") == [
            {
                "v": 1,
                "encoding": "json",
                "client_id": client_id,
                "frame_id": FRAME_ID,
                "sdk_version": "2.5.0",
            }
        ]
        # The console the SDK forwards once READY aside, the two commands of a sign-in,
        # none of them answered with an error.
        sent = await client.evaluate("commands")
        asked = [command for command in sent if command["cmd"] != "CAPTURE_LOG"]
        assert [command["cmd"] for command in asked] == ["AUTHORIZE", "AUTHENTICATE"], sent
        authorize, authenticate = (command["args"] for command in asked)
        assert authorize["client_id"] == client_id
        assert authorize["response_type"] == "code" and "identify" in authorize["scope"]
        assert authenticate == {"access_token": answer["access_token"]}
        assert page_errors(client) == []


async def test_a_page_opened_as_inside_discord_outside_it_says_so(
    table: Table, browser: Browser
) -> None:
    """The Activity's address with a ``frame_id`` opened in a plain browser: Discord's
    client never answers the real SDK's handshake, and after 15 s (the page's clock run
    on, not waited for) the page says that it opens only inside Discord, with no retry."""
    t = table
    async with running_bot(t, **ACTIVITY) as bot:
        assert bot.web is not None and bot.web.address is not None
        query = {"frame_id": FRAME_ID, "instance_id": "i-1", "platform": "desktop"}
        context = await browser.new_context(reduced_motion="reduce")
        page = await watched(await context.new_page())
        await page.clock.install()
        await page.goto(f"{bot.web.address}/?{urlencode(query)}")
        await page.wait_for_selector("#activity-variant option", state="attached")
        assert await page.get_attribute("body", "data-activity") == "signing-in"
        await page.clock.run_for(15_000)
        await page.wait_for_selector(FAILED)
        kind, words = await error_of(page)
        assert kind == "no_discord" and "only inside Discord" in words
        assert not await page.is_visible("#activity-retry")
        assert page_errors(page) == []


async def test_an_event_opens_on_the_members_table_or_its_standings(
    table: Table, browser: Browser
) -> None:
    """With a Swiss night of Ann and Bob running in the channel (its table opened by the
    runner), Ann's Activity opens her table, whose round line shows round 1 of 2 and
    its clock (as its table message does) and opens the standings over the table and
    back; Eve's, who is not
    seated, opens on the event's live standings."""
    t = table
    t.double.enable_activities()
    async with running_bot(t, **ACTIVITY) as bot:
        config = Config("Tuesday night", "tuque", Format.SWISS, rounds=2, seed=7, minutes=30)
        row = await bot.store.create_event(t.guild.id, t.channel.id, t.ann.id, config, starts_at=0)
        for member in (t.ann, t.bob):
            await bot.store.upsert_player(t.guild.id, member.id, member.name)
            await bot.store.change_event(row.id, lambda e, m=member.id: e.join(m))
        await bot.store.change_event(row.id, lambda e: e.start(), seated=True)
        # The runner opens round 1's table (the extension's module is loaded anew by
        # the bot: its class, not the one imported here).
        events = bot.get_cog("Events")
        assert events is not None
        await cast(EventsCog, events).sweep()
        # The table message says the round and when its clock runs out (a timestamp
        # each member's Discord counts down).
        await t.double.wait_until(
            lambda: "Tuesday night · round 1 of 2" in table_message(t).text, 10
        )
        assert re.search(r"round 1 of 2 · ends <t:\d+:R>", table_message(t).text)
        instance = t.double.start_activity(t.channel, t.ann)
        instance.users.append(t.eve.id)

        ann = await open_page(
            browser,
            activity_url(bot, instance.instance_id, t.double.authorize(t.ann)),
            width=360,
            height=740,
        )
        line = ann.locator("#round-line")
        assert (await line.locator("span").first.text_content()) == "Tuesday night · Round 1 of 2"
        assert (await line.locator(".clock").text_content() or "").endswith(" left")
        await line.get_by_role("button", name="Standings").click()
        await ann.wait_for_selector("#standings[data-state='live']")
        names = await ann.locator("#standings tbody .name").all_text_contents()
        assert sorted(names) == ["ann", "bob"]
        await ann.get_by_role("button", name="Back to the table").click()
        await ann.wait_for_selector("#standings", state="hidden")
        assert await ann.get_attribute("body", "data-activity") == "table"

        eve = await open_page(
            browser,
            activity_url(bot, instance.instance_id, t.double.authorize(t.eve)),
            ready="#standings[data-state='live']",
        )
        assert await eve.get_attribute("body", "data-activity") == "standings"
        assert await eve.locator("#standings h2").text_content() == "Tuesday night"
        assert await eve.locator("#standings .headline").text_content() == "Round 1 of 2"
        assert await eve.get_by_role("button", name="Play your table").is_hidden()
        await eve.get_by_role("button", name="This channel's games").click()
        await eve.wait_for_selector("body[data-activity='choosing']")
        listed = await eve.locator("#activity-tables button").all_inner_texts()
        assert "Standings" in listed[0] and "Watch" in listed[1]
        for page in (ann, eve):
            assert page_errors(page) == []
