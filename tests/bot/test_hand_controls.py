"""End to end: the hand message's compact controls (Auction's suit select), its refusals
of forged input, and the hint that marks its button, through the Discord double (which
checks every request against Discord's specification)."""

from __future__ import annotations

import random
import re

import pytest
from e2e import Table, assert_refused, db_snapshot, dealt_from, running_bot, table_message

from bot.client import TuqueBot
from bot.layout import HINT_EMOJI
from engine.actions import ACTIONS, Bid, CallCard, Discard, Pass
from engine.cards import Suit
from engine.view import Phase
from tests.discord_double import StoredMessage

SUCCESS = 3
"""Discord's green button style."""


async def _bot_game(t: Table, variant: str, **options: object) -> int:
    rec = await t.double.slash(t.ann, t.channel, "tuque", "bot", variant=variant, **options)
    await rec.settled()
    assert rec.original is not None and rec.original.ephemeral, rec.original
    return int(re.search(r"#(\d+)", rec.original.text).group(1))  # type: ignore[union-attr]


def _suit_select(message: StoredMessage) -> str | None:
    return next(
        (s.custom_id for s in message.selects if s.custom_id.startswith("tuque:suit:")), None
    )


def _shown_suit(message: StoredMessage) -> str:
    """The suit the message's suit select shows (its default option)."""
    select = message.component(_suit_select(message) or "")
    assert select is not None
    return next(o["value"] for o in select["options"] if o.get("default"))


def _acts(message: StoredMessage, seq: int) -> dict[int, str]:
    """The action buttons ``message`` offers at ``seq``: action id -> custom_id."""
    return {
        int(b.custom_id.rsplit(":", 1)[1]): b.custom_id
        for b in message.buttons
        if b.custom_id and b.custom_id.startswith("tuque:act:") and f":{seq}:" in b.custom_id
    }


async def _hand_now(t: Table, bot: TuqueBot, game_id: int) -> StoredMessage:
    """Ann's hand message for the turn now: her newest, or a fresh one from the table."""
    session = bot.sessions.session(game_id)
    assert session is not None
    seq = len(session.game.log)
    await t.double.idle()
    for message in reversed(t.double.ephemerals_for(t.ann)):
        if _acts(message, seq):
            return message
    show = next(b.custom_id for b in table_message(t).buttons if b.label == "Show my hand")
    rec = await t.double.click(t.ann, table_message(t), show)  # type: ignore[arg-type]
    await rec.settled()
    message = t.double.ephemerals_for(t.ann)[-1]
    assert _acts(message, seq), "the fresh hand offers no action"
    return message


async def _until(
    t: Table, bot: TuqueBot, game_id: int, wanted: object, rng: random.Random
) -> StoredMessage:
    """Play Ann's seat (passing in the bidding, else any button) until it is her turn
    and ``wanted(game)`` holds; return her hand message then."""
    while True:
        session = bot.sessions.session(game_id)
        assert session is not None, "the game ended first"
        game = session.game
        if game.turn != 0:
            await t.double.wait_until(lambda s=session: s.finished or s.game.turn == 0, 20)
            continue
        seq = len(game.log)
        hand = await _hand_now(t, bot, game_id)
        if wanted(game):  # type: ignore[operator]
            return hand
        acts = _acts(hand, seq)
        chosen = acts.get(Pass().id) or rng.choice(sorted(acts.values()))
        await (await t.double.click(t.ann, hand, chosen)).settled()
        await t.double.wait_until(lambda s=session, n=seq: s.finished or len(s.game.log) > n, 20)


def _can_bid(game: object) -> bool:
    return game.phase is Phase.AUCTION and any(  # type: ignore[attr-defined]
        isinstance(a, Bid)
        for a in game.legal_actions(0)  # type: ignore[attr-defined]
    )


async def test_an_auction_bid_goes_through_the_suit_select_and_a_level_button(
    table: Table,
) -> None:
    """RULES.md §7 Auction: Ann chooses a suit in the select (the same message now shows
    that suit's levels, and nothing in the game or the database changed), then clicks a
    level: that bid is played."""
    t = table
    async with running_bot(t) as bot:
        game_id = await _bot_game(t, "auction", pack=32, target=8)
        hand = await _until(t, bot, game_id, _can_bid, random.Random(2))
        session = bot.sessions.session(game_id)
        assert session is not None
        seq = len(session.game.log)
        select = _suit_select(hand)
        assert select == f"tuque:suit:{game_id}:{seq}"
        shown = _shown_suit(hand)
        other = next(s for s in Suit if s.value != shown)
        before_db, edits = db_snapshot(t), hand.edit_count
        rec = await t.double.select(t.ann, hand, select, [other.value])
        await rec.settled()
        assert db_snapshot(t) == before_db and len(session.game.log) == seq
        hand = t.double.message(hand.id)
        assert hand.edit_count == edits + 1 and _shown_suit(hand) == other.value
        legal = [a for a in session.game.legal_actions(0) if isinstance(a, Bid)]
        levels = [a for a in legal if a.suit is other]
        acts = _acts(hand, seq)
        assert set(acts) == {a.id for a in levels} | {Pass().id}
        assert all(
            other.symbol in b.label
            for b in hand.buttons
            if b.custom_id in acts.values() and "Bid" in (b.label or "")
        )
        lowest = min(levels, key=lambda a: a.level)
        await (await t.double.click(t.ann, hand, acts[lowest.id])).settled()
        assert str(session.game.log[seq]) == str(lowest)


async def test_the_auction_maker_calls_a_card_by_suit(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md §7 Auction: the maker chooses the called card's suit in the select (trump
    first), then the card among that suit's buttons."""
    t = table
    # A deal in which Ann's bid of 5 wins the auction before the game ends (a random deal
    # could let the computers outbid her to the last hand).
    dealt_from(monkeypatch, 1)
    rng = random.Random(5)

    def calling(game: object) -> bool:
        return game.phase is Phase.CALLING  # type: ignore[attr-defined]

    async with running_bot(t) as bot:
        game_id = await _bot_game(t, "auction", pack=32, target=8)
        while True:
            hand = await _until(t, bot, game_id, lambda g: _can_bid(g) or calling(g), rng)
            session = bot.sessions.session(game_id)
            assert session is not None
            if calling(session.game):
                break
            # Bid 5 (the highest bid with a partner) in the suit shown.
            seq = len(session.game.log)
            five = Bid(5, Suit(_shown_suit(hand)))
            acts = _acts(hand, seq)
            await (await t.double.click(t.ann, hand, acts.get(five.id, acts[Pass().id]))).settled()
            await t.double.wait_until(lambda s=session, n=seq: len(s.game.log) > n, 20)
        seq = len(session.game.log)
        view = session.game.view(0)
        assert _shown_suit(hand) == view.trump.value  # type: ignore[union-attr]
        suits = {a.card.suit for a in view.legal_actions if isinstance(a, CallCard)}
        other = next(s for s in Suit if s in suits and s is not view.trump)
        await (
            await t.double.select(t.ann, hand, _suit_select(hand) or "", [other.value])
        ).settled()
        hand = t.double.message(hand.id)
        acts = _acts(hand, seq)
        cards = {
            a.id for a in view.legal_actions if isinstance(a, CallCard) and a.card.suit is other
        }
        assert set(acts) == cards
        await (await t.double.click(t.ann, hand, acts[min(cards)])).settled()
        assert str(session.game.log[seq]) == str(ACTIONS[min(cards)])


async def test_forged_stale_and_strangers_suit_selects_are_refused(table: Table) -> None:
    """The suit select is input like any other: a value that is no suit, a suit that is
    not Ann's to choose now, a select from an earlier turn, another game's, and a
    stranger's are each answered ephemerally and change nothing."""
    t = table
    async with running_bot(t) as bot:
        game_id = await _bot_game(t, "auction", pack=32, target=8)
        hand = await _until(t, bot, game_id, _can_bid, random.Random(3))
        session = bot.sessions.session(game_id)
        assert session is not None
        select = _suit_select(hand)
        assert select is not None

        def forged(user: object, custom_id: str, value: str) -> object:
            return lambda: t.double.forge_select(user, hand, custom_id, [value])  # type: ignore[arg-type]

        text = await assert_refused(t, bot, game_id, forged(t.ann, select, "X"))
        assert "isn't one this bot made" in text
        text = await assert_refused(t, bot, game_id, forged(t.eve, select, "H"))
        assert "not in this game" in text
        text = await assert_refused(t, bot, game_id, forged(t.ann, "tuque:suit:999:1", "H"))
        assert "no game #999" in text
        # Ann passes: the select is from an earlier turn now.
        seq = len(session.game.log)
        await (await t.double.click(t.ann, hand, _acts(hand, seq)[Pass().id])).settled()
        text = await assert_refused(t, bot, game_id, forged(t.ann, select, "H"))
        assert "earlier turn" in text
        # A suit at a turn of Ann's with no suit to choose (a card to discard or play).
        hand = await _until(
            t,
            bot,
            game_id,
            lambda g: g.phase not in (Phase.AUCTION, Phase.CALLING),  # type: ignore[attr-defined]
            random.Random(4),
        )
        now = f"tuque:suit:{game_id}:{len(session.game.log)}"
        text = await assert_refused(t, bot, game_id, forged(t.ann, now, "H"))
        assert "no suit to choose" in text


async def test_the_hint_marks_the_button_it_means(table: Table) -> None:
    """Hint edits the hand message Ann clicked: the hinted action's button is green with
    💡, its label unchanged, and a line under "Your turn" says the hint in words, with no
    percentage; no new message is sent."""
    t = table
    async with running_bot(t) as bot:
        game_id = await _bot_game(t, "euchre", target=10)
        hand = await _until(
            t, bot, game_id, lambda g: len(g.legal_actions(0)) > 1, random.Random(1)
        )
        hint = next(
            b.custom_id for b in hand.buttons if (b.custom_id or "").startswith("tuque:hint:")
        )
        labels = {b.custom_id: b.label for b in hand.buttons}
        messages = len(t.double.ephemerals_for(t.ann))
        rec = await t.double.click(t.ann, hand, hint)  # type: ignore[arg-type]
        await rec.settled()
        assert len(t.double.ephemerals_for(t.ann)) == messages
        hand = t.double.message(hand.id)
        marked = [
            b
            for b in hand.buttons
            if b.emoji == HINT_EMOJI and (b.custom_id or "").startswith("tuque:act:")
        ]
        assert len(marked) == 1 and marked[0].style == SUCCESS
        assert marked[0].label == labels[marked[0].custom_id]
        lines = hand.text.split("\n")
        turn = next(i for i, line in enumerate(lines) if line.startswith("**Your turn:**"))
        assert lines[turn + 1].startswith("💡 **Hint:** " + (marked[0].label or "")), lines
        assert "%" not in hand.text


async def test_a_hint_in_the_bidding_shows_its_suit(table: Table) -> None:
    """A hinted Auction bid (or a pass) is marked: a bid's suit is the one shown."""
    t = table
    async with running_bot(t) as bot:
        game_id = await _bot_game(t, "auction", pack=32, target=8)
        hand = await _until(t, bot, game_id, _can_bid, random.Random(6))
        hint = next(
            b.custom_id for b in hand.buttons if (b.custom_id or "").startswith("tuque:hint:")
        )
        await (await t.double.click(t.ann, hand, hint)).settled()  # type: ignore[arg-type]
        hand = t.double.message(hand.id)
        (marked,) = [b for b in hand.buttons if b.emoji == HINT_EMOJI and b.style == SUCCESS]
        action = ACTIONS[int((marked.custom_id or "").rsplit(":", 1)[1])]
        if isinstance(action, Bid):
            assert _shown_suit(hand) == action.suit.value
        else:
            assert isinstance(action, Pass | Discard)
