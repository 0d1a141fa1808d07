"""The shared wording (engine/wording.py) and the rules in words (engine/rules_text.py)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine.actions import (
    BID_LEVELS,
    Action,
    Ask,
    Bid,
    CallCard,
    CallSuit,
    Discard,
    Give,
    GoAlone,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    TakeUp,
    TurnDown,
)
from engine.cards import Card, Suit
from engine.game import Game
from engine.rules_text import rules_text
from engine.variants import VARIANTS
from engine.view import HandResult, Phase, TableauPile
from engine.wording import (
    BID_ALONE,
    NOBODY_SCORES,
    THROWN_IN,
    THROWN_IN_SHORT,
    Wording,
    capital,
    count,
    deals_left,
    doing,
    goal,
    joker_name,
    legend,
    pile_text,
    points_text,
    prompt,
    score_text,
    scores,
    side_name,
    signed,
    sort_cards,
    suit_groups,
    tableau_text,
    tally,
    verb,
    verdict,
    won_game,
)

# One configuration per variant and option that changes the pack or the seats.
TABLES = [
    ("tuque", {}),
    ("tuque61", {}),
    ("euchre", {"stick_the_dealer": True}),
    ("british", {"no_alone_after_pass": True}),
    ("three_hand", {}),
    ("two_hand", {"pack": 24}),
    ("six_hand", {}),
    ("six_hand", {"double_pack": True}),
    ("almonte", {"dealer_must_make": True}),
    ("call_ace", {"players": 6}),
    ("jackpot", {"players": 5}),
    ("auction", {"pack": 32}),
]


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def codes(hand: list[Card]) -> str:
    return " ".join(c.code for c in hand)


def seeded_turns(variant: str, options: dict, seed: int = 3, moves: int = 300) -> Iterator[Game]:
    """A seeded random game of ``variant``, at each moment a seat is to act."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, **options)
    for _ in range(moves):
        if game.phase is Phase.GAME_OVER:
            return
        if game.turn is None:
            game.deal()
            continue
        yield game
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))


# --- cards and hands ----------------------------------------------------------------------


def test_sort_cards_puts_trump_first_with_bowers_on_top() -> None:
    """With hearts trump: Bens, J♥, J♦, then A♥ before the other suits."""
    ordered = sort_cards(cards("9C JD AH B1 JH AS"), Suit.HEARTS)
    assert codes(ordered) == "B1 JH JD AH 9C AS"


def test_sort_cards_of_the_double_pack() -> None:
    """RULES.md §6 double pack: the joker of trump's colour on top, a first copy before
    its second; before trump, suits in order and each second copy after its first."""
    hand = cards("AS' B2 9D' AS B1 JC 9D")
    assert codes(sort_cards(hand, Suit.SPADES, twins=True)) == "B1 B2 JC AS AS' 9D 9D'"
    assert codes(sort_cards(hand, None, twins=True)) == "JC 9D 9D' AS AS' B2 B1"


def test_the_left_bower_is_grouped_with_trump_not_its_printed_suit() -> None:
    """Hearts trump: J♦ sits in the hearts group with the Ben; diamonds keep the rest."""
    groups = suit_groups(cards("AD JD 9H B2 KS"), Suit.HEARTS)
    assert [(s, codes(g)) for s, g in groups] == [
        (Suit.HEARTS, "B2 JD 9H"),
        (Suit.DIAMONDS, "AD"),
        (Suit.SPADES, "KS"),
    ]


def test_before_trump_the_jokers_form_their_own_last_group() -> None:
    """No trump yet: each printed suit, then the Bens (suit ``None``)."""
    groups = suit_groups(cards("B1 JD 9H B3 AD"), None)
    assert [(s, codes(g)) for s, g in groups] == [
        (Suit.DIAMONDS, "AD JD"),
        (Suit.HEARTS, "9H"),
        (None, "B3 B1"),
    ]


# --- the tableau and the legend -----------------------------------------------------------


@pytest.mark.parametrize(
    ("up", "down", "ascii_only", "pad", "shown"),
    [
        ("KS", True, False, False, "[K♠/▮]"),
        (None, True, False, False, "[—/▮]"),
        ("9D", False, False, False, "[9♦/ ]"),
        (None, False, False, False, "[—/ ]"),
        ("KS", True, False, True, "[ K♠/▮]"),
        (None, True, False, True, "[ — /▮]"),
        ("B3", True, False, True, "[🃏3/▮]"),
        ("B3", True, True, True, "[ B3/#]"),
        ("TH", "B1", True, False, "[10H/B1]"),
        (None, False, True, True, "[ - / ]"),
    ],
)
def test_a_pile_is_drawn_face_up_over_face_down(
    up: str | None, down: str | bool, ascii_only: bool, pad: bool, shown: str
) -> None:
    """``[face-up/face-down]``; padded to three columns for the terminal's rows."""
    top = Card.parse(up) if up else None
    under = Card.parse(down) if isinstance(down, str) else down
    assert pile_text(top, under, ascii_only=ascii_only, pad=pad) == shown


def test_a_tableau_is_its_piles_side_by_side() -> None:
    """Each pile in order, one space apart."""
    piles = (TableauPile(Card.parse("KS"), True), TableauPile(None, True), TableauPile(None, False))
    assert tableau_text(piles) == "[K♠/▮] [—/▮] [—/ ]"


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_the_legend_explains_every_symbol_a_table_shows(variant: str, options: dict) -> None:
    """Each joker of the pack, the double pack's prime, the tableau's marks: each in the
    legend exactly when the table can show it."""
    game = Game(variant, seed=1, **options)
    v = game.variant
    text = "\n".join(legend(v))
    for ben in (c for c in v.pack if c.is_ben):
        assert ben.pretty() in text
    assert ("🃏2" in text) == any(c.code == "B2" for c in v.pack)
    assert ("A♠'" in text) == v.twins
    assert ("▮" in text and "—" in text) == bool(v.tableau_piles)
    ascii_text = "\n".join(legend(v, ascii_only=True))
    assert ascii_text.isascii()


# --- actions and prompts ------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_every_offered_action_has_its_own_label_and_words(variant: str, options: dict) -> None:
    """In seeded games of every variant, the labels of one seat's choices are all
    different (a player can tell them apart), and every action can be narrated."""
    for game in seeded_turns(variant, options):
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        names = tuple(f"P{s}" for s in range(view.players))
        words = Wording(game.variant, names, you=seat)
        labels = [words.action_label(view, a) for a in view.legal_actions]
        assert len(set(labels)) == len(labels), labels
        assert prompt(view, game.variant)
        for action in view.legal_actions:
            assert words.narrate(seat, action, view.phase).startswith(f"P{seat} ")
            assert words.narrate(seat, action, view.phase, past=True).startswith(f"P{seat} ")


def test_narration_takes_the_readers_person_and_the_past() -> None:
    """``You pass`` to the reader, ``West passes`` to others, ``West passed`` afterwards."""
    game = Game("euchre", seed=1)
    words = Wording(game.variant, ("You", "West", "Partner", "East"), you=0)
    assert words.narrate(0, Pass(), Phase.BIDDING_1) == "You pass"
    assert words.narrate(1, Pass(), Phase.BIDDING_1) == "West passes"
    assert words.narrate(1, Pass(), None, past=True) == "West passed"
    assert words.narrate(1, Pass(), Phase.GOING_ALONE) == "West doesn't go alone"
    assert words.narrate(0, GoAlone(), Phase.GOING_ALONE) == "You go alone"
    assert words.narrate(3, TakeUp(), Phase.BIDDING_1, past=True) == "East took it up"


def test_a_ben_turned_up_is_accepted_by_naming_trump() -> None:
    """RULES.md §1 Ben turned up: the acceptor names the suit, and the words say so."""
    game = Game("tuque", seed=1)
    words = Wording(game.variant, ("You", "Computer"), you=0)
    assert words.narrate(1, OrderUp(Suit.SPADES), Phase.BIDDING_1) == (
        "Computer orders it up and names ♠ spades"
    )


def test_a_hidden_card_is_a_card() -> None:
    """A discard or a gift the reader may not see is "a card", never the card."""
    game = Game("six_hand", seed=1)
    words = Wording(game.variant, tuple(f"P{s}" for s in range(6)), you=0)
    nine = Card.parse("9C")
    assert words.narrate(3, Discard(nine), Phase.DISCARD, hidden=True) == "P3 discards a card"
    assert words.narrate(3, Give(nine), Phase.GIVING, hidden=True) == "P3 gives a card to the loner"
    assert words.narrate(3, Give(nine), Phase.GIVING) == "P3 gives 9♣ to the loner"


def test_the_prompt_offers_what_the_menu_offers(deal_game) -> None:
    """Tuque, stick the dealer: the dealer in round 2 is not offered a pass."""
    game = deal_game("tuque", dealer=1, up_card="9H")
    assert prompt(game.view(0), game.variant) == "order it up, or pass."
    game.apply(0, Pass())
    assert prompt(game.view(1), game.variant) == "take it up, or pass."
    game.apply(1, Pass())
    assert prompt(game.view(0), game.variant) == "name a suit as trump, or pass."
    game.apply(0, Pass())
    assert prompt(game.view(1), game.variant) == (
        "you must name a suit as trump: everyone passed, and the dealer is stuck."
    )
    assert prompt(game.view(0), game.variant) == ""


def test_a_play_label_names_the_card() -> None:
    """``Play 10♥``, ``Play 10H`` in ASCII."""
    game = Game("tuque", seed=2)
    game.deal()
    view = game.view(0)
    ten = Card.parse("TH")
    assert Wording(game.variant, ("You", "Computer")).action_label(view, Play(ten)) == "Play 10♥"
    ascii_words = Wording(game.variant, ("You", "Computer"), ascii_only=True)
    assert ascii_words.action_label(view, Play(ten)) == "Play 10H"


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_a_label_a_narration_and_a_bubble_share_one_verb(variant: str, options: dict) -> None:
    """Each offered action's button label, narration and picture bubble start with the
    forms of its one :class:`Verb`: ``Order it up`` / ``orders it up`` / ``Order up``."""
    for game in seeded_turns(variant, options):
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        names = tuple(f"P{s}" for s in range(view.players))
        words = Wording(game.variant, names)
        for action in view.legal_actions:
            forms = verb(action, view.phase)
            # A pass's button says its bubble's words ("Not alone").
            label = forms.short.lower() if isinstance(action, Pass) else forms.you
            assert words.action_label(view, action).lower().startswith(label)
            assert words.narrate(seat, action, view.phase).startswith(f"P{seat} {forms.they}")
            said = words.narrate(seat, action, view.phase, past=True)
            assert said.startswith(f"P{seat} {forms.past}")
            bubble = words.short(action, view.phase)
            assert isinstance(bubble[0], str)
            assert bubble[0].startswith(verb(action, view.phase).short)


def test_declining_to_go_alone_reads_so_on_its_button_its_bubble_and_after() -> None:
    """Issue 43: a pass in the going-alone round, the maker's or (six-hand, RULES.md §4)
    a defender's, is ``Not alone`` on its button and on the picture's bubble alike, and
    ``Bob didn't go alone`` in the bids told afterwards, never ``passed``: the view keeps
    the phase each bid was made in."""
    names = tuple(f"P{s}" for s in range(6))
    for seed in range(50):
        game = Game("six_hand", seed=seed)
        game.deal()
        rng = random.Random(seed)
        while game.turn is not None and game.phase in (Phase.BIDDING_1, Phase.BIDDING_2):
            legal = game.legal_actions(game.turn)
            game.apply(game.turn, rng.choice([a for a in legal if a != Pass()] or legal))
        if game.phase is Phase.GOING_ALONE and game.turn == game.view(None).maker:
            game.apply(game.turn, Pass())  # the maker is asked first, and declines
        if game.phase is Phase.GOING_ALONE:
            break
    else:
        pytest.fail("no seeded six-hand deal asked a defender to go alone")
    seat = game.turn
    words = Wording(game.variant, names)
    assert words.action_label(game.view(seat), Pass()) == "Not alone"
    game.apply(seat, Pass())
    view = game.view(None)
    assert len(view.bid_phases) == len(view.bids)
    assert view.bids[-1] == (seat, Pass()) and view.bid_phases[-1] is Phase.GOING_ALONE
    assert words.narrate(seat, Pass(), view.bid_phases[-1], past=True) == (
        f"P{seat} didn't go alone"
    )
    assert words.short(Pass(), view.bid_phases[-1]) == ("Not alone",)
    assert view.bid_phases[-2] is Phase.GOING_ALONE and view.bids[-2][0] == view.maker
    assert {*view.bid_phases[:-2]} <= {Phase.BIDDING_1, Phase.BIDDING_2}


@pytest.mark.parametrize(
    ("action", "bubble"),
    [
        (Pass(), ("Pass",)),
        (OrderUp(), ("Order up",)),
        (OrderUp(Suit.SPADES), ("Order up", Suit.SPADES)),
        (TakeUp(Suit.HEARTS), ("Take up", Suit.HEARTS)),
        (NameTrump(Suit.HEARTS), ("Name", Suit.HEARTS)),
        (GoAlone(), ("Alone",)),
        (TurnDown(), ("Turn down",)),
        (CallSuit(Suit.CLUBS), ("Call", Suit.CLUBS)),
        (Ask(2), ("Ask Cleo",)),
        (Bid(8, Suit.CLUBS), ("Bid 8", Suit.CLUBS)),
        (CallCard(Card.parse("TS")), ("Call 10", Suit.SPADES)),
        (CallCard(Card.parse("B1")), ("Call the Benny",)),
    ],
)
def test_a_bubble_on_the_picture_says_a_bid_in_a_few_words(
    action: Action, bubble: tuple[str | Suit, ...]
) -> None:
    """The picture's bubbles: the verb's short form, a suit left to be drawn as its shape."""
    names = ("Ann", "Bob", "Cleo", "Dev")
    assert Wording(VARIANTS["british"], names).short(action) == bubble


def test_an_auction_bid_that_plays_alone_says_how() -> None:
    """RULES.md §7 Auction: 8 takes the widow, 15 plays the hand as dealt; both alone."""
    game = Game("auction", seed=1)
    game.deal()
    view = game.view(game.turn)
    words = Wording(game.variant, tuple("ABCDE"))
    assert words.action_label(view, Bid(4, Suit.HEARTS)) == "Bid 4 in ♥ hearts"
    assert words.action_label(view, Bid(8, Suit.CLUBS)) == "Bid 8 in ♣ clubs, alone after the widow"
    assert words.action_label(view, Bid(15, Suit.CLUBS)) == "Bid 15 in ♣ clubs, alone as dealt"
    assert set(BID_ALONE) < set(BID_LEVELS)


def test_something_that_is_not_an_action_has_no_verb() -> None:
    with pytest.raises(ValueError, match="is not an action"):
        verb("pass")  # type: ignore[arg-type]


# --- phases: what the seat to act is doing -------------------------------------------------


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_every_phase_with_a_seat_to_act_says_what_it_is_doing(variant: str, options: dict) -> None:
    """In seeded games of every variant, each moment a seat acts has words for it
    (``to bid (round 1)``, ``to lead``), said after the seat's name."""
    for game in seeded_turns(variant, options):
        words = doing(game.view(None), game.variant)
        assert re.fullmatch(r"to [a-z][a-z ()12]+", words), words


def test_the_play_is_a_lead_until_a_card_is_played(deal_game, act) -> None:
    """The first card of a trick is led, the others played."""
    game = deal_game("euchre", dealer=3, up_card="9H")
    assert doing(game.view(None), game.variant) == "to bid (round 1)"
    act(game, "order", "pass")
    assert game.phase is Phase.DISCARD
    assert doing(game.view(None), game.variant) == "to discard"
    for words in ("to lead", "to play"):
        assert game.turn is not None
        game.apply(game.turn, game.legal_actions(game.turn)[0])  # a discard, then a lead
        assert doing(game.view(None), game.variant) == words


def test_almontes_dealer_names_the_suit_to_bid_on_not_trump() -> None:
    """RULES.md §6 Almonte: unseen, the dealer names the suit round 1 bids on; in
    British Euchre (§4) the same naming makes trump."""
    for variant, words in (
        ("almonte", "to name the suit to bid on before looking at their hand"),
        ("british", "to name trump before looking at their hand"),
    ):
        game = Game(variant, seed=1)
        view = replace(game.view(None), phase=Phase.BLIND_NAMING, turn=0)
        assert doing(view, game.variant) == words


@pytest.mark.parametrize("phase", [Phase.DEAL, Phase.HAND_OVER, Phase.GAME_OVER])
def test_nobody_is_doing_anything_between_hands(phase: Phase) -> None:
    """A deal, a hand's end and the game's end have no seat to act: no words for one."""
    game = Game("euchre", seed=1)
    with pytest.raises(ValueError, match="nobody acts"):
        doing(replace(game.view(None), phase=phase), game.variant)


# --- results: makers, tricks, points, a march, a euchre ------------------------------------


def _result(**fields: object) -> HandResult:
    """A finished four-seat hand: Bob (seat 1) made clubs and took 3 of 5 tricks."""
    base: dict[str, object] = dict(
        hand_no=4, dealer=0, up_card=Card.parse("9C"), trump=Suit.CLUBS, maker=1,
        alone=None, tricks=(1, 2, 1, 1), points=(0, 1), scores=(5, 7), march=False,
        euchred=False,
    )  # fmt: skip
    return HandResult(**{**base, **fields})  # type: ignore[arg-type]


NAMES = ("Ann", "Bob", "Cleo", "Dev")


def test_who_made_trump_and_how() -> None:
    """The maker, the Auction bid (RULES.md §7) and who plays alone, in one aside: the
    maker alone, or a partner who went alone (§4)."""
    words = Wording(VARIANTS["british"], NAMES)
    assert words.made_by(1) == "made by Bob"
    assert words.made_by(1, alone=1) == "made by Bob alone"
    assert words.made_by(1, alone=3) == "made by Bob, Dev alone"
    assert words.made_by(0, bid=15, alone=0) == "made by Ann (bid 15) alone"
    assert words.made_by(0, bid=15, alone=0, short=True) == "Ann · bid 15 · alone"
    assert words.made_by(1, alone=3, short=True) == "Bob · Dev alone"
    assert words.defends_alone(2) == "Cleo defends alone"
    assert words.defends_alone(2, past=True) == "Cleo defended alone"
    reader = Wording(VARIANTS["british"], ("Ann", "Bob", "You", "Dev"), you=2)
    assert reader.defends_alone(2) == "You defend alone"


def test_a_hands_contract_after_it_is_over() -> None:
    """Who made which trump, with whom, and who defended alone (RULES.md §4, §7)."""
    words = Wording(VARIANTS["british"], NAMES)
    assert words.made(_result()) == "Bob made ♣ clubs"
    assert words.made(_result(alone=3, lone_defender=0)) == (
        "Bob made ♣ clubs, Dev alone; Ann defended alone"
    )
    call_ace = VARIANTS["call_ace"]
    assert (
        Wording(call_ace, NAMES).made(_result(partner=2)) == "Bob made ♣ clubs, partnered by Cleo"
    )
    assert (
        Wording(call_ace, NAMES).made(_result(partner=1)) == "Bob made ♣ clubs, their own partner"
    )
    mine = Wording(VARIANTS["call_ace"], ("You", *NAMES[1:]), you=0)
    assert mine.made(_result(maker=0, partner=0)) == "You made ♣ clubs, your own partner"
    with pytest.raises(ValueError, match="thrown in"):
        words.made(_result(maker=None, trump=None))


def test_a_tally_is_written_as_the_score() -> None:
    """One form for every count by seat or side: the score, tricks, cards in hand."""
    assert tally((2, 3), ("Ann", "CPU 2")) == "Ann: 2 · CPU 2: 3"
    assert tally((2, 3), ("Ann", "CPU 2"), ascii_only=True) == "Ann: 2 / CPU 2: 3"
    assert (
        score_text((2, 3), ("Ann", "CPU 2"), "to 10")
        == f"{tally((2, 3), ('Ann', 'CPU 2'))} (to 10)"
    )


def test_a_maker_who_went_alone_is_said_as_a_player_says_it() -> None:
    """Issue 33: "Bob made ♣ clubs. Bob went alone and took 4 of 5 tricks", not "took 4
    of 5 (alone: Bob)" nor the loner twice; Auction's lone bid keeps its bid."""
    words = Wording(VARIANTS["euchre"], NAMES)
    bob = _result(alone=1, tricks=(1, 4, 0, 0))
    assert f"{words.made(bob, loner=False)}. {words.took(bob)}" == (
        "Bob made ♣ clubs. Bob went alone and took 4 of 5 tricks"
    )
    auction = Wording(VARIANTS["auction"], (*NAMES, "Eve"))
    bid = _result(alone=1, bid=8, tricks=(0, 5, 0, 0, 0))
    assert f"{auction.made(bid, loner=False)}. {auction.took(bid)}" == (
        "Bob made ♣ clubs (bid 8). Bob went alone and took 5 of 5 tricks"
    )


def test_what_the_makers_took() -> None:
    """Partners of a side together (RULES.md §3), a called partner once told (§7), a
    loner alone: the partners who sat out took nothing."""
    assert Wording(VARIANTS["euchre"], NAMES).took(_result()) == "Bob & Dev took 3 of 5 tricks"
    alone = _result(alone=3, tricks=(0, 0, 0, 5))
    assert Wording(VARIANTS["euchre"], NAMES).took(alone) == "Dev went alone and took 5 of 5 tricks"
    called = Wording(VARIANTS["call_ace"], NAMES).took(_result(partner=2))
    assert called == "Bob & Cleo took 3 of 5 tricks"
    assert Wording(VARIANTS["three_hand"], NAMES[:3]).took(_result(tricks=(1, 3, 1))) == (
        "Bob took 3 of 5 tricks"
    )


def test_a_side_of_three_is_one_list_wherever_it_is_named() -> None:
    """Issue 43: six-hand's three partners are written as a list is, ``Ann, CPU 3 and
    CPU 5``, alike in what they took and in their points, never ``Ann & CPU 3 & CPU 5``."""
    names = ("Ann", "CPU 2", "CPU 3", "CPU 4", "CPU 5", "CPU 6")
    six = Wording(VARIANTS["six_hand"], names)
    result = _result(maker=0, tricks=(1, 1, 1, 0, 1, 1), points=(1, 0))
    side = side_name(names[0::2])
    assert side == "Ann, CPU 3 and CPU 5"
    assert six.side(0) == side and six.side(1) == "CPU 2, CPU 4 and CPU 6"
    assert six.outcome(result) == f"{side} took 3 of 5 tricks · {side} +1"
    assert side_name(("Ann", "Cleo")) == "Ann & Cleo"


def test_a_march_a_euchre_and_jackpots_sweep() -> None:
    """The verdict follows the engine's flags; Jackpot's march sweeps the pool (§7)."""
    euchre = VARIANTS["euchre"]
    assert verdict(_result(march=True), euchre) == "a march"
    assert verdict(_result(euchred=True), euchre) == "euchred"
    assert verdict(_result(), euchre) == ""
    jackpot = VARIANTS["jackpot"]
    swept = _result(maker=None, tricks=(0, 5, 0, 0))
    assert verdict(swept, jackpot) == "a march sweeps the pool"
    assert verdict(swept, jackpot, short=True) == "a march"
    assert verdict(_result(maker=None, tricks=(1, 4, 0, 0)), jackpot) == ""


def test_points_are_counted_signed_and_scored() -> None:
    """``1 point``, ``+2``, ``-5`` with the hyphen-minus; a side ``scores`` or ``loses``."""
    assert (count(1, "point"), count(0, "trick"), count(3, "trick")) == (
        "1 point",
        "0 tricks",
        "3 tricks",
    )
    assert (signed(2), signed(-5)) == ("+2", "-5")
    assert scores(1) == "scores 1 point"
    assert scores(-2) == "loses 2 points"
    assert scores(4, plural=True) == "score 4 points"
    assert points_text((0, 2, -1), ("Ann", "Bob & Dev", "Cy")) == "Bob & Dev +2, Cy -1"
    assert points_text((0, 0), ("Ann", "Bob")) == NOBODY_SCORES


def test_what_ends_a_game() -> None:
    """A target of points; Jackpot's deals, or a march (RULES.md §7 ruling)."""
    assert goal(VARIANTS["euchre"], 10) == "game to 10"
    assert goal(VARIANTS["jackpot"], 100, hands=12) == "12 deals or a march"


def test_jackpots_deals_in_words_and_in_the_pictures_short_form() -> None:
    """RULES.md §7 ruling: Jackpot ends on deals; a tie for the most chips plays on."""
    game = Game("jackpot", seed=1, hands=12)
    game.deal()
    view = game.view(None)
    assert (deals_left(view), deals_left(view, short=True)) == ("deal 1 of 12", "deal 1/12")
    tied = replace(view, hand_no=13, tie_break=True)
    assert deals_left(tied) == "deal 13, to break a tie for the most chips"
    assert deals_left(tied, short=True) == "tie-break"
    # Issue 43, docs/rulings.md R22: the game that deal ended is over, and no longer
    # tied, but its deal is still no "deal 13 of 12".
    over = replace(view, hand_no=13, phase=Phase.GAME_OVER)
    assert deals_left(over) == "deal 13, to break a tie for the most chips"
    assert deals_left(over, short=True) == "tie-break"


def test_the_games_end_and_a_hand_thrown_in() -> None:
    """One sentence each, and the picture's shorter form of it."""
    assert won_game("Ann & Cleo") == "Ann & Cleo won the game"
    assert won_game("Ann & Cleo", short=True) == "Ann & Cleo won!"
    assert capital(THROWN_IN) == "Everyone passed, so the hand is thrown in"
    assert THROWN_IN_SHORT == ("Thrown in", "everyone passed")
    assert capital("a march by Ann") == "A march by Ann"


# --- the rules in words -------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_has_rules_in_a_players_words(variant: str) -> None:
    """How to win, the cards, the scoring and the legend; no document reference."""
    sections = rules_text(variant)
    headings = [s.heading for s in sections]
    assert headings[0] == "The game" and headings[-1] == "Legend"
    assert "The cards" in headings
    assert "Scoring" in headings or "Chips" in headings
    text = "\n".join(f"{s.heading}\n{s.text}" for s in sections)
    assert not re.search(r"RULES|rulings|§|\.md", text)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_rules_write_cards_as_the_table_shows_them(variant: str) -> None:
    """The ranks use the cards' own forms: 🃏3 > 🃏2 > 🃏1 (B3 > B2 > B1 in ASCII)."""
    v = VARIANTS[variant]
    bens = [c for c in v.pack if c.is_ben]
    cards_section = next(s.text for s in rules_text(v) if s.heading == "The cards")
    ascii_section = next(s.text for s in rules_text(v, ascii_only=True) if s.heading == "The cards")
    order = " > ".join(c.pretty() for c in reversed(bens))
    assert f"high to low: {order}{' > ' if bens else ''}Right Bower > Left Bower" in cards_section
    assert " > ".join(c.code for c in reversed(bens)) in ascii_section
    assert "🃏" not in "\n".join(s.text for s in rules_text(v, ascii_only=True))


def _scoring(variant: str) -> str:
    return next(s.text for s in rules_text(variant) if s.heading == "Scoring")


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


EUCHRE_FAMILY = [v for v in sorted(VARIANTS) if VARIANTS[v].tricks == 5 and not VARIANTS[v].chips]


@pytest.mark.parametrize("variant", [v for v in EUCHRE_FAMILY if v != "auction"])
def test_the_rules_state_the_points_the_scoring_function_gives(variant: str) -> None:
    """RULES.md §3–§7 Scoring: each line of the rules' table is built here from the
    variant's own scoring function (a hand made, a march, a march alone where a maker
    may go alone, a euchre, one against a lone defender where a defender may go alone)
    and found in the text ``tuque rules`` prints."""
    v = VARIANTS[variant]
    score, text = v.score_hand, _scoring(variant)
    makers_alone = v.alone != "none" or v.makers == "call_suit"
    defender_alone = v.alone == "anyone"
    solo = v.makers == "solo"
    makers, score_verb = ("the maker", "scores") if solo else ("the makers", "score")
    for made in (3, 4):
        assert score(made, 5 - made, False) == score(3, 2, False)  # one line for both
    made = f"- 3 or 4: {makers} {score_verb} {_points(score(3, 2, False)[0])}"
    march = f"- All 5 (a march): {makers} {score_verb} {_points(score(5, 0, False)[0])}"
    if makers_alone and score(5, 0, True) != score(5, 0, False):
        march += f", or {score(5, 0, True)[0]} playing alone"
    for made_tricks in (0, 1, 2):
        assert score(made_tricks, 5 - made_tricks, False) == score(2, 3, False)
    ours, theirs = score(2, 3, False)
    if theirs:
        euchred = f"- Fewer than 3 (euchred): the defenders score {_points(theirs)}"
        lone = score(2, 3, False, True)[1]
        if defender_alone and lone != theirs:
            euchred += f", or {lone} with a defender playing alone"
    else:
        euchred = f"- Fewer than 3 (euchred): the maker loses {_points(-ours)}"
        assert "A score can go below zero." in text
    for line in (made, march, euchred):
        assert f"{line}\n" in text + "\n", f"{line!r} not in {text!r}"


def test_auctions_rules_state_each_bids_points_from_the_scoring_function() -> None:
    """RULES.md §7 Auction ruling: per bid, what the makers must take and what each
    maker then scores or loses, as ``score_auction`` gives it."""
    v = VARIANTS["auction"]
    score, text = v.score_hand, _scoring("auction")
    for level in BID_LEVELS:
        need = min(level, 5)
        won = score(need, 5 - need, level in BID_ALONE, False, level)[0]
        lost = score(need - 1, 6 - need, level in BID_ALONE, False, level)[0]
        assert all(score(m, 5 - m, False, False, level)[0] == won for m in range(need, 6))
        assert all(score(m, 5 - m, False, False, level)[0] == lost for m in range(need))
        taken = {3: "3 to 5 tricks", 4: "4 or 5 tricks", 5: "all 5 tricks (a march)"}[need]
        alone = f" ({BID_ALONE[level]})" if level in BID_ALONE else ""
        line = (
            f"- Bid {level}{alone}: {taken} {won:+d}, fewer than {need} tricks (euchred) {lost:+d}"
        )
        assert line in text.splitlines(), f"{line!r} not in {text!r}"


def test_tuque61s_rules_state_the_points_a_trick_the_scoring_function_gives() -> None:
    """RULES.md §2: a point a trick each; the defender's rate doubles from 9 tricks."""
    v = VARIANTS["tuque61"]
    score, text = v.score_hand, _scoring("tuque61")
    maker = score(1, 16, False)[0]
    assert all(score(m, 17 - m, False)[0] == maker * m for m in range(18))
    low, high = score(16, 1, False)[1], score(0, 17, False)[1] // 17
    threshold = next(d for d in range(1, 18) if score(17 - d, d, False)[1] != low * d)
    assert f"- The maker scores {_points(maker)} a trick." in text
    assert (
        f"- The defender scores {_points(low)} a trick, or {high} a trick if they took "
        f"{threshold} or more." in text
    )


def test_the_rules_follow_the_scoring_function_not_typed_numbers(monkeypatch) -> None:
    """Nothing in the scoring table is typed: a variant scored another way (every point
    doubled) gets a table with the other numbers."""
    base = VARIANTS["british"]

    def doubled(m: int, d: int, alone: bool, lone: bool = False, bid: int = 0) -> tuple[int, int]:
        ours, theirs = base.score_hand(m, d, alone, lone, bid)
        return 2 * ours, 2 * theirs

    monkeypatch.setitem(VARIANTS, "british", replace(base, score_hand=doubled))
    text = _scoring("british")
    assert "- All 5 (a march): the makers score 4 points, or 8 playing alone" in text
    assert "- 3 or 4: the makers score 2 points" in text
    assert "the defenders score 4 points, or 8 with a defender playing alone" in text


def test_tuque_scoring_table_matches_the_engine() -> None:
    """Each line of Tuque's scoring table gives the points the engine scores."""
    scoring = next(s.text for s in rules_text("tuque") if s.heading == "Scoring")
    score = VARIANTS["tuque"].score_hand
    rows = re.findall(r"- (\d+) to (\d+)[^:]*: the (\w+) scores (\d)", scoring)
    assert len(rows) == 6
    for low, high, who, points in rows:
        for made in range(int(low), int(high) + 1):
            expected = (int(points), 0) if who == "maker" else (0, int(points))
            assert score(made, 17 - made, False) == expected


def test_almontes_blind_naming_is_the_suit_to_bid_on() -> None:
    """RULES.md §6 Almonte: the dealer names, unseen, the suit round 1 bids on; in
    British Euchre (§4) the same naming makes trump."""
    almonte = Wording(Game("almonte", seed=1).variant, tuple(f"P{s}" for s in range(6)))
    british = Wording(Game("british", seed=1).variant, tuple(f"P{s}" for s in range(4)))
    hearts = NameTrump(Suit.HEARTS)
    assert almonte.narrate(0, hearts, Phase.BLIND_NAMING) == "P0 names ♥ hearts to bid on"
    assert british.narrate(0, hearts, Phase.BLIND_NAMING) == "P0 names ♥ hearts as trump"
    assert almonte.narrate(0, hearts, None, past=True) == "P0 named ♥ hearts"


def test_auctions_rules_give_the_lead_to_eldest_even_alone() -> None:
    """RULES.md §7 Auction: eldest leads; a bid of 8 or 15 plays alone without moving
    the lead to the maker's left, as four-hand Euchre's loner does."""
    playing = next(s.text for s in rules_text("auction") if s.heading == "Playing")
    assert "loner's left" not in playing
    assert playing.startswith(
        "The player on the dealer's left leads the first trick, even when the maker plays alone."
    )


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_a_joker_has_one_name_per_game(variant: str, options: dict) -> None:
    """Each game calls its jokers by one word, the sources' (joker_name): Little Ben,
    Big Ben, Best Ben with three; the Benny with one; the black and red Bennies in the
    double pack. Its rules and legend never use another game's word."""
    v = Game(variant, seed=1, **options).variant
    base = VARIANTS[variant]
    text = "\n".join(s.text for s in rules_text(base)) if not v.twins else ""
    text += "\n" + "\n".join(legend(v))
    names = {joker_name(v, c) for c in v.pack if c.is_ben}
    jokers = sum(c.is_ben for c in v.pack)
    if jokers == 3:
        assert names == {"Little Ben", "Big Ben", "Best Ben"}
        assert "Benny" not in text and "Bennies" not in text
    elif jokers == 1:
        assert names == {"the Benny"}
        assert not re.search(r"\bBens?\b|Little|Best Ben|Big Ben", text)
    elif jokers == 2:
        assert names == {"the black Benny", "the red Benny"}
        assert "the black Benny" in text and not re.search(r"\bBens?\b|joker,", text)
    for card in (c for c in v.pack if c.is_ben):
        assert f"{card.pretty()} {joker_name(v, card)}" in text  # the legend: 🃏1 Little Ben


def test_the_rules_tell_the_rulings_that_change_play() -> None:
    """Rulings R22–R25 (docs/rulings.md) are in the players' rules too: Jackpot's tie
    plays on, Call-Ace's loner's left leads, Almonte's named suit is out in round 2, a
    Call-Ace maker may be their own partner."""

    def text(variant: str) -> str:
        return " ".join(s.text for s in rules_text(variant)).replace("\n", " ")

    assert "one more deal, and another while the tie lasts" in text("jackpot")
    assert "if someone plays alone, the player on the loner's left" in text("call_ace")
    assert "round 2 names one of the other suits" in text("almonte")
    assert "be their own partner" in text("call_ace")


def test_the_rules_tell_six_hands_order_and_auctions_tie() -> None:
    """Rulings R28 and R29 (docs/rulings.md) are in the players' rules: six-hand's dealer
    discards before the loners ask; Auction makers who both reach the target."""
    six = " ".join(s.text for s in rules_text("six_hand"))
    assert "Then the dealer picks up and discards, unless they sit out. Then the loner" in six
    assert "discards twice: for the up-card, then for the card given" in six
    scoring = rules_text("auction")[-2]
    assert scoring.heading == "Scoring"
    assert "reach 50 in the same hand (the maker and their partner), the highest" in scoring.text
