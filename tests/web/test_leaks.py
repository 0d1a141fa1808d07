"""No frame of the web table shows a card its viewer may not see: full games of every
variant, members' moves made through their pages, every frame checked against the
engine's own view of that seat (a spectator's against the public view), and every
hint frame against the view of the seat that asked."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from web_helpers import ANN, BOB, Page, Web, cards_in, engine_cards, running_web

from bot.render import button_labels
from bot.sessions import Session
from bot.sessions.state import record_of
from bot.web.protocol import action_kind, encode, encoded_views, views_of
from engine.actions import Pass
from engine.game import Game
from engine.variants import VARIANTS
from engine.view import PlayerView
from engine.wording import suit_groups

PASS = Pass().id


async def play(page: Page, seat: int, rng: random.Random) -> None:
    """Act on the page's view whenever its seat is on turn, until the game is over;
    ask for a hint first at the seat's first turn to play a card and its first turn to
    do anything else (a search per hint: a few keep the test short)."""
    acted = -1
    hinted: set[bool] = set()
    while not page.socket.closed:
        view = page.view
        legal = view["view"]["legal"]
        if view["view"]["turn"] == seat and legal and view["seq"] != acted:
            acted = view["seq"]
            playing = any(a["kind"] == "play" for a in legal)
            if playing not in hinted:
                hinted.add(playing)
                await page.socket.send_json({"type": "hint", "seq": view["seq"]})
            ids = [a["id"] for a in legal]
            # Members pass where they may (a random bidder can sink an Auction game below
            # zero for good); the computers make the contracts.
            await page.act(view["seq"], PASS if PASS in ids else rng.choice(ids))
        page.changed.clear()
        await page.changed.wait()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_no_frame_shows_a_card_its_viewer_may_not_see(tmp_path: Path, variant: str) -> None:
    players = VARIANTS[variant].players
    members = [ANN, BOB][: 1 if players == 2 else 2]
    # The smallest target the variant takes keeps each game to a few hands.
    options = {"target": min(VARIANTS[variant].choices.get("target") or [1])}
    if "target" not in VARIANTS[variant].adjustable:
        options = {}
    rng = random.Random(variant)
    # Computers move at once here, so members act far faster than people can.
    async with running_web(tmp_path / "tuque.db", rate=1000) as web:
        seats = [*members, *[None] * (players - len(members))]
        session = await web.start(variant, seats, **options)
        pages = {
            seat: await web.page(session.id, web.links.token(session.id, seat, member))
            for seat, member in enumerate(members)
        }
        watcher = await web.page(session.id, web.links.token(session.id, None, None))
        for page in (*pages.values(), watcher):
            await page.until(lambda page=page: page.views)
        players_ = [play(page, seat, rng) for seat, page in pages.items()]
        await asyncio.wait_for(asyncio.gather(*players_, watcher.reader), 60)
        row = await web.store.load_game(session.id)
    assert row.status.value == "finished", row.status
    record = record_of(row)
    # The engine's own views at each log length, replayed from the stored record.
    game = Game.from_record({**record, "actions": []})
    allowed: dict[tuple[int, int | None], set[str]] = {}
    seats = [*pages, None]
    for seq in range(len(record["actions"]) + 1):
        for seat in seats:
            allowed[seq, seat] = engine_cards(game.view(seat))
        if seq < len(record["actions"]):
            game.replay(record["actions"][seq])
    checked = 0
    for seat, page in [*pages.items(), (None, watcher)]:
        assert page.socket.close_code == 4000
        for frame in page.views:
            shown = cards_in(frame["view"])
            hidden = shown - allowed[frame["seq"], seat]
            assert not hidden, f"seat {seat} at seq {frame['seq']} was shown {hidden}"
            checked += bool(shown)
        for frame in page.of("hint"):
            # A hint names the viewer's own cards, at most: their view when asked.
            hidden = cards_in(frame) - allowed[frame["seq"], seat]
            assert not hidden, f"seat {seat}'s hint at seq {frame['seq']} named {hidden}"
        assert all(f["kind"] == "stale" for f in page.of("refused")), page.of("refused")
    assert checked > 10
    assert any(page.of("hint") for page in pages.values())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
async def test_views_built_together_are_each_viewers_own(tmp_path: Path, variant: str) -> None:
    """Views built together share parts yet each is its seat's own, none showing more,
    and encoded together each is the text (and tag) of its view encoded alone."""
    players = VARIANTS[variant].players
    members = [ANN + n for n in range(players)]
    rng = random.Random(variant)
    async with running_web(tmp_path / "tuque.db") as web:
        session = await web.start(variant, members)
        seats: list[int | None] = [*range(players), None]
        checked = 0
        while not session.table.finished and checked < 60 * len(seats):
            game = session.table.game
            for order in (seats, seats[::-1], [seats[-2], *seats, seats[0]]):
                together = views_of(session, order)
                texts = encoded_views(session, order)
                assert list(together) == list(dict.fromkeys(order)) == list(texts)
                for seat, view in together.items():
                    alone = views_of(session, (seat,))[seat]
                    assert view == alone, f"seat {seat}"
                    # Encoded together (the shared keys once) or alone: the same bytes.
                    assert texts[seat] == encode(alone), f"seat {seat}"
                    hidden = cards_in(view) - engine_cards(game.view(seat))
                    assert not hidden, f"seat {seat} at seq {session.table.seq} was shown {hidden}"
                    checked += 1
            turn = game.turn
            assert turn is not None
            ids = [a.id for a in game.legal_actions(turn)]
            # Members pass where they may, as in the test above.
            action = PASS if PASS in ids else rng.choice(ids)
            await web.sessions.act(session.id, members[turn], session.table.seq, action)
    assert checked > 3 * len(seats)


async def test_a_view_unlike_the_others_is_not_given_their_shared_keys(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Views share their shared keys only where the engine gave each viewer the same
    values: a seat whose view differs in one of them (as no engine view does today) is
    sent its own, encoded together or alone."""
    async with running_web(tmp_path / "tuque.db") as web:
        session = await web.start("tuque", [ANN, BOB])
        engine_view = Game.view

        def view(game: Game, seat: int | None) -> PlayerView:
            made = engine_view(game, seat)
            return replace(made, scores=(7, 7)) if seat == 1 else made

        monkeypatch.setattr(Game, "view", view)
        order = (0, 1, None)
        together = views_of(session, order)
        texts = encoded_views(session, order)
        assert [together[s]["scores"] for s in order] == [[0, 0], [7, 7], [0, 0]]
        for seat in order:
            assert texts[seat] == encode(together[seat]) == encode(views_of(session, (seat,))[seat])


async def _each_state(
    web: Web, sessions: list[Session], rng: random.Random, rounds: int
) -> AsyncIterator[Session]:
    """Play ``sessions`` side by side for ``rounds`` rounds, yielding each running game at
    each of its states before its member on turn makes a random legal move (a member's
    forced last card is left to the bot, as a page waits for it)."""
    for _ in range(rounds):
        await asyncio.sleep(0)  # the bot's forced moves, in tasks of their own
        for session in sessions:
            if session.table.finished:
                continue
            yield session
            game = session.table.game
            turn = game.turn
            assert turn is not None
            if session.table.bot_to_move:
                continue
            member = session.table.seats[turn].member
            ids = [a.id for a in game.legal_actions(turn)]
            await web.sessions.act(session.id, member, session.table.seq, rng.choice(ids))


async def test_kept_tricks_are_each_states_own(tmp_path: Path) -> None:
    """A hand's completed tricks are sent as the engine's view has them at every state,
    though their JSON is kept from state to state (by the identity of the engine's tuple
    of them) and shared between games."""
    rng = random.Random(5)
    async with running_web(tmp_path / "tuque.db") as web:
        sessions = [await web.start("tuque", [ANN + 2 * n, BOB + 2 * n]) for n in range(2)]
        most = 0
        async for session in _each_state(web, sessions, rng, 150):
            sent = views_of(session, (None,))[None]["tricks"]
            assert sent == [
                {
                    "leader": trick.leader,
                    "plays": [[seat, card.code] for seat, card in trick.plays],
                    "winner": trick.winner,
                }
                for trick in session.table.game.view(None).tricks
            ]
            most = max(most, len(sent))
        assert most >= 5


@pytest.mark.parametrize(("variant", "double_pack"), [("tuque", False), ("six_hand", True)])
async def test_kept_hands_and_actions_are_each_views_own(
    tmp_path: Path, variant: str, double_pack: bool
) -> None:
    """Each seat's hand groups and legal actions are its view's at every state, though
    their JSON is kept between states and games (by value: the same hand, trump and pack
    give the same groups; the same action and label, the same entry)."""
    rng = random.Random(variant)
    players = VARIANTS[variant].players
    async with running_web(tmp_path / "tuque.db") as web:
        sessions = [
            await web.start(
                variant,
                [ANN + players * n + s for s in range(players)],
                **({"double_pack": True} if double_pack else {}),
            )
            for n in range(2)
        ]
        checked = 0
        async for session in _each_state(web, sessions, rng, 120):
            game = session.table.game
            for seat, view in views_of(session, [*range(players), None]).items():
                engine = game.view(seat)
                assert view["hand_groups"] == [
                    {
                        "suit": None if suit is None else suit.value,
                        "trump": suit is not None and suit is engine.trump,
                        "cards": [card.code for card in cards],
                    }
                    for suit, cards in suit_groups(engine.hand, engine.trump, game.variant.twins)
                ]
                labels = button_labels(engine, session.seating)
                assert view["legal"] == [
                    {
                        "id": a.id,
                        "label": label,
                        "kind": action_kind(a),
                        "card": getattr(getattr(a, "card", None), "code", None),
                    }
                    for a, label in zip(engine.legal_actions, labels, strict=True)
                ]
                checked += 1
        assert checked > 100
