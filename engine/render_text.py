"""Plain-text rendering of views, actions and results for the terminal.

Presentation only: what is legal, who won a trick and what a hand scores all
come from the engine (a :class:`~engine.view.PlayerView`, its legal actions, a
:class:`~engine.view.HandResult`). The words of cards, actions, prompts and the
tableau come from :mod:`engine.wording`, which the Discord bot shares. Output is
plain text, no ANSI codes (the terminal colours it, :mod:`engine.cli`); cards use
suit symbols (``10♥``, ``🃏3``) unless ``ascii_only`` asks for the notation.

A tableau pile is drawn ``[face-up/face-down]``, three columns wide so that rows
line up: ``[ K♠/▮]`` a king over a face-down card, ``[ — /▮]`` its face-up card
played (the card beneath turns up once the trick is over), ``[ 9♦/ ]`` nothing
beneath, ``[ — / ]`` an empty pile.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from engine.actions import Action, Bid, Discard, Give, GoAlone, OrderUp, Play, TakeUp, TurnDown
from engine.cards import Card, Suit
from engine.rules_text import rules_text
from engine.variants import Variant
from engine.view import HandResult, Phase, PlayerView, Trick
from engine.wording import (
    NOBODY_SCORES,
    THROWN_IN,
    Wording,
    capital,
    computer_name,
    legend,
    pile_text,
    prompt,
    score_goal,
    score_text,
    scores,
    side_name,
    sort_cards,
    suit_groups,
    tableau_marks,
    tally,
    verdict,
    won_game,
)

__all__ = ["FullPile", "TextRenderer", "rules_page"]

FullPile = tuple[Card, Card]
"""A tableau pile with nothing hidden, ``(face-up, face-down)``: for watching and replays."""

_COMPASS = {
    2: ("South", "North"),
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
    6: ("South", "Southwest", "Northwest", "North", "Northeast", "Southeast"),
}
_LINE = 78  # the width menus wrap at, to fit an 80-column terminal


def _width(text: str) -> int:
    """Columns ``text`` takes on a terminal, where 🃏 is two columns wide."""
    return len(text) + text.count("🃏")


class TextRenderer:
    """Turns engine objects into text for one table of a variant.

    Args:
        variant: the game's variant (for seat names and the number of tricks).
        you: the seat of the person reading, named "You" (their partner "Partner",
            the other seat ``CPU 2`` in a two-player game, else by compass point);
            ``None`` names every seat by compass point, for watching and replays.
        ascii_only: show cards in the notation (``10H``, ``AS``, ``B3``) and use ASCII
            tableau marks, for terminals that cannot print suit symbols.
        names: each seat's name, instead of the compass points (the Discord bot's
            member and computer names); ``you`` then only orders side names.
    """

    def __init__(
        self,
        variant: Variant,
        *,
        you: int | None = None,
        ascii_only: bool = False,
        names: Sequence[str] | None = None,
    ):
        n = variant.players
        given = names
        # Six-hand's two partners keep their compass points: "Partner" would name both.
        partners = variant.sides.count(variant.sides[you]) - 1 if you is not None else 0
        names = list(given or _COMPASS.get(n, tuple(f"Seat {s + 1}" for s in range(n))))
        # Named seats (the Discord bot's members and computers) keep their names.
        if you is not None and given is None:
            for seat in range(n):
                if seat == you:
                    names[seat] = "You"
                elif variant.sides[seat] == variant.sides[you] and partners == 1:
                    names[seat] = "Partner"
                elif n == 2:
                    names[seat] = computer_name(seat)
        self.variant = variant
        self.you = you
        self.ascii_only = ascii_only
        self.names: tuple[str, ...] = tuple(names)
        members: list[list[int]] = [[] for _ in range(max(variant.sides) + 1)]
        for seat, side in enumerate(variant.sides):
            members[side].append(seat)
        # The reader's own seat comes first in their side's name: "You & Partner".
        for seats in members:
            seats.sort(key=lambda s: (s != you, s))
        self.side_names: tuple[str, ...] = tuple(
            side_name([self.names[s] for s in seats]) for seats in members
        )
        self._plural_side = tuple(len(seats) > 1 or you in seats for seats in members)
        self.words = Wording(variant, self.names, you, ascii_only)

    # --- words -------------------------------------------------------------------------

    def card(self, card: Card) -> str:
        """One card: ``10♥``, ``🃏3`` (``10H``, ``B3`` when ASCII only)."""
        return self.words.card(card)

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces, or ``(none)``."""
        return " ".join(self.card(c) for c in cards) or "(none)"

    def suit(self, suit: Suit) -> str:
        """A suit as ``♥ hearts`` (``hearts`` when ASCII only)."""
        return self.words.suit(suit)

    def hand(self, cards: Iterable[Card], trump: Suit | None) -> str:
        """A hand grouped by the suit each card follows, trump first once made:
        ``🃏1 J♥ J♦ A♥ (trump) | A♠ 9♠ | K♣`` (the bowers and Bens in trump)."""
        groups = suit_groups(cards, trump, self.variant.twins)
        return (
            " | ".join(
                self.cards(group) + (" (trump)" if trump is not None and suit is trump else "")
                for suit, group in groups
            )
            or "(none)"
        )

    def legend(self) -> str:
        """What each symbol of this table means, one line each, under a heading."""
        lines = ["Symbols:"]
        for line in legend(self.variant, self.ascii_only):
            lines += textwrap.wrap(line, _LINE, initial_indent="  ", subsequent_indent="    ")
        return "\n".join(lines)

    def thinking(self, seat: int) -> str:
        """The line shown while a computer decides."""
        return f"{self.names[seat]} is thinking" + ("..." if self.ascii_only else "…")

    def _does(self, seat: int, third_person: str, base: str) -> str:
        """``"You play"`` / ``"Computer plays"``: the seat's name with its verb."""
        return f"{self.names[seat]} {base if seat == self.you else third_person}"

    def _possessive(self, seat: int) -> str:
        return "Your" if seat == self.you else f"{self.names[seat]}'s"

    def _scores(self, scores: Sequence[int], goal: str = "") -> str:
        """One number per side, as every screen writes a score (:func:`score_text`):
        ``You: 4 · CPU 2: 2``, ``You: 4 · CPU 2: 2 (to 10)`` with ``goal``."""
        return score_text(scores, self.side_names, goal, ascii_only=self.ascii_only)

    def _tricks(self, per_seat: Sequence[int]) -> str:
        """Tricks won by each side, as the score is written: ``You & CPU 3: 3 · CPU 2 &
        CPU 4: 1``."""
        won = [0] * len(self.side_names)
        for seat, tricks in enumerate(per_seat):
            won[self.variant.sides[seat]] += tricks
        return self._scores(won)

    # --- the table ---------------------------------------------------------------------

    def pile(self, up: Card | None, down: Card | bool) -> str:
        """One tableau pile; ``down`` is the hidden card (full view) or whether there is one."""
        return pile_text(up, down, ascii_only=self.ascii_only, pad=True)

    def screen(self, view: PlayerView) -> str:
        """Everything the viewer may see, as the screen shown before they choose."""
        assert view.seat is not None
        lines = [
            f"--- Hand {view.hand_no} of {self.variant.title}: "
            f"{self._does(view.dealer, 'deals', 'deal')} ---",
            f"Score: {self._scores(view.scores, score_goal(view, self.variant))}",
            f"{self._up_card(view)}   Trump: {self._trump(view)}",
        ]
        if view.phase is Phase.PLAY:
            played = len(view.tricks)
            left = self.variant.tricks - played
            lines.append(f"Tricks won: {self._tricks(view.tricks_won)} ({left} still to play)")
        lines.append("")
        lines += self._tableaus(view)
        others = [s for s in range(view.players) if s != view.seat and s not in view.out]
        sizes = tally(
            [view.hand_sizes[s] for s in others],
            [self.names[s] for s in others],
            ascii_only=self.ascii_only,
        )
        lines.append(f"Cards in hand: {sizes}")
        for seat in view.out:
            lines.append(f"{self._does(seat, 'sits', 'sit')} out this hand.")
        lines += self._family_lines(view)
        if view.blind:
            lines.append("Your hand: (unseen: you name trump before looking at it)")
        else:
            lines.append(f"Your hand: {self.hand(view.hand, view.trump)}")
        if view.discards:
            lines.append(f"Your discard: {self.cards(view.discards)}")
        lines.append("")
        lines.append(self._now(view, prompt(view, self.variant)))
        return "\n".join(lines)

    def forced(self, view: PlayerView, action: Action) -> str:
        """The line that replaces the screen when ``action`` is the viewer's only choice."""
        label = self.menu_label(view, action)
        return self._now(view, f"your only choice is made for you: {label}.")

    def _family_lines(self, view: PlayerView) -> list[str]:
        """RULES.md §4–§7 state: a lone defender, the bid, the call, the pool."""
        lines = []
        if view.lone_defender is not None:
            lines.append(f"{self.words.defends_alone(view.lone_defender)}.")
        named = view.bid_suit is not None and view.up_card is not None and view.up_card.is_ben
        if named and view.trump is None:
            lines.append(f"The dealer named {self.suit(view.bid_suit)} for the Ben.")  # type: ignore[arg-type]
        bids = [(seat, a) for seat, a in view.bids if isinstance(a, Bid)]
        if bids:  # RULES.md §7 Auction: trump is made only when the bidding closes
            seat, bid = bids[-1]
            standing = "Bid standing" if view.phase is Phase.AUCTION else "Bid"
            lines.append(f"{standing}: {bid.level} in {self.suit(bid.suit)} by {self.names[seat]}.")
        if view.called_suit is not None:
            lines.append(
                f"Called: {self.suit(view.called_suit)} (the best card's holder is the "
                "maker's secret partner)."
            )
        if view.called_card is not None:
            lines.append(f"Called: {self.card(view.called_card)} (its holder is the partner).")
        if self.variant.chips:
            lines.append(f"Pool: {view.pool} chips.")
        return lines

    def _up_card(self, view: PlayerView) -> str:
        if view.up_card is None:
            return f"Widow: {view.widow} cards face down" if view.widow else "Widow: taken"
        turned = " (turned down)" if view.up_card_turned_down else ""
        return f"Up-card: {self.card(view.up_card)}{turned}"

    def _trump(self, view: PlayerView) -> str:
        if view.trump is not None and view.maker is None:
            return self.suit(view.trump)  # Jackpot: the turned suit
        if view.trump is None or view.maker is None:
            return "not made yet"
        return f"{self.suit(view.trump)}, {self.words.made_by(view.maker, view.bid, view.alone)}"

    def _tableaus(self, view: PlayerView) -> list[str]:
        if not any(view.tableaus):
            return []
        # The reader's own tableau last, next to their hand.
        seats = sorted(range(view.players), key=lambda s: (s == view.seat, s))
        width = max(len(self.names[s]) for s in seats)
        lines = [
            f"{self.names[s].ljust(width)}  "
            + " ".join(self.pile(p.up, p.face_down) for p in view.tableaus[s])
            for s in seats
        ]
        down, gone = tableau_marks(self.ascii_only)
        key = f"(tableau piles: [face-up/{down} face-down]; {gone} its face-up card played)"
        lines.append(f"{''.ljust(width)}  {key}")
        return lines

    def _now(self, view: PlayerView, then: str) -> str:
        """Where the hand stands (the trick so far, or the bidding round), then ``then``."""
        if view.phase is not Phase.PLAY:
            return f"{view.phase.value.capitalize()}: {then}"
        number = len(view.tricks) + 1
        if not view.trick.plays:
            return f"Trick {number}: {then}"
        return f"Trick {number}: {self._plays(view.trick)}; {then}"

    def _plays(self, trick: Trick, tableau: frozenset[Card] = frozenset()) -> str:
        parts = []
        for i, (seat, card) in enumerate(trick.plays):
            verb = "led" if i == 0 else "played"
            source = " (tableau)" if card in tableau else ""
            parts.append(f"{self.names[seat]} {verb} {self.card(card)}{source}")
        return ", ".join(parts)

    # --- choices -----------------------------------------------------------------------

    def action_label(self, view: PlayerView, action: Action) -> str:
        """The words of one of the viewer's legal actions, e.g. ``Play 10♥`` (the bot's too)."""
        return self.words.action_label(view, action)

    def menu_label(self, view: PlayerView, action: Action) -> str:
        """The menu entry of one of the viewer's legal actions: :meth:`action_label`, and
        where a card is played from when the viewer has a tableau (``Play 10♥ (hand)``)."""
        label = self.action_label(view, action)
        if not isinstance(action, Play) or view.seat is None or not view.tableaus[view.seat]:
            return label
        return label + (" (hand)" if action.card in view.hand else " (tableau)")

    def choices(self, view: PlayerView) -> list[Action]:
        """The viewer's legal actions in menu order: cards as the hand shows them (trump
        first, high to low), other actions in the engine's order."""
        cards = {a.card: a for a in view.legal_actions if isinstance(a, Play | Discard | Give)}
        if len(cards) < len(view.legal_actions):
            return list(view.legal_actions)
        return [cards[c] for c in sort_cards(cards, view.trump, self.variant.twins)]

    def menu(self, view: PlayerView) -> str:
        """The numbered legal actions (:meth:`choices`) in aligned columns:
        ``1) Pass   2) Order it up``."""
        entries = [f"{i}) {self.menu_label(view, a)}" for i, a in enumerate(self.choices(view), 1)]
        column = max(_width(e) for e in entries) + 3
        per_line = max(1, (_LINE + 3) // column)
        lines = []
        for start in range(0, len(entries), per_line):
            row = entries[start : start + per_line]
            padded = [e + " " * (column - _width(e)) for e in row[:-1]]
            lines.append("".join(padded) + row[-1])
        return "\n".join(lines)

    def input_help(self, view: PlayerView) -> str:
        """How to answer the prompt, with examples taken from the legal actions."""
        examples = " or ".join(f"'{a}'" for a in self.choices(view)[:2])
        return (
            f"Type a number from 1 to {len(view.legal_actions)}, or the action itself, "
            f"e.g. {examples}\n(a card may be written 10h or TH). 'hint' shows what the hard "
            "computer would do and why; 'quit' stops the game."
        )

    # --- what happened -----------------------------------------------------------------

    def hand_start(self, view: PlayerView) -> str:
        """The line announcing a new deal (public information only)."""
        deals = self._does(view.dealer, "deals", "deal")
        if view.up_card is None:
            return (
                f"\n=== Hand {view.hand_no}: {deals}. A widow of {view.widow} lies face down. ==="
            )
        return f"\n=== Hand {view.hand_no}: {deals}. Up-card: {self.card(view.up_card)}. ==="

    def full_deal(
        self,
        view: PlayerView,
        hands: Sequence[Sequence[Card]],
        tableaus: Sequence[Sequence[FullPile]],
    ) -> str:
        """A deal with every hand and every face-down card shown (watching and replays only)."""
        lines = [self.hand_start(view)]
        width = max(len(n) for n in self.names)
        for seat in range(len(hands)):
            name = self.names[seat].ljust(width)
            lines.append(f"{name}  hand     {self.hand(hands[seat], view.trump)}")
            if tableaus[seat]:
                piles = " ".join(self.pile(up, down) for up, down in tableaus[seat])
                lines.append(f"{''.ljust(width)}  tableau  {piles}")
        return "\n".join(lines)

    def hides(self, seat: int, action: Action, after: PlayerView, *, reveal: bool) -> bool:
        """Whether the card of ``action`` is hidden from the reader: another seat's
        discard, or a gift between two other seats, unless ``reveal`` (watching)."""
        return not reveal and (
            (isinstance(action, Discard) and seat != self.you)
            or (isinstance(action, Give) and self.you not in (seat, after.turn))
        )

    def action_line(
        self,
        before: PlayerView,
        seat: int,
        action: Action,
        after: PlayerView,
        *,
        reveal: bool,
        discards: int = 1,
    ) -> str:
        """One action as it happens: ``Computer plays A♠.``.

        ``before`` and ``after`` are views from just before and after the action;
        a discard is named only when ``reveal`` is set or the reader made it.
        ``discards``: a hidden discard that ends a run of this many (an Auction
        maker's 3 or 5, RULES.md §7), told once: ``Seat 5 discards 3 cards.``.
        """
        hidden = self.hides(seat, action, after, reveal=reveal)
        if hidden and isinstance(action, Discard) and discards > 1:
            return f"{self._does(seat, 'discards', 'discard')} {discards} cards."
        line = self.words.narrate(seat, action, before.phase, hidden=hidden)
        match action:
            case OrderUp(suit=None) | TakeUp(suit=None) | TurnDown() if after.trump is not None:
                line += f": {self.suit(after.trump)} are trump"
            case Play(card=card) if card in before.face_up(seat):
                line += " from the tableau"
        if isinstance(action, GoAlone | TurnDown):
            out = [s for s in after.out if s not in before.out]
            line += "".join(f"; {self._does(s, 'sits', 'sit')} out" for s in out)
        return line + "."

    def trick_won(self, after: PlayerView) -> str:
        """The winner of the trick just completed, with the running trick count."""
        trick = after.tricks[-1]
        assert trick.winner is not None
        won = self._does(trick.winner, "wins", "win")
        return f"{won} the trick ({self._tricks(after.tricks_won)})."

    def trick_summary(self, after: PlayerView, from_tableau: frozenset[Card]) -> str:
        """The trick just completed on one line, for watching and replays."""
        trick = after.tricks[-1]
        assert trick.winner is not None
        return (
            f"Trick {len(after.tricks)}: {self._plays(trick, from_tableau)}"
            f" -> {self.names[trick.winner]} ({self._tricks(after.tricks_won)})"
        )

    def turned_up(self, before: PlayerView, after: PlayerView) -> list[str]:
        """The face-down tableau cards turned up between two views."""
        lines = []
        for seat, (old, new) in enumerate(zip(before.tableaus, after.tableaus, strict=True)):
            for was, now in zip(old, new, strict=True):
                if was.face_down and not now.face_down and now.up is not None:
                    owner = self._possessive(seat)
                    lines.append(f"{owner} face-down card turned up: {self.card(now.up)}.")
        return lines

    def hand_result(self, result: HandResult, target: int, tie_break: bool = False) -> str:
        """A finished hand: who made what, the tricks, the points and the score.

        ``tie_break``: Jackpot: the hand should have ended the game but left a tie for
        the most chips, so one more deal is played (RULES.md §7 ruling).
        """
        said = verdict(result, self.variant)
        outcome = f" {capital(said)}!" if said else ""
        if self.variant.chips:
            tie = " A tie for the most chips: one more deal." if tie_break else ""
            return (
                f"Hand {result.hand_no}: {self.suit(result.trump)} trump. Tricks: "
                f"{self._tricks(result.tricks)}.{outcome} Chips: {self._scores(result.scores)}; "
                f"pool {result.pool}.{tie}"
            )
        if result.maker is None or result.trump is None:
            return f"Hand {result.hand_no}: {THROWN_IN}."
        scored = " and ".join(
            f"{self.side_names[side]} {scores(p, plural=self._plural_side[side])}"
            for side, p in enumerate(result.points)
            if p
        )
        return (
            f"Hand {result.hand_no}: {self.words.made(result)}. "
            f"Tricks: {self._tricks(result.tricks)}.{outcome}\n"
            f"{scored or capital(NOBODY_SCORES)}. "
            f"Score: {self._scores(result.scores, f'to {target}')}."
        )

    def game_result(self, view: PlayerView) -> str:
        """The end of the game: the winning side and the final score."""
        assert view.winner is not None
        won = won_game(self.side_names[view.winner])
        final = self._scores(view.scores, score_goal(view, self.variant))
        return f"Game over: {won}. Final score: {final}."

    def unfinished(self, view: PlayerView) -> str:
        """The end of a record of a game that was stopped before its end."""
        return (
            f"\nThe record stops during hand {view.hand_no}, before the game's end. "
            f"Score: {self._scores(view.scores, score_goal(view, self.variant))}."
        )


def rules_page(variant: Variant, ascii_only: bool = False) -> str:
    """``variant``'s rules (:func:`engine.rules_text.rules_text`) for a terminal.

    Lines of at most 78 columns: a title, then each section after a blank line, its
    heading on the first line and its text below (no blank line inside a section).
    """
    lines = [f"{variant.title}: the rules"]
    for section in rules_text(variant, ascii_only):
        lines += ["", section.heading]
        for paragraph in section.text.split("\n"):
            indent = "  " if paragraph.startswith("- ") else ""
            lines += textwrap.wrap(paragraph, _LINE, subsequent_indent=indent)
    return "\n".join(lines)
