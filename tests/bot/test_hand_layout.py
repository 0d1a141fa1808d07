"""The private hand message in Discord's component layout: its words, its compact
controls, the hint's mark, and what it must never show."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest
from test_render import (
    FAMILY,
    LONG_FACES,
    SEATING,
    _hidden_in,
    _mentions,
    _random_states,
    _seated,
    tuque_with_trumps_face_up,
)

from bot import render
from bot.buttons import DYNAMIC_ITEMS, SuitSelect, UnknownButton
from bot.emojis import TEXT_FACES, CardFaces
from bot.layout import HINT_EMOJI, default_suit, hand_layout, suit_choices, suit_of
from bot.store import SeatRow
from engine.actions import ACTIONS, Bid, CallCard, Discard, Pass, Play
from engine.cards import Card, Suit, is_trump
from engine.game import Game
from engine.view import Phase
from engine.wording import sort_cards
from tests.discord_double.models import COMPONENTS_V2, walk_components
from tests.discord_double.spec import spec
from tests.discord_double.validation import message_errors


def _layout(
    game: Game,
    seat: int,
    faces: CardFaces = TEXT_FACES,
    *,
    hint: bool = False,
    suit: Suit | None = None,
    marked: int | None = None,
    seating: render.Seating | None = None,
) -> tuple[render.HandText, list[dict[str, Any]]]:
    seating = seating or _seated(game)
    view = game.view(seat)
    labels = [render.button_label(a, view, seating) for a in view.legal_actions]
    text = render.hand_text(view, seating, 3, faces=faces)
    layout = hand_layout(
        3,
        len(game.log),
        view,
        labels,
        text.head,
        text.footer,
        faces,
        hint=hint,
        suit=suit,
        marked=marked,
    )
    return text, layout.to_components()


def _every(components: list[dict[str, Any]], kind: int) -> list[dict[str, Any]]:
    return [c for c in walk_components(components) if c["type"] == kind]


def _offered(components: list[dict[str, Any]]) -> set[int]:
    """The action ids the layout's buttons and action selects offer."""
    ids = {
        int(b["custom_id"].rsplit(":", 1)[1])
        for b in _every(components, 2)
        if ":act:" in b["custom_id"]
    }
    for select in _every(components, 3):
        if ":pick:" in select["custom_id"]:
            ids |= {int(o["value"]) for o in select["options"]}
    return ids


def _text(components: list[dict[str, Any]]) -> str:
    return "\n".join(c["content"] for c in _every(components, 10))


def _auction_at(phase: Phase, seed: int = 4, **options: Any) -> Game:
    """An Auction game at its bidding, or at the maker's call of a card (the first bidder
    bids 3 in their first suit, the others pass, the maker discards what they must)."""
    game = Game("auction", seed=seed, **options)
    game.deal()
    while game.phase is not phase:
        legal = game.legal_actions(game.turn)  # type: ignore[arg-type]
        first_bid = game.phase is Phase.AUCTION and not game.view(None).bid
        game.apply(game.turn, legal[1] if first_bid else legal[0])  # type: ignore[arg-type]
    return game


@pytest.mark.parametrize(
    ("variant", "options"), [("tuque", {"target": 5}), ("tuque61", {}), *FAMILY]
)
def test_every_variant_fits_discord_and_offers_exactly_the_legal_actions(
    variant: str, options: dict
) -> None:
    """RULES.md §1–§7 at 2 to 6 seats, every card a 20-digit emoji: every seat's hand
    message keeps within 40 components and 4000 characters, has no content or embed, and
    passes Discord's specification; the seat to act is offered exactly its legal actions
    (across the suits of the suit select), with the Hint once."""
    checked = 0
    for game in _random_states(5, 250, variant, **options):
        for seat in range(game.variant.players):
            _, components = _layout(game, seat, LONG_FACES, hint=game.turn == seat)
            assert len(list(walk_components(components))) <= 40
            assert len(_text(components)) <= 4000
            assert all(len(b.get("label", "")) <= 80 for b in _every(components, 2))
            assert all(len(s["options"]) <= 25 for s in _every(components, 3))
            assert all(
                len(c["custom_id"]) <= 100 for c in walk_components(components) if "custom_id" in c
            )
            body = {"components": components, "flags": COMPONENTS_V2}
            assert not message_errors(body, COMPONENTS_V2)
            if checked < 3:  # the schema check is slow: a few shapes per variant
                verdict = spec().check("POST", "/channels/1/messages", {}, "application/json", body)
                assert not verdict.errors, verdict.errors
                checked += 1
            view = game.view(seat)
            if game.turn != seat:
                assert not _offered(components)
                continue
            offered = set()
            for suit in suit_choices(view) or [None]:
                offered |= _offered(_layout(game, seat, hint=True, suit=suit)[1])
            assert offered == {a.id for a in view.legal_actions}
            hints = [b for b in _every(components, 2) if b["custom_id"].startswith("tuque:hint:")]
            assert [b["custom_id"] for b in hints] == [f"tuque:hint:3:{len(game.log)}"]


@pytest.mark.parametrize(("variant", "options"), [("tuque", {"target": 5}), *FAMILY])
def test_a_hand_message_shows_only_what_the_seat_may_see(variant: str, options: dict) -> None:
    """No text, label or custom_id of a seat's hand message names a card hidden from it
    (other hands, the kitty, the widow, face-down cards, others' discards)."""
    for game in _random_states(11, 300, variant, **options):
        for seat in range(game.variant.players):
            _, components = _layout(game, seat, hint=game.turn == seat)
            shown = json.dumps(components, ensure_ascii=False)
            leaked = [c for c in _hidden_in(game, seat) if _mentions(shown, c)]
            assert not leaked, f"{variant} seat {seat} sees {leaked} in {game.phase}"


def test_each_card_shows_once_as_its_face_or_its_text() -> None:
    """A card with an emoji shows as that face alone, never beside its text (the wall of
    text of issue 21); without emojis each card shows as its text."""
    game = next(g for g in _random_states(3, 60) if g.phase is Phase.PLAY)
    view = game.view(0)
    with_faces = render.hand_text(view, SEATING, 1, faces=LONG_FACES)
    for card in view.hand:
        assert with_faces.cards.count(LONG_FACES.show(card)) == 1
        assert card.pretty() not in with_faces.cards
    pile = next(p for p in view.tableaus[0] if p.up is not None and p.face_down)
    assert pile.up is not None
    assert f"{LONG_FACES.show(pile.up)} on {LONG_FACES.back()}" in with_faces.table
    as_text = render.hand_text(view, SEATING, 1)
    assert all(as_text.cards.count(c.pretty()) == 1 for c in view.hand if not c.copy)


def test_the_hand_message_is_enough_to_play_from() -> None:
    """In Tuque's play the hand message shows the opponent's face-up tableau cards, the
    trick so far, the tricks taken with what the maker needs (RULES.md §1 Scoring: 9 of
    17), and the score; it starts with what to do."""
    game = next(
        g
        for g in _random_states(2, 2000)
        if g.phase is Phase.PLAY and g.view(None).trick.plays and g.turn is not None
    )
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    text = render.hand_text(view, SEATING, 1)
    lines = {line.split("** ", 1)[0] + "**": line for line in text.table.split("\n")}
    other = 1 - seat
    theirs = lines[f"**{SEATING.names[other]}'s tableau**"]
    assert all(c.pretty() in theirs for c in view.face_up(other))
    assert all(c.pretty() in lines["**Trick**"] for _, c in view.trick.plays)
    maker = SEATING.names[view.maker]  # type: ignore[index]
    won = view.tricks_won
    assert f"Ann: {won[0]} · Bob: {won[1]} · {maker} needs 9 of 17 tricks." in lines["**Tricks**"]
    assert lines["**Score**"] == f"**Score** Ann: {view.scores[0]} · Bob: {view.scores[1]} (to 5)"
    assert text.status.startswith("**Your turn:** play a card.")
    assert text.footer.startswith("-# Game #1 · hand ")


def test_auction_bidding_is_a_suit_select_and_level_buttons() -> None:
    """RULES.md §7 Auction: instead of 21 bid buttons the bidder sees a select of the four
    suits, the five levels of the suit shown as buttons, Pass and Hint; before any choice
    the suit shown is the one they hold most of, and another choice shows its levels."""
    game = _auction_at(Phase.AUCTION)
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert len(view.legal_actions) == 21
    _, components = _layout(game, seat, hint=True)
    (select,) = _every(components, 3)
    assert select["custom_id"] == f"tuque:suit:3:{len(game.log)}"
    assert [o["value"] for o in select["options"]] == ["C", "D", "H", "S"]
    held = {s: sum(c.suit is s for c in view.hand) for s in Suit}
    longest = default_suit(view)
    assert longest is not None and held[longest] == max(held.values())
    assert [o["value"] for o in select["options"] if o.get("default")] == [longest.value]
    ids = [b["custom_id"] for b in _every(components, 2)]
    levels = [Bid(level, longest).id for level in (3, 4, 5, 8, 15)]
    assert ids == [f"tuque:act:3:{len(game.log)}:{i}" for i in (*levels, Pass().id)] + [
        f"tuque:hint:3:{len(game.log)}"
    ]
    other = next(s for s in Suit if s is not longest)
    _, components = _layout(game, seat, suit=other)
    labels = [b["label"] for b in _every(components, 2)]
    assert labels[:5] == [f"Bid {n} {other.symbol}" for n in (3, 4, 5)] + [
        f"Bid 8 {other.symbol} alone with widow",
        f"Bid 15 {other.symbol} alone, no widow",
    ]
    assert len(labels) == 6  # the levels and Pass, not 21 bids


def test_an_auction_call_of_a_card_is_chosen_by_suit() -> None:
    """RULES.md §7 Auction, 32 cards: the maker's 27 callable cards come as a suit select
    (trump shown first) and that suit's cards as buttons with their faces."""
    game = _auction_at(Phase.CALLING, pack=32)
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert len(view.legal_actions) > 25 and all(isinstance(a, CallCard) for a in view.legal_actions)
    assert default_suit(view) is view.trump
    _, components = _layout(game, seat, LONG_FACES)
    (select,) = _every(components, 3)
    assert select["custom_id"].startswith("tuque:suit:3:")
    buttons = _every(components, 2)
    trumps = [a for a in view.legal_actions if suit_of(a) is view.trump]
    assert [b["custom_id"].rsplit(":", 1)[1] for b in buttons] == [str(a.id) for a in trumps]
    assert all(b["emoji"]["name"].startswith("tq_") for b in buttons)


def test_tableau_cards_are_told_apart_by_place_and_label_not_colour() -> None:
    """RULES.md §1: a playable face-up tableau card's button comes under "From your
    tableau:", says "(tableau)" (or "(tableau, trump)"), and has the grey of a hand card
    (green read as advice)."""
    for game in _random_states(8, 400):
        if game.phase is Phase.PLAY and game.turn is not None:
            view = game.view(game.turn)
            face_up = set(view.face_up(game.turn))
            plays = [a for a in view.legal_actions if isinstance(a, Play)]
            if any(a.card in face_up for a in plays) and any(a.card not in face_up for a in plays):
                break
    _, components = _layout(game, game.turn)  # type: ignore[arg-type]
    container = components[0]["components"]
    heading = next(i for i, c in enumerate(container) if c.get("content") == "From your tableau:")
    for i, part in enumerate(container):
        for button in (c for c in part.get("components", []) if c["type"] == 2):
            card = next(a.card for a in plays if button["custom_id"].endswith(f":{a.id}"))
            place = f" (tableau{', trump' if is_trump(card, view.trump) else ''})"
            assert button["label"].endswith(place) == (card in face_up) == (i > heading)
            assert button["style"] == discord.ButtonStyle.secondary.value
            assert "📤" not in button["label"]


def test_a_tableau_trump_says_trump_on_its_button() -> None:
    """RULES.md §1: spades trump, the face-up J♣ (Left Bower) and 🃏2 of the leader's
    tableau read "(tableau, trump)" on their buttons; the 9♥ beside them "(tableau)"."""
    game = tuque_with_trumps_face_up()
    _, components = _layout(game, 0, LONG_FACES, hint=True)
    labels = {
        b["custom_id"].rsplit(":", 1)[1]: b["label"]
        for b in _every(components, 2)
        if ":act:" in b["custom_id"]
    }
    for code, label in [
        ("JC", "Play J♣ (tableau, trump)"),
        ("B2", "Play 🃏2 (tableau, trump)"),
        ("9H", "Play 9♥ (tableau)"),
        ("7C", "Play 7♣ (tableau)"),
    ]:
        assert labels[str(Play(Card.parse(code)).id)] == label
    assert all(len(label) <= 80 for label in labels.values())


def test_the_hint_marks_the_button_it_means() -> None:
    """The hinted action's button turns green with 💡, its label unchanged; no other
    button is marked."""
    game = next(g for g in _random_states(6, 400) if g.phase is Phase.PLAY and g.turn is not None)
    seat = game.turn
    assert seat is not None
    action = game.legal_actions(seat)[-1]
    _, plain = _layout(game, seat, hint=True)
    _, marked = _layout(game, seat, hint=True, marked=action.id)
    before = {b["custom_id"]: b for b in _every(plain, 2)}
    for button in _every(marked, 2):
        old = before[button["custom_id"]]
        assert button["label"] == old["label"]
        if button["custom_id"].endswith(f":{action.id}") and ":act:" in button["custom_id"]:
            assert button["style"] == discord.ButtonStyle.success.value
            assert button["emoji"]["name"] == HINT_EMOJI
        elif ":act:" in button["custom_id"]:
            assert button == old


def test_a_hinted_bid_shows_its_suit_and_marks_its_level() -> None:
    """A hint inside the compact bidding selects its suit (whatever suit was shown) and
    marks the level's button."""
    game = _auction_at(Phase.AUCTION)
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    shown = default_suit(view)
    suit = next(s for s in Suit if s is not shown)
    bid = Bid(4, suit)
    _, components = _layout(game, seat, suit=shown, marked=bid.id)
    (select,) = _every(components, 3)
    assert [o["value"] for o in select["options"] if o.get("default")] == [suit.value]
    assert (
        next(o for o in select["options"] if o["value"] == suit.value)["emoji"]["name"]
        == HINT_EMOJI
    )
    green = [b for b in _every(components, 2) if b["style"] == discord.ButtonStyle.success.value]
    assert [b["custom_id"] for b in green] == [f"tuque:act:3:{len(game.log)}:{bid.id}"]


def test_the_hint_line_follows_the_your_turn_line() -> None:
    game = Game("euchre", seed=1)
    game.deal()
    seat = game.turn
    assert seat is not None
    seating = _seated(game)
    text = render.hand_text(game.view(seat), seating, 1, note="Note.", hint="💡 **Hint:** Pass.")
    assert text.status.split("\n") == [
        "Note.",
        "**Your turn:** order it up, or pass.",
        "💡 **Hint:** Pass.",
    ]
    waiting = render.hand_text(game.view((seat + 1) % 4), seating, 1, hint="💡 **Hint:** Pass.")
    assert "Hint" not in waiting.status


@pytest.mark.parametrize("custom_id", ["tuque:suit:3:12", "tuque:suit:18446744073709551615:0"])
def test_the_suit_select_is_a_known_item(custom_id: str) -> None:
    """``tuque:suit:`` ids reach the suit select, and the catch-all leaves them alone."""
    assert SuitSelect in DYNAMIC_ITEMS
    assert SuitSelect.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert not UnknownButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert UnknownButton.__discord_ui_compiled_template__.fullmatch("tuque:suit:3:x")


def test_no_controls_when_it_is_not_your_turn() -> None:
    game = Game("tuque", seed=2)
    game.deal()
    waiting = 1 - game.turn  # type: ignore[operator]
    text, components = _layout(game, waiting, hint=True)
    assert not _every(components, 1)
    assert text.status.startswith("Waiting for ")


def test_a_hand_names_computers_without_their_level() -> None:
    """A six-seat hand says "CPU 2", not "CPU 2 (normal)" on every line; a member's
    name stays as it is, even one that ends like a level."""
    game = Game("six_hand", seed=5)
    game.deal()
    rows = [SeatRow.human(0, 101, "Ann (hard)", side=0)]
    rows += [SeatRow.computer(s, "normal", side=s % 2) for s in range(1, 6)]
    text = render.hand_text(game.view(0), render.seating_of(rows), 1)
    shown = "\n".join(text.head)
    assert "(normal)" not in shown and "CPU 2" in shown
    assert "Ann (hard)" in shown


def _card_buttons(components: list[dict[str, Any]]) -> list[Card]:
    """The cards the layout's action buttons play or discard, in the order shown."""
    actions = [
        ACTIONS[int(b["custom_id"].rsplit(":", 1)[1])]
        for b in _every(components, 2)
        if ":act:" in b["custom_id"]
    ]
    return [a.card for a in actions if isinstance(a, Play | Discard)]


@pytest.mark.parametrize(("variant", "options"), [("tuque", {"target": 5}), *FAMILY[:6]])
def test_card_buttons_follow_the_hand_as_it_reads(variant: str, options: dict) -> None:
    """The card buttons come in the order the hand's lines list the cards: trump first
    once made, each suit high to low (a phone's player reads one row, not two orders)."""
    checked = 0
    for game in _random_states(7, 300, variant, **options):
        seat = game.turn
        if seat is None or game.phase not in (Phase.PLAY, Phase.DISCARD):
            continue
        view = game.view(seat)
        _, components = _layout(game, seat)
        shown = _card_buttons(components)
        tableau = set(view.face_up(seat)) if view.has_tableaus else set()
        from_hand = [c for c in shown if c not in tableau]
        twins = game.variant.twins
        assert from_hand == sort_cards(from_hand, view.trump, twins)
        assert [c for c in shown if c in tableau] == sort_cards(
            [c for c in shown if c in tableau], view.trump, twins
        )
        checked += len(from_hand) > 2
    assert checked


def test_every_button_label_fits_a_phone() -> None:
    """Auction's bids and Tuque's orders with a suit are at most 25 characters on their
    buttons (a 360 px phone), and still tell each bid apart: ``Bid 8 ♥ alone with widow``."""
    game = _auction_at(Phase.AUCTION)
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    labels = [render.button_label(a, view, SEATING) for a in view.legal_actions]
    assert max(map(len, labels)) <= 25
    assert len(set(labels)) == len(labels)
    assert render.button_label(Bid(8, Suit.HEARTS), view) == "Bid 8 ♥ alone with widow"
    assert render.button_label(Bid(15, Suit.HEARTS), view) == "Bid 15 ♥ alone, no widow"
    for game in _random_states(3, 400, "tuque"):
        if game.turn is None:
            continue
        view = game.view(game.turn)
        for action in view.legal_actions:
            assert len(render.button_label(action, view, SEATING)) <= 25, action
