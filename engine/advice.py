"""A hint's words: why a player would take an action, and how sure the hard computer is.

The hard computer (:class:`engine.ai.search.SearchPlayer`) picks an action and tells
how its search was shared between the choices (``last_shares``). A hint shows
that pick to a player in the player's words (issue 21):

* :func:`reason`: why, as a clause after the action's label, true of the position
  the seat sees ("leads the Right Bower to draw trump", "throws off your lowest
  card: the trick is your partner's");
* :func:`certainty`: how sure, in words a player reads right ("a clear choice",
  "a close call: Play 10♥ did about as well") rather than a percentage;
* :func:`hint_text`: the hint line, the same on Discord and on the terminal.

Pure and synchronous: it reads a :class:`~engine.view.PlayerView` (never a hidden
card) and names only cards that view shows. The rules it leans on are the
rulebook's, never restated here: effective suits and card powers from
:mod:`engine.cards` (RULES.md "Effective suit", "Trick winner"), who holds a trick
from :meth:`engine.core.HandState.play` itself, the legal actions from the view,
and the points of a march or a euchre from the variant's own scoring.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from engine.cards import (
    CARDS,
    EFFECTIVE_SUIT,
    JACK_INDEX,
    RANK_INDEX,
    SUIT_INDEX,
    SUIT_MASK,
    SUITS,
    Card,
    Suit,
    mask_of,
    power_table,
)
from engine.core import BIT, bits, new_hand
from engine.variants import Variant, get_variant
from engine.view import Phase, PlayerView
from engine.wording import card_text, joker_name

__all__ = ["certainty", "hint_text", "reason"]

_ACE = 8
"""``RANK_INDEX`` of an ace."""
_NUMBERS = (
    *("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
)


def _number(n: int) -> str:
    """``n`` in words up to twenty (``no`` for 0), in figures past it."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def _count(n: int, noun: str) -> str:
    """``one trump``, ``three trumps``, ``no trump``."""
    return f"{_number(n)} {noun}" if n in (0, 1) else f"{_number(n)} {noun}s"


def _singular(suit: Suit) -> str:
    """``heart`` for hearts."""
    return suit.noun[:-1]


# --- what the seat sees --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Seen:
    """One seat's view as card masks (engine card indices), with the table's rules.

    Attributes:
        view: the view. variant: the variant as configured for the table.
        me: the viewer's seat. hand: the hand. mine: every card the seat may play or
            count on: the hand and its own face-up tableau (RULES.md §1).
        gone: cards the seat knows out of play: played, its own discards, an up-card
            nobody took up.
        others: cards the seat cannot place in its own hand and does not know gone:
            another player's, face down, in the kitty (any of them may be live).
        pack: the pack's mask. power: ``power[trump][led][card]`` (RULES.md
            "Trick winner"; the double pack's jokers by colour).
    """

    view: PlayerView
    variant: Variant
    me: int
    hand: int
    mine: int
    gone: int
    others: int
    pack: int
    power: list[list[list[int]]]
    ascii_only: bool

    @classmethod
    def of(cls, view: PlayerView, ascii_only: bool) -> _Seen:
        base = get_variant(view.variant)
        variant = base.configured(view.options or base.defaults)
        me = view.seat if view.seat is not None else 0
        pack = mask_of(variant.pack)
        hand = mask_of(view.hand)
        mine = hand | mask_of(view.face_up(me)) if view.seat is not None else 0
        played = mask_of(c for t in (*view.tricks, view.trick) for _, c in t.plays)
        gone = played | mask_of(view.discards)
        up = mask_of([view.up_card]) if view.up_card is not None else 0
        if not _taken_up(view, variant):
            gone |= up
        return cls(
            view=view,
            variant=variant,
            me=me,
            hand=hand,
            mine=mine,
            gone=gone,
            others=pack & ~(mine | gone),
            pack=pack,
            power=power_table(pack),
            ascii_only=ascii_only,
        )

    def card(self, card: Card) -> str:
        """A card the view shows, by its role under trump: ``the Right Bower``,
        ``Best Ben``, else ``the 10♥``."""
        trump = self.view.trump
        role = self.role(card.index, trump.index) if trump is not None else None
        if role is None and card.is_ben:
            role = joker_name(self.variant, card)
        return role or "the " + card_text(card, self.ascii_only)

    def role(self, card: int, trump: int) -> str | None:
        """The name of a joker (:func:`~engine.wording.joker_name`) or a bower under
        ``trump`` (RULES.md "Concepts"); ``None`` for another card."""
        c = CARDS[card]
        if c.is_ben:
            return joker_name(self.variant, c)
        if RANK_INDEX[card] == JACK_INDEX and EFFECTIVE_SUIT[trump][card] == trump:
            return "the Right Bower" if SUIT_INDEX[card] == trump else "the Left Bower"
        return None


def _taken_up(view: PlayerView, variant: Variant) -> bool:
    """Whether the dealer adds the up-card to their hand (RULES.md §1, §3, §4): it was
    ordered or taken up, or the dealer named trump for a turned-up Benny, and the dealer
    does not sit out. Otherwise it stays out of play (turned down, or Jackpot's, §7)."""
    up = view.up_card
    if up is None:
        return False
    ordered = any(isinstance(a, OrderUp | TakeUp) for _, a in view.bids)
    blind = variant.ben_up == "dealer_makes" and up.is_ben and view.maker is not None
    return (ordered or blind) and view.dealer not in view.out


def _esuit(trump: int, card: int) -> int:
    return EFFECTIVE_SUIT[trump][card]


def _sides(seen: _Seen) -> tuple[frozenset[int], bool]:
    """The seats the viewer knows play with them this hand, and whether the viewer
    knows who plays with whom (so that any other seat in play is an opponent).

    Fixed partners (RULES.md §3, §4, §6); two- and three-hand: the maker alone
    against the others together (§5); Jackpot: each for themself (§7). Call-Ace and
    Auction: the secret partner only once the view tells it (a maker alone, the
    Auction called card held or played, §7).
    """
    view, variant, me = seen.view, seen.variant, seen.me
    n = view.players
    live = [s for s in range(n) if s != me and s not in view.out]
    if variant.teams:
        return frozenset(s for s in live if view.sides[s] == view.sides[me]), True
    if variant.makers == "side":  # two seats, one a side (RULES.md §1, §2)
        return frozenset(), True
    maker = view.maker
    if variant.chips or maker is None:
        return frozenset(), variant.chips or variant.makers == "solo"
    makers: set[int] | None = None
    if view.alone is not None or variant.makers == "solo":
        makers = {maker}
    elif view.called_card is not None:
        called = view.called_card
        if seen.hand >> called.index & 1:
            makers = {maker, me}
        elif called in view.discards:
            makers = {maker}
        else:
            played = {c: s for t in (*view.tricks, view.trick) for s, c in t.plays}
            if called in played:
                makers = {maker, played[called]}
    if makers is None:
        return frozenset(), False
    if me in makers:
        return frozenset(s for s in makers if s != me), True
    return frozenset(s for s in live if s not in makers), True


# --- play ------------------------------------------------------------------------------


def _holder_after(seen: _Seen, card: Card | None) -> int:
    """The seat holding the trick in progress once the viewer plays ``card`` (``None``:
    as it stands), by the core's own trick rule (:meth:`engine.core.HandState.play`,
    RULES.md "Trick winner", the double pack's tie rule included)."""
    view = seen.view
    assert view.trump is not None
    hand = new_hand(seen.variant, view.options or seen.variant.defaults, view.dealer)
    t = view.trump.index
    hand.trump = t
    hand.active = view.players + 1  # the trick never completes here
    code = hand.code_of[t]
    plays = [*view.trick.plays, *([(seen.me, card)] if card is not None else [])]
    for seat, c in plays:
        k = code[c.index]
        hand.hand[seat] |= BIT[k]
        hand.play(seat, k)
    return hand.best_seat


def _above(seen: _Seen, card: int, suit: int, pool: int) -> list[int]:
    """Cards of ``pool`` in effective ``suit`` that rank with or above ``card`` in it
    (a twin ranks alike and beats it when played second)."""
    t = seen.view.trump
    assert t is not None
    power = seen.power[t.index][suit]
    p = power[card]
    return [c for c in bits(pool & SUIT_MASK[t.index][suit]) if c != card and power[c] >= p]


def _uncovers(seen: _Seen, card: Card) -> bool:
    """Whether ``card`` lies face up on a face-down card of the viewer's tableau."""
    piles = seen.view.tableaus[seen.me] if seen.view.seat is not None else ()
    return any(p.up == card and p.face_down for p in piles)


def _play(seen: _Seen, card: Card) -> str:
    view = seen.view
    if view.trump is None:
        return "plays a card"
    why = _lead(seen, card) if not view.trick.plays else _follow(seen, card)
    if _uncovers(seen, card):
        why += "; it also uncovers a face-down card of your tableau"
    return why


def _unseen(n: int, noun: str) -> str:
    """``with one higher heart unseen``."""
    return f"with {_count(n, 'higher ' + noun)} unseen"


def _lead(seen: _Seen, card: Card) -> str:
    """RULES.md "Following": the leader may lead any card; the rest must follow it."""
    view = seen.view
    assert view.trump is not None
    t = view.trump.index
    c = card.index
    suit = _esuit(t, c)
    playable = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
    partners, known = _sides(seen)
    if suit == t:
        name = seen.role(c, t)
        threats = _above(seen, c, t, seen.others)
        if not threats:
            if _above(seen, c, t, seen.mine):
                return f"leads {name or 'a trump'} to draw trump: nobody else can beat it"
            if name:
                return f"leads {name}, the highest trump left, to draw trump"
            return "leads the highest trump left, to draw trump"
        if all(_esuit(t, x) == t for x in playable):
            return "leads trump: every card you can play is a trump"
        unseen = _unseen(len(threats), "trump")
        maker = view.maker
        if maker is not None and (maker == seen.me or maker in partners) and known:
            return f"leads {name or 'trump'} to draw the defenders' trumps, {unseen}"
        return f"leads {name or 'trump'} to draw the others' trumps, {unseen}"
    noun = SUITS[suit].noun
    threats = _above(seen, c, suit, seen.others)
    if not threats:
        if _above(seen, c, suit, seen.mine):
            return f"leads a {_singular(SUITS[suit])} nobody else can top: it wins unless trumped"
        return f"leads the highest {_singular(SUITS[suit])} left: it wins unless trumped"
    in_suit = [x for x in playable if _esuit(t, x) == suit]
    trumps = [x for x in playable if _esuit(t, x) == t]
    if len(in_suit) == 1 and trumps:
        return f"leads your only {_singular(SUITS[suit])}: with none left you can trump {noun}"
    power = seen.power[t][suit]
    if len(in_suit) > 1 and power[c] == min(power[x] for x in in_suit):
        return f"leads low in {noun}, keeping your higher {noun}"
    one = _singular(SUITS[suit])
    if len(threats) == 1:
        return f"leads a high {one}, {_unseen(1, one)}"
    return f"leads a {one}, {_unseen(len(threats), one)}"


def _follow(seen: _Seen, card: Card) -> str:
    """RULES.md "Following" and "Trick winner", the holder of the trick by the core."""
    view = seen.view
    assert view.trump is not None
    t = view.trump.index
    c = card.index
    plays = view.trick.plays
    led = _esuit(t, plays[0][1].index)
    led_noun = SUITS[led].noun
    power = seen.power[t][led]
    holder = _holder_after(seen, None)
    best = next(pc for s, pc in plays if s == holder)
    best_name = seen.card(best)
    wins = _holder_after(seen, card) == seen.me
    playable = [a.card for a in view.legal_actions if isinstance(a, Play)]
    winners = [x for x in playable if (wins if x == card else _holder_after(seen, x) == seen.me)]
    follows = _esuit(t, c) == led
    trumps = _esuit(t, c) == t
    partners, known = _sides(seen)
    active = view.players - len(view.out)
    after = active - len(plays) - 1
    lowest = power[c] == min(power[x.index] for x in playable)
    off = [x for x in playable if _esuit(t, x.index) not in (t, led)]
    lowest_off = (
        not follows
        and not trumps
        and len(off) > 1
        and RANK_INDEX[c] == min(RANK_INDEX[x.index] for x in off)
    )

    if holder in partners:
        if wins:
            if after:
                return (
                    "takes the trick over from your partner, so the players after you must beat it"
                )
            return "takes the trick over from your partner"
        if follows:
            if lowest:
                return "plays low: the trick is your partner's"
            return "follows suit under your partner, who holds the trick"
        if trumps:
            return f"plays a trump under {best_name}: the trick is your partner's"
        if lowest_off:
            return "throws off your lowest card: the trick is your partner's"
        return f"throws off a {_singular(SUITS[_esuit(t, c)])}: the trick is your partner's"

    whose = " from an opponent" if known and holder != seen.me else ""
    if wins:
        cheapest = min(power[x.index] for x in winners) == power[c]
        if follows:
            if not after:
                if cheapest and len(winners) > 1:
                    return (
                        f"takes the trick{whose} with the lowest card that wins it: you play last"
                    )
                return f"takes the trick{whose}: you play last"
            beaten = _above(seen, c, led, seen.others) or (
                led != t and seen.others & SUIT_MASK[t][t] & seen.pack
            )
            if not beaten:
                return f"takes the trick{whose} with a card nobody after you can beat"
            if cheapest:
                return f"takes the trick{whose} with the lowest card that wins it"
            return f"takes the trick{whose} with a high card: the players after you must beat it"
        verb = "overtrumps" if _esuit(t, best.index) == t else "trumps in"
        cheap = ", with the lowest trump that wins" if cheapest and len(winners) > 1 else ""
        return f"{verb}{cheap}: you have no {led_noun}"
    if follows:
        if not winners:
            low = " low" if lowest else ""
            return f"follows suit{low}: nothing you hold beats {best_name}"
        under = "low" if lowest else f"under {best_name}"
        return f"plays {under}, keeping your higher {led_noun} for later"
    if trumps:
        return f"plays a trump, but {best_name} is higher"
    throws = "throws off your lowest card" if lowest_off else "throws off"
    held = [x for x in playable if _esuit(t, x.index) == t]
    if any(x in winners for x in held):
        return f"{throws} instead of trumping, keeping your trumps"
    if held:
        return f"{throws}: your trumps can't beat {best_name}"
    if led == t:
        return f"{throws}: you have no trump"
    return f"{throws}: you have no {led_noun} and no trump"


# --- discards and gifts ----------------------------------------------------------------


def _discard(seen: _Seen, card: Card) -> str:
    """RULES.md §1, §3 (the dealer's), §6 (a loner's), §7 (the Auction maker's)."""
    view = seen.view
    if view.trump is None:
        return "discards a card"
    t = view.trump.index
    c = card.index
    suit = _esuit(t, c)
    hand = bits(seen.hand)
    if suit == t:
        if all(_esuit(t, x) == t for x in hand):
            return "discards a trump: every card you hold is trump"
        return "discards a trump, keeping your other cards"
    noun = SUITS[suit].noun
    in_suit = [x for x in bits(seen.mine) if _esuit(t, x) == suit]
    holds_trump = any(_esuit(t, x) == t for x in bits(seen.mine))
    if len(in_suit) == 1 and holds_trump:
        return (
            f"discards your only {_singular(SUITS[suit])}: with no {noun} left you can trump them"
        )
    plain = [x for x in hand if _esuit(t, x) != t]
    if RANK_INDEX[c] == min(RANK_INDEX[x] for x in plain):
        return "discards your lowest card, keeping your trumps and high cards"
    if RANK_INDEX[c] == min(RANK_INDEX[x] for x in in_suit):
        return f"discards a low {_singular(SUITS[suit])}, keeping your higher {noun}"
    if RANK_INDEX[c] == _ACE:
        return "discards an ace, keeping your other cards"
    return f"discards a {_singular(SUITS[suit])}, keeping your better cards"


def _give(seen: _Seen, card: Card) -> str:
    """RULES.md §6: the partner asked chooses the card the loner gets."""
    view = seen.view
    if view.trump is None:
        return "gives the loner a card"
    t = view.trump.index
    c = card.index
    hand = bits(seen.hand)
    trumps = [x for x in hand if _esuit(t, x) == t]
    power = seen.power[t][t]
    if _esuit(t, c) == t:
        if power[c] == max(power[x] for x in trumps):
            return "gives the loner your highest trump: it plays for your side"
        return "gives the loner a trump, for your side"
    if trumps:
        what = "an off-suit ace" if RANK_INDEX[c] == _ACE else "a card outside trump"
        return f"gives the loner {what}, though you hold a trump"
    if RANK_INDEX[c] == max(RANK_INDEX[x] for x in hand):
        return "gives the loner your best card: you hold no trump"
    return "gives the loner a card: you hold no trump"


# --- bidding -------------------------------------------------------------------------


def _cards_for(seen: _Seen, pick_up: bool) -> int:
    """The cards the viewer would play with: hand and face-up tableau, and the up-card
    when the viewer is the dealer who adds it (RULES.md §1, §3)."""
    view = seen.view
    mine = seen.mine
    if pick_up and view.up_card is not None and view.seat == view.dealer:
        mine |= 1 << view.up_card.index
    return mine


def _holding(seen: _Seen, mine: int, trump: int) -> str:
    """What ``mine`` holds if ``trump`` is trump: ``three trumps with the Left Bower,
    plus an off-suit ace``; ``two trumps and no bower``; ``one trump, the Right Bower``."""
    power = seen.power[trump][trump]
    trumps = sorted((c for c in bits(mine) if _esuit(trump, c) == trump), key=lambda c: -power[c])
    named: list[str] = []
    for c in trumps:
        name = seen.role(c, trump)
        if name is not None and named and named[-1] == name:
            named[-1] = f"both {name.removeprefix('the ')}s"  # twin bowers (RULES.md §6)
        elif name is not None:
            named.append(name)
    n = len(trumps)
    aces = sum(1 for c in bits(mine) if RANK_INDEX[c] == _ACE and _esuit(trump, c) != trump)
    ace_words = "an off-suit ace" if aces == 1 else f"{_number(aces)} off-suit aces"
    if not n:
        return f"no trump but {ace_words}" if aces else "no trump"
    if not named:
        part = f"{_count(n, 'trump')} and no bower"
    else:
        names = named[:3]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        part = f"one trump, {listed}" if n == 1 else f"{_count(n, 'trump')} with {listed}"
    return f"{part}, plus {ace_words}" if aces else part


def _at_best(seen: _Seen, mine: int, trump: int) -> str:
    """``at best, in hearts: two trumps and no bower``."""
    return f"at best, in {SUITS[trump].noun}: {_holding(seen, mine, trump)}"


def _strength(seen: _Seen, mine: int, trump: int) -> tuple[int, int]:
    """How a suit ranks as trump for these words: trumps held, then their best power."""
    power = seen.power[trump][trump]
    trumps = [c for c in bits(mine) if _esuit(trump, c) == trump]
    return len(trumps), max((power[c] for c in trumps), default=0)


def _weak(seen: _Seen, mine: int, trump: int) -> bool:
    """Too few trumps to call it a hand: under a third of the cards, or under half
    without a joker or a bower among them."""
    trumps = [c for c in bits(mine) if _esuit(trump, c) == trump]
    cards = mine.bit_count() or 1
    top = any(seen.role(c, trump) for c in trumps)
    return 3 * len(trumps) < cards or (not top and 2 * len(trumps) < cards)


def _best_of(seen: _Seen, mine: int, suits: Sequence[int]) -> tuple[int, bool]:
    """The strongest of ``suits`` for ``mine`` and whether it is strictly the strongest."""
    ranked = sorted(suits, key=lambda s: _strength(seen, mine, s), reverse=True)
    strict = len(ranked) == 1 or _strength(seen, mine, ranked[0]) > _strength(seen, mine, ranked[1])
    return ranked[0], strict


def _strongest(seen: _Seen, mine: int, suit: int, suits: Sequence[int]) -> str:
    """``, your strongest suit`` when ``suit`` is strictly the best of ``suits``."""
    best, strict = _best_of(seen, mine, suits)
    return ", your strongest suit" if best == suit and strict and len(suits) > 1 else ""


def _dealer_words(seen: _Seen) -> str:
    """Round 1 (RULES.md §3): who adds the up-card if the viewer orders it up."""
    view = seen.view
    if view.up_card is None or view.seat == view.dealer:
        return ""
    up = seen.card(view.up_card)
    partners, known = _sides(seen)
    if view.dealer in partners:
        return f"; your partner adds {up}"
    if known:
        return f"; the dealer, an opponent, adds {up}"
    return f"; the dealer adds {up}"


def _bid1(seen: _Seen, action: Action) -> str:
    """RULES.md §3 round 1, §1 and §6 with a Ben turned up, §4 turning it down."""
    view = seen.view
    suit = view.bid_suit
    named = getattr(action, "suit", None)
    mine = _cards_for(seen, pick_up=True)
    if isinstance(action, OrderUp | TakeUp):
        target = named if named is not None else suit
        if target is None:
            return "makes trump"
        t = target.index
        holding = _holding(seen, mine, t)
        if named is not None:
            best = _strongest(seen, mine, t, range(4))
            return f"makes {target.noun} trump{best}: {holding}"
        if isinstance(action, TakeUp):
            return f"takes it up: with the up-card you hold {holding}"
        return f"orders up: {holding}{_dealer_words(seen)}"
    if isinstance(action, TurnDown):
        if suit is None:
            return "goes alone"
        return f"goes alone in {suit.noun}: {_holding_alone(seen, suit.index)}"
    # A pass.
    if suit is None:
        t, _ = _best_of(seen, mine, range(4))
        return f"passes ({_at_best(seen, mine, t)})"
    t = suit.index
    holding = _holding(seen, mine, t)
    if _weak(seen, mine, t):
        return f"passes: too weak to make {suit.noun} trump ({holding})"
    return f"passes rather than make {suit.noun} trump ({holding}){_dealer_words(seen)}"


def _bid2(seen: _Seen, action: Action) -> str:
    """RULES.md §3 round 2: name another suit, or pass (the dealer may be stuck)."""
    view = seen.view
    mine = seen.mine
    allowed = [a.suit.index for a in view.legal_actions if isinstance(a, NameTrump)]
    if isinstance(action, NameTrump):
        t = action.suit.index
        holding = _holding(seen, mine, t)
        best = _strongest(seen, mine, t, allowed)
        stuck = not any(isinstance(a, Pass) for a in view.legal_actions)
        stuck_words = "; as the dealer you may not pass" if stuck else ""
        return f"names {action.suit.noun}{best}: {holding}{stuck_words}"
    if not allowed:
        return "passes"
    t, _ = _best_of(seen, mine, allowed)
    if _weak(seen, mine, t):
        return f"passes: too weak to name trump ({_at_best(seen, mine, t)})"
    return f"passes ({_at_best(seen, mine, t)})"


def _picks_up(seen: _Seen) -> bool:
    """Whether the viewer is a dealer still to add the up-card: trump was made in round 1
    and going alone comes first (RULES.md §3: unless their partner goes alone)."""
    view = seen.view
    return (
        view.seat == view.dealer
        and view.phase is Phase.GOING_ALONE
        and view.up_card is not None
        and not view.up_card_turned_down
        and view.up_card not in view.hand
        and view.up_card not in view.discards
        and view.seat not in view.out
    )


def _holding_alone(seen: _Seen, trump: int) -> str:
    """The hand for going alone in ``trump``, and what a march alone scores (RULES.md
    §3 Scoring and the variant's own)."""
    mine = _cards_for(seen, _picks_up(seen))
    words = _holding(seen, mine, trump)
    score = seen.variant.score_hand
    n = seen.variant.tricks
    alone, together = score(n, 0, True)[0], score(n, 0, False)[0]
    if alone > together:
        words += f"; a march alone scores {alone} instead of {together}"
    return words


def _alone(seen: _Seen, action: Action) -> str:
    """RULES.md §3 (the maker), §4 (anyone, a lone defender too) going alone."""
    view = seen.view
    if view.trump is None or view.maker is None:
        return "goes alone" if isinstance(action, GoAlone) else "plays with your partner"
    t = view.trump.index
    partners, _ = _sides(seen)
    maker_side = view.sides[view.maker] == view.sides[seen.me]
    them = "your partners" if len(partners) > 1 else "your partner"
    if maker_side:
        if isinstance(action, GoAlone):
            return f"goes alone: {_holding_alone(seen, t)}"
        holding = _holding(seen, _cards_for(seen, _picks_up(seen)), t)
        return f"keeps {them} in with {holding}: going alone pays only for taking every trick"
    score = seen.variant.score_hand
    n = seen.variant.tricks
    lone = score(0, n, False, True)[1]  # a march by the lone defender's side: a euchre
    together = score(0, n, False, False)[1]
    if isinstance(action, GoAlone):
        words = f"defends alone: {_holding(seen, seen.mine, t)}"
        if lone > together:
            words += f"; a euchre by a lone defender scores {lone} instead of {together}"
        return words
    return f"defends with {them}"


# --- the other decisions ---------------------------------------------------------------


def _call(seen: _Seen, action: Action) -> str:
    """RULES.md §7: Call-Ace's called suit or going alone, Auction's called card."""
    view = seen.view
    if view.trump is None:
        return "calls a partner"
    t = view.trump.index
    if isinstance(action, GoAlone):
        return f"goes alone: {_holding_alone(seen, t)}"
    if isinstance(action, CallSuit):
        s = action.suit.index
        power = seen.power[t][s]
        cards = bits(SUIT_MASK[t][s] & seen.pack)
        top = max(cards, key=lambda c: power[c])
        if seen.mine >> top & 1:
            what = ("trump", "trump") if s == t else (action.suit.noun, _singular(action.suit))
            return (
                f"calls {what[0]}: you hold the highest {what[1]}, so you play as your own partner"
            )
        if s == t:
            return "calls trump: whoever holds the highest trump dealt plays with you"
        return (
            f"calls {action.suit.noun}: you lack its highest card, so whoever holds the best "
            "one dealt plays with you"
        )
    if isinstance(action, CallCard):
        card = action.card
        c = card.index
        if card in view.discards:
            return "calls a card you discarded: you play without a partner"
        if _esuit(t, c) == t:
            power = seen.power[t][t]
            lacking = bits(SUIT_MASK[t][t] & seen.pack & ~seen.mine)
            if power[c] == max(power[x] for x in lacking):
                return "calls the highest trump you lack: whoever holds it plays with you"
            return "calls a trump you lack: whoever holds it plays with you"
        if RANK_INDEX[c] == _ACE:
            return "calls an ace you lack: whoever holds it plays with you"
        return "calls a card you lack: whoever holds it plays with you"
    return "calls a partner"


_LEVELS = {
    8: "alone after taking the widow: you must take all five tricks",
    15: "alone with the hand as dealt: you must take all five tricks",
}


def _auction(seen: _Seen, action: Action) -> str:
    """RULES.md §7 Auction: one bid each, naming trump, each higher than the last."""
    view = seen.view
    mine = seen.mine
    if isinstance(action, Bid):
        t = action.suit.index
        best = _strongest(seen, mine, t, range(4))
        level = action.level
        need = _LEVELS.get(level, f"you and the partner you call must take {_number(level)} tricks")
        return f"bids on {action.suit.noun}{best}: {_holding(seen, mine, t)}; {need}"
    t, _ = _best_of(seen, mine, range(4))
    best = _at_best(seen, mine, t)
    standing = next((a for _, a in reversed(view.bids) if isinstance(a, Bid)), None)
    if standing is not None:
        return f"passes rather than outbid the standing bid of {standing.level} ({best})"
    if _weak(seen, mine, t):
        return f"passes: too weak to bid ({best})"
    return f"passes ({best})"


def _blind(seen: _Seen) -> str:
    """RULES.md §4 and §6: the dealer names a suit for a turned-up Ben, unseen."""
    if seen.variant.ben_up == "dealer_names":
        return "names the suit to bid on before seeing your hand: every suit is an equal guess"
    return "names trump before seeing your hand: every suit is an equal guess"


# --- the API ---------------------------------------------------------------------------


def reason(view: PlayerView, action: Action, *, ascii_only: bool = False) -> str:
    """Why a player would take ``action`` now, in a player's words: a clause to follow
    the action's label, e.g. ``leads the Right Bower, the highest trump left, to draw
    trump``, ``takes the trick with the lowest card that wins it``, ``throws off your
    lowest card: the trick is your partner's``, ``trumps in: you have no hearts``,
    ``orders up: three trumps with the Left Bower``, ``passes: too weak to make hearts
    trump, with one trump and no bower``.

    What it says is true of the position ``view`` shows (who holds the trick is the
    core's own reading, :meth:`engine.core.HandState.play`), and it names only cards
    that view shows: the seat's hand and tableau, face-up tableau cards, cards
    played, the up-card. Every action of every variant has words, with a general one
    where nothing more is to say; it never raises. An action the view does not offer
    (or a spectator's view) has no words: ``""``.

    Args:
        view: the view of the seat to act.
        action: one of ``view.legal_actions``.
        ascii_only: cards in the notation (``10H``) instead of symbols (``10♥``).
    """
    if view.seat is None or action not in view.legal_actions:
        return ""
    seen = _Seen.of(view, ascii_only)
    phase = view.phase
    match action:
        case Play(card=card):
            return _play(seen, card)
        case Discard(card=card):
            return _discard(seen, card)
        case Give(card=card):
            return _give(seen, card)
        case CallSuit() | CallCard():
            return _call(seen, action)
        case GoAlone() if phase is Phase.CALLING:
            return _call(seen, action)
        case GoAlone() | Pass() if phase is Phase.GOING_ALONE:
            return _alone(seen, action)
        case Ask():
            return "asks a partner, who sits out anyway, for a card: you then discard your weakest"
        case Pass() if phase is Phase.CARD_REQUEST:
            return "keeps your hand as it is"
        case Bid() | Pass() if phase is Phase.AUCTION:
            return _auction(seen, action)
        case NameTrump() if phase is Phase.BLIND_NAMING:
            return _blind(seen)
        case NameTrump() | Pass() if phase is Phase.BIDDING_2:
            return _bid2(seen, action)
        case OrderUp() | TakeUp() | TurnDown() | Pass() if phase is Phase.BIDDING_1:
            return _bid1(seen, action)
    return "is one of the choices"


_CLEAR = 0.7
"""A share of the search at least this large, :data:`_CLEAR_LEAD` ahead of the next
choice's, is a clear choice."""
_CLEAR_LEAD = 0.4
_FAIR = 0.2
"""A lead over the next choice at least this large is a fair margin."""
_NARROW = 0.08
"""A lead over the next choice at least this large is narrow; below it, a close call."""


def certainty(
    shares: Mapping[int, float], chosen: int, labels: Mapping[int, str] | None = None
) -> str:
    """How sure the hard computer is of ``chosen``, in words rather than a percentage.

    ``shares`` is its search's share of each action id (``SearchPlayer.last_shares``:
    visits in play, deals on which the choice did best in bidding). From the lead of
    ``chosen`` over the next best choice: ``a clear choice``, ``the best choice by a
    fair margin``, ``a narrow choice: Pass came close``, ``a close call: Play 10♥ did
    about as well`` (the runners-up named when ``labels``, by action id, are given).
    Empty ``shares`` (no search ran: the hard level decides that choice by the normal
    level's rule of thumb, as in Auction's bidding) says so.
    """
    if not shares:
        return "a rule of thumb: the hard computer decides this by rule, without thinking ahead"
    mine = shares.get(chosen, 0.0)
    others = sorted(
        ((share, action) for action, share in shares.items() if action != chosen),
        key=lambda o: (-o[0], o[1]),
    )
    if not others:
        return "a clear choice"
    lead = round(mine - others[0][0], 9)  # 0.6 - 0.4 is a fair margin, not 0.19999...
    if mine >= _CLEAR and lead >= _CLEAR_LEAD:
        return "a clear choice"
    if lead >= _FAIR:
        return "the best choice by a fair margin"

    def named(close: list[int]) -> str:
        words = [labels[a] for a in close if labels is not None and a in labels]
        if not words:
            return ""
        if len(words) > 2:
            more = len(words) - 2
            words = [*words[:2], f"{_number(more)} more"]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

    if lead >= _NARROW:
        runner = named([others[0][1]])
        return f"a narrow choice: {runner} came close" if runner else "a narrow choice"
    close = [action for share, action in others if round(mine - share, 9) < _NARROW]
    rivals = named(close)
    if not rivals:
        return "a close call"
    return f"a close call: {rivals} did about as well"


def hint_text(
    label: str, why: str, sure: str, *, markdown: bool = True, ascii_only: bool = False
) -> str:
    """The hint line: ``💡 **Hint:** Play J♥ — leads the Right Bower, the highest trump
    left, to draw trump. A clear choice.``

    Args:
        label: the action's label as the player sees it (a button's, a menu entry).
        why: :func:`reason`'s clause (may be empty).
        sure: :func:`certainty`'s words (may be empty).
        markdown: Discord's bold ``**Hint:**``; a terminal takes plain text.
        ascii_only: no emoji and no dash outside ASCII, for a terminal without them.
    """
    head = "Hint:" if ascii_only else "💡 Hint:"
    if markdown:
        head = head.replace("Hint:", "**Hint:**")
    line = f"{head} {label}"
    if why:
        line += (" - " if ascii_only else " — ") + why
    line += "."
    if sure:
        line += f" {sure[0].upper()}{sure[1:]}."
    return line
