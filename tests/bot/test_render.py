"""Rendering: engine views into embeds and text, and what they must never show
(the hand message's layout: test_hand_layout.py; the table's picture: test_drawing.py)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot import drawing, render
from bot.drawing import DESCRIPTION_LIMIT, describe, draw_table
from bot.emojis import TEXT_FACES, CardFaces
from bot.faces import EMOJI_NAMES
from bot.layout import table_layout
from bot.store import (
    LeaderboardRow,
    LobbyRow,
    LobbySeat,
    LobbyStatus,
    PlayerStats,
    SeatKind,
    SeatRow,
)
from engine.actions import Ask, Discard, OrderUp, Pass
from engine.cards import CARDS, Card, Suit, parse_cards
from engine.game import Game
from engine.players.heuristic import known_partner
from engine.render_text import TextRenderer
from engine.variants import VARIANTS
from engine.view import HandResult, Phase, PlayerView
from engine.wording import THROWN_IN, Wording, capital, doing, prompt, verdict

SEATING = render.Seating(("Ann", "Bob"), (101, None))


def _embed_text(embed: discord.Embed) -> str:
    return json.dumps(embed.to_dict(), ensure_ascii=False)


def _table_message(
    view: PlayerView, seating: render.Seating, game_id: int, ended: str | None = None
) -> discord.ui.LayoutView:
    """The public table message as delivery builds it: title, the picture's description
    (the picture itself is test_drawing's), the status line, "Show my hand" while the
    game runs."""
    return table_layout(
        game_id,
        render.table_title(view, game_id),
        render.table_status(view, seating, ended),
        describe(view, seating.names),
        finished=ended is not None or view.phase is Phase.GAME_OVER,
    )


def _layout_text(layout: discord.ui.LayoutView) -> str:
    """Everything the layout sends: its texts, the picture's description, custom_ids."""
    return json.dumps(layout.to_components(), ensure_ascii=False)


def _hidden_from(game: Game, seat: int | None) -> set[Card]:
    """Cards ``seat`` may not see now: other hands, face-down cards, kitty, others' discard.

    The up-card is public once turned, even in the dealer's hand or discard.
    """
    zones = game.zones()
    hidden = zones["kitty"]
    for s in range(game.variant.players):
        hidden |= zones[f"tableau-down:{s}"]
        if s != seat:
            hidden |= zones[f"hand:{s}"]
    if seat != game.dealer:
        hidden |= zones["discard"]
    return {c for c in CARDS if hidden >> c.index & 1} - {game.up_card}


def _mentions(text: str, card: Card) -> bool:
    # A first copy's form is the start of its second copy's (A♠ of A♠'): match whole forms.
    pretty = re.escape(card.pretty()) + ("" if card.copy else "(?!')")
    return re.search(pretty, text) is not None or f'"{card.code}"' in text


def _random_states(seed: int, count: int, variant: str = "tuque", **options: object):
    """Yield a game of ``variant`` (default Tuque to 5) at ``count`` moments of seeded
    random play."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, **(options or ({"target": 5} if variant == "tuque" else {})))
    for _ in range(count):
        if game.phase is Phase.GAME_OVER:
            return
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        yield game


def test_the_table_refuses_a_seat_view() -> None:
    """The table can only be rendered from the public view: its status line and its
    picture refuse a seat's view."""
    game = Game("tuque", seed=1)
    game.deal()
    with pytest.raises(ValueError):
        render.table_status(game.view(0), SEATING)
    with pytest.raises(ValueError):
        draw_table(game.view(0), SEATING.names)


@pytest.mark.parametrize("seed", range(3))
def test_the_table_never_shows_a_hidden_card(seed: int) -> None:
    """No public table (title, status line, the picture's description) nor the ping on
    a member's turn shows a hand card, a face-down card, the kitty or the discard."""
    for game in _random_states(seed, 400):
        public = game.view(None)
        text = _layout_text(_table_message(public, SEATING, 7))
        if public.turn is not None:
            text += render.ping_text(public, 101, 7)
        # The hand before's last trick, said until this hand's first action, was played
        # face up: its cards tell nothing of where the new deal put them.
        hidden = _hidden_from(game, None) - _last_trick_before(public)
        leaked = [c for c in hidden if _mentions(text, c)]
        assert not leaked, f"table shows hidden {leaked} in phase {game.phase}"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_status_the_ping_and_the_picture_say_alike_what_a_seat_is_doing(
    variant: str,
) -> None:
    """One wording of a phase (engine.wording.doing): the status line, the ping and the
    picture's description each say ``Bob to bid (round 1)``, never two words for it."""
    for game in _random_states(2, 150, variant):
        public = game.view(None)
        if public.turn is None:
            continue
        names = tuple(f"Seat{s}" for s in range(public.players))
        seating = render.Seating(names, (101,) * public.players)
        words = doing(public, game.variant)
        who = names[public.turn]
        assert f"**{who}** {words}" in render.table_status(public, seating)
        assert f"it's your turn {words} in game" in render.ping_text(public, 101, 7)
        assert describe(public, names).endswith(f"{who} {words}.")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_hands_result_is_worded_alike_on_every_screen(variant: str) -> None:
    """One wording of a result (engine.wording): the channel's announcement, the
    terminal and the picture's description say who made trump and how, a march or a
    euchre, and a hand thrown in, in the same words."""
    for game in _random_states(4, 600, variant):
        public = game.view(None)
        result = public.last_hand
        if public.phase is not Phase.HAND_OVER or result is None:
            continue
        names = tuple(f"Seat{s}" for s in range(public.players))
        seating = render.Seating(names, (None,) * public.players)
        screens = {
            "embed": _embed_text(render.hand_summary_embed(result, game.variant, seating)),
            "terminal": TextRenderer(game.variant, names=names).hand_result(result, 10),
            "description": describe(public, names),
        }
        if result.thrown_in:
            assert all(THROWN_IN in text.lower() for text in screens.values()), screens
            continue
        said = capital(verdict(result, game.variant))
        if said:
            assert all(f"{said}!" in screens[s] for s in ("embed", "terminal")), screens
            assert f"{said}: " in screens["description"]
        if result.maker is not None:
            words = Wording(game.variant, names)
            assert words.made(result) in screens["terminal"]
            # The embed and the picture say who went alone once, with the tricks taken.
            contract = f"{words.made(result, loner=False)}. {words.took(result)}."
            assert contract in screens["embed"]
            assert words.took(result) in screens["description"]


def test_the_hand_text_lists_the_whole_hand() -> None:
    """Every card of the player's hand appears in their hand message."""
    game = Game("tuque", seed=4)
    game.deal()
    text = render.hand_text(game.view(0), SEATING, 1).cards
    assert all(c.pretty() in text for c in game.hand_of(0))


def test_hand_summary_names_a_euchre() -> None:
    """A hand the makers lost is announced as euchred, with the defender's points."""
    game = Game("tuque", seed=3, first_dealer=0)
    game.deal()
    while not game.hand_results:
        game.apply(game.turn, game.legal_actions(game.turn)[-1])  # type: ignore[arg-type]
    result = game.hand_results[0]
    text = _embed_text(render.hand_summary_embed(result, "tuque", SEATING))
    assert ("euchred" in text) == result.euchred
    assert "Score" in text


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_embed_fits_discord_and_cites_no_document(variant: str) -> None:
    """Each variant's rules fit an embed (description, fields, total) and, written for a
    member, name no document (no "RULES.md §1" anywhere, footer included)."""
    embed = render.rules_embed(variant)
    assert embed.description
    _within_discord_limits(embed)
    fields = [f.name for f in embed.fields]
    assert "The cards" in fields and "Legend" in fields
    assert "Scoring" in fields or "Chips" in fields
    assert not re.search(r"RULES|§|\.md", _embed_text(embed))


def test_rules_embed_ranks_the_bens_as_the_cards_show_them() -> None:
    """Tuque's ranks read 🃏3 > 🃏2 > 🃏1, the form the cards take in hands and tricks."""
    cards = next(f.value for f in render.rules_embed("tuque").fields if f.name == "The cards")
    assert "🃏3 > 🃏2 > 🃏1 > Right Bower" in cards
    assert "B3" not in cards


def test_the_table_title_names_the_variant_game_and_hand() -> None:
    """The title carries what the embed's footer did, the game and hand numbers, after
    the variant's name (the table no longer points to ``/tuque rules``); no hand
    number before the first deal."""
    game = Game("euchre", seed=1)
    assert render.table_title(game.view(None), 5) == "### Euchre (four-hand) · game #5"
    game.deal()
    assert render.table_title(game.view(None), 5) == "### Euchre (four-hand) · game #5 · hand 1"


# One configuration per variant, with the options that change its table (seats, pack).
FAMILY = [
    ("euchre", {"stick_the_dealer": True}),
    ("british", {}),
    ("three_hand", {}),
    ("two_hand", {"pack": 24}),
    ("six_hand", {}),
    ("six_hand", {"double_pack": True}),
    ("almonte", {"dealer_must_make": True}),
    ("call_ace", {}),
    ("call_ace", {"players": 5}),
    ("call_ace", {"players": 6}),
    ("jackpot", {}),
    ("jackpot", {"players": 5}),
    ("jackpot", {"players": 6}),
    ("auction", {}),
    ("auction", {"pack": 32}),
]
"""Every variant and every table size it is played at (RULES.md §3–§7), with options."""


def _seated(game: Game) -> render.Seating:
    n = game.variant.players
    return render.Seating(tuple(f"Player{s}" for s in range(n)), tuple(100 + s for s in range(n)))


def _hidden_in(game: Game, seat: int | None) -> set[Card]:
    """What ``seat`` (None: the channel) may not see: other hands, face-down cards, the
    kitty, the widow, others' discards; the viewer's own hand too while they name blind."""
    zones = game.zones()
    hidden = zones["kitty"] | zones["widow"] | zones["discard"]
    for s in range(game.variant.players):
        hidden |= zones[f"tableau-down:{s}"]
        if s != seat or game.view(s).blind:
            hidden |= zones[f"hand:{s}"]
    own = set(game.discards_of(seat)) if seat is not None else set()
    return {c for c in CARDS if hidden >> c.index & 1} - own - {game.up_card}


def _components(tree: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component of ``tree`` (a layout's ``to_components()``), nested ones too:
    what Discord counts against its 40 (a gallery's items are not components)."""
    for component in tree:
        yield component
        yield from _components(component.get("components", ()))
        if "accessory" in component:
            yield from _components((component["accessory"],))


def _table_within_discord_limits(layout: discord.ui.LayoutView) -> None:
    """Components V2: at most 4000 characters of text displays in all, a media gallery
    item's description at most 1024, at most 40 components nested ones included."""
    assert layout.content_length() <= 4000
    components = list(_components(layout.to_components()))
    descriptions = [i.get("description", "") for c in components for i in c.get("items", ())]
    assert descriptions and all(len(d) <= DESCRIPTION_LIMIT == 1024 for d in descriptions)
    assert len(components) <= 40


def _within_discord_limits(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert len(data.get("title", "")) <= 256
    assert len(data.get("description", "")) <= 4096
    fields = data.get("fields", [])
    assert len(fields) <= 25
    assert all(len(f["name"]) <= 256 and 0 < len(f["value"]) <= 1024 for f in fields)
    assert len(embed) <= 6000


@pytest.mark.parametrize(("variant", "options"), FAMILY)
def test_every_variant_renders_within_limits_and_hides_what_it_must(
    variant: str, options: dict
) -> None:
    """RULES.md §3–§7 at a table of 2 to 6: the table message and a hand's result render
    within Discord's limits; no render shows a card its reader may not see (widow,
    discards, other hands, a blind dealer's own hand)."""
    for game in _random_states(11, 500, variant, **options):
        seating = _seated(game)
        public = game.view(None)
        table = _table_message(public, seating, 3)
        _table_within_discord_limits(table)
        text = _layout_text(table)
        if public.turn is not None:
            text += render.ping_text(public, 100 + public.turn, 3)
        hidden = _hidden_in(game, None) - _last_trick_before(public)
        leaked = [c for c in hidden if _mentions(text, c)]
        assert not leaked, f"{variant} table shows {leaked} in {game.phase}"
        for result in game.hand_results[-1:]:
            _within_discord_limits(render.hand_summary_embed(result, game.variant, seating))
    reason = None if game.phase is Phase.GAME_OVER else "Player1 resigned."
    _table_within_discord_limits(_table_message(game.view(None), seating, 3, reason))
    _within_discord_limits(render.game_over_embed(game.view(None), seating, reason))


def tuque_with_trumps_face_up(made: bool = True) -> Game:
    """An explicit Tuque deal (RULES.md §1): Bob (seat 1) deals, the up-card is the 9♠;
    Ann's face-up tableau cards are J♣ 🃏2 9♥ K♦ 7♣, Bob's A♥ 6♦ Q♠ 10♣ 8♥. With
    ``made``, Ann orders it up and Bob discards, so spades are trump: the J♣ (Left Bower),
    the 🃏2 and the Q♠ lie face up as trumps, and Ann is to lead."""
    game = Game("tuque", seed=0, first_dealer=1)
    up = {0: parse_cards("JC B2 9H KD 7C"), 1: parse_cards("AH 6D QS TC 8H")}
    up_card = Card.parse("9S")
    named = {*up[0], *up[1], up_card}
    spare = [c for c in game.variant.pack if c not in named]
    order: list[Card] = []
    for seat in (0, 1):  # Game.deal's order: face-down piles, face-up piles, hand
        order += [spare.pop() for _ in range(5)] + up[seat] + [spare.pop() for _ in range(7)]
    game.deal([*order, up_card, *spare])
    if made:
        game.apply(0, OrderUp())
        game.apply(1, next(a for a in game.legal_actions(1) if isinstance(a, Discard)))
        assert game.phase is Phase.PLAY and game.view(None).trump is Suit.SPADES
    return game


def test_the_hand_text_marks_the_tableaus_trumps() -> None:
    """RULES.md §1: once spades are trump, each seat's hand text marks the face-up J♣
    (the Left Bower), the Ben and the Q♠ as trump in both tableaus, and no other card."""
    game = tuque_with_trumps_face_up()
    for seat in (0, 1):
        table = render.hand_text(game.view(seat), SEATING, 1).table
        lines = {line.split("** ", 1)[0] + "**": line for line in table.split("\n")}
        assert lines["**Your tableau**" if seat == 0 else "**Ann's tableau**"].endswith(
            "J♣ trump on ▮ · 🃏2 trump on ▮ · 9♥ on ▮ · K♦ on ▮ · 7♣ on ▮"
        )
        assert lines["**Your tableau**" if seat == 1 else "**Bob's tableau**"].endswith(
            "A♥ on ▮ · 6♦ on ▮ · Q♠ trump on ▮ · 10♣ on ▮ · 8♥ on ▮"
        )


def test_before_trump_is_made_no_tableau_card_is_marked_trump() -> None:
    """While trump is being bid on, not even a Ben reads as trump in the hand text."""
    game = tuque_with_trumps_face_up(made=False)
    for seat in (0, 1):
        text = render.hand_text(game.view(seat), SEATING, 1)
        assert "trump" not in text.table.replace("**Trump**", "")
        assert "J♣ on ▮ · 🃏2 on ▮" in text.table


def test_the_hand_is_grouped_with_the_bowers_and_bens_in_trump() -> None:
    """RULES.md §1 Trump order: once trump is made the Left Bower and the Bens are trump,
    so the hand message shows them in the trump line, not in their printed suit."""
    jh, jd, ben, nine_d, ace_s = (Card.parse(c) for c in ("JH", "JD", "B2", "9D", "AS"))
    line = render._grouped([nine_d, ace_s, jd, ben, jh], Suit.HEARTS, VARIANTS["tuque"], TEXT_FACES)
    trump, *others = line.split("\n")
    assert trump == f"**Trump ♥** {ben.pretty()} {jh.pretty()} {jd.pretty()}"
    assert others == [f"**♦** {nine_d.pretty()}", f"**♠** {ace_s.pretty()}"]


@pytest.mark.parametrize(("variant", "head"), [("tuque", "Bens"), ("british", "Benny")])
def test_before_trump_the_jokers_line_is_headed_by_their_games_word(
    variant: str, head: str
) -> None:
    """Before trump is made the jokers form the last line, headed as their game calls
    them: "Bens" in Tuque, "Benny" in British Euchre (not "Jokers" everywhere)."""
    ben, ace_s = Card.parse("B1"), Card.parse("AS")
    line = render._grouped([ben, ace_s], None, VARIANTS[variant], TEXT_FACES)
    assert line.split("\n") == [f"**♠** {ace_s.pretty()}", f"**{head}** {ben.pretty()}"]


@pytest.mark.parametrize(
    ("variant", "options"), [("tuque", {"target": 3}), ("tuque61", {}), *FAMILY]
)
def test_discord_and_the_terminal_say_the_same_thing(variant: str, options: dict) -> None:
    """For every action offered in seeded games of every variant, the button's label is
    the terminal menu's, and the hand view asks what the terminal's screen asks."""
    for game in _random_states(7, 400, variant, **options):
        seat = game.turn
        if seat is None:
            continue
        seating = _seated(game)
        view = game.view(seat)
        terminal = TextRenderer(game.variant, you=seat, names=seating.names)
        for action in view.legal_actions:
            label = render.action_label(action, view, seating)
            assert label == terminal.action_label(view, action)
            assert terminal.menu_label(view, action).startswith(label)
        asked = prompt(view, game.variant)
        assert f"**Your turn:** {asked}" in render.hand_text(view, seating, 3).status
        assert terminal.screen(view).endswith(asked)


LONG_FACES = CardFaces({name: 2**64 - 1 - i for i, name in enumerate(EMOJI_NAMES)})
"""Every face an emoji with the longest id a snowflake can have (20 digits); the hand
message's tests (test_hand_layout.py) use it, the table shows no emoji any more."""
LONGEST = tuple(f"{s}-{'x' * 30}" for s in range(6))
"""Six display names of Discord's longest, 32 characters."""


def _face_up(view: PlayerView) -> set[Card]:
    """The cards the table's picture draws face up: the up-card until trump is made, a
    called card, the trick (or the last one, between tricks), the tableaus' up cards."""
    shown: set[Card] = set()
    dealt = view.hand_no and view.phase not in (Phase.DEAL, Phase.HAND_OVER, Phase.GAME_OVER)
    if view.up_card is not None and view.trump is None and dealt:
        shown.add(view.up_card)
    if view.called_card is not None:
        shown.add(view.called_card)
    if view.trick.plays:
        shown |= {c for _, c in view.trick.plays}
    elif view.phase is Phase.PLAY and view.tricks:
        shown |= {c for _, c in view.tricks[-1].plays}
    for seat in range(view.players):
        shown |= set(view.face_up(seat))
    return shown | _last_trick_before(view)


def _last_trick_before(view: PlayerView) -> set[Card]:
    """The hand before's last trick, shown (and said) until the next hand's first
    action: cards played face up then, whatever hand they are dealt to now."""
    previous = view.hand_just_over
    if previous is None or previous.last_trick is None:
        return set()
    return {card for _, card in previous.last_trick.plays}


@pytest.mark.parametrize(
    ("variant", "options"), [("tuque", {"target": 5}), ("tuque61", {}), *FAMILY]
)
def test_card_faces_fit_discord_limits_in_every_variant(variant: str, options: dict) -> None:
    """The card faces are drawn in the table's picture now; its description is their
    text for screen readers. With the longest names Discord allows, the table message
    stays within Discord's limits, the description names every card the picture shows
    face up, and no card hidden from the channel; the title and status line show no
    card face (no emoji)."""
    for game in _random_states(5, 300, variant, **options):
        public = game.view(None)
        n = public.players
        seating = render.Seating(LONGEST[:n], tuple(100 + s for s in range(n)))
        table = _table_message(public, seating, 3)
        _table_within_discord_limits(table)
        said = describe(public, seating.names)
        missing = [c for c in _face_up(public) if not _mentions(said, c)]
        assert not missing, f"{variant}: the description leaves out {missing} in {game.phase}"
        text = _layout_text(table)
        hidden = _hidden_in(game, None) - _last_trick_before(public)
        assert not [c for c in hidden if _mentions(text, c)]
        words = render.table_title(public, 3) + render.table_status(public, seating)
        assert "<:" not in words


def test_jackpot_score_tells_a_deal_that_breaks_a_tie() -> None:
    """RULES.md §7 ruling: a tied end plays one more deal; the table says so rather
    than "deal 13 of 12". The deals are in the picture's band and, in words, in its
    description (the status line gives chips and pool only)."""
    game = Game("jackpot", seed=1, hands=12)
    game.deal()
    seating = render.Seating(("Ann", "Bob", "Cy", "Di"), (101, None, None, None))

    def score(view: PlayerView) -> str:
        return describe(view, seating.names)

    view = game.view(None)
    assert ", deal 1 of 12)." in score(view)
    tied = replace(view, hand_no=13, tie_break=True)
    assert ", deal 13, to break a tie for the most chips)." in score(tied)
    over = replace(tied, phase=Phase.HAND_OVER, turn=None)
    assert ", a tie for the most chips: one more deal)." in score(over)


def test_auction_shows_no_trump_before_the_bidding_closes() -> None:
    """RULES.md §7: while bids are open, neither the table (status line, the picture's
    description) nor a hand says "♥ trump, made by …", and the hand is not regrouped
    around the bid's suit."""
    game = Game("auction", seed=5, first_dealer=0)
    game.deal()
    game.replay("bid 4 H")
    seating = render.Seating(tuple("ABCDE"), (1, 2, 3, 4, 5))
    public = game.view(None)
    status, said = render.table_status(public, seating), describe(public, seating.names)
    text = render.hand_text(game.view(2), seating, 1)
    hand = "\n".join(text.head)
    assert "made by" not in status + said + hand and "**Trump" not in hand
    assert "trump" not in status.lower() and "trump" not in said.lower()
    assert "bid more than the highest bid so far (4 in hearts)" in hand
    for text in ("pass",) * 4:
        game.replay(text)
    public = game.view(None)
    assert "♥ trump, made by B (bid 4)" in render.table_status(public, seating)
    assert "Trump hearts, made by B (bid 4)." in describe(public, seating.names)


def _lobby(variant: str, options: dict[str, object], status: str = "open") -> LobbyRow:
    seats = VARIANTS[variant].configured(VARIANTS[variant].options(**options)).players
    host = LobbySeat(0, SeatKind.HUMAN, 100, None, True, "Ann")
    return LobbyRow(
        1, 1, 2, None, 100, variant, options, seats, "normal", False, LobbyStatus(status),
        7 if status == "started" else None, 0.0, 900.0, None, (host,),
    )  # fmt: skip


@pytest.mark.parametrize("variant", [v for v in VARIANTS if "target" in VARIANTS[v].adjustable])
def test_a_lobby_states_the_tables_target_only(variant: str) -> None:
    """The rules summary's default target never stands beside the table's own."""
    allowed = VARIANTS[variant].choices.get("target") or (3, 4, 50)
    target = next(t for t in reversed(allowed) if t != VARIANTS[variant].defaults.target)
    if variant == "tuque":
        target = 5
    text = render.lobby_embed(_lobby(variant, {"target": target})).description or ""
    assert f"first to {target} points" in text
    assert re.findall(r"(?i)first (?:side |team )?to (\d+)", text) == [str(target)], text


def test_a_started_lobby_shows_computers_where_seats_were_empty() -> None:
    embed = render.lobby_embed(_lobby("euchre", {}, "started"))
    seats = next(f.value for f in embed.fields if f.name == "Seats")
    assert "empty" not in seats
    assert [line.split("**: ")[1] for line in seats.split("\n")[1:]] == ["CPU 2", "CPU 3", "CPU 4"]
    embed = render.lobby_embed(_lobby("euchre", {}))
    seats = next(f.value for f in embed.fields if f.name == "Seats")
    assert "*empty: CPU 3 if nobody sits*" in seats
    assert "computers play at the normal level" in (embed.description or "")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_no_hand_carries_a_notation_to_learn(variant: str) -> None:
    """Issue 33: a hand's footer is the game and hand and where the rules are, with no key
    to a notation under every hand; a tableau reads ``K♠ on ▮``, not ``[K♠/▮]``."""
    game = Game(variant, seed=2)
    game.deal()
    view = game.view(game.turn)
    seating = render.Seating(tuple("ABCDEF"[: view.players]), (None,) * view.players)
    text = render.hand_text(view, seating, 1)
    assert text.footer == f"-# Game #1 · hand 1 · /tuque rules {variant}"
    assert "[" not in text.table and "/▮" not in text.table


@pytest.mark.parametrize("variant", ["jackpot", "three_hand", "auction"])
def test_points_and_scores_write_a_minus_alike(variant: str) -> None:
    """A hand's points ("-2") and the scores ("-2") use one minus sign, the hyphen-minus,
    never U+2212 beside it."""
    rng = random.Random(3)
    game = Game(variant, seed=3)
    n = game.variant.players
    seating = render.Seating(tuple("ABCDE"[:n]), (None,) * n)
    negative = 0
    while game.phase is not Phase.GAME_OVER and game.hand_no < 8:
        if game.turn is None:
            game.deal()
            continue
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
        if game.turn is None and game.hand_results:
            result = game.hand_results[-1]
            text = _embed_text(render.hand_summary_embed(result, variant, seating))
            assert "−" not in text
            for p in (*result.points, *result.scores):
                negative += p < 0
                if p < 0:
                    assert str(p) in text
    assert negative


def test_a_call_ace_maker_who_is_their_own_partner_is_said_so() -> None:
    """RULES.md §7 (ruling R25): the hand's result tells that the maker held the called
    suit's best card, as the terminal does, rather than leaving the partner unsaid."""
    result = HandResult(
        hand_no=1,
        dealer=0,
        up_card=Card.parse("9C"),
        trump=Suit.CLUBS,
        maker=1,
        alone=None,
        tricks=(0, 5, 0, 0),
        points=(0, 2, 0, 0),
        scores=(0, 2, 0, 0),
        march=True,
        partner=1,
    )
    seating = render.Seating(("Ann", "Bob", "Cy", "Di"), (None,) * 4)
    text = str(render.hand_summary_embed(result, "call_ace", seating).description)
    assert text == "Bob made ♣ clubs, their own partner. Bob took 5 of 5 tricks. A march!"


def test_the_trump_line_says_bid_and_alone_in_one_aside() -> None:
    """The bid and going alone are said together, in one wording (engine.wording's
    made_by): the status line's "♥ trump, made by E (bid 15) alone", the description's
    "Trump hearts, made by E (bid 15) alone", not "(bid 15) (alone: E)"."""
    game = Game("auction", seed=1, first_dealer=2)
    game.deal()
    for text in ("pass", "bid 15 H", "pass", "pass", "pass"):
        game.replay(text)
    seating = render.Seating(tuple("ABCDE"), (None,) * 5)
    public = game.view(None)
    assert "♥ trump, made by E (bid 15) alone ·" in render.table_status(public, seating)
    assert "Trump hearts, made by E (bid 15) alone." in describe(public, seating.names)
    game = Game("euchre", seed=1, first_dealer=0)
    game.deal()
    game.replay("order")
    game.replay("alone")
    seating = render.Seating(tuple("ABCD"), (None,) * 4)
    public = game.view(None)
    assert re.search(r"trump, made by B alone ·", render.table_status(public, seating))
    assert "Trump diamonds, made by B alone." in describe(public, seating.names)


def test_the_dealer_who_took_the_up_card_up_sees_it_in_hand_only() -> None:
    """RULES.md §2: once the Tuque dealer takes the up-card up, it is in their hand: their
    hand message no longer shows an "Up-card" on the table while they discard."""
    game = Game("tuque", seed=3)
    game.deal()
    up = game.up_card
    assert up is not None and up.suit is not None
    game.replay("pass")
    game.replay("take")
    assert game.phase is Phase.DISCARD
    view = game.view(game.dealer)
    assert up in view.hand
    text = render.hand_text(view, SEATING, 1)
    assert "Up-card" not in text.table
    assert up.pretty() in text.cards


def _secret_partner_line(text: render.HandText) -> bool:
    return "secret partner" in text.table


@pytest.mark.parametrize(("variant", "options"), [("auction", {}), ("call_ace", {})])
def test_only_the_secret_partner_is_told_and_only_in_their_hand(
    variant: str, options: dict
) -> None:
    """RULES.md §7: the holder of Auction's called card, or of the called suit's best
    card where nothing higher could be dealt, is told in their own hand message that
    they are the maker's secret partner; nobody else's view says it, the table's neither."""
    told = 0
    for seed in range(60):
        for game in _random_states(seed, 120, variant, **options):
            public = game.view(None)
            if game.phase is not Phase.PLAY or public.maker is None:
                continue
            if public.called_card is None and public.called_suit is None:
                continue
            seating = render.Seating(tuple("ABCDE"[: game.variant.players]), (None,) * 5)
            seating = render.Seating(seating.names, seating.user_ids[: game.variant.players])
            for seat in range(game.variant.players):
                view = game.view(seat)
                text = render.hand_text(view, seating, 1)
                partner = seat != public.maker and known_partner(view) == seat
                assert _secret_partner_line(text) == partner
                if partner:
                    assert f"You are {seating.names[public.maker]}'s secret partner" in text.table
                    told += 1
            assert "secret" not in render.table_status(public, seating)
            break
    assert told


def test_a_finished_tuque_shows_no_played_out_tableaus() -> None:
    """At the game's end every tableau is played out: the hand message shows no
    ``[—/ ]`` piles (one line of them per seat)."""
    game = next(g for g in _random_states(4, 5000) if g.phase is Phase.GAME_OVER)
    for seat in range(2):
        text = render.hand_text(game.view(seat), SEATING, 1)
        assert "tableau" not in text.table
        assert "—/" not in text.table


def test_the_stuck_dealer_is_told_they_must_name_a_suit() -> None:
    """RULES.md §2: when the non-dealer passes in round 2, the Tuque dealer must name a
    suit; their hand message says so, not only "name a suit"."""
    game = Game("tuque", seed=0)
    game.deal()
    while game.turn is not None and game.phase in (Phase.BIDDING_1, Phase.BIDDING_2):
        if not any(isinstance(a, Pass) for a in game.legal_actions(game.turn)):
            break
        game.replay("pass")
    assert game.phase is Phase.BIDDING_2 and game.turn == game.dealer
    text = render.hand_text(game.view(game.dealer), SEATING, 1)
    assert "must name a suit" in text.status


# --- issue 33: one name, one score, one way to say it --------------------------------------


def test_a_computer_seat_has_one_short_name_in_every_text() -> None:
    """Issue 33: a computer seat is ``CPU n`` on the table, in results and in replays,
    with no level in its name; a resigned member's seat is ``CPU for Ann``."""
    seats = [
        SeatRow.human(0, 100, "Ann"),
        SeatRow.computer(1, "normal"),
        SeatRow.computer(2, "hard"),
        SeatRow(3, SeatKind.HUMAN, user_id=103, display_name="Dev", resigned=True),
    ]
    seating = render.seating_of(seats)
    assert seating.names == ("Ann", "CPU 2", "CPU 3", "CPU for Dev")
    game = Game("euchre", seed=4)
    game.deal()
    status = render.table_status(game.view(None), seating)
    assert "(normal)" not in status and "(hard)" not in status
    assert "Ann & CPU 3: 0 · CPU 2 & CPU for Dev: 0 (to 10)" in status


def test_the_score_is_written_one_way_on_every_screen() -> None:
    """Issue 33: the table's status line, a hand, the game's end, the picture's words
    and the terminal write the score alike: ``Ann: 3 · Bob: 2 (to 10)``."""
    game = Game("tuque", seed=2)
    game.deal()
    view = replace(game.view(None), scores=(3, 2))
    seating = render.Seating(("Ann", "Bob"), (1, 2))
    score = "Ann: 3 · Bob: 2 (to 10)"
    assert render.table_status(view, seating).endswith(score)
    hand = render.hand_text(replace(game.view(0), scores=(3, 2)), seating, 1)
    assert f"**Score** {score}" in hand.table
    over = replace(view, phase=Phase.GAME_OVER, winner=0, turn=None)
    final = render.game_over_embed(over, seating)
    assert [f.value for f in final.fields] == [score]
    assert f"Score: {score}." in describe(view, seating.names)
    screen = TextRenderer(game.variant, you=0, names=seating.names).screen(game.view(0))
    assert "Score: Ann: 0 · Bob: 0 (to 10)" in screen


def test_a_side_of_three_reads_as_a_list() -> None:
    """Issues 33, 43: six-hand's sides read ``Ann, Cleo and Eve``, never ``Ann & Cleo &
    Eve``: in the web table's words (each side's name, the hand's end) too."""
    seating = render.Seating(("Ann", "Bob", "Cleo", "Dev", "Eve", "Fay"), (None,) * 6)
    assert seating.side_names(0, VARIANTS["six_hand"].sides) == "Ann, Cleo and Eve"
    game = drawing._advanced(
        "six_hand", 1, lambda v: v.hand_just_over is not None and v.hand_just_over.points[0] > 0
    )
    words = render.table_words(game.view(None), seating)
    assert words["sides"] == ["Ann, Cleo and Eve", "Bob, Dev and Fay"]
    assert "Ann, Cleo and Eve +" in words["hand_end"] and " & " not in words["hand_end"]


def test_declining_to_go_alone_is_told_so_on_the_web() -> None:
    """Issue 43: a maker's pass in the going-alone round is ``Not alone`` on its button,
    as on its bubble on the picture (``tests/bot/test_drawing.py``), and ``Ann didn't go
    alone`` in the web table's bids, never ``Ann passed``."""
    game = drawing._advanced("euchre", 2, lambda v: v.phase is Phase.GOING_ALONE)
    seat = game.turn
    assert seat is not None and game.phase is Phase.GOING_ALONE
    seating = render.Seating(("Ann", "Bob", "Cleo", "Dev"), (101, None, None, None))
    assert render.button_label(Pass(), game.view(seat), seating) == "Not alone"
    game.apply(seat, Pass())
    name = seating.names[seat]
    assert render.table_words(game.view(None), seating)["bids"][-1] == f"{name} didn't go alone"


def test_a_kept_label_is_its_own_phases_and_names() -> None:
    """Issue 41: labels are kept by what they read (the action, the phase, the variant
    and the names), so one pass reads ``Pass`` while bidding and ``Not alone`` in the
    going-alone round, and a button that names a seat names it as its own table does."""
    seating = render.Seating(("Ann", "Bob", "Cleo", "Dev"), (101, None, None, None))
    bidding = drawing._advanced("euchre", 2, lambda v: v.phase is Phase.BIDDING_1)
    alone = drawing._advanced("euchre", 2, lambda v: v.phase is Phase.GOING_ALONE)
    assert bidding.turn is not None and alone.turn is not None
    labels = [render.button_label(Pass(), g.view(g.turn), seating) for g in (bidding, alone)]
    assert labels == ["Pass", "Not alone"]
    assert render.button_label(Pass(), bidding.view(bidding.turn), seating) == "Pass"
    view = bidding.view(bidding.turn)
    other = render.Seating(("Eve", "Fay", "Gus", "Hal"), (102, None, None, None))
    assert render.action_label(Ask(2), view, seating) == "Ask Cleo for a card"
    assert render.action_label(Ask(2), view, other) == "Ask Gus for a card"
    # A turn whose labels name no seat is kept once for every table, whatever its names.
    assert render.button_labels(view, seating) is render.button_labels(view, other)
    # A loner's request for a card names the partners of its own table (six-hand, R6).
    six = ("Ann", "Bob", "Cleo", "Dev", "Eve", "Fay")
    asking = drawing._advanced("six_hand", 1, lambda v: v.phase is Phase.CARD_REQUEST)
    assert asking.phase is Phase.CARD_REQUEST and asking.turn is not None
    view = asking.view(asking.turn)
    assert view.legal_actions == (Pass(), Ask(0), Ask(4))
    for names in (six, tuple(n.upper() for n in six)):
        labels = render.button_labels(view, render.Seating(names, (101, *(None,) * 5)))
        assert labels[1:] == (f"Ask {names[0]} for a card", f"Ask {names[4]} for a card")


def test_wins_and_losses_and_ratings_read_alike() -> None:
    """Issue 33: the leaderboard and stats say ``2 won · 0 lost`` alike, and a rating is
    a whole number a player reads easily, never ``-3.1``."""
    board = render.leaderboard_embed([LeaderboardRow(1, 7, "Ann", 2, 0, -3.14)], None, 0, 1)
    assert "2 won · 0 lost" in (board.description or "")
    assert "rating 969" in (board.description or "")
    stats = PlayerStats(7, None, 2, 2, 0, -3.14, 1, 3, 10, 4, 3, 1, 0, 2.5)
    shown = " ".join(str(f.value) for f in render.stats_embed(stats, "Ann").fields)
    assert "2 won · 0 lost" in shown and "1 won · 3 lost" in shown and "rating 969" in shown
    assert "W " not in shown and "called" not in shown


def test_a_lobby_has_no_number_of_its_own_and_no_team_letters() -> None:
    """Issue 33: the game's number is the one number a player quotes; a lobby names a
    seat's partners by seat, as no other text names a team by a letter."""
    embed = render.lobby_embed(_lobby("euchre", {}))
    assert embed.title == "Euchre (four-hand): open table"
    seats = next(f.value for f in embed.fields if f.name == "Seats")
    assert "**Seat 2 · partner of seat 4**" in seats and "team" not in seats
    six = render.lobby_seat_label(_lobby("six_hand", {}), 0)
    assert six == "Seat 1 · partner of seats 3 & 5"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_web_tables_shared_words_come_from_the_public_view_and_the_prompt_is_the_seats(
    variant: str,
) -> None:
    """Issue 41: the web table's words but the prompt are made once a change for every
    viewer, from the public view, so they can hold nothing of a seat's; a seat's view is
    refused there. The prompt is the seat's own: what it is asked on its turn (as the
    hand message asks it), empty off its turn and for a spectator."""
    game = Game(variant, seed=5)
    seating = _seated(game)
    rng = random.Random(variant)
    with pytest.raises(ValueError, match="public view"):
        render.table_words(game.view(0), seating)
    for _ in range(120):
        if game.phase is Phase.GAME_OVER:
            break
        if game.turn is None:
            game.deal()
            continue
        words = render.table_words(game.view(None), seating)
        assert "prompt" not in words and words["score"] and words["status"]
        for seat in range(VARIANTS[variant].players):
            view = game.view(seat)
            asked = render.prompt_words(view)
            assert asked == (prompt(view, VARIANTS[variant]) if seat == game.turn else "")
        assert render.prompt_words(game.view(None)) == ""
        legal = game.legal_actions(game.turn)
        game.apply(game.turn, legal[rng.randrange(len(legal))])
