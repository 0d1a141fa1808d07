"""Card notation, suits, effective suits and trump order (RULES.md "Card notation")."""

from __future__ import annotations

import pickle

import pytest

from engine.cards import (
    BENS,
    CARDS,
    Card,
    Rank,
    Suit,
    cards_in,
    effective_suit,
    format_cards,
    is_trump,
    mask_of,
    parse_cards,
    trump_order,
)
from engine.variants import VARIANTS

TUQUE_PACK = VARIANTS["tuque"].pack
EUCHRE_PACK = VARIANTS["euchre"].pack


@pytest.mark.parametrize("card", CARDS, ids=[c.code for c in CARDS])
def test_code_round_trips(card: Card) -> None:
    """Every card parses back from its code to the very same object."""
    assert Card.parse(card.code) is card


def test_pickled_cards_come_back_interned() -> None:
    """A card sent to another process (the table's view to the drawing process) is the
    very same card there; one built by hand, not interned, comes back equal."""
    assert all(pickle.loads(pickle.dumps(card)) is card for card in CARDS)
    loose = Card(Rank.ACE, Suit.SPADES)
    back = pickle.loads(pickle.dumps(loose))
    assert back == loose and back.index == -1


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10H", "TH"),
        ("10h", "TH"),
        ("th", "TH"),
        ("as", "AS"),
        (" 9c ", "9C"),
        ("b3", "B3"),
        ("jd", "JD"),
        ("10h'", "TH'"),
        ("as'", "AS'"),
    ],
)
def test_parse_accepts_ten_and_any_case(text: str, code: str) -> None:
    """Parsing accepts ``10`` for ``T``, any case and surrounding spaces."""
    assert Card.parse(text).code == code


@pytest.mark.parametrize(
    "text", ["", "1H", "XX", "B4", "B0", "AX", "10", "AS AS", "5C", "JOKER", "6C'", "B1'", "AS''"]
)
def test_parse_rejects_what_is_no_card(text: str) -> None:
    """Anything outside the notation raises ValueError."""
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(text)


def test_parse_cards_and_format_cards_round_trip() -> None:
    """A list of every card formats and parses back unchanged."""
    assert parse_cards(format_cards(CARDS)) == list(CARDS)


def test_parse_cards_accepts_commas_and_iterables() -> None:
    """Card lists may be comma separated or given as codes."""
    assert parse_cards("AS, 10H,B1") == parse_cards(["AS", "TH", "B1"])


def test_mask_round_trips() -> None:
    """A card mask lists its cards back in index order."""
    cards = parse_cards("B3 AS 6C TH")
    assert list(cards_in(mask_of(cards))) == sorted(cards, key=lambda c: c.index)


def test_card_indices_are_positions() -> None:
    """Each card's index is its position in CARDS: the 39 of the narrow packs, then the
    double pack's 24 second copies (RULES.md §6)."""
    assert [c.index for c in CARDS] == list(range(63))
    assert [c.code for c in CARDS[38:41]] + [CARDS[-1].code] == ["B3", "9C'", "TC'", "AS'"]


def test_second_copies_are_other_cards_of_the_same_rank() -> None:
    """``AS'`` is not ``AS``: another card with the same rank and suit."""
    first, second = Card.parse("AS"), Card.parse("AS'")
    assert first != second and (first.rank, first.suit) == (second.rank, second.suit)
    assert (first.copy, second.copy) == (0, 1)


@pytest.mark.parametrize(
    ("code", "pretty", "name"),
    [
        ("TH", "10♥", "ten of hearts"),
        ("AS", "A♠", "ace of spades"),
        ("B1", "🃏1", "Little Ben"),
        ("B2", "🃏2", "Big Ben"),
        ("B3", "🃏3", "Best Ben"),
        ("TH'", "10♥'", "ten of hearts (second)"),
    ],
)
def test_display_forms(code: str, pretty: str, name: str) -> None:
    """Cards display with suit symbols and English names; Bens by their names."""
    card = Card.parse(code)
    assert (card.pretty(), card.name(), str(card)) == (pretty, name, code)


def test_bens_are_jokers() -> None:
    """B1, B2 and B3 are the jokers and carry no suit."""
    assert [(b.code, b.is_ben, b.suit) for b in BENS] == [
        ("B1", True, None),
        ("B2", True, None),
        ("B3", True, None),
    ]


# --- suits ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("C", Suit.CLUBS),
        ("d", Suit.DIAMONDS),
        ("♥", Suit.HEARTS),
        ("spades", Suit.SPADES),
        ("Spade", Suit.SPADES),
        (" Hearts ", Suit.HEARTS),
        ("club", Suit.CLUBS),
    ],
)
def test_suit_parse(text: str, suit: Suit) -> None:
    """Suits parse from their letter, symbol or English name, in any case."""
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["", "X", "B", "joker", "hart"])
def test_suit_parse_rejects_what_is_no_suit(text: str) -> None:
    """Anything else raises ValueError."""
    with pytest.raises(ValueError, match="is not a suit"):
        Suit.parse(text)


def test_colours_and_partners() -> None:
    """Hearts and diamonds are red, clubs and spades black; the partner shares the colour."""
    assert [(s.value, s.is_red, s.partner.value) for s in Suit] == [
        ("C", False, "S"),
        ("D", True, "H"),
        ("H", True, "D"),
        ("S", False, "C"),
    ]


# --- effective suit -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "trump", "suit"),
    [
        pytest.param("JD", "H", "H", id="Left Bower follows trump"),
        pytest.param("JH", "H", "H", id="Right Bower is trump"),
        pytest.param("JH", "D", "D", id="Left Bower of diamonds"),
        pytest.param("JC", "S", "S", id="Left Bower of spades"),
        pytest.param("JS", "C", "C", id="Left Bower of clubs"),
        pytest.param("JS", "H", "S", id="black jack under red trump keeps its suit"),
        pytest.param("JD", "C", "D", id="red jack under black trump keeps its suit"),
        pytest.param("AD", "H", "D", id="same colour non-jack keeps its suit"),
        pytest.param("B1", "S", "S", id="Little Ben is trump"),
        pytest.param("B3", "D", "D", id="Best Ben is trump"),
    ],
)
def test_effective_suit(code: str, trump: str, suit: str) -> None:
    """Bens and both bowers belong to trump; every other card to its printed suit."""
    assert effective_suit(Card.parse(code), Suit(trump)) is Suit(suit)


def test_effective_suit_before_trump_is_the_printed_suit() -> None:
    """Before trump is made a jack keeps its suit and a Ben has none."""
    assert [effective_suit(Card.parse(c), None) for c in ("JD", "AS", "B2")] == [
        Suit.DIAMONDS,
        Suit.SPADES,
        None,
    ]


def test_is_trump_takes_the_left_bower_and_the_bens_but_nothing_before_trump() -> None:
    """RULES.md §1: under spades the J♣ and every Ben are trump, the J♥ is not; before
    trump is made no card is, not even a Ben (whose suit is then None)."""
    cards = [Card.parse(c) for c in ("JC", "B2", "9S", "JH")]
    assert [is_trump(c, Suit.SPADES) for c in cards] == [True, True, True, False]
    assert not any(is_trump(c, None) for c in cards)


# --- trump order ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "order"),
    [
        ("H", "B3 B2 B1 JH JD AH KH QH TH 9H 8H 7H 6H"),
        ("D", "B3 B2 B1 JD JH AD KD QD TD 9D 8D 7D 6D"),
        ("S", "B3 B2 B1 JS JC AS KS QS TS 9S 8S 7S 6S"),
        ("C", "B3 B2 B1 JC JS AC KC QC TC 9C 8C 7C 6C"),
    ],
)
def test_tuque_trump_order(trump: str, order: str) -> None:
    """Tuque's trumps: B3 B2 B1 Right Left A K Q T 9 8 7 6."""
    assert format_cards(trump_order(Suit(trump), TUQUE_PACK)) == order


@pytest.mark.parametrize(
    ("trump", "order"),
    [
        ("H", "JH JD AH KH QH TH 9H"),
        ("C", "JC JS AC KC QC TC 9C"),
    ],
)
def test_euchre_trump_order(trump: str, order: str) -> None:
    """Euchre's trumps, without jokers: Right Left A K Q T 9."""
    assert format_cards(trump_order(Suit(trump), EUCHRE_PACK)) == order


def test_packs() -> None:
    """Tuque plays 39 cards (6 to A and three Bens), Euchre 24 (9 to A)."""
    assert (len(TUQUE_PACK), len(EUCHRE_PACK), {c.rank for c in EUCHRE_PACK}) == (
        39,
        24,
        {Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE},
    )
