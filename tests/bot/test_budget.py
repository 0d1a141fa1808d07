"""The request budget (bot/budget.py): Discord's global limit paced before it is met.

No second holds more departures than the pace, and none leave closer than half a turn,
whatever the loop's stalls; a loop that ran late catches up within that; turns run at
most ``AHEAD`` of the departures, the most urgent request first and the oldest of those
first; a table's urgency may rise while it waits; a cancelled wait gives its place up,
and so does a turn no request used; a turn taken before drawing covers the edit's
request; interaction routes never wait; 401, 403 and 429 answers are counted as
Discord counts them, with a warning before its limit.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import cast

import aiohttp
import pytest
from aiohttp import web
from discord.http import Route
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import budget as budget_module
from bot import replies
from bot.budget import (
    AHEAD,
    ALLOWANCE,
    CATCH_UP,
    TRY_DEADLINE,
    Priority,
    RequestBudget,
    counts_globally,
    pacing,
)


async def _full(budget: RequestBudget) -> None:
    """Take every turn the budget may have ahead of its departures, none of them used:
    the next turn waits until one is used or given up."""
    for _ in range(budget._ahead):
        await budget.turn(Priority.RESULT)
    assert not budget._room(asyncio.get_running_loop())


def _free_one(budget: RequestBudget) -> None:
    """A turn taken for an edit that failed before its request: its place is free."""
    with budget.prepaid():
        pass


async def _turns(budget: RequestBudget, names: list[tuple[str, Priority]]) -> list[str]:
    """Ask for a turn for each of ``names`` at once, while the budget is full; return
    the names in the order their turns came as places are freed one by one."""
    await _full(budget)
    order: list[str] = []

    async def wait(name: str, priority: Priority) -> None:
        await budget.turn(priority)
        order.append(name)

    waits = [asyncio.create_task(wait(name, priority)) for name, priority in names]
    await asyncio.sleep(0)
    while len(order) < len(names):
        _free_one(budget)
        await asyncio.sleep(0)
    await asyncio.gather(*waits)
    return order


class _Clock:
    """A stand-in event loop whose time is set by the test (``RequestBudget._departs``
    asks only its ``time()``)."""

    def __init__(self) -> None:
        self.now = 0.0

    def time(self) -> float:
        return self.now


def test_no_second_holds_more_departures_than_the_pace() -> None:
    budget = RequestBudget(50)
    clock = _Clock()
    loop = cast(asyncio.AbstractEventLoop, clock)
    left: list[float] = []
    for _ in range(200):  # each request leaves as soon as it may
        clock.now = max(clock.now, budget._departs(loop))
        budget._left.append(clock.now)
        left.append(clock.now)
    per_window = budget._per_window
    assert per_window == 46
    # Any 47 departures in a row span more than a second: Discord's count never sees 47.
    assert min(b - a for a, b in itertools.pairwise(left)) >= budget._gap - 1e-9
    assert min(b - a for a, b in zip(left, left[per_window:], strict=False)) >= 1.0 - 1e-9


def test_a_loop_that_ran_late_catches_up_within_the_pace() -> None:
    """Departures are counted, not scheduled: after a stall the requests that waited
    leave at CATCH_UP times the pace until the second holds the pace, so lateness costs
    no turns; before, each late timer pushed every later turn back (35 a second sent
    where 45 were allowed, at 300 busy games)."""
    budget = RequestBudget(50)
    assert budget.pace is not None
    clock = _Clock()
    loop = cast(asyncio.AbstractEventLoop, clock)
    for i in range(20):  # 20 left on the pace in the last half second
        budget._left.append(i / budget.pace)
    clock.now = 20 / budget.pace + 0.1  # then the loop stalled for 0.1 s
    assert budget._departs(loop) <= clock.now  # the next may leave at once
    left = []
    for _ in range(budget._per_window - 20):
        clock.now = max(clock.now, budget._departs(loop))
        budget._left.append(clock.now)
        left.append(clock.now)
    gaps = [b - a for a, b in itertools.pairwise(left)]
    # CATCH_UP times the pace while catching up, no faster.
    assert max(gaps) == pytest.approx(budget._gap) == pytest.approx(1 / (CATCH_UP * budget.pace))
    # ...and the second from the first departure holds the pace (46) exactly.
    assert sum(t < 1.0 for t in budget._left) == budget._per_window


async def test_turns_run_ahead_of_departures_by_a_few_only() -> None:
    budget = RequestBudget(50)
    assert budget._ahead == round(46 * AHEAD)
    await _full(budget)
    late = asyncio.create_task(budget.turn(Priority.RESULT))
    await asyncio.sleep(0.05)
    assert not late.done() and budget.waiting == 1
    _free_one(budget)  # an edit that never sent its request
    await late
    assert budget.waiting == 0


async def test_a_turn_no_request_used_lapses(monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn taken and then forgotten (no prepaid edit followed: the task ended) holds
    its place ``LEASE`` seconds only."""
    monkeypatch.setattr(budget_module, "LEASE", 0.05)
    budget = RequestBudget(50)
    await _full(budget)
    await asyncio.wait_for(budget.turn(Priority.ROUTINE), timeout=30)


async def test_lapsed_turns_free_their_places_with_no_one_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(budget_module, "LEASE", 0.05)
    budget = RequestBudget(50)
    await _full(budget)
    await asyncio.sleep(0.3)
    assert not budget._granted and budget._expiry is None  # no timer left spinning


async def test_a_result_goes_first_then_a_members_turn_then_the_rest() -> None:
    budget = RequestBudget(20)
    order = await _turns(
        budget,
        [
            ("ping deletion", Priority.CLEANUP),
            ("computer card 1", Priority.ROUTINE),
            ("member's turn 1", Priority.TURN),
            ("hand result 1", Priority.RESULT),
            ("computer card 2", Priority.ROUTINE),
            ("hand result 2", Priority.RESULT),
            ("member's turn 2", Priority.TURN),
        ],
    )
    assert order == [
        "hand result 1",
        "hand result 2",
        "member's turn 1",
        "member's turn 2",
        "computer card 1",
        "computer card 2",
        "ping deletion",
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 0.5), st.sampled_from(list(Priority)), st.booleans()),
        max_size=40,
    )
)
def test_the_next_turn_goes_to_the_waiter_most_due_of_all(
    arrivals: list[tuple[float, Priority, bool]],
) -> None:
    """The scan that stops early picks what a scan of every waiter would: the live
    waiter with the earliest due time (its wait plus its priority's allowance), the
    first come of equals; a waiter whose wait is over (cancelled) is never picked."""
    loop = asyncio.new_event_loop()
    try:
        waiters, since = [], 0.0
        for order, (gap, priority, cancelled) in enumerate(arrivals):
            since += gap
            rank = budget_module._constant(priority)
            waiter = budget_module._Waiter(rank, since, order, loop.create_future())
            if cancelled:
                waiter.future.cancel()
            waiters.append(waiter)
        live = [w for w in waiters if not w.future.done()]
        expected = min(live, key=budget_module._Waiter.due) if live else None
        assert budget_module._most_due(waiters) is expected
    finally:
        loop.close()


async def test_a_table_whose_urgency_rises_while_it_waits_goes_sooner() -> None:
    budget = RequestBudget(20)
    await _full(budget)
    urgency = {"table": Priority.ROUTINE}
    order: list[str] = []

    async def wait(name: str, priority: Priority | None) -> None:
        await budget.turn(priority if priority is not None else lambda: urgency["table"])
        order.append(name)

    waits = [
        asyncio.create_task(wait("other table", Priority.ROUTINE)),
        asyncio.create_task(wait("table", None)),
    ]
    await asyncio.sleep(0)  # both wait now
    urgency["table"] = Priority.RESULT  # its hand ended meanwhile
    for _ in range(2):
        _free_one(budget)
        await asyncio.sleep(0)
    await asyncio.gather(*waits)
    assert order == ["table", "other table"]


async def test_a_table_waiting_past_its_allowance_goes_before_a_fresh_result() -> None:
    """No table starves behind results: one that waited longer than a computer's card
    may (``ALLOWANCE``) goes before a result that came later."""
    budget = RequestBudget(20)
    await _full(budget)
    order: list[str] = []

    async def wait(name: str, priority: Priority) -> None:
        await budget.turn(priority)
        order.append(name)

    table = asyncio.create_task(wait("table", Priority.ROUTINE))
    await asyncio.sleep(ALLOWANCE[Priority.ROUTINE] + 0.05)
    result = asyncio.create_task(wait("result", Priority.RESULT))
    await asyncio.sleep(0)
    for _ in range(2):
        _free_one(budget)
        await asyncio.sleep(0)
    await asyncio.gather(table, result)
    assert order == ["table", "result"]


async def test_a_cancelled_wait_gives_its_place_up() -> None:
    budget = RequestBudget(20)
    await _full(budget)
    first = asyncio.create_task(budget.turn(Priority.RESULT))
    second = asyncio.create_task(budget.turn(Priority.ROUTINE))
    await asyncio.sleep(0)
    assert budget.waiting == 2
    first.cancel()
    await asyncio.gather(first, return_exceptions=True)
    assert budget.waiting == 1
    _free_one(budget)
    await second
    assert budget.waiting == 0


async def test_without_a_limit_nothing_waits() -> None:
    budget = RequestBudget(None)
    await asyncio.gather(*(budget.turn(Priority.ROUTINE) for _ in range(1000)))
    assert budget.waiting == 0


def test_a_budget_is_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        RequestBudget(0)


def test_interaction_routes_and_the_gateway_do_not_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Route, "BASE", "https://discord.test/api/v10")
    assert counts_globally("https://discord.test/api/v10/channels/1/messages")
    assert counts_globally("https://discord.test/api/v10/applications/1/commands")
    assert not counts_globally("https://discord.test/api/v10/interactions/1/tok/callback")
    assert not counts_globally("https://discord.test/api/v10/webhooks/1/tok/messages/@original")
    assert not counts_globally("wss://gateway.discord.test/?v=10")


# --- the gate, on a real HTTP session -------------------------------------------------


class _Discord:
    """A loopback server standing in for Discord's REST API: answers every request with
    ``status`` (and ``scope``), noting each path as it arrives."""

    def __init__(self) -> None:
        self.arrived: list[str] = []
        self.status = 200
        self.scope: str | None = None

    async def handle(self, request: web.Request) -> web.Response:
        self.arrived.append(request.path)
        headers = {"X-RateLimit-Scope": self.scope} if self.scope else {}
        return web.json_response({}, status=self.status, headers=headers)


@pytest.fixture
async def discord_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[_Discord]:
    api = _Discord()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", api.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    try:
        yield api
    finally:
        await runner.cleanup()


async def _get(session: aiohttp.ClientSession, path: str) -> None:
    async with session.get(Route.BASE + path) as answer:
        await answer.read()


async def _until(check: Callable[[], bool]) -> None:
    async with asyncio.timeout(30):
        while not check():
            await asyncio.sleep(0.005)


async def test_interaction_answers_pass_while_table_edits_wait(discord_api: _Discord) -> None:
    budget = RequestBudget(0.5)  # a turn every two seconds
    async with aiohttp.ClientSession(trace_configs=[budget.trace]) as session:
        await _get(session, "/channels/1/messages/1")  # the turn of these two seconds
        edits = [asyncio.create_task(_get(session, f"/channels/1/messages/{i}")) for i in (2, 3)]
        await _until(lambda: budget.waiting == 2)
        await _get(session, "/interactions/9/tok/callback")
        await _get(session, "/webhooks/9/tok/messages/@original")
        assert budget.waiting == 2  # the edits still wait; the hand went past them
        for edit in edits:
            edit.cancel()
        await asyncio.gather(*edits, return_exceptions=True)
    assert discord_api.arrived == [
        "/api/v10/channels/1/messages/1",
        "/api/v10/interactions/9/tok/callback",
        "/api/v10/webhooks/9/tok/messages/@original",
    ]
    assert budget.sent == 1 and budget.waiting == 0


async def test_a_turn_taken_before_drawing_covers_the_edit(
    discord_api: _Discord, monkeypatch: pytest.MonkeyPatch
) -> None:
    budget = RequestBudget(0.5)
    asked: list[Priority] = []
    turn = budget.turn

    async def counted(priority: Priority) -> None:
        asked.append(priority)
        await turn(priority)

    async with aiohttp.ClientSession(trace_configs=[budget.trace]) as session:
        await budget.turn(Priority.ROUTINE)  # the table's turn, before its picture
        monkeypatch.setattr(budget, "turn", counted)
        with budget.prepaid(), budget.priority(Priority.TURN):
            await _get(session, "/channels/1/messages/1")
            assert asked == []  # its turn was taken
            again = asyncio.create_task(_get(session, "/channels/1/messages/2"))
            await _until(lambda: budget.waiting == 1)  # a second one waits for its own
            assert asked == [Priority.TURN]
            again.cancel()
            await asyncio.gather(again, return_exceptions=True)
    assert budget.sent == 1


async def test_a_wait_for_a_turn_is_no_part_of_a_tries_time(
    discord_api: _Discord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A post delivered with one try of 0.5 s waits longer than that for its turn, and is
    sent once the turn comes: the try's clock stopped while it waited (a try that
    counted the wait timed out, and its post was never sent)."""
    monkeypatch.setattr(replies, "CALL_TIMEOUT", 0.5)
    monkeypatch.setattr(replies, "RETRY_DELAYS", ())
    monkeypatch.setattr(budget_module, "LEASE", 60.0)  # the turns held do not lapse
    budget = RequestBudget(2)
    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession(trace_configs=[budget.trace]) as session:
        held = 0
        while budget._room(loop):
            await budget.turn(Priority.RESULT)
            held += 1
        post = asyncio.create_task(
            replies.deliver("a result", lambda: _get(session, "/channels/1/messages"))
        )
        await _until(lambda: budget.waiting == 1)
        await asyncio.sleep(1.0)  # longer than the try
        assert not post.done()
        for _ in range(held):
            with budget.prepaid():  # a turn given up: its place is free
                pass
        assert await post
    assert discord_api.arrived == ["/api/v10/channels/1/messages"]


async def test_pacing_stops_the_tries_clock_and_keeps_the_time_it_had_left() -> None:
    """Inside ``pacing`` the try's timeout does not run; after it, the try has what it
    had left, and then times out. A task the try started does not stop its clock."""
    task = asyncio.current_task()
    assert task is not None
    paced = False
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.3) as deadline:
            TRY_DEADLINE.set((deadline, task))
            with pacing():
                await asyncio.sleep(0.5)
            paced = True
            await asyncio.sleep(30)
    assert paced

    async def paced_elsewhere() -> None:
        with pacing():
            await asyncio.sleep(30)

    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.3) as deadline:
            TRY_DEADLINE.set((deadline, task))
            await asyncio.create_task(paced_elsewhere())


async def test_edits_whose_pictures_are_ready_at_once_still_leave_paced(
    discord_api: _Discord,
) -> None:
    """Tables took their turns one after another, then their pictures came from a
    held-up drawer together: their requests leave half a turn apart at least, not in
    one burst."""
    budget = RequestBudget(5)  # 4.5 a second: 0.11 s apart at least
    loop = asyncio.get_running_loop()
    left: list[float] = []

    async def leaving(*_: object) -> None:
        left.append(loop.time())

    budget.trace.on_request_start.append(leaving)  # after the gate's own callback
    async with aiohttp.ClientSession(trace_configs=[budget.trace]) as session:
        for _ in range(budget._ahead):
            await budget.turn(Priority.ROUTINE)

        async def edit(i: int) -> None:
            with budget.prepaid():
                await _get(session, f"/channels/1/messages/{i}")

        await asyncio.gather(*(edit(i) for i in range(budget._ahead)))
    gaps = [b - a for a, b in itertools.pairwise(left)]
    assert len(left) == budget._ahead and min(gaps) >= budget._gap - 0.005
    assert budget.sent == budget._ahead


async def test_invalid_answers_are_counted_as_discord_counts_them(
    discord_api: _Discord, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(budget_module, "INVALID_WARN_AT", 3)
    budget = RequestBudget(None)
    async with aiohttp.ClientSession(trace_configs=[budget.trace]) as session:
        discord_api.status = 404  # not an invalid request in Discord's sense
        await _get(session, "/channels/1/messages/1")
        discord_api.status, discord_api.scope = 429, "shared"  # not counted by Discord
        await _get(session, "/channels/1/messages/1")
        assert budget.invalid.recent() == 0
        with caplog.at_level(logging.WARNING, logger="bot.budget"):
            for status in (401, 403):
                discord_api.status, discord_api.scope = status, None
                await _get(session, "/users/@me")
            assert not caplog.records
            discord_api.status, discord_api.scope = 429, "global"
            await _get(session, "/channels/1/messages/1")
            await _get(session, "/channels/1/messages/1")
    assert budget.invalid.recent() == 4
    # One warning from the threshold on (at most one a minute).
    (warning,) = caplog.records
    assert "3 invalid requests" in warning.getMessage()
    assert "10000" in warning.getMessage()


async def test_requests_held_up_by_a_stalled_loop_still_leave_apart(
    discord_api: _Discord,
) -> None:
    """Edits were due to leave while the event loop was stalled (a long drawing in a
    thread, a collection): they leave half a turn apart once it runs again, not
    together."""
    budget = RequestBudget(5)  # 0.11 s apart at least
    loop = asyncio.get_running_loop()
    left: list[float] = []

    async def leaving(*_: object) -> None:
        left.append(loop.time())

    budget.trace.on_request_start.append(leaving)  # after the gate's own callback
    async with aiohttp.ClientSession(trace_configs=[budget.trace]) as session:

        async def edit(i: int) -> None:
            await budget.turn(Priority.ROUTINE)  # the table's turn, before its picture
            with budget.prepaid():
                await _get(session, f"/channels/1/messages/{i}")

        edits = [asyncio.create_task(edit(i)) for i in range(3)]
        await _until(lambda: len(left) == 1)  # the first left; two wait to leave
        time.sleep(1.0)  # the stall: both fall due meanwhile
        await asyncio.gather(*edits)
    gaps = [b - a for a, b in itertools.pairwise(left)]
    assert len(gaps) == 2 and min(gaps) >= budget._gap - 0.005
