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
from operator import add, attrgetter, itemgetter
from typing import Any, ClassVar

from engine import core
from engine.actions import (
    ACTIONS,
    DISCARD_BASE,
    PLAY_BASE,
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
    parse_action,
)
from engine.cards import CARDS, SECOND, SUITS, Card, Suit, cards_in, parse_cards
from engine.core import BLOCK_SUIT, CARD_OF, SUIT_BLOCK, TRUMP, HandState
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
from engine.wording import joker_name, jokers_word

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


# Legal-action lists are read from tables of prebuilt tuples, so a legal-action
# list costs a few look-ups and no allocation per card: an engine card mask is split
# into three 13-bit chunks, each chunk indexes a tuple of its actions, and the
# tuples are concatenated (in card index order, the order the log and goldens use).
# In play the hand is in card codes (engine.core): each block of codes maps back
# to an engine card mask through a per-trump table first.
def _chunk_tables(base: int) -> tuple[list[tuple[Action, ...]], ...]:
    return tuple(
        [
            tuple(ACTIONS[base + shift + i] for i in range(13) if m >> i & 1 and shift + i < 39)
            for m in range(1 << 13)
        ]
        for shift in (0, 13, 26)
    )


_PLAY_T0, _PLAY_T1, _PLAY_T2 = _chunk_tables(PLAY_BASE)
_DISC_T0, _DISC_T1, _DISC_T2 = _chunk_tables(DISCARD_BASE)


def _uncode_table(trump: int, block: int) -> list[int]:
    """``table[chunk]``: the engine card mask of the codes set in ``chunk`` of ``block``.

    Only the positions a block can hold are covered: nine in a plain suit, 13 in trump.
    """
    card_of = CARD_OF[trump]
    table = [0] * (1 << (13 if block == 3 else 9))
    for m in range(1, len(table)):
        low = m & -m
        card = card_of[13 * block + low.bit_length() - 1]
        table[m] = table[m ^ low] | (1 << card if card >= 0 else 0)
    return table


_UNCODE = [tuple(_uncode_table(t, b) for b in range(4)) for t in range(4)]
"""``_UNCODE[trump][block][chunk]``: card codes back to an engine card mask."""
_FOLLOWS: list[dict[int, tuple[Action, ...]] | None] = [None] * 4


def _follows(trump: int) -> dict[int, tuple[Action, ...]]:
    """Under ``trump``: a seat's cards of one block (a card-code mask) -> its Play
    actions in card index order.

    A seat that follows suit plays from one block, so its legal list is one look-up
    of its cards in the led block. Built on first use of each trump.
    """
    table = _FOLLOWS[trump]
    if table is None:
        t0, t1, t2 = _PLAY_T0, _PLAY_T1, _PLAY_T2
        table = _FOLLOWS[trump] = {
            chunk << (13 * block): t0[m & 0x1FFF] + t1[(m >> 13) & 0x1FFF] + t2[m >> 26]
            for block, uncode in enumerate(_UNCODE[trump])
            for chunk, m in enumerate(uncode)
            if chunk
        }
    return table


def _by_card(ids: Sequence[int]) -> tuple[Action, ...]:
    """The card actions of ``ids`` in card index order, as the tables above list them."""
    return tuple(sorted(map(ACTIONS.__getitem__, ids), key=_card_index))


def _card_index(action: Action) -> int:
    return action.card.index  # type: ignore[union-attr]


_ACTIONS_OF: dict[tuple[int, ...], tuple[Action, ...]] = {}
"""Action tuples of the core's id tuples, so a bidding menu is built once."""
_HAND_DONE = core.DONE
_IN_PLAY = core.PLAY
_DISCARDING = core.DISCARD
_ROUND_2 = core.BID2
_PHASE_OF = {
    core.BID1: _BID1,
    core.BID2: _BID2,
    core.DISCARD: _DISCARD,
    core.ALONE: _ALONE,
    core.PLAY: _PLAY,
    core.BLIND: Phase.BLIND_NAMING,
    core.ASK: Phase.CARD_REQUEST,
    core.GIVE: Phase.GIVING,
    core.CALL: Phase.CALLING,
    core.AUCTION: Phase.AUCTION,
}


class Game:
    """A game of ``variant`` from its first deal to its end (RULES.md §1–§3).

    Seats are numbered clockwise from 0; sides are given by ``variant.sides``
    (in Tuque each seat is its own side). A new game is in :attr:`Phase.DEAL`.
    Each hand is played on one :class:`engine.core.HandState` (the rules); the game
    adds the checks, the log, the views, the score across hands and the records.

    Args:
        variant: a :class:`Variant` or its name (``"tuque"``, ``"tuque61"``, ``"euchre"``).
            Required: ``Game()`` is the blank that :meth:`copy` fills in.
        seed: picks the first dealer and every hand's shuffle (default: a random seed,
            kept in :attr:`seed` and in the record).
        first_dealer: the first dealer's seat (default: drawn from the RNG).
        **options: the variant's adjustable options (``target``, ``stick_the_dealer``).

    Raises:
        ValueError: unknown variant or option, a bad option value, a seed that is not
            a whole number from 0 to ``SEED_LIMIT - 1``, or a bad ``first_dealer``.
    """

    __slots__ = (
        "_bid_phases",
        "_bids",
        "_code",
        "_dealer",
        "_deciding",
        "_discards",
        "_done_tricks",
        "_follows",
        "_hand",
        "_hand_no",
        "_leads",
        "_legal",
        "_log",
        "_pack",
        "_phase",
        "_pool",
        "_results",
        "_scores",
        "_shared",
        "_splits",
        "_turn",
        "_turned_down",
        "_uncode",
        "_views",
        "_views_at",
        "_winner",
        "first_dealer",
        "options",
        "seed",
        "variant",
    )

    def __init__(
        self,
        variant: str | Variant | None = None,
        *,
        seed: object = None,  # checked below: a record may hold any JSON value here
        first_dealer: object = None,
        **options: Any,
    ) -> None:
        if variant is None:
            # The blank for copy(): compiled (mypyc), Game.__new__ runs __init__ with no
            # arguments, and a whole new game (a seed from the OS, the first dealer's draw)
            # cost 15 us of a copy's 17.
            return
        base = variant if isinstance(variant, Variant) else get_variant(variant)
        self.options: Options = base.options(**options)
        self.variant = base.configured(self.options)
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
        # A finished hand's HandResult is built when first read (a frozen dataclass of 15
        # fields costs more than the rest of the hand's end): until then, its fields and
        # where its last trick lies (its leader, the log's length at the hand's end).
        self._results: list[HandResult | tuple[int, list[int], HandState, int, int]] = []
        self._winner: int | None = None
        self._pool = 0
        # Jackpot: a deal that should have ended the game left a tie for the most chips,
        # so the next deal ends it (RULES.md §7 ruling; docs/rulings.md).
        self._deciding = False
        self._pack = [c.index for c in self.variant.pack]
        self._hand: HandState | None = None
        # The tables of the trump last made (set by _set_trump, read in play only): a
        # hand that makes the same trump keeps them.
        self._code: list[int] = []
        self._uncode: tuple[list[int], ...] = ()
        self._follows: dict[int, tuple[Action, ...]] = {}
        self._views: dict[int | None, PlayerView] = {}
        self._shared: dict[str, Any] | None = None
        self._splits: tuple[tuple[int, int], ...] = ()
        self._views_at = -1
        self._start_hand()

    def _start_hand(self) -> None:
        self._discards: list[tuple[int, int]] = []
        self._legal: tuple[Action, ...] = ()
        self._turned_down = False
        self._bids: list[tuple[int, Action]] = []
        self._bid_phases: list[Phase] = []
        self._leads: list[int] = []  # the seat that led each trick of this hand so far
        # This hand's completed tricks as the views show them: a completed trick never
        # changes, and each state's view would build them all again (half its cost).
        self._done_tricks: tuple[Trick, ...] = ()

    # --- public state ---------------------------------------------------------------

    # A driver reads these two after every action: read-only properties whose getter is
    # C (operator.attrgetter) rather than a Python function cost a fraction of a call.
    phase: ClassVar[property] = property(
        attrgetter("_phase"), doc="The current phase (a :class:`Phase`)."
    )
    turn: ClassVar[property] = property(
        attrgetter("_turn"),
        doc="The seat to act (an int); ``None`` when a deal is due or the game is over.",
    )

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
        hand = self._hand
        return SUITS[hand.trump] if hand is not None and hand.trump >= 0 else None

    @property
    def maker(self) -> int | None:
        """The seat that made trump this hand."""
        hand = self._hand
        return hand.maker if hand is not None and hand.maker >= 0 else None

    @property
    def alone(self) -> int | None:
        """The seat going alone this hand, if any."""
        hand = self._hand
        return hand.alone if hand is not None and hand.alone >= 0 else None

    @property
    def up_card(self) -> Card | None:
        """This hand's up-card (none in Auction, which deals a widow instead)."""
        hand = self._hand
        return CARDS[hand.up] if hand is not None and hand.up >= 0 else None

    @property
    def hand_results(self) -> tuple[HandResult, ...]:
        """Every finished hand, in order."""
        return tuple(self._built_results())

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every deal and action so far, in order (holds hidden cards: never show it)."""
        return tuple(self._log)

    @property
    def log_length(self) -> int:
        """How many entries :attr:`log` holds (a driver's turn counter), without copying it."""
        return len(self._log)

    def log_from(self, start: int) -> tuple[LogEntry, ...]:
        """The log's entries from index ``start`` on (hidden cards: as :attr:`log`)."""
        return tuple(self._log[start:])

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand (hidden information: for tests and the owner only)."""
        return tuple(cards_in(self._split(seat)[0]))

    def discards_of(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s discards this hand, in order (hidden: for tests and the owner only)."""
        return tuple(CARDS[c] for s, c in self._discards if s == seat)

    def face_down_of(self, seat: int) -> tuple[Card | None, ...]:
        """The face-down card of each of ``seat``'s tableau piles (in the order of
        ``view.tableaus``), ``None`` where none is left (hidden from everyone, the owner
        too: for tests and the replay of a finished game only)."""
        return tuple(CARDS[d] if d >= 0 else None for _, d in self._piles(seat))

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
        if cards is None:
            # Each hand's shuffle depends on (seed, hand) only, so a game rebuilt from its
            # record deals the same next hand as the original would have.
            order = _shuffled(self._pack[:], f"tuque:{self.seed}:{self._hand_no + 1}")
        else:
            order = [c.index for c in cards]
            if sorted(order) != self._pack:
                raise EngineError(
                    f"a deal must hold each card of the {self.variant.title} pack once"
                )
        if self._phase is _OVER:
            self._dealer = (self._dealer + 1) % self.variant.players
        self._start_hand()
        self._hand_no += 1
        hand = self._hand = HandState.from_deal(
            self.variant, self.options, order, self._dealer, self._pool
        )
        if hand.trump >= 0:
            self._set_trump(hand.trump)
        if hand.phase == _IN_PLAY:  # Jackpot: no bidding
            self._leads.append(hand.turn)
        self._phase = _PHASE_OF[hand.phase]
        self._turn = hand.turn
        self._legal = self._list_legal()
        deal = Deal(itemgetter(*order)(CARDS))
        self._log.append(deal)
        return deal

    # --- legality -----------------------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Exactly the actions ``seat`` may take now (empty when it is not their turn)."""
        # Listed by _list_legal after every deal and action, so asking is one look-up.
        return self._legal if seat == self._turn else ()

    def _list_legal(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act, in card index order for cards."""
        hand = self._hand
        assert hand is not None
        if hand.phase == _IN_PLAY:
            return self._cards_to_play(hand)
        if hand.phase == _DISCARDING:
            m = hand.hand[hand.turn]
            if not m >> SECOND:
                return _DISC_T0[m & 0x1FFF] + _DISC_T1[(m >> 13) & 0x1FFF] + _DISC_T2[m >> 26]
            return _by_card(hand.legal())  # a second copy of the double pack: past the tables
        ids = hand.legal()
        if type(ids) is not tuple:
            ids = tuple(ids)
        menu = _ACTIONS_OF.get(ids)
        if menu is None:
            menu = tuple(map(ACTIONS.__getitem__, ids))
            if len(_ACTIONS_OF) < 4096:  # bidding menus repeat; card lists are bounded
                _ACTIONS_OF[ids] = menu
        return menu

    def _cards_to_play(self, hand: HandState) -> tuple[Action, ...]:
        """The Play actions of the seat to act (``hand`` in play)."""
        uncode = self._uncode
        if not uncode:  # the double pack: its codes are too wide for the tables
            return _by_card(hand.legal())
        m = hand.hand[hand.turn]
        if hand.in_trick:
            follow = m & SUIT_BLOCK[hand.led]
            if follow:
                return self._follows[follow]
        u0, u1, u2, u3 = uncode  # disjoint masks: + is | (see core.BIT)
        m = u0[m & 0x1FFF] + u1[(m >> 13) & 0x1FFF] + u2[(m >> 26) & 0x1FFF] + u3[m >> 39]
        return _PLAY_T0[m & 0x1FFF] + _PLAY_T1[(m >> 13) & 0x1FFF] + _PLAY_T2[m >> 26]

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
        legal = self._legal
        # Listed actions are interned: an identity scan is much cheaper than ``in``,
        # which calls the dataclass ``__eq__`` on every other action before a match.
        for known in legal:
            if known is action:
                break
        else:
            if action not in legal:
                raise self._explain(seat, action)
        hand = self._hand
        assert hand is not None
        if action.__class__ is Play:  # the hot path: a card in play
            hand.play(seat, self._code[action.card.index])
            self._log.append(action)
            if hand.phase == _HAND_DONE:
                self._end_hand()
                return
            turn = self._turn = hand.turn
            if not hand.in_trick:
                self._leads.append(turn)
            elif self._uncode:
                follow = hand.hand[turn] & SUIT_BLOCK[hand.led]
                if follow:  # _cards_to_play's commonest case, inline
                    self._legal = self._follows[follow]
                    return
            self._legal = self._cards_to_play(hand)
            return
        if type(action) is Discard:
            self._discards.append((seat, action.card.index))
        elif type(action) is not Give:  # a gift is seen by the giver and the loner only
            self._bids.append((seat, action))
            self._bid_phases.append(self._phase)
        hand.apply(action.id)
        # Trump is made once, except in an Auction, where each higher bid names it anew.
        if hand.trump >= 0 and self._code is not hand.code_of[hand.trump]:
            self._set_trump(hand.trump)
        self._log.append(action)
        if hand.phase == _HAND_DONE:
            self._end_hand()
            return
        if self._phase is _BID1 and hand.phase == _ROUND_2:
            self._turned_down = True
        if hand.phase == _IN_PLAY:
            self._leads.append(hand.turn)
        self._phase = _PHASE_OF[hand.phase]
        self._turn = hand.turn
        self._legal = self._list_legal()

    def _set_trump(self, trump: int) -> None:
        hand = self._hand
        assert hand is not None
        self._code = hand.code_of[trump]
        if hand.twins:
            self._uncode = ()  # no tables: _legal asks the core
        else:
            self._uncode = _UNCODE[trump]
            self._follows = _follows(trump)

    def _check_play(self, seat: int, card: int) -> None:
        """Raise why ``seat`` may not play engine card ``card`` now, if they may not."""
        hand = self._hand
        assert hand is not None
        bit = 1 << self._code[card]
        own = hand.hand[seat]
        if not own & bit:
            where = " or face-up on your tableau" if self.variant.tableau_piles else ""
            raise CardNotPlayable(f"That card isn't in your hand{where}.")
        if hand.in_trick:
            follow = own & SUIT_BLOCK[hand.led]
            if follow and not follow & bit:
                raise self._must_follow(card)

    def _end_hand(self) -> None:
        v = self.variant
        hand = self._hand
        assert hand is not None
        scores = self._scores = list(map(add, self._scores, hand.points))
        self._pool = hand.pool
        # The finished hand is never changed again (the next deal makes a new one): its
        # HandResult is built from it when first read (_built_results).
        last_lead = self._leads[-1] if hand.done else -1
        self._results.append((self._hand_no, scores, hand, last_lead, len(self._log)))
        self._turn = None
        self._legal = ()
        if v.chips:
            # RULES.md §7 Jackpot ruling: a march or the last deal ends the game, the
            # highest net chips win; a tie plays one more deal, which ends it in turn.
            over = (
                self._deciding
                or max(hand.won) == hand.ntricks
                or self._hand_no >= self.options.hands
            )
            self._winner = _game_winner(scores, min(scores)) if over else None
            self._deciding = over and self._winner is None
        else:
            self._winner = _game_winner(scores, self.options.target)
        self._phase = _END if self._winner is not None else _OVER

    def _built_results(self) -> list[HandResult]:
        """:attr:`_results` with every hand's HandResult built (once: later reads share it)."""
        results = self._results
        i = len(results)
        while i and type(results[i - 1]) is tuple:
            i -= 1
        for j in range(i, len(results)):
            results[j] = self._result(*results[j])  # type: ignore[misc]
        return results  # type: ignore[return-value]

    def _result(
        self, hand_no: int, scores: list[int], hand: HandState, last_lead: int, end: int
    ) -> HandResult:
        """The :class:`HandResult` of finished hand ``hand``, number ``hand_no``: its last
        trick was led by ``last_lead`` (-1: no trick was played) and its cards are the
        log's entries just before ``end``."""
        maker = hand.maker
        tricks = hand.ntricks
        if maker >= 0:
            made = hand.maker_tricks()
            march = made == tricks
            euchred = made < (min(hand.bid, tricks) if hand.bid else self.variant.contract)
        else:
            march = euchred = False
        return HandResult(
            hand_no=hand_no,
            dealer=hand.dealer,
            up_card=CARDS[hand.up] if hand.up >= 0 else None,
            trump=SUITS[hand.trump] if hand.trump >= 0 else None,
            maker=maker if maker >= 0 else None,
            alone=hand.alone if hand.alone >= 0 else None,
            tricks=tuple(hand.won),
            points=tuple(hand.points),
            scores=tuple(scores),
            march=march,
            euchred=euchred,
            lone_defender=hand.lone_def if hand.lone_def >= 0 else None,
            partner=hand.partner if hand.partner >= 0 else None,
            bid=hand.bid,
            pool=hand.pool,
            last_trick=self._last_trick(hand, last_lead, end),
        )

    def _last_trick(self, hand: HandState, lead: int, end: int) -> Trick | None:
        """The last trick of finished hand ``hand`` (see :meth:`_result`), or ``None``."""
        if lead < 0:
            return None
        plays = []
        seat = lead
        for action in self._log[end - hand.active : end]:
            plays.append((seat, action.card))  # type: ignore[union-attr]
            seat = hand.nxt[seat]
        return Trick(lead, tuple(plays), hand.last_winner)

    # --- explanations ---------------------------------------------------------------------

    def _must_follow(self, card: int) -> MustFollowSuit:
        hand = self._hand
        assert hand is not None
        led = SUITS[BLOCK_SUIT[hand.trump][hand.led]]
        trump = SUITS[hand.trump]
        msg = f"You must follow suit: {led.noun} were led and you can play one."
        played = CARDS[card]
        # RULES.md "Left Bower", "Effective suit": a joker, or the jack of trump's colour
        # that is not trump's own, is a trump whatever it shows; a card of trump's own
        # suit needs no word.
        if played.is_ben:
            name = joker_name(self.variant, played)
            msg += f" The {played.pretty()} is {name}, a trump while {trump.noun} are trumps."
        elif self._code[card] >= TRUMP and played.suit is not trump:
            msg += (
                f" The {played.pretty()} is the Left Bower, a trump while {trump.noun} are trumps."
            )
        elif led is trump:
            left = Card.parse("J" + trump.partner.value).pretty()
            jokers = jokers_word(self.variant)
            also = f"{jokers[0].upper()}{jokers[1:]} and the" if jokers else "The"
            msg += f" {also} Left Bower ({left}) count as {trump.noun}."
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
        hand = self._hand
        assert hand is not None
        special = self._explain_phase(seat, action)
        if special is not None:
            return special
        if isinstance(action, Play):
            if phase is not _PLAY:
                return WrongPhase(f"You can't play a card during the {phase.value}.")
            try:
                self._check_play(seat, action.card.index)
            except IllegalAction as err:
                return err
        if isinstance(action, Discard):
            if phase is not _DISCARD:
                if self.variant.widow or self.variant.card_request:
                    return WrongPhase("Only a player who just took cards discards.")
                return WrongPhase("Only the dealer discards, right after taking the up-card.")
            return CardNotPlayable("You can only discard a card from your hand.")
        if isinstance(action, OrderUp | TakeUp):
            if phase is not _BID1:
                return WrongPhase("The up-card can be accepted only in the first round of bidding.")
            if isinstance(action, OrderUp) and seat == hand.dealer:
                return IllegalAction("As the dealer you take it up rather than order it up.")
            if isinstance(action, TakeUp) and seat != hand.dealer:
                return IllegalAction("Only the dealer takes it up; you may order it up.")
            if self.variant.turn_down and seat == (hand.dealer + 2) % self.variant.players:
                return IllegalAction(
                    "As the dealer's partner you can't order it up: pass, or turn it down "
                    "and play alone in its suit."
                )
            if CARDS[hand.up].is_ben and self.variant.ben_up == "dealer_names":
                return IllegalAction(  # RULES.md §6 Almonte: round 1 bids on the named suit
                    f"The dealer named {SUITS[hand.up_suit].noun} for the Ben: accept it as "
                    "it is, or pass."
                )
            if CARDS[hand.up].is_ben:
                ben = joker_name(self.variant, CARDS[hand.up])
                return IllegalAction(
                    f"{ben[0].upper()}{ben[1:]} is the up-card: name the trump suit as you "
                    "accept it."
                )
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
        if isinstance(action, Pass) and phase is _BID2 and seat == hand.dealer:
            return IllegalAction("Stick the dealer: as the dealer you must name a suit now.")
        if isinstance(action, Pass) and phase is _BID1 and seat == hand.dealer:
            return IllegalAction("You named this suit for the Ben: as the dealer you must take it.")
        if isinstance(action, GoAlone) and self.variant.alone == "none":
            if self.variant.makers == "call_suit" and phase is not Phase.CALLING:
                return WrongPhase("The maker chooses to go alone instead of calling a partner.")
            return IllegalAction(f"Nobody goes alone in {self.variant.title}.")
        if isinstance(action, GoAlone) and phase is _ALONE:
            return IllegalAction("You can't go alone now.")
        return WrongPhase(f"That isn't possible during the {phase.value}.")

    def _explain_phase(self, seat: int, action: Action) -> IllegalAction | None:
        """The refusal for RULES.md §4–§7's own decisions and actions, if one applies."""
        phase = self._phase
        hand = self._hand
        assert hand is not None
        v = self.variant
        if phase is Phase.BLIND_NAMING:
            ben = joker_name(v, CARDS[hand.up])
            aim = "the suit to bid on" if v.ben_up == "dealer_names" else "trump"
            return IllegalAction(
                f"{ben[0].upper()}{ben[1:]} was turned up: as the dealer you name {aim} "
                "before looking at your hand. Choose a suit."
            )
        if phase is Phase.CARD_REQUEST and not isinstance(action, Pass | Ask):
            return IllegalAction("Ask one of your partners for a card, or pass.")
        if isinstance(action, Ask):
            if phase is not Phase.CARD_REQUEST:
                return WrongPhase("Only a loner asks a partner for a card, before the first lead.")
            return IllegalAction("You can only ask a partner who is sitting out.")
        if phase is Phase.GIVING:
            if isinstance(action, Give):
                return CardNotPlayable("Give the loner a card from your own hand.")
            return IllegalAction("Your partner is alone and asked you for a card: choose one.")
        if isinstance(action, Give):
            return WrongPhase("You give a card only when your partner going alone asks for one.")
        if phase is Phase.CALLING:
            if isinstance(action, CallCard) and v.makers == "call_card":
                return IllegalAction("Call a card that isn't in your own hand.")
            if v.makers == "call_suit":
                return IllegalAction(
                    "Call a suit (its best card's holder is your partner), or go alone."
                )
            return IllegalAction("Call a card: whoever holds it is your partner.")
        if isinstance(action, CallSuit | CallCard):
            return WrongPhase("Only the maker calls a partner, once trump is made.")
        if phase is Phase.AUCTION:
            if isinstance(action, Bid):
                return IllegalAction(f"Each bid must be higher than the last ({hand.bid}).")
            return IllegalAction("Bid 3, 4, 5, 8 or 15 with a trump suit, or pass.")
        if isinstance(action, Bid):
            return WrongPhase(f"There is no auction in {v.title}.")
        if isinstance(action, TurnDown):
            if not v.turn_down:
                return IllegalAction(f"Nobody turns the up-card down to go alone in {v.title}.")
            if phase is not _BID1:
                return WrongPhase("The up-card can be turned down only in the first round.")
            return IllegalAction("Only the dealer's partner may turn the up-card down.")
        return None

    # --- views ---------------------------------------------------------------------------

    def _engine_mask(self, mask: int) -> int:
        """An engine card mask of ``mask``, which is in card codes once play has begun."""
        hand = self._hand
        if hand is None or not hand.coded:
            return mask
        out = 0
        for table in hand.card_masks[hand.trump]:
            if not mask:
                break
            out |= table[mask & 255]
            mask >>= 8
        return out

    def _piles(self, seat: int) -> tuple[tuple[int, int], ...]:
        """``seat``'s tableau piles now, as ``(face-up card or -1, face-down card or -1)``.

        Read off the hand's state: a face-up card is on its pile while its owner still
        holds it; the card beneath stays face down until the trick in which its cover
        was played ends (RULES.md §1 Play), then lies face up until played.
        """
        hand = self._hand
        if hand is None:
            return ()
        held = self._engine_mask(hand.hand[seat] | hand.tab[seat])
        pending = self._engine_mask(hand.pend[seat])
        piles = []
        for up, down in hand.piles[seat]:
            if held >> up & 1:
                piles.append((up, down))
            elif down >= 0 and pending >> down & 1:
                piles.append((-1, down))
            elif down >= 0 and held >> down & 1:
                piles.append((down, -1))
            else:
                piles.append((-1, -1))
        return tuple(piles)

    def _split(
        self, seat: int, piles: tuple[tuple[int, int], ...] | None = None
    ) -> tuple[int, int]:
        """``seat``'s (hand, face-up tableau) as engine card masks; ``piles``, if given,
        are :meth:`_piles` of ``seat`` now."""
        hand = self._hand
        if hand is None:
            return 0, 0
        if not hand.coded:
            return hand.hand[seat], hand.tab[seat]
        held = self._engine_mask(hand.hand[seat])
        if piles is None:
            piles = self._piles(seat)
        up = sum(1 << u for u, _ in piles if u >= 0)
        return held & ~up, up

    def _tricks(self) -> tuple[tuple[Trick, ...], list[tuple[int, int]]]:
        """This hand's completed tricks, and the ``(seat, card)`` plays of the trick in progress.

        Read off the leads: each trick is led by the winner of the one before, and the
        seats follow clockwise among those in play (``nxt``); the last winner is the
        hand's. The cards are the log's last entries, since play is a hand's last phase.
        """
        hand = self._hand
        leads = self._leads
        if hand is None or not leads:
            return (), []
        size = hand.active
        done = self._done_tricks  # the tricks completed when last asked, kept
        first = len(done)
        count = (hand.done - first) * size + hand.in_trick
        log = self._log
        cards = [action.card.index for action in log[len(log) - count :]]  # type: ignore[union-attr]
        nxt = hand.nxt
        plays = []
        for number in range(first, len(leads)):
            seat = leads[number]
            start = (number - first) * size
            for card in cards[start : start + size]:
                plays.append((seat, card))
                seat = nxt[seat]
        if hand.done > first:
            done = self._done_tricks = done + tuple(
                Trick(
                    leads[number],
                    tuple(
                        (s, CARDS[c])
                        for s, c in plays[(number - first) * size : (number - first + 1) * size]
                    ),
                    leads[number + 1] if number + 1 < len(leads) else hand.last_winner,
                )
                for number in range(first, hand.done)
            )
        return done, plays[(hand.done - first) * size :]

    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see now; ``None`` gives the public view (no hand at all).

        Built once a seat and state: a game changes only by a new log entry, so the
        views of one log length are kept until the next (the bot reads the public view
        several times a change: the table, the ping, the auto-play check).

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        if self._views_at != len(self._log):
            self._views = {}
            self._shared = None
            self._views_at = len(self._log)
        else:
            kept = self._views.get(seat)
            if kept is not None:
                return kept
        view = self._view(seat)
        self._views[seat] = view
        return view

    def _view(self, seat: int | None) -> PlayerView:
        v = self.variant
        if seat is not None and not 0 <= seat < v.players:
            raise ValueError(f"no seat {seat} in {v.title}")
        shared = self._shared
        if shared is None:
            shared = self._shared = self._shared_view()
        own = [c for s, c in self._discards if s == seat]
        # RULES.md §4, §6: a dealer naming trump for a turned-up Ben has not seen their hand.
        blind = self._phase is Phase.BLIND_NAMING and seat == self._turn
        held: tuple[Card, ...] = ()
        if seat is not None and self._hand is not None and not blind:
            held = tuple(cards_in(self._splits[seat][0]))
        fields = shared.copy()
        fields["seat"] = seat
        fields["hand"] = held
        fields["discard"] = CARDS[own[-1]] if own else None
        fields["legal_actions"] = self.legal_actions(seat) if seat is not None else ()
        fields["blind"] = blind
        fields["discards"] = tuple(CARDS[c] for c in own)
        return PlayerView._of(fields)

    def _shared_view(self) -> dict[str, Any]:
        """The fields of :class:`PlayerView` that are the same for every viewer, as
        keywords: built once a state, they are most of a view's cost. Keeps each seat's
        :meth:`_split` in ``_splits`` for the seats' own views."""
        v = self.variant
        hand = self._hand
        piles = [self._piles(s) for s in range(v.players)]
        self._splits = tuple(self._split(s, piles[s]) for s in range(v.players))
        tableaus = tuple(
            tuple(_PILES[u + 1][d >= 0] for u, d in seat_piles) for seat_piles in piles
        )
        tricks, current = self._tricks()
        trick = Trick(
            hand.leader if hand is not None else -1, tuple((s, CARDS[c]) for s, c in current)
        )
        called = hand.called if hand is not None else -1
        suit_call = v.makers == "call_suit"
        # RULES.md §7 Auction: each bid names trump, but trump and its maker are made only
        # when the bidding closes; until then the bids say who bid what.
        auction = self._phase is Phase.AUCTION
        return {
            "variant": v.name,
            "sides": v.sides,
            "phase": self._phase,
            "turn": self._turn,
            "dealer": self._dealer,
            "hand_no": self._hand_no,
            "hand_sizes": tuple(held.bit_count() for held, _ in self._splits),
            "tableaus": tableaus,
            "up_card": self.up_card,
            "up_card_turned_down": self._turned_down,
            "trump": None if auction else self.trump,
            "maker": None if auction else self.maker,
            "alone": self.alone,
            "bids": tuple(self._bids),
            "trick": trick,
            "tricks": tricks,
            "tricks_won": tuple(hand.won) if hand is not None else (0,) * v.players,
            "scores": tuple(self._scores),
            "target": self.options.target,
            "stick_the_dealer": self.options.stick_the_dealer,
            "last_hand": self._built_results()[-1] if self._results else None,
            "winner": self._winner,
            "lone_defender": hand.lone_def if hand is not None and hand.lone_def >= 0 else None,
            "out": tuple(core.bits(hand.out)) if hand is not None else (),
            "bid_suit": SUITS[hand.up_suit] if hand is not None and hand.up_suit >= 0 else None,
            "called_suit": SUITS[called] if called >= 0 and suit_call else None,
            "called_card": CARDS[called] if called >= 0 and not suit_call else None,
            "bid": hand.bid if hand is not None else 0,
            "pool": hand.pool if hand is not None else self._pool,
            "widow": hand.widow.bit_count() if hand is not None else 0,
            "options": self.options,
            "tie_break": self._deciding,
            "bid_phases": tuple(self._bid_phases),
        }

    def zones(self) -> dict[str, int]:
        """Every place a card can be, as ``name -> card mask`` (hidden: for tests and checks).

        Names: ``hand:S``, ``tableau-up:S``, ``tableau-down:S`` for each seat ``S``,
        ``up-card`` (on the table, face up or turned down), ``kitty``, ``discard``,
        ``trick`` (in progress) and ``played`` (completed tricks). In a dealt hand the
        masks are disjoint and together make the pack.
        """
        hand = self._hand
        zones: dict[str, int] = {}
        for s in range(self.variant.players):
            zones[f"hand:{s}"], zones[f"tableau-up:{s}"] = self._split(s)
            zones[f"tableau-down:{s}"] = sum(1 << d for _, d in self._piles(s) if d >= 0)
        up = hand is not None and hand.up >= 0 and not hand.taken
        zones["up-card"] = 1 << hand.up if up else 0  # type: ignore[union-attr]
        zones["widow"] = hand.widow if hand is not None else 0
        zones["discard"] = hand.discarded if hand is not None else 0
        tricks, current = self._tricks()
        zones["trick"] = sum(1 << c for _, c in current)
        zones["played"] = sum(1 << card.index for trick in tricks for _, card in trick.plays)
        # The kitty is what the deal left over: every card of the pack in no other zone.
        dealt = 0
        for mask in zones.values():
            dealt |= mask
        pack = sum(1 << c.index for c in self.variant.pack)
        zones["kitty"] = pack & ~dealt if hand is not None else 0
        return zones

    # --- copies and records --------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy of the whole game."""
        self._built_results()  # the copy and the original share each hand's result
        other = Game.__new__(Game)
        other._code = self._code
        other._dealer = self._dealer
        other._deciding = self._deciding
        other._follows = self._follows
        other._views = {}
        other._shared = None
        other._splits = ()
        other._views_at = -1
        other._hand = self._hand.copy() if self._hand is not None else None
        other._hand_no = self._hand_no
        other._legal = self._legal
        other._pack = self._pack
        other._phase = self._phase
        other._pool = self._pool
        other._turn = self._turn
        other._turned_down = self._turned_down
        other._uncode = self._uncode
        other._winner = self._winner
        other.first_dealer = self.first_dealer
        other.options = self.options
        other.seed = self.seed
        other.variant = self.variant
        other._bids = self._bids[:]
        other._bid_phases = self._bid_phases[:]
        other._discards = self._discards[:]
        other._leads = self._leads[:]
        other._done_tricks = self._done_tricks
        other._log = self._log[:]
        other._results = self._results[:]
        other._scores = self._scores[:]
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


_PILES: tuple[tuple[TableauPile, TableauPile], ...] = tuple(
    (TableauPile(card, False), TableauPile(card, True)) for card in (None, *CARDS)
)
"""Every tableau pile a view can show, by its face-up card's index + 1 (0: none) and
whether a card lies face down beneath: values, shared by every view."""


def _shown(value: object) -> str:
    """A short repr for an error message, whatever ``value`` is (huge, deep, long)."""
    try:
        return reprlib.repr(value)
    except ValueError:  # an integer past Python's int-to-text limit
        return "a number too long to show"


def _shuffled(pack: list[int], key: str) -> list[int]:
    """A Fisher-Yates shuffle of ``pack`` (in place) driven by BLAKE2b of ``key``.

    256 hashed bits cover the 153 bits of a 39-card order (and the 215 of the 50-card
    double pack) with a negligible bias, in a fraction of the time of seeding a
    ``random.Random`` and drawing per card. Step ``i`` (from the last card down) swaps
    card ``i`` with card ``j``, the hash's next digit in base ``i + 1``;
    :func:`_shuffle_plan` reads those digits in fewer steps.
    """
    bits = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=32).digest())
    plan = _SHUFFLE_PLANS.get(len(pack)) or _shuffle_plan(len(pack))
    for product, pairs in plan:
        bits, digits = divmod(bits, product)
        for i, h, base, split in pairs:
            j, k = split[digits % base]
            digits //= base
            pack[i], pack[j] = pack[j], pack[i]
            pack[h], pack[k] = pack[k], pack[h]
    return pack


_Pairs = list[tuple[int, int, int, list[tuple[int, int]]]]
_SHUFFLE_PLANS: dict[int, list[tuple[int, _Pairs]]] = {}


def _shuffle_plan(n: int) -> list[tuple[int, _Pairs]]:
    """How :func:`_shuffled` reads its digits for ``n`` cards: ``[(product, pairs), ...]``.

    Steps go in pairs ``(i, h = i - 1)``: one digit in base ``(i + 1) * i`` looked up
    in ``split`` gives both (step 0, base 1, is a no-op). Pairs go in groups whose
    bases multiply below 2**30, so the 256-bit number is divided once a group and
    the digits within come from one-word integers. Built once per pack size.
    """
    plan: list[tuple[int, _Pairs]] = []
    pairs: _Pairs = []
    product = 1
    for i in range(n - 1, 0, -2):
        base = (i + 1) * i
        if product * base >= 1 << 30:
            plan.append((product, pairs))
            pairs, product = [], 1
        pairs.append((i, i - 1, base, [(q % (i + 1), q // (i + 1)) for q in range(base)]))
        product *= base
    plan.append((product, pairs))
    _SHUFFLE_PLANS[n] = plan
    return plan


def _game_winner(scores: list[int], target: int) -> int | None:
    """The side that won, if any.

    RULES.md §2 Ruling: if both reach the target in one hand the higher total wins;
    an exact tie plays another hand.
    """
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)
