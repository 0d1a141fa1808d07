"""What one seat may see: the only thing renderers and computer players receive.

RULES.md §1 "What each player sees": own hand; both tableaus' face-up cards; the
up-card; every card played. Nobody sees a face-down tableau card (not even its
owner), the kitty, or another player's hand or discard.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.actions import Action, Play
from engine.cards import Card, Suit
from engine.variants import Options

__all__ = ["HandResult", "Phase", "PlayerView", "TableauPile", "Trick"]


class Phase(Enum):
    """Where a game stands. ``DEAL`` and ``HAND_OVER`` wait for :meth:`Game.deal`."""

    DEAL = "deal"
    BIDDING_1 = "round 1 bidding"
    DISCARD = "dealer's discard"
    BIDDING_2 = "round 2 bidding"
    GOING_ALONE = "going alone"
    PLAY = "play"
    BLIND_NAMING = "naming trump unseen"
    CARD_REQUEST = "loner's card request"
    GIVING = "giving the loner a card"
    CALLING = "calling a partner"
    AUCTION = "auction"
    HAND_OVER = "hand over"
    GAME_OVER = "game over"


@dataclass(frozen=True, slots=True)
class TableauPile:
    """One tableau pile as anyone sees it.

    Attributes:
        up: the face-up card, or ``None`` once played (until the card beneath is turned up).
        face_down: whether a face-down card still lies in the pile.
    """

    up: Card | None
    face_down: bool


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: who led, the cards in play order, and the winner once complete."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of one hand.

    Attributes:
        hand_no: 1-based number of the hand in the game.
        dealer: the dealer's seat.
        up_card: the card turned up (``None`` in Auction, which has a widow).
        trump: the trump suit, ``None`` if the hand was thrown in.
        maker: the seat that made trump, ``None`` if thrown in.
        alone: the maker (or the maker's partner) who went alone, if any.
        tricks: tricks won by each seat.
        points: points scored by each side this hand.
        scores: each side's game score after the hand.
        march: the makers took every trick.
        euchred: the makers took fewer tricks than their contract (RULES.md "Euchre").
        lone_defender: a defender who played alone (RULES.md §4), if any.
        partner: the maker's secret or called partner (RULES.md §7), told once the
            hand is over; ``None`` if there was none.
        bid: the Auction bid (RULES.md §7), else 0.
        pool: Jackpot's pool after the hand (RULES.md §7), else 0.
        last_trick: the hand's last trick with its winner (public: every card of it was
            played face up), for a table that shows the hand's end after the next deal;
            ``None`` if the hand was thrown in.
    """

    hand_no: int
    dealer: int
    up_card: Card | None
    trump: Suit | None
    maker: int | None
    alone: int | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    march: bool = False
    euchred: bool = False
    lone_defender: int | None = None
    partner: int | None = None
    bid: int = 0
    pool: int = 0
    last_trick: Trick | None = None

    @property
    def thrown_in(self) -> bool:
        """Every player passed: no trump, no play, no score (RULES.md §3 Round 2, §7)."""
        return self.trump is None


# Not slotted, unlike the other values here: the engine builds a view from its fields'
# dict in one step (:meth:`PlayerView._of`), where the generated __init__ of a frozen
# class sets its 38 fields one call each (4.9 us a view, three views or more a move).
@dataclass(frozen=True)
class PlayerView:
    """Everything ``seat`` may know at this moment (``seat`` ``None``: a spectator).

    Attributes:
        variant: the variant's name.
        seat: the viewer's seat, or ``None`` for the public view.
        sides: the side of each seat.
        phase: the current phase.
        turn: the seat to act, ``None`` between hands and at the end.
        dealer: the dealer's seat.
        hand_no: 1-based number of the current hand.
        hand: the viewer's hand, in index order (empty for a spectator).
        hand_sizes: how many cards each seat holds in hand.
        tableaus: each seat's tableau piles (empty tuples in variants without one).
        up_card: the card turned up this hand.
        up_card_turned_down: whether both passed it in round 1.
        trump: the trump suit once made (in an Auction, once the bidding closes:
            the standing bid is in ``bids`` and ``bid``).
        maker: the seat that made trump (in an Auction, once the bidding closes).
        alone: the maker (or maker's partner) going alone, if any.
        bids: each bidding action of this hand in order, as ``(seat, action)``.
        bid_phases: the phase each of ``bids`` was made in, in the same order: a pass
            while going alone declines to go alone, one in the card request declines to
            ask (:func:`engine.wording.verb`).
        trick: the trick in progress.
        tricks: the completed tricks of this hand.
        tricks_won: tricks won by each seat this hand.
        scores: each side's game score.
        target: points that win the game.
        stick_the_dealer: the dealer must make trump in round 2 (RULES.md §3 option).
        discard: the viewer's own discard this hand (only the dealer who made it sees it).
        last_hand: the result of the previous hand, if any.
        legal_actions: the viewer's legal actions now.
        winner: the winning side once the game is over.
        lone_defender: a defender going alone (RULES.md §4), if any.
        out: the seats sitting out this hand (a loner's partners).
        bid_suit: the suit round 1 bids on (the up-card's, or the suit an Almonte
            dealer named for a Ben; RULES.md §6); ``None`` when acceptors name it.
        called_suit: the suit a Call-Ace maker called (RULES.md §7); the partner it
            makes is never shown before the hand ends.
        called_card: the card an Auction maker called (RULES.md §7).
        bid: the Auction bid standing (RULES.md §7), else 0.
        pool: Jackpot's chips in the pool (RULES.md §7), else 0.
        widow: cards in the Auction widow still face down (their count only).
        blind: the viewer must decide without seeing their hand (RULES.md §4, §6:
            the dealer naming trump for a turned-up Ben); ``hand`` is empty then.
        options: the game's options (every rule switch, not only target and stick).
        discards: the viewer's own discards this hand, in order.
        tie_break: Jackpot: a deal that ended the game (a march, or the last of its
            deals) left a tie for the most chips, so this deal, or the next one between
            hands, is played to break it and ends the game in turn (RULES.md §7 ruling).
    """

    variant: str
    seat: int | None
    sides: tuple[int, ...]
    phase: Phase
    turn: int | None
    dealer: int
    hand_no: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    tableaus: tuple[tuple[TableauPile, ...], ...]
    up_card: Card | None
    up_card_turned_down: bool
    trump: Suit | None
    maker: int | None
    alone: int | None
    bids: tuple[tuple[int, Action], ...]
    trick: Trick
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    target: int
    stick_the_dealer: bool
    discard: Card | None
    last_hand: HandResult | None
    legal_actions: tuple[Action, ...]
    winner: int | None
    lone_defender: int | None = None
    out: tuple[int, ...] = ()
    bid_suit: Suit | None = None
    called_suit: Suit | None = None
    called_card: Card | None = None
    bid: int = 0
    pool: int = 0
    widow: int = 0
    blind: bool = False
    options: Options | None = None
    discards: tuple[Card, ...] = ()
    tie_break: bool = False
    bid_phases: tuple[Phase, ...] = ()

    @classmethod
    def _of(cls, fields: dict[str, Any]) -> PlayerView:
        """The view whose attributes are ``fields`` (every field's name, no other; the
        dict becomes the view's own): the engine's constructor, without the generated
        __init__'s call a field. ``fields`` is not checked: the engine's tests compare
        each view with the one ``PlayerView(**fields)`` makes."""
        view = object.__new__(cls)
        object.__setattr__(view, "__dict__", fields)
        return view

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.sides)

    @property
    def has_tableaus(self) -> bool:
        """Whether the hand is played with tableaus (RULES.md §1 Tuque).

        Ask this rather than ``view.tableaus``, which holds one empty tuple per seat
        in a game without tableaus, and so is never empty.
        """
        return any(self.tableaus)

    @property
    def sitting_out(self) -> int | None:
        """The first seat sitting out, if any (see :attr:`out` for all of them)."""
        return self.out[0] if self.out else None

    @property
    def hand_just_over(self) -> HandResult | None:
        """The hand just over, while a table still shows its end: in the pause before
        the next deal, and after that deal until its first public action (a bid or a
        card), so that the end shows however soon the next deal follows; ``None``
        otherwise and at the game's end (whose own result shows then)."""
        result = self.last_hand
        if result is None or self.phase in (Phase.GAME_OVER, Phase.DEAL):
            return None
        if self.phase is Phase.HAND_OVER:
            return result
        fresh = not self.bids and not self.tricks and not self.trick.plays
        return result if fresh and result.hand_no == self.hand_no - 1 else None

    def playable(self) -> tuple[Card, ...]:
        """The cards the viewer may play now."""
        return tuple(a.card for a in self.legal_actions if isinstance(a, Play))

    def face_up(self, seat: int) -> tuple[Card, ...]:
        """The face-up tableau cards of ``seat``."""
        return tuple(p.up for p in self.tableaus[seat] if p.up is not None)
