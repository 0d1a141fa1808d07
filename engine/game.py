"""One game of any variant: deal after deal until a side reaches the target.

The state is compact (card sets are integer bitmasks over the indices of
:mod:`engine.cards`) behind a small API, the way python-chess keeps bitboards
behind ``Board``:

* :meth:`Game.deal` is the chance step (seeded RNG or an explicit card order);
* :meth:`Game.legal_actions` lists exactly the legal actions of a seat;
* :meth:`Game.apply` re-checks an action and raises a typed :class:`~engine.errors.EngineError`
  whose message can be shown to the player;
* :meth:`Game.view` is all a renderer or a computer player may see;
* :meth:`Game.to_record` / :meth:`Game.from_record` save and rebuild a game exactly.

A driver loop::

    game = Game("tuque", seed=7)
    while game.phase is not Phase.GAME_OVER:
        if game.turn is None:
            game.deal()
        else:
            game.apply(game.turn, choose(game.view(game.turn)))
"""

from __future__ import annotations

import hashlib
import random
import reprlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.actions import (
    ACTIONS,
    DISCARD_BASE,
    PLAY_BASE,
    Action,
    Discard,
    GoAlone,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    TakeUp,
    parse_action,
)
from engine.cards import (
    CARDS,
    EFFECTIVE_SUIT,
    POWER,
    SUIT_MASK,
    SUITS,
    Card,
    Suit,
    cards_in,
    parse_cards,
)
from engine.errors import (
    CardNotPlayable,
    EngineError,
    GameOver,
    IllegalAction,
    MustFollowSuit,
    NotYourTurn,
    RecordError,
    TurnedDownSuit,
    WrongPhase,
)
from engine.variants import Options, Variant, get_variant
from engine.view import HandResult, Phase, PlayerView, TableauPile, Trick

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "SEED_LIMIT", "Deal", "Game"]

RECORD_FORMAT = "tuque-game"
RECORD_VERSION = 1
SEED_LIMIT = 1 << 63
"""Seeds are whole numbers below this (they fit a signed 64-bit database column)."""
_RECORD_FIELDS = ("format", "version", "variant", "options", "seed", "first_dealer", "actions")

_DEAL, _BID1, _DISCARD, _BID2, _ALONE, _PLAY, _OVER, _END = (
    Phase.DEAL,
    Phase.BIDDING_1,
    Phase.DISCARD,
    Phase.BIDDING_2,
    Phase.GOING_ALONE,
    Phase.PLAY,
    Phase.HAND_OVER,
    Phase.GAME_OVER,
)


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance step: the pack in dealing order (see :meth:`Game.deal` for the layout)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "deal " + " ".join(c.code for c in self.cards)


LogEntry = Deal | Action


# Legal-action lists are read from tables of prebuilt tuples: a card mask is split
# into three 13-bit chunks, each chunk indexes a tuple of its actions, and the
# three tuples are concatenated. Cheaper than walking the bits on every call.
def _chunk_tables(base: int) -> tuple[list[tuple[Action, ...]], ...]:
    tables = []
    for shift in (0, 13, 26):
        table = []
        for m in range(1 << 13):
            table.append(
                tuple(ACTIONS[base + shift + i] for i in range(13) if m >> i & 1 and shift + i < 39)
            )
        tables.append(table)
    return tuple(tables)


_PLAY_T0, _PLAY_T1, _PLAY_T2 = _chunk_tables(PLAY_BASE)
_DISC_T0, _DISC_T1, _DISC_T2 = _chunk_tables(DISCARD_BASE)

_PASS = Pass()
_GO_ALONE = GoAlone()
_ORDER = (_PASS, OrderUp())
_TAKE = (_PASS, TakeUp())
_ORDER_NAMING = (_PASS, *(OrderUp(s) for s in SUITS))
_TAKE_NAMING = (_PASS, *(TakeUp(s) for s in SUITS))
_NAME_ALL = tuple(NameTrump(s) for s in SUITS)
_NAME_EXCEPT = [tuple(NameTrump(s) for s in SUITS if s.index != t) for t in range(4)]
_ALONE_CHOICE = (_PASS, _GO_ALONE)


class Game:
    """A game of ``variant`` from its first deal to its end (RULES.md §1–§3).

    Seats are numbered clockwise from 0; sides are given by ``variant.sides``
    (in Tuque each seat is its own side). A new game is in :attr:`Phase.DEAL`.

    Args:
        variant: a :class:`Variant` or its name (``"tuque"``, ``"tuque61"``, ``"euchre"``).
        seed: picks the first dealer and every hand's shuffle (default: a random seed,
            kept in :attr:`seed` and in the record).
        first_dealer: the first dealer's seat (default: drawn from the RNG).
        **options: the variant's adjustable options (``target``, ``stick_the_dealer``).

    Raises:
        ValueError: unknown variant or option, a bad option value, a seed that is not
            a whole number from 0 to ``SEED_LIMIT - 1``, or a bad ``first_dealer``.
    """

    __slots__ = (
        "_active",
        "_alone",
        "_bids",
        "_dealer",
        "_discard",
        "_down",
        "_esuit",
        "_hand_no",
        "_hands",
        "_history",
        "_kitty",
        "_leader",
        "_led",
        "_log",
        "_maker",
        "_next",
        "_pending",
        "_phase",
        "_pick_up",
        "_pile_of",
        "_results",
        "_scores",
        "_smask",
        "_trick",
        "_trick_seats",
        "_tricks",
        "_trump",
        "_turn",
        "_turned_down",
        "_up",
        "_up_card",
        "_up_taken",
        "_upmask",
        "_winner",
        "first_dealer",
        "options",
        "seed",
        "variant",
    )

    def __init__(
        self,
        variant: str | Variant = "tuque",
        *,
        seed: int | None = None,
        first_dealer: int | None = None,
        **options: Any,
    ) -> None:
        self.variant = variant if isinstance(variant, Variant) else get_variant(variant)
        self.options: Options = self.variant.options(**options)
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 62)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
            raise ValueError("the seed must be a whole number from 0 to 2**63 - 1")
        self.seed: int = seed
        n = self.variant.players
        if first_dealer is None:
            first_dealer = random.Random(f"tuque:{seed}:dealer").randrange(n)
        elif isinstance(first_dealer, bool) or not (
            isinstance(first_dealer, int) and 0 <= first_dealer < n
        ):
            raise ValueError(f"first_dealer must be a seat from 0 to {n - 1}")
        self.first_dealer = first_dealer
        self._dealer = first_dealer
        self._phase = _DEAL
        self._turn: int | None = None
        self._log: list[LogEntry] = []
        self._hand_no = 0
        self._scores = [0] * (max(self.variant.sides) + 1)
        self._results: list[HandResult] = []
        self._winner: int | None = None
        self._pile_of = [-1] * 39
        self._hands = [0] * n
        self._upmask = [0] * n
        self._up: list[list[int]] = [[] for _ in range(n)]
        self._down: list[list[int]] = [[] for _ in range(n)]
        self._up_card = -1
        self._reset_hand()

    def _reset_hand(self) -> None:
        n = self.variant.players
        self._trump = -1
        self._maker = -1
        self._alone = -1
        self._discard = -1
        self._turned_down = False
        self._up_taken = False
        self._pick_up = False
        self._bids: list[tuple[int, Action]] = []
        self._trick: list[int] = []
        self._trick_seats: list[int] = []
        self._tricks = [0] * n
        self._history: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = []
        self._pending: list[tuple[int, int]] = []
        self._next = [(s + 1) % n for s in range(n)]
        self._active = n
        self._leader = -1
        self._led = -1
        self._smask = SUIT_MASK[0]
        self._esuit = EFFECTIVE_SUIT[0]
        self._kitty = 0

    # --- public state ---------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    def turn(self) -> int | None:
        """The seat to act; ``None`` when a deal is due or the game is over."""
        return self._turn

    @property
    def dealer(self) -> int:
        """The dealer of the current (or next, before the first deal) hand."""
        return self._dealer

    @property
    def hand_no(self) -> int:
        """1-based number of the current hand; 0 before the first deal."""
        return self._hand_no

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's game score."""
        return tuple(self._scores)

    @property
    def winner(self) -> int | None:
        """The winning side once the game is over."""
        return self._winner

    @property
    def trump(self) -> Suit | None:
        """This hand's trump suit, once made."""
        return SUITS[self._trump] if self._trump >= 0 else None

    @property
    def maker(self) -> int | None:
        """The seat that made trump this hand."""
        return self._maker if self._maker >= 0 else None

    @property
    def alone(self) -> int | None:
        """The seat going alone this hand, if any."""
        return self._alone if self._alone >= 0 else None

    @property
    def up_card(self) -> Card | None:
        """This hand's up-card."""
        return CARDS[self._up_card] if self._up_card >= 0 else None

    @property
    def hand_results(self) -> tuple[HandResult, ...]:
        """Every finished hand, in order."""
        return tuple(self._results)

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every deal and action so far, in order (holds hidden cards: never show it)."""
        return tuple(self._log)

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand (hidden information: for tests and the owner only)."""
        return tuple(cards_in(self._hands[seat]))

    # --- the deal -----------------------------------------------------------------------

    def deal(self, cards: Sequence[Card] | None = None) -> Deal:
        """Deal the next hand, from the seeded RNG or from ``cards``.

        ``cards`` is the whole pack in dealing order. Seat by seat from seat 0:
        the face-down tableau cards (piles 0..4), the face-up ones on top of them,
        then the hand; then the up-card; the rest is the kitty (RULES.md §1 Deal;
        §3: 5 cards each, no tableau). The dealer rotates one seat clockwise
        after every hand (in Tuque: alternates).

        Returns:
            the :class:`Deal` appended to the log.

        Raises:
            WrongPhase: a hand is in progress.
            GameOver: the game has ended.
            EngineError: ``cards`` is not exactly the variant's pack.
        """
        if self._phase is _END:
            raise GameOver("The game is over.")
        if self._phase is not _DEAL and self._phase is not _OVER:
            raise WrongPhase("A hand is in progress: finish it before the next deal.")
        pack = [c.index for c in self.variant.pack]
        if cards is None:
            # Each hand's shuffle depends on (seed, hand) only, so a game rebuilt from its
            # record deals the same next hand as the original would have.
            order = _shuffled(pack, f"tuque:{self.seed}:{self._hand_no + 1}")
        else:
            order = [c.index for c in cards]
            if sorted(order) != pack:
                raise EngineError(
                    f"a deal must hold each card of the {self.variant.title} pack once"
                )
        if self._phase is _OVER:
            self._dealer = (self._dealer + 1) % self.variant.players
        self._lay_out(order)
        deal = Deal(tuple(map(CARDS.__getitem__, order)))
        self._log.append(deal)
        return deal

    def _lay_out(self, order: list[int]) -> None:
        v = self.variant
        piles, size = v.tableau_piles, v.hand_size
        self._reset_hand()
        self._hand_no += 1
        pos = 0
        for seat in range(v.players):
            down = order[pos : pos + piles]
            up = order[pos + piles : pos + 2 * piles]
            pos += 2 * piles
            hand = 0
            for c in order[pos : pos + size]:
                hand |= 1 << c
            pos += size
            upmask = 0
            for pile, (u, d) in enumerate(zip(up, down, strict=True)):
                upmask |= 1 << u
                self._pile_of[u] = self._pile_of[d] = pile
            self._hands[seat] = hand
            self._upmask[seat] = upmask
            self._up[seat] = up
            self._down[seat] = down
        self._up_card = order[pos]
        for c in order[pos + 1 :]:
            self._kitty |= 1 << c
        self._phase = _BID1
        self._turn = self._next[self._dealer]

    # --- legality -----------------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Exactly the actions ``seat`` may take now (empty when it is not their turn)."""
        if seat != self._turn:
            return ()
        return self._legal()

    def _legal(self) -> tuple[Action, ...]:
        phase = self._phase
        t = self._turn
        assert t is not None
        if phase is _PLAY:
            m = self._hands[t] | self._upmask[t]
            if self._trick:
                follow = m & self._smask[self._led]
                if follow:
                    m = follow
            return _PLAY_T0[m & 0x1FFF] + _PLAY_T1[(m >> 13) & 0x1FFF] + _PLAY_T2[m >> 26]
        if phase is _BID1:
            naming = self._up_card >= 36
            if t == self._dealer:
                return _TAKE_NAMING if naming else _TAKE
            return _ORDER_NAMING if naming else _ORDER
        if phase is _BID2:
            names = _NAME_ALL if self._up_card >= 36 else _NAME_EXCEPT[self._up_card // 9]
            if t == self._dealer and self.options.stick_the_dealer:
                return names
            return (_PASS, *names)
        if phase is _DISCARD:
            m = self._hands[t]
            return _DISC_T0[m & 0x1FFF] + _DISC_T1[(m >> 13) & 0x1FFF] + _DISC_T2[m >> 26]
        return _ALONE_CHOICE

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` from ``seat``."""
        return action in self.legal_actions(seat)

    def check(self, seat: int, action: Action) -> None:
        """Raise the error :meth:`apply` would raise for ``action``, or return if it is legal.

        Raises:
            IllegalAction: (or a subclass) with a message fit to show the player.
        """
        if action not in self.legal_actions(seat):
            raise self._explain(seat, action)

    # --- applying actions -------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` by ``seat``, after checking it is legal.

        Raises:
            GameOver: the game has ended.
            WrongPhase: a deal is due (or the action belongs to another phase).
            NotYourTurn: another seat is to act.
            MustFollowSuit, TurnedDownSuit, CardNotPlayable, IllegalAction:
                the action is not legal now; the state is unchanged.
        """
        if seat != self._turn:
            raise self._explain(seat, action)
        phase = self._phase
        if phase is _PLAY and type(action) is Play:
            self._play(seat, action.card.index)
        else:
            if action not in self._legal():
                raise self._explain(seat, action)
            if phase is _BID1:
                self._bid_round_1(seat, action)
            elif phase is _BID2:
                self._bid_round_2(seat, action)
            elif phase is _DISCARD:
                assert isinstance(action, Discard)
                self._discard_card(action.card.index)
            else:
                self._go_alone(seat, action)
        self._log.append(action)

    def _bid_round_1(self, seat: int, action: Action) -> None:
        self._bids.append((seat, action))
        if type(action) is Pass:
            if seat == self._dealer:
                self._phase = _BID2
                self._turned_down = True
            self._turn = (seat + 1) % self.variant.players
            return
        assert isinstance(action, OrderUp | TakeUp)
        suit = action.suit.index if action.suit is not None else self._up_card // 9
        self._make_trump(seat, suit, pick_up=True)

    def _bid_round_2(self, seat: int, action: Action) -> None:
        self._bids.append((seat, action))
        if type(action) is Pass:
            if seat == self._dealer:
                self._end_hand()  # all passed twice: thrown in (RULES.md §3 Round 2)
            else:
                self._turn = (seat + 1) % self.variant.players
            return
        assert isinstance(action, NameTrump)
        self._make_trump(seat, action.suit.index, pick_up=False)

    def _make_trump(self, seat: int, suit: int, *, pick_up: bool) -> None:
        self._trump = suit
        self._maker = seat
        self._smask = SUIT_MASK[suit]
        self._esuit = EFFECTIVE_SUIT[suit]
        self._pick_up = pick_up
        if self.variant.alone:
            self._phase = _ALONE
            self._turn = seat
        else:
            self._after_going_alone()

    def _go_alone(self, seat: int, action: Action) -> None:
        self._bids.append((seat, action))
        if type(action) is GoAlone:
            self._alone = seat
            n = self.variant.players
            partner = (seat + n // 2) % n
            self._next = [(s + 2) % n if (s + 1) % n == partner else (s + 1) % n for s in range(n)]
            self._active = n - 1
        self._after_going_alone()

    def _after_going_alone(self) -> None:
        dealer = self._dealer
        n = self.variant.players
        # The dealer whose partner goes alone sits out and does not pick up (RULES.md §3).
        dealer_sits_out = self._alone >= 0 and (self._alone + n // 2) % n == dealer
        if self._pick_up and not dealer_sits_out:
            self._hands[dealer] |= 1 << self._up_card
            self._up_taken = True
            self._phase = _DISCARD
            self._turn = dealer
        else:
            self._start_play()

    def _discard_card(self, card: int) -> None:
        self._hands[self._dealer] ^= 1 << card
        self._discard = card
        self._start_play()

    def _start_play(self) -> None:
        self._phase = _PLAY
        first = self._alone if self._alone >= 0 else self._dealer
        self._turn = self._leader = self._next[first]

    def _play(self, seat: int, card: int) -> None:
        bit = 1 << card
        hand = self._hands[seat]
        upmask = self._upmask[seat]
        own = hand | upmask
        if not own & bit:
            where = " or face-up on your tableau" if self.variant.tableau_piles else ""
            raise CardNotPlayable(f"That card isn't in your hand{where}.")
        trick = self._trick
        if trick:
            follow = own & self._smask[self._led]
            if follow and not follow & bit:
                raise self._must_follow(card)
        else:
            self._led = self._esuit[card]
        if hand & bit:
            self._hands[seat] = hand ^ bit
        else:
            self._upmask[seat] = upmask ^ bit
            pile = self._pile_of[card]
            self._up[seat][pile] = -1
            self._pending.append((seat, pile))
        trick.append(card)
        self._trick_seats.append(seat)
        if len(trick) < self._active:
            self._turn = self._next[seat]
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        power = POWER[self._trump][self._led]
        trick = self._trick
        seats = self._trick_seats
        best = -1
        winner = -1
        for i, card in enumerate(trick):
            p = power[card]
            if p > best:
                best = p
                winner = seats[i]
        if self._pending:
            # The card under a played tableau card is turned up only now (RULES.md §1 Play).
            for seat, pile in self._pending:
                down = self._down[seat][pile]
                if down >= 0:
                    self._down[seat][pile] = -1
                    self._up[seat][pile] = down
                    self._upmask[seat] |= 1 << down
            self._pending = []
        self._tricks[winner] += 1
        self._history.append((self._leader, tuple(trick), tuple(seats), winner))
        self._trick = []
        self._trick_seats = []
        if len(self._history) == self.variant.tricks:
            self._end_hand()
        else:
            self._turn = self._leader = winner

    def _end_hand(self) -> None:
        v = self.variant
        points = [0] * len(self._scores)
        made = 0
        if self._maker >= 0:
            maker_side = v.sides[self._maker]
            made = sum(t for s, t in enumerate(self._tricks) if v.sides[s] == maker_side)
            ours, theirs = v.score_hand(made, v.tricks - made, self._alone >= 0)
            points[maker_side] += ours
            points[1 - maker_side] += theirs
            for side, p in enumerate(points):
                self._scores[side] += p
        self._results.append(
            HandResult(
                hand_no=self._hand_no,
                dealer=self._dealer,
                up_card=CARDS[self._up_card],
                trump=self.trump,
                maker=self.maker,
                alone=self.alone,
                tricks=tuple(self._tricks),
                points=tuple(points),
                scores=tuple(self._scores),
                march=self._maker >= 0 and made == v.tricks,
                euchred=self._maker >= 0 and made < v.contract,
            )
        )
        self._turn = None
        self._winner = _game_winner(self._scores, self.options.target)
        self._phase = _END if self._winner is not None else _OVER

    # --- explanations ---------------------------------------------------------------------

    def _must_follow(self, card: int) -> MustFollowSuit:
        led = SUITS[self._led]
        trump = SUITS[self._trump]
        msg = f"You must follow suit: {led.noun} were led and you can play one."
        played = CARDS[card]
        if self._esuit[card] == self._trump and led is not trump:
            what = "a Ben" if played.is_ben else "the Left Bower"
            msg += f" The {played.pretty()} is {what}, a trump while {trump.noun} are trumps."
        elif led is trump:
            left = Card.parse("J" + trump.partner.value).pretty()
            bens = "The Bens and the" if any(c.is_ben for c in self.variant.pack) else "The"
            msg += f" {bens} Left Bower ({left}) count as {trump.noun}."
        return MustFollowSuit(msg)

    def _explain(self, seat: int, action: Action) -> IllegalAction:
        """The error for an action :meth:`apply` refuses (the state is never changed)."""
        phase = self._phase
        if phase is _END:
            return GameOver("The game is over.")
        if phase is _DEAL or phase is _OVER:
            return WrongPhase("The next hand hasn't been dealt yet.")
        if seat != self._turn:
            return NotYourTurn("It's not your turn.")
        if isinstance(action, Play):
            if phase is not _PLAY:
                return WrongPhase(f"You can't play a card during the {phase.value}.")
            try:
                self.copy()._play(seat, action.card.index)
            except IllegalAction as err:
                return err
        if isinstance(action, Discard):
            if phase is not _DISCARD:
                return WrongPhase("Only the dealer discards, right after taking the up-card.")
            return CardNotPlayable("You can only discard a card from your hand.")
        if isinstance(action, OrderUp | TakeUp):
            if phase is not _BID1:
                return WrongPhase("The up-card can be accepted only in the first round of bidding.")
            if isinstance(action, OrderUp) and seat == self._dealer:
                return IllegalAction("As the dealer you take it up rather than order it up.")
            if isinstance(action, TakeUp) and seat != self._dealer:
                return IllegalAction("Only the dealer takes it up; you may order it up.")
            if self._up_card >= 36:
                return IllegalAction("A Ben is the up-card: name the trump suit as you accept it.")
            return IllegalAction(
                "The up-card's suit becomes trump: no other suit can be named now."
            )
        if isinstance(action, NameTrump):
            if phase is _BID1:
                return WrongPhase("In the first round you may pass or accept the up-card's suit.")
            if phase is not _BID2:
                return WrongPhase("Trump has already been made this hand.")
            return TurnedDownSuit(
                f"{action.suit.noun.capitalize()} were turned down this hand: name another suit."
            )
        if isinstance(action, Pass) and phase is _BID2 and seat == self._dealer:
            return IllegalAction("Stick the dealer: as the dealer you must name a suit now.")
        if isinstance(action, GoAlone) and not self.variant.alone:
            return IllegalAction(f"Nobody goes alone in {self.variant.title}.")
        return WrongPhase(f"That isn't possible during the {phase.value}.")

    # --- views ---------------------------------------------------------------------------

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see now; ``None`` gives the public view (no hand at all).

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        v = self.variant
        if seat is not None and not 0 <= seat < v.players:
            raise ValueError(f"no seat {seat} in {v.title}")
        tableaus = tuple(
            tuple(
                TableauPile(CARDS[u] if u >= 0 else None, d >= 0)
                for u, d in zip(self._up[s], self._down[s], strict=True)
            )
            for s in range(v.players)
        )
        trick = Trick(
            self._leader,
            tuple((s, CARDS[c]) for c, s in zip(self._trick, self._trick_seats, strict=True)),
        )
        tricks = tuple(
            Trick(leader, tuple((s, CARDS[c]) for c, s in zip(cards, seats, strict=True)), winner)
            for leader, cards, seats, winner in self._history
        )
        own_discard = seat is not None and seat == self._dealer and self._discard >= 0
        in_hand = self._phase is not _DEAL
        return PlayerView(
            variant=v.name,
            seat=seat,
            sides=v.sides,
            phase=self._phase,
            turn=self._turn,
            dealer=self._dealer,
            hand_no=self._hand_no,
            hand=tuple(cards_in(self._hands[seat])) if seat is not None and in_hand else (),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            tableaus=tableaus,
            up_card=self.up_card if in_hand else None,
            up_card_turned_down=self._turned_down,
            trump=self.trump,
            maker=self.maker,
            alone=self.alone,
            bids=tuple(self._bids),
            trick=trick,
            tricks=tricks,
            tricks_won=tuple(self._tricks),
            scores=tuple(self._scores),
            target=self.options.target,
            stick_the_dealer=self.options.stick_the_dealer,
            discard=CARDS[self._discard] if own_discard else None,
            last_hand=self._results[-1] if self._results else None,
            legal_actions=self.legal_actions(seat) if seat is not None else (),
            winner=self._winner,
        )

    def zones(self) -> dict[str, int]:
        """Every place a card can be, as ``name -> card mask`` (hidden: for tests and checks).

        Names: ``hand:S``, ``tableau-up:S``, ``tableau-down:S`` for each seat ``S``,
        ``up-card`` (on the table, face up or turned down), ``kitty``, ``discard``,
        ``trick`` (in progress) and ``played`` (completed tricks). In a dealt hand the
        masks are disjoint and together make the pack.
        """
        zones: dict[str, int] = {}
        for s in range(self.variant.players):
            zones[f"hand:{s}"] = self._hands[s]
            zones[f"tableau-up:{s}"] = self._upmask[s]
            zones[f"tableau-down:{s}"] = sum(1 << d for d in self._down[s] if d >= 0)
        zones["up-card"] = 1 << self._up_card if self._up_card >= 0 and not self._up_taken else 0
        zones["kitty"] = self._kitty
        zones["discard"] = 1 << self._discard if self._discard >= 0 else 0
        zones["trick"] = sum(1 << c for c in self._trick)
        zones["played"] = sum(1 << c for _, cards, _, _ in self._history for c in cards)
        return zones

    # --- copies and records --------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the whole game."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        for name in ("_hands", "_upmask", "_scores", "_results", "_log", "_pile_of", "_bids"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("_trick", "_trick_seats", "_tricks", "_history", "_pending", "_next"):
            setattr(other, name, list(getattr(self, name)))
        other._up = [list(p) for p in self._up]
        other._down = [list(p) for p in self._down]
        return other

    def to_record(self) -> dict[str, Any]:
        """The game as a JSON-ready record (format ``tuque-game``, version 1; docs/records.md).

        The record holds every deal, so it reveals hidden cards: store it, never show it.
        """
        opts = asdict(self.options)
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "variant": self.variant.name,
            "options": {k: opts[k] for k in sorted(self.variant.adjustable)},
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "actions": [str(e) for e in self._log],
        }

    @classmethod
    def from_record(cls, record: Any) -> Game:
        """Rebuild a game from :meth:`to_record`'s output by replaying it (docs/records.md).

        Every field is required and checked for type and range: a record must rebuild
        the same game every time, so a missing seed or first dealer is an error, not
        a random draw. ``record`` may be any value (e.g. whatever ``json.loads`` gave).

        Raises:
            RecordError: not a record, wrong format or version, a missing, unknown or
                malformed field, or an entry that does not replay; the message says which.
        """
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a {RECORD_FORMAT} record")
        version = record.get("version")
        if type(version) is not int or version != RECORD_VERSION:
            raise RecordError(f"unsupported record version {_shown(version)}")
        missing = [name for name in _RECORD_FIELDS if record.get(name) is None]
        if missing:
            raise RecordError(f"the record has no {', '.join(missing)}")
        unknown = [_shown(key) for key in record if key not in _RECORD_FIELDS]
        if unknown:
            raise RecordError(f"unknown fields {', '.join(unknown)}")
        options = record["options"]
        if (
            not isinstance(options, dict)
            or not all(isinstance(name, str) for name in options)
            or None in options.values()
        ):
            raise RecordError("its 'options' must be an object of option values")
        try:
            variant = get_variant(record["variant"])
            # Checked before the call below, where an option named "seed" or "variant"
            # would clash with Game's own arguments in a TypeError that names no option.
            variant.options(**options)
            game = cls(variant, seed=record["seed"], first_dealer=record["first_dealer"], **options)
        except ValueError as err:
            raise RecordError(f"bad record header: {err}") from err
        actions = record["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("a record's actions must be a list of strings")
        for i, entry in enumerate(actions):
            try:
                game.replay(entry)
            except (TypeError, ValueError) as err:
                raise RecordError(f"action {i} ({_shown(entry)}) does not replay: {err}") from err
        return game

    def replay(self, entry: str) -> None:
        """Apply one logged entry (``"deal ..."`` or an action's text) for whoever's turn it is.

        Raises:
            ValueError: the text is malformed; EngineError: the entry is not legal here.
        """
        if entry.startswith("deal "):
            self.deal(parse_cards(entry[5:]))
        elif self._turn is None:
            raise WrongPhase(f"no seat is to act before {entry!r}")
        else:
            self.apply(self._turn, parse_action(entry))


def _shown(value: object) -> str:
    """A short repr for an error message, whatever ``value`` is (huge, deep, long)."""
    try:
        return reprlib.repr(value)
    except ValueError:  # an integer past Python's int-to-text limit
        return "a number too long to show"


def _shuffled(pack: list[int], key: str) -> list[int]:
    """A Fisher-Yates shuffle of ``pack`` (in place) driven by BLAKE2b of ``key``.

    256 hashed bits cover the 153 bits of a 39-card order with a negligible bias, in
    a fraction of the time of seeding a ``random.Random`` and drawing per card.
    """
    bits = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=32).digest())
    for i in range(len(pack) - 1, 0, -1):
        bits, j = divmod(bits, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def _game_winner(scores: list[int], target: int) -> int | None:
    """The side that won, if any.

    RULES.md §2 Ruling: if both reach the target in one hand the higher total wins;
    an exact tie plays another hand.
    """
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)
