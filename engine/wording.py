"""One wording of the game for every screen: cards, hands, actions, prompts, the tableau,
what a seat is doing, who made trump, a hand's result and the game's end.

The terminal (:mod:`engine.render_text`), the Discord bot's messages (``bot/render.py``),
its table picture with the picture's text alternative (``bot/drawing.py``) and the rules
in words (:mod:`engine.rules_text`) word a card, a hand, an action, a phase, a phase's
prompt, a tableau pile, a maker, points, a march and a euchre through here, so a player
reads the same thing in each. Where the picture has room for fewer words, its short
form is kept beside the long one (:attr:`Verb.short`, :data:`THROWN_IN_SHORT`). Text
only: no rules are decided here (what is legal, who won, what a hand scores) and
nothing is printed.

Notation (:func:`legend` explains it to players): a card is ``10♥``, ``A♠``, a
joker ``🃏1``–``🃏3``, the double pack's second copy ``A♠'`` (ASCII: ``10H``,
``AS``, ``B1``, ``AS'``). A tableau pile is ``[face-up/face-down]``: ``[K♠/▮]``
a king on a face-down card, ``[—/▮]`` its face-up card played (the card beneath
turns up once the trick is over), ``[9♦/ ]`` nothing beneath, ``[—/ ]`` empty
(ASCII: ``#`` and ``-``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.actions import (
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
from engine.cards import DOUBLE_POWER, EFFECTIVE_SUIT, POWER, SUITS, TWIN, Card, Rank, Suit
from engine.variants import Variant
from engine.view import HandResult, Phase, PlayerView, TableauPile

__all__ = [
    "BID_ALONE",
    "DEALING",
    "EUCHRED",
    "MARCH",
    "NOBODY_SCORES",
    "THROWN_IN",
    "THROWN_IN_SHORT",
    "Verb",
    "Wording",
    "a_joker",
    "capital",
    "card_text",
    "computer_name",
    "count",
    "deals_left",
    "doing",
    "goal",
    "joker_name",
    "jokers_word",
    "legend",
    "pile_text",
    "points_text",
    "prompt",
    "rank_text",
    "score_goal",
    "score_text",
    "scores",
    "side_name",
    "signed",
    "sort_cards",
    "stand_in_name",
    "suit_groups",
    "suit_text",
    "tableau_marks",
    "tableau_text",
    "tally",
    "verb",
    "verdict",
    "won_game",
]


# --- cards and suits ---------------------------------------------------------------


def card_text(card: Card, ascii_only: bool = False) -> str:
    """One card: ``10♥``, ``🃏3``, ``A♠'``; with ``ascii_only`` ``10H``, ``B3``, ``AS'``."""
    return card.code.replace("T", "10") if ascii_only else card.pretty()


def joker_name(variant: Variant, card: Card) -> str:
    """What ``variant``'s table calls the joker ``card``: the sources' word, one per game.

    Three jokers (Tuque, RULES.md §1–§2, and Almonte, §6): ``Little Ben``, ``Big Ben``,
    ``Best Ben`` (RULES.md "Card notation"). One joker (§4, §5, §6 six-hand, §7):
    ``the Benny`` (seed 004 "Benny, or Best Bower"). The double pack's two (§6 option):
    ``the black Benny`` and ``the red Benny`` (seed 004 "the two Bennies"). On every
    screen the card itself is drawn ``🃏1``–``🃏3`` (``B1``–``B3``), face and text alike.
    """
    if variant.twins:
        return "the red Benny" if card.ben == 2 else "the black Benny"
    if sum(c.is_ben for c in variant.pack) == 1:
        return "the Benny"
    return card.name()


def jokers_word(variant: Variant) -> str:
    """``variant``'s word for its jokers together, as in "the Bens and the Left Bower":
    ``the Bens``, ``the Benny``, ``the Bennies``; empty for a pack without one."""
    count = sum(c.is_ben for c in variant.pack)
    if not count:
        return ""
    if count == 1:
        return "the Benny"
    return "the Bennies" if variant.twins else "the Bens"


def a_joker(variant: Variant) -> str:
    """One of ``variant``'s jokers, whichever: ``a Ben``, ``the Benny``, ``a Benny``."""
    word = jokers_word(variant)
    if word == "the Benny":
        return word
    return "a Benny" if variant.twins else "a Ben"


def suit_text(suit: Suit, ascii_only: bool = False) -> str:
    """A suit as ``♥ hearts`` (``hearts`` with ``ascii_only``)."""
    return suit.noun if ascii_only else f"{suit.symbol} {suit.noun}"


def sort_cards(cards: Iterable[Card], trump: Suit | None, twins: bool = False) -> list[Card]:
    """``cards`` grouped by the suit they follow, high to low within a suit.

    Once trump is made, trump comes first, holding the jokers and both bowers (the
    Left Bower leaves its printed suit), then the other suits in the order ♣ ♦ ♥ ♠.
    Before, the suits in that order, then the jokers. ``twins``: the double pack's
    (RULES.md §6), whose jokers rank by trump's colour; a second copy follows its first.
    """
    if trump is None:
        return sorted(
            cards, key=lambda c: (c.suit is None, c.suit.index if c.suit else 0, -_first(c), c.copy)
        )
    t = trump.index
    power = (DOUBLE_POWER if twins else POWER)[t]

    def key(card: Card) -> tuple[int, int, int]:
        suit = EFFECTIVE_SUIT[t][card.index]
        return (0 if suit == t else 1 + suit, -power[suit][card.index], card.copy)

    return sorted(cards, key=key)


def suit_groups(
    cards: Iterable[Card], trump: Suit | None, twins: bool = False
) -> list[tuple[Suit | None, list[Card]]]:
    """:func:`sort_cards`' order cut into groups, each with the suit its cards follow.

    Returns:
        ``(suit, cards)`` pairs, trump's group first once made; before trump is
        made the jokers form a last group whose suit is ``None``.
    """
    groups: list[tuple[Suit | None, list[Card]]] = []
    for card in sort_cards(cards, trump, twins):
        suit = card.suit if trump is None else SUITS[EFFECTIVE_SUIT[trump.index][card.index]]
        if not groups or groups[-1][0] != suit:
            groups.append((suit, []))
        groups[-1][1].append(card)
    return groups


def _first(card: Card) -> int:
    """The index of ``card``'s first copy (its own, but for a double pack's second copy)."""
    return TWIN[card.index] if card.copy else card.index


# --- the tableau -------------------------------------------------------------------


def tableau_marks(ascii_only: bool = False) -> tuple[str, str]:
    """The mark of a face-down card (``▮``) and of a pile whose face-up card was
    played (``—``); ``#`` and ``-`` with ``ascii_only``."""
    return ("#", "-") if ascii_only else ("▮", "—")


def pile_text(
    up: Card | None, down: Card | bool, *, ascii_only: bool = False, pad: bool = False
) -> str:
    """One tableau pile, ``[K♠/▮]``.

    Args:
        up: the face-up card, ``None`` once played.
        down: the face-down card (a full view, for watching and replays) or whether
            one lies there.
        ascii_only: ASCII cards and marks (``[KS/#]``, ``[-/#]``).
        pad: every pile three columns wide on a terminal (``[ K♠/▮]``, ``[ — /▮]``),
            so that rows of piles line up.
    """
    face_down, gone = tableau_marks(ascii_only)
    if up is None:
        top = f" {gone} " if pad else gone
    else:
        top = card_text(up, ascii_only)
        # 🃏 takes two columns on a terminal, so "🃏3" already fills three.
        if pad and not (up.is_ben and not ascii_only):
            top = top.rjust(3)
    under = card_text(down, ascii_only) if isinstance(down, Card) else face_down if down else " "
    return f"[{top}/{under}]"


def tableau_text(
    piles: Sequence[TableauPile], *, ascii_only: bool = False, pad: bool = False
) -> str:
    """A seat's tableau as seen at the table: its piles (:func:`pile_text`) side by side."""
    return " ".join(pile_text(p.up, p.face_down, ascii_only=ascii_only, pad=pad) for p in piles)


# --- the legend --------------------------------------------------------------------


def legend(variant: Variant, ascii_only: bool = False) -> tuple[str, ...]:
    """One line per kind of symbol a table of ``variant`` shows, saying what it means.

    ``variant`` as configured for the table (:meth:`Variant.configured`): its pack
    decides which jokers and copies are explained; the tableau's marks only where
    there is a tableau.
    """

    def c(code: str) -> str:
        return card_text(Card.parse(code), ascii_only)

    if ascii_only:
        lines = [
            "Suits: C clubs, D diamonds, H hearts, S spades; 10H is the ten of hearts, "
            "AS the ace of spades."
        ]
    else:
        lines = ["Suits: ♣ clubs, ♦ diamonds, ♥ hearts, ♠ spades (♦ ♥ red, ♣ ♠ black)."]
    bens = [card for card in variant.pack if card.is_ben]
    if variant.twins:
        lines.append(
            f"{c('B1')} the black Benny, {c('B2')} the red Benny, the jokers: always trump; "
            "the one of trump's colour is the highest card, the other the next."
        )
        lines.append(
            f"{c('AS')}' (a prime): the second copy of {c('AS')}; of two identical cards "
            "in a trick, the one played second beats the first."
        )
    elif len(bens) == 1:
        lines.append(f"{c('B1')} the Benny, the joker: always trump, the highest card.")
    elif bens:
        names = ", ".join(f"{c(b.code)} {joker_name(variant, b)}" for b in bens)
        order = " > ".join(c(b.code) for b in reversed(bens))
        lines.append(f"Bens, the jokers: {names}. Always trump, above every other card: {order}.")
    if variant.tableau_piles:
        down, gone = tableau_marks(ascii_only)
        king, nine = c("KS"), c("9D")
        lines += [
            f"[{king}/{down}] a tableau pile: a face-up card you may play, on a face-down "
            f"card {down} that nobody has seen, not even its owner.",
            f"[{gone}/{down}] its face-up card was played: the card beneath turns up once "
            "the trick is over.",
            f"[{nine}/ ] nothing beneath; [{gone}/ ] an empty pile.",
        ]
    return tuple(lines)


# --- actions and prompts -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verb:
    """One thing a seat does, in each form a screen says it.

    Attributes:
        you: the second person, ``order it up``; capitalised, a button's or a menu
            entry's label (``Order it up``), but a pass's.
        they: the third person, ``orders it up``.
        past: ``ordered it up``.
        short: the few words a bid's bubble on the table's picture has room for,
            ``Order up``; a pass's button says them too (``Not alone``).
    """

    you: str
    they: str
    past: str
    short: str


_PASSES: dict[Phase | None, Verb] = {
    None: Verb("pass", "passes", "passed", "Pass"),
    Phase.GOING_ALONE: Verb("don't go alone", "doesn't go alone", "didn't go alone", "Not alone"),
    Phase.CARD_REQUEST: Verb(
        "don't ask for a card", "doesn't ask for a card", "didn't ask for a card", "Don't ask"
    ),
}
"""A pass, by the phase that gives it its meaning (``None``: bidding, or unknown). Its
button and the picture's bubble say the same short words, ``Not alone`` (the answer to
"go alone, or not"), and what was done is told in full, ``Ann didn't go alone``: never
``pass``, which would read as a pass of the bidding."""

_VERBS: dict[type[Action], Verb] = {
    OrderUp: Verb("order it up", "orders it up", "ordered it up", "Order up"),
    TakeUp: Verb("take it up", "takes it up", "took it up", "Take up"),
    NameTrump: Verb("name", "names", "named", "Name"),
    GoAlone: Verb("go alone", "goes alone", "went alone", "Alone"),
    Discard: Verb("discard", "discards", "discarded", "Discard"),
    TurnDown: Verb(
        "turn it down and go alone",
        "turns it down and goes alone",
        "turned it down and went alone",
        "Turn down",
    ),
    CallSuit: Verb("call", "calls", "called", "Call"),
    Ask: Verb("ask", "asks", "asked", "Ask"),
    Give: Verb("give", "gives", "gave", "Give"),
    Bid: Verb("bid", "bids", "bid", "Bid"),
    CallCard: Verb("call", "calls", "called", "Call"),
    Play: Verb("play", "plays", "played", "Play"),
}
"""Every other action's verb; what it acts on (a suit, a card, a seat) follows it."""

BID_ALONE: dict[int, str] = {8: "alone after the widow", 15: "alone as dealt"}
"""RULES.md §7 Auction: the bids that play alone, and how (taking the widow or not)."""


def verb(action: Action, phase: Phase | None = None) -> Verb:
    """The verb of ``action``, done in ``phase`` (a pass means something else while
    going alone or asking for a card; ``None``: unknown).

    Raises:
        ValueError: ``action`` is not an action.
    """
    if isinstance(action, Pass):
        return _PASSES.get(phase, _PASSES[None])
    try:
        return _VERBS[type(action)]
    except KeyError:
        raise ValueError(f"{action!r} is not an action") from None


def rank_text(rank: Rank) -> str:
    """A rank as players write it: ``10``, ``Q`` (for a place that shows the suit
    beside it, as a shape, or names none)."""
    return "10" if rank is Rank.TEN else rank.value


@dataclass(frozen=True, slots=True)
class Wording:
    """The words of one table: actions, prompts and what players did, with its names.

    Args:
        variant: the game's variant as configured for the table.
        names: each seat's name (``"You"``, ``"Computer"``, ``"West"``, a member's name).
        you: the reader's seat, whose verbs take the second person ("You pass",
            "West passes"); ``None`` for a spectator.
        ascii_only: cards and suits in the notation (``10H``, ``hearts``).
    """

    variant: Variant
    names: tuple[str, ...]
    you: int | None = None
    ascii_only: bool = False

    def card(self, card: Card) -> str:
        """One card (:func:`card_text`)."""
        return card_text(card, self.ascii_only)

    def suit(self, suit: Suit) -> str:
        """One suit (:func:`suit_text`)."""
        return suit_text(suit, self.ascii_only)

    def action_label(self, view: PlayerView, action: Action) -> str:
        """The label of one of ``view``'s legal actions, on a button or a menu.

        E.g. ``Pass``, ``Order it up``, ``Order it up, ♥ hearts trump``, ``Name ♥ hearts``,
        ``Not alone``, ``Play 10♥``, ``Ask North for a card``, ``Bid 8 in ♣ clubs,
        alone after the widow``. Where a card comes from (hand or tableau) is the
        renderer's to mark.

        Raises:
            ValueError: ``action`` is not an action.
        """
        return self.label(action, view.phase)

    def label(self, action: Action, phase: Phase | None) -> str:
        """:meth:`action_label` of ``action`` in ``phase``: all a label reads of the
        view is its phase (a pass's verb depends on it).

        Raises:
            ValueError: ``action`` is not an action.
        """
        said = verb(action, phase)
        # A pass's button says what its bubble will: "Go alone" / "Not alone".
        label = said.short if isinstance(action, Pass) else capital(said.you)
        match action:
            case OrderUp(suit=suit) | TakeUp(suit=suit) if suit is not None:
                return f"{label}, {self.suit(suit)} trump"
            case NameTrump(suit=suit) | CallSuit(suit=suit):
                return f"{label} {self.suit(suit)}"
            case Discard(card=card) | Give(card=card) | CallCard(card=card) | Play(card=card):
                return f"{label} {self.card(card)}"
            case Ask(seat=seat):
                return f"{label} {self.names[seat]} for a card"
            case Bid(level=level, suit=suit):
                alone = f", {BID_ALONE[level]}" if level in BID_ALONE else ""
                return f"{label} {level} in {self.suit(suit)}{alone}"
        return label

    def narrate(
        self,
        seat: int,
        action: Action,
        phase: Phase | None,
        *,
        past: bool = False,
        hidden: bool = False,
    ) -> str:
        """``seat`` doing ``action``, without a full stop: ``Computer orders it up``.

        Args:
            seat: who acted.
            action: what they did.
            phase: the phase it was done in (a pass means something else while going
                alone or asking for a card); ``None`` when unknown.
            past: ``Ann passed`` rather than ``Ann passes`` / ``You pass``.
            hidden: a discarded or given card is "a card", for a reader who may not
                see it (it is named otherwise).

        Raises:
            ValueError: ``action`` is not an action.
        """

        def form(done: Verb) -> str:
            return done.past if past else done.you if seat == self.you else done.they

        what = self._object(action, phase, hidden, form)
        return f"{self.names[seat]} {form(verb(action, phase))}{what}"

    def _object(
        self, action: Action, phase: Phase | None, hidden: bool, form: Callable[[Verb], str]
    ) -> str:
        """What ``action`` is done to, after its verb in a narration: `` ♥ hearts as
        trump``, `` a card to the loner``; empty for a verb that says it all. ``form``
        picks the narration's person or tense of a second verb."""
        match action:
            case OrderUp(suit=suit) | TakeUp(suit=suit) if suit is not None:
                # A Ben turned up is accepted by naming trump (RULES.md §1).
                return f" and {form(_VERBS[NameTrump])} {self.suit(suit)}"
            case NameTrump(suit=suit):
                # Almonte's dealer names, unseen, the suit round 1 bids on; with no phase
                # given, the words claim neither.
                blind = phase is Phase.BLIND_NAMING and self.variant.ben_up == "dealer_names"
                aim = "" if phase is None else " to bid on" if blind else " as trump"
                return f" {self.suit(suit)}{aim}"
            case Discard(card=card):
                return " a card" if hidden else f" {self.card(card)}"
            case CallSuit(suit=suit):
                return f" {self.suit(suit)}"
            case Ask(seat=asked):
                return f" {self.names[asked]} for a card"
            case Give(card=card):
                return f" {'a card' if hidden else self.card(card)} to the loner"
            case Bid(level=level, suit=suit):
                return f" {level} in {self.suit(suit)}"
            case CallCard(card=card):
                return f" {self.card(card)} as partner"
            case Play(card=card):
                return f" {self.card(card)}"
        return ""

    def made_by(
        self, maker: int, bid: int = 0, alone: int | None = None, *, short: bool = False
    ) -> str:
        """Who made trump, and how: ``made by Ann``, ``made by Ann (bid 4) alone``,
        ``made by Ann, Cleo alone`` (the maker's partner plays alone, RULES.md §4).
        ``short``, for the table picture's band: ``Ann · bid 4 · alone``, ``Ann · Cleo
        alone``."""
        if not short:
            return f"made by {self.names[maker]}{self._aside(maker, bid, alone)}"
        words = [self.names[maker]] + ([f"bid {bid}"] if bid else [])
        if alone is not None:
            words.append("alone" if alone == maker else f"{self.names[alone]} alone")
        return " · ".join(words)

    def _aside(self, maker: int, bid: int, alone: int | None) -> str:
        """The Auction bid (RULES.md §7) and who plays alone, after the maker's name."""
        words = f" (bid {bid})" if bid else ""
        if alone == maker:
            return words + " alone"
        return words + (f", {self.names[alone]} alone" if alone is not None else "")

    def defends_alone(self, seat: int, *, past: bool = False) -> str:
        """``Cy defends alone``, ``You defend alone``; ``past``: ``Cy defended alone``
        (RULES.md §4)."""
        verb = "defended" if past else "defend" if seat == self.you else "defends"
        return f"{self.names[seat]} {verb} alone"

    def made(self, result: HandResult, *, loner: bool = True) -> str:
        """A finished hand's contract: who made which trump and how, who played with
        the maker, who defended alone. E.g. ``Ann made ♥ hearts (bid 4) alone``,
        ``Bob made ♣ clubs, their own partner`` (RULES.md §7 Call-Ace: the maker held
        the called card), ``Ann made ♠ spades, partnered by Dev; Cy defended alone``.
        ``loner=False`` leaves out the makers' loner, for a text that goes on with
        :meth:`took`, which says it: ``Ann made ♥ hearts (bid 4). Ann went alone and…``.

        Raises:
            ValueError: the hand was thrown in: nobody made trump.
        """
        maker, trump = result.maker, result.trump
        if maker is None or trump is None:
            raise ValueError(f"hand {result.hand_no} was thrown in: nobody made trump")
        words = f"{self.names[maker]} made {self.suit(trump)}"
        words += self._aside(maker, result.bid, result.alone if loner else None)
        if result.partner == maker:
            words += f", {'your' if maker == self.you else 'their'} own partner"
        elif result.partner is not None:
            words += f", partnered by {self.names[result.partner]}"
        if result.lone_defender is not None:
            words += "; " + self.defends_alone(result.lone_defender, past=True)
        return words

    def took(self, result: HandResult) -> str:
        """The tricks the makers took, out of the hand's: ``Ann & Cleo took 3 of 5
        tricks`` (partners of a side, RULES.md §3; a secret or called partner, §7, named
        once the hand is over), ``Ann took 3 of 5 tricks`` (a maker who always plays
        alone, §5), ``Ann went alone and took 4 of 5 tricks`` (a loner, whose partners
        sat out, §3–§7).

        Raises:
            ValueError: the hand was thrown in: nobody made trump.
        """
        maker = result.maker
        if maker is None:
            raise ValueError(f"hand {result.hand_no} was thrown in: nobody made trump")
        v = self.variant
        if v.makers == "side":
            seats = [s for s in range(v.players) if v.sides[s] == v.sides[maker]]
        else:
            seats = sorted({maker, maker if result.partner is None else result.partner})
        made = sum(result.tricks[s] for s in seats)
        of = f"{made} of {count(v.tricks, 'trick')}"
        if result.alone is not None:  # the loner's partners sat out: the loner took them all
            return f"{self.names[result.alone]} went alone and took {of}"
        return f"{side_name([self.names[s] for s in seats])} took {of}"

    def side(self, side: int) -> str:
        """Scoring side ``side`` by its players' names (:func:`side_name`): ``Ann & Cleo``."""
        sides = self.variant.sides
        return side_name([name for name, s in zip(self.names, sides, strict=True) if s == side])

    def outcome(self, result: HandResult) -> str:
        """What a finished hand came to, as every screen says it after its heading: what
        the makers took, then the points: ``Ann, Cleo and Eve took 3 of 5 tricks · Ann,
        Cleo and Eve +1``; Jackpot's points alone (nobody makes trump, RULES.md §7). The
        ``·`` keeps a side named as a list apart from the next.

        Raises:
            ValueError: the hand was thrown in: nothing was played.
        """
        if result.thrown_in:
            raise ValueError(f"hand {result.hand_no} was thrown in: nothing was played")
        points = points_text(result.points, [self.side(s) for s in range(len(result.points))])
        return points if result.maker is None else f"{self.took(result)} · {points}"

    def short(self, action: Action, phase: Phase | None = None) -> tuple[str | Suit, ...]:
        """``action``, done in ``phase`` (:attr:`PlayerView.bid_phases`), in the few words
        of a bid's bubble on the table's picture, each suit left for the picture to draw
        as its shape: ``("Order up",)``, ``("Name", Suit.HEARTS)``, ``("Bid 8",
        Suit.CLUBS)``, ``("Call 10", Suit.SPADES)``, ``("Ask Bob",)``, ``("Not
        alone",)``. The same verbs as :meth:`action_label`'s, shorter (a pass's are its
        button's words).

        Raises:
            ValueError: ``action`` is not an action.
        """
        word = verb(action, phase).short
        match action:
            case OrderUp(suit=suit) | TakeUp(suit=suit) if suit is not None:
                return word, suit
            case NameTrump(suit=suit) | CallSuit(suit=suit):
                return word, suit
            case Discard(card=card) | Give(card=card) | CallCard(card=card) | Play(card=card):
                if card.rank is None or card.suit is None:  # a joker, by its name
                    return (f"{word} {joker_name(self.variant, card)}",)
                return f"{word} {rank_text(card.rank)}", card.suit
            case Ask(seat=seat):
                return (f"{word} {self.names[seat]}",)
            case Bid(level=level, suit=suit):
                return f"{word} {level}", suit
        return (word,)


# --- seats and sides: one name each, in every text and the picture ------------------------


def computer_name(seat: int) -> str:
    """A computer seat's name: ``CPU 3`` for seat index 2 (seats count from 1 for
    players). Short and distinct, and the same on the table, in results, replays, the
    lobby and the terminal; the computer's level is said apart where it matters."""
    return f"CPU {seat + 1}"


def stand_in_name(member: str) -> str:
    """The computer playing a resigned member's seat: ``CPU for Ann`` (docs/rulings.md
    R26), named by whose seat it is, so the seat keeps a name the table knows."""
    return f"CPU for {member}"


def side_name(names: Sequence[str]) -> str:
    """A side named by its players, as every text names a side: ``Ann``, ``Ann & Cleo``
    (a pair, as a team is named), ``Ann, Cleo and Eve`` (six-hand's three partners, a
    list as one is written)."""
    if len(names) <= 2:
        return " & ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def score_text(
    scores: Sequence[int], names: Sequence[str], goal: str = "", *, ascii_only: bool = False
) -> str:
    """The score, written one way on every screen: each side's name, a colon and its
    points, then what the game is played to: ``Ann & Cleo: 3 · Bob & Dev: 2 (to 10)``,
    ``You: 11 · CPU 2: 8 (to 10)`` (the colon keeps a seat's number apart from its
    points); Jackpot's ``Ann: 3 · Bob: 0 (chips; pool 2, deal 3 of 12)``.

    Args:
        scores: each side's points (or chips), in side order.
        names: each side's name (:func:`side_name`), in the same order.
        goal: what the game is played to (:func:`score_goal`); empty to leave it out.
        ascii_only: ``/`` between the sides, for a terminal without ``·``.
    """
    each = tally(scores, names, ascii_only=ascii_only)
    return f"{each} ({goal})" if goal else each


def tally(counts: Sequence[int], names: Sequence[str], *, ascii_only: bool = False) -> str:
    """A number for each seat or side, written as the score is: ``Ann: 2 · CPU 2: 3``
    (the colon keeps a seat's number apart from its count): the score
    (:func:`score_text`), tricks won, cards in hand.

    Args:
        counts: one number per name, in the same order.
        names: each seat's or side's name.
        ascii_only: ``/`` between them, for a terminal without ``·``.
    """
    between = " / " if ascii_only else " · "
    return between.join(f"{name}: {n}" for name, n in zip(names, counts, strict=True))


def score_goal(view: PlayerView, variant: Variant) -> str:
    """What the score is counted towards, for :func:`score_text`: ``to 10``, or
    Jackpot's chips with its pool and deals (:func:`deals_left`)."""
    if variant.chips:
        return f"chips; pool {view.pool}, {deals_left(view)}"
    return f"to {view.target}"


# --- phases: what the seat to act is doing ---------------------------------------------

_DOING: dict[Phase, str] = {
    Phase.BIDDING_1: "to bid (round 1)",
    Phase.BIDDING_2: "to bid (round 2)",
    Phase.DISCARD: "to discard",
    Phase.GOING_ALONE: "to decide on going alone",
    Phase.BLIND_NAMING: "to name trump before looking at their hand",
    Phase.CARD_REQUEST: "to ask a partner for a card",
    Phase.GIVING: "to give the loner a card",
    Phase.CALLING: "to call a partner",
    Phase.AUCTION: "to bid",
}
"""What a seat is doing in each phase in which one acts, but the play (:func:`doing`)."""

DEALING = "Dealing the next hand"
"""What the table waits for when no seat is to act before a deal."""


def doing(view: PlayerView, variant: Variant) -> str:
    """What ``view``'s seat to act is doing, said after its name: ``to bid (round 1)``,
    ``to lead``, ``to play``; Almonte's dealer (RULES.md §6) is ``to name the suit to bid
    on before looking at their hand``.

    Raises:
        ValueError: nobody acts in ``view``'s phase (a deal, a hand's or the game's end).
    """
    phase = view.phase
    if phase is Phase.PLAY:
        return "to play" if view.trick.plays else "to lead"
    if phase is Phase.BLIND_NAMING and variant.ben_up == "dealer_names":
        return "to name the suit to bid on before looking at their hand"
    if phase not in _DOING:
        raise ValueError(f"nobody acts during the {phase.value}")
    return _DOING[phase]


# --- results: points, a march, a euchre, the game's end --------------------------------

THROWN_IN = "everyone passed, so the hand is thrown in"
"""A hand nobody made trump in (RULES.md §3): nothing is played, nobody scores."""
THROWN_IN_SHORT = ("Thrown in", "everyone passed")
""":data:`THROWN_IN` in the two short lines of the table picture's banner."""
NOBODY_SCORES = "nobody scores"
"""A hand's points when every side's are 0."""
MARCH = "a march"
"""The makers took every trick (RULES.md "March")."""
EUCHRED = "euchred"
"""The makers took fewer tricks than they had to (RULES.md "Euchre")."""


def capital(text: str) -> str:
    """``text`` with its first letter a capital, to start a sentence (the rest, names
    included, keeps its case, which ``str.capitalize`` would not)."""
    return text[:1].upper() + text[1:]


def count(n: int, noun: str) -> str:
    """``n`` and a regular ``noun``, plural unless one: ``1 point``, ``3 tricks``, ``0 chips``."""
    return f"{n} {noun}" + ("" if abs(n) == 1 else "s")


def signed(points: int) -> str:
    """A hand's points with their sign, ``+2``, ``-5``: the hyphen-minus, as every
    score writes a minus, never U+2212 beside it."""
    return f"{points:+d}"


def scores(points: int, *, plural: bool = False) -> str:
    """What a side does with a hand's ``points``: ``scores 2 points``, ``loses 2
    points``; ``plural``: ``score 1 point`` (a side of several, or the reader, "You")."""
    word = ("score" if points >= 0 else "lose") + ("" if plural else "s")
    return f"{word} {count(abs(points), 'point')}"


def points_text(points: Sequence[int], names: Sequence[str]) -> str:
    """A hand's points by side, the sides that scored nothing left out: ``Ann & Cleo
    +2, Bob -1``, or :data:`NOBODY_SCORES`.

    Args:
        points: each side's points this hand (:attr:`HandResult.points`).
        names: each side's name, in the same order.
    """
    said = [f"{name} {signed(p)}" for name, p in zip(names, points, strict=True) if p]
    return ", ".join(said) or NOBODY_SCORES


def verdict(result: HandResult, variant: Variant, *, short: bool = False) -> str:
    """What a finished hand was, in a few words to follow its result: ``a march`` (the
    makers took every trick), ``euchred`` (fewer than they had to, RULES.md "Euchre"),
    Jackpot's ``a march sweeps the pool`` (RULES.md §7 ruling; ``short``, for the table
    picture's banner: ``a march``); empty for a hand simply made, or one without makers."""
    if variant.chips:
        swept = max(result.tricks) == variant.tricks
        return "" if not swept else MARCH if short else f"{MARCH} sweeps the pool"
    return MARCH if result.march else EUCHRED if result.euchred else ""


def goal(variant: Variant, target: int, hands: int = 0) -> str:
    """What ends a game, after its score or its name: ``game to 10``; Jackpot's ``12
    deals or a march`` (``hands`` deals; RULES.md §7 ruling: it ends on deals, its
    target a bound no score reaches)."""
    return f"{hands} deals or {MARCH}" if variant.chips else f"game to {target}"


def won_game(names: str, *, short: bool = False) -> str:
    """The winners of a game: ``Ann & Cleo won the game``; ``short``: ``Ann & Cleo won!``,
    for the table picture's banner."""
    return f"{names} won!" if short else f"{names} won the game"


def deals_left(view: PlayerView, *, short: bool = False) -> str:
    """Jackpot's progress, which ends on deals rather than points (RULES.md §7 ruling,
    docs/rulings.md R22): ``deal 3 of 12``; ``deal 13, to break a tie for the most
    chips`` once a deal that should have ended the game left a tie, and after the game
    that deal ended (never ``deal 13 of 12``); between that deal and the next, ``a tie
    for the most chips: one more deal``. ``short``, for the table picture's band:
    ``deal 3/12``, ``tie-break``."""
    hands = view.options.hands if view.options is not None else 0
    # A deal past the last is one a tie called for: the tie is over once the game is.
    tie_break = view.tie_break or 0 < hands < view.hand_no
    if short:
        return "tie-break" if tie_break else f"deal {view.hand_no}/{hands}"
    if not tie_break:
        return f"deal {view.hand_no} of {hands}"
    if view.tie_break and view.phase is Phase.HAND_OVER:
        return "a tie for the most chips: one more deal"
    return f"deal {view.hand_no}, to break a tie for the most chips"


def prompt(view: PlayerView, variant: Variant) -> str:
    """What ``view``'s seat is asked to do now, e.g. ``order it up, or pass.``.

    Built from the legal actions, so it offers exactly what the menu or the
    buttons offer; lower case, to follow ``Your turn:`` or a trick. Empty when
    the viewer has nothing to do.
    """
    legal = view.legal_actions
    if not legal:
        return ""
    may_pass = any(isinstance(a, Pass) for a in legal)
    phase = view.phase
    if phase is Phase.BIDDING_1:
        choices = [verb(TurnDown()).you] if TurnDown() in legal else []
        accept = next((a for a in legal if isinstance(a, OrderUp | TakeUp)), None)
        if accept is not None:
            named = " and name trump" if accept.suit is not None else ""
            choices.append(verb(accept).you + named)
        return _or([*choices, *([verb(Pass(), phase).you] if may_pass else [])])
    if phase is Phase.BIDDING_2:
        if may_pass:
            return "name a suit as trump, or pass."
        # Only a dealer stuck (RULES.md §2, §3 stick_the_dealer) may not pass here.
        return "you must name a suit as trump: everyone passed, and the dealer is stuck."
    if phase is Phase.DISCARD:
        owed = len(view.hand) - variant.hand_size
        if owed > 1:
            return f"discard {owed} cards, one at a time."
        return "discard a card from your hand."
    if phase is Phase.GOING_ALONE:
        assert view.seat is not None  # a spectator has no legal action
        partners = view.sides.count(view.sides[view.seat]) - 1
        who = "your partner sits" if partners == 1 else "your partners sit"
        return f"go alone ({who} out this hand), or not."
    if phase is Phase.PLAY:
        return "play a card." if view.trick.plays else "lead a card."
    if phase is Phase.BLIND_NAMING:
        if variant.ben_up == "dealer_names":
            return "name the suit to bid on, before you look at your hand."
        return "name trump before you look at your hand."
    if phase is Phase.CARD_REQUEST:
        return "ask a partner for a card (they choose which), or not."
    if phase is Phase.GIVING:
        return "give the loner one of your cards."
    if phase is Phase.CALLING:
        if variant.makers == "call_suit":
            return "call a suit: whoever holds its best card is your secret partner; or go alone."
        return "call a card you don't hold: its holder is your partner."
    if phase is Phase.AUCTION:
        standing = next((a for _, a in reversed(view.bids) if isinstance(a, Bid)), None)
        if standing is None:
            return "bid, or pass."
        what = f"{standing.level} in {standing.suit.noun}"
        return f"bid more than the highest bid so far ({what}), or pass."
    return ""


def _or(choices: Sequence[str]) -> str:
    """``a, b, or c.``"""
    if len(choices) == 1:
        return choices[0] + "."
    return ", ".join(choices[:-1]) + ", or " + choices[-1] + "."
