"""Our side's choices in a cross-play recording, replayed against their alternatives.

Usage::

    python -m bench.crossplay --level hard --setting a.iterations=1000 --hands 2000 \\
        --record hands.jsonl
    python -m bench.choices hands.jsonl

Each hand of a ``bench/crossplay.py --record`` file (four-hand Euchre, RULES.md §3,
stick the dealer) is dealt again from its seed and replayed. A choice is judged by
the hand's double-dummy worth from the first lead (:func:`bench.crossplay.double_dummy`:
our points minus theirs had both sides then played seeing every hand), as played and
with the other choice. Printed:

- **Round-1 passes**, by our seat counted from the dealer: each against ordering up
  (or taking up) instead. After that bid the rest of the bidding and the dealer's
  discard are the normal level's and no one goes alone; as played, they are the
  recording's. Each seat's passes are also split by the trumps held in the up-card's
  suit, and by whether the other side then made trump alone.
- **Opening leads** of our side, by the leader's part (maker, maker's partner,
  defender), the round trump was made in and the trumps held: the card led against
  simple rules (the highest or lowest trump, an off-suit Ace, the highest off-suit
  card; a rule with no such card falls back to the card led) and against the best
  card seen with every hand shown.

It tells a systematic error in a bid or a lead from what the hidden cards cost
(docs/ai.md, "Hard's choices against their alternatives"). ISMCTS is not needed: the
replay knows every card, and normal stands in for the bidders after a changed bid.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.crossplay import CONTRACT_SEATS, double_dummy, from_dealer
from engine.actions import ACTIONS, Action, GoAlone, OrderUp, Pass, Play, TakeUp
from engine.cards import EFFECTIVE_SUIT, Card, Rank, trump_order
from engine.game import Game
from engine.players import Player, make_player
from engine.view import Phase


@dataclass(frozen=True, slots=True)
class Hand:
    """One recorded hand: the game seed that deals it, our side, every action after the deal."""

    seed: int
    our_side: int
    actions: tuple[Action, ...]


def read(path: Path) -> list[Hand]:
    """The hands of a ``--record`` file (:func:`bench.crossplay.record_line`), in order.

    Raises:
        ValueError: a line that is not such a hand.
    """
    hands = []
    for line in path.read_text().splitlines():
        if line.strip():
            data = json.loads(line)
            actions = tuple(ACTIONS[i] for i in data["actions"])
            hands.append(Hand(int(data["seed"]), int(data["our_side"]), actions))
    return hands


def deal(hand: Hand) -> Game:
    """``hand``'s game, dealt and not yet bid on."""
    game = Game("euchre", seed=hand.seed, stick_the_dealer=True)
    game.deal()
    return game


def _bid_out(game: Game, actions: Iterator[Action]) -> None:
    """Apply recorded actions until the play begins."""
    while game.phase is not Phase.PLAY:
        seat = game.turn
        assert seat is not None
        game.apply(seat, next(actions))


def _normal_out(game: Game, normal: Player) -> None:
    """Finish the bidding by ``normal``, no one going alone, until the play begins."""
    while game.phase is not Phase.PLAY:
        seat = game.turn
        assert seat is not None
        legal = game.legal_actions(seat)
        if game.phase is Phase.GOING_ALONE:
            action = next(a for a in legal if not isinstance(a, GoAlone))
        else:
            action = normal.choose(game.view(seat), legal)
        game.apply(seat, action)


def _trumps(cards: Iterable[Card], trump: int) -> list[Card]:
    return [c for c in cards if EFFECTIVE_SUIT[trump][c.index] == trump]


@dataclass(frozen=True, slots=True)
class Pass1:
    """A round-1 pass of ours: the seat from the dealer (1..4, :data:`CONTRACT_SEATS`), the
    trumps it held in the up-card's suit, whether the other side then made trump alone,
    and the hand's double-dummy worth as played and with a bid instead."""

    seat: int
    trumps: int
    their_loner: bool
    played: int
    bid: int


def passes(hand: Hand, normal: Player) -> list[Pass1]:
    """Every round-1 pass our side made in ``hand``, replayed with a bid instead."""
    game = deal(hand)
    played = game.copy()
    _bid_out(played, iter(hand.actions))
    side = played.variant.sides
    maker = played.maker
    assert maker is not None
    their_loner = side[maker] != hand.our_side and played.alone is not None
    as_played = double_dummy(played, hand.our_side)
    up = game.up_card
    assert up is not None and up.suit is not None
    found = []
    actions = iter(hand.actions)
    while game.phase is Phase.BIDDING_1:
        seat = game.turn
        assert seat is not None
        action = next(actions)
        if side[seat] == hand.our_side and isinstance(action, Pass):
            other = game.copy()
            bid = next(a for a in other.legal_actions(seat) if isinstance(a, OrderUp | TakeUp))
            other.apply(seat, bid)
            _normal_out(other, normal)
            held = len(_trumps(game.hand_of(seat), up.suit.index))
            at = from_dealer(seat, game.dealer)
            found.append(
                Pass1(at, held, their_loner, as_played, double_dummy(other, hand.our_side))
            )
        game.apply(seat, action)
    return found


RULES: dict[str, Callable[[list[Card], list[Card], list[Card]], Card | None]] = {
    "highest trump": lambda trumps, order, rest: min(trumps, key=order.index, default=None),
    "lowest trump": lambda trumps, order, rest: max(trumps, key=order.index, default=None),
    "an off-suit Ace": lambda trumps, order, rest: next(
        (c for c in rest if c.rank is Rank.ACE), None
    ),
    "highest off-suit": lambda trumps, order, rest: max(
        rest, key=lambda c: c.rank.index if c.rank else -1, default=None
    ),
}
"""Simple leading rules: ``(trumps held, trump's order high to low, other cards) -> card``
(``None``: the rule has no card to lead)."""


@dataclass(frozen=True, slots=True)
class Lead:
    """Our side's opening lead: the leader's part, round, trumps held; the double-dummy
    worth after the card led, after each of :data:`RULES`, and after the best card."""

    part: str
    bid_round: int
    trumps: int
    led: int
    rules: tuple[int, ...]
    best: int


def lead(hand: Hand) -> Lead | None:
    """``hand``'s opening lead, if our side made it, valued every way (:class:`Lead`)."""
    game = deal(hand)
    actions = iter(hand.actions)
    _bid_out(game, actions)
    leader = game.turn
    side = game.variant.sides
    if leader is None or side[leader] != hand.our_side:
        return None
    maker, trump = game.maker, game.trump
    assert maker is not None and trump is not None
    if side[maker] != hand.our_side:
        part = "defender"
    else:
        part = "maker" if leader == maker else "maker's partner"
    cards = list(game.hand_of(leader))
    worth = {}
    for card in cards:
        after = game.copy()
        after.apply(leader, Play(card))
        worth[card] = double_dummy(after, hand.our_side)
    led = next(actions)
    assert isinstance(led, Play)
    trumps = _trumps(cards, trump.index)
    rest = [c for c in cards if c not in trumps]
    order = trump_order(trump, game.variant.pack)
    chosen = [rule(trumps, order, rest) for rule in RULES.values()]
    bid_round = 1 if game.up_card is not None and game.up_card.suit == trump else 2
    return Lead(
        part,
        bid_round,
        len(trumps),
        worth[led.card],
        tuple(worth[c if c is not None else led.card] for c in chosen),
        max(worth.values()),
    )


def _mean(values: Iterable[int]) -> str:
    items = list(values)
    return f"{sum(items) / len(items):+.2f}"


def report(hands: list[Hand]) -> list[str]:
    """The printed report for ``hands`` (see the module docs)."""
    normal = make_player("normal", seed=1)
    found = [p for hand in hands for p in passes(hand, normal)]
    lines = [
        f"{len(hands)} hands; double-dummy worth from the first lead, our points minus theirs",
        "round-1 passes of ours: as played, with a bid instead (normal bids after; none alone)",
    ]
    for seat, name in enumerate(CONTRACT_SEATS, 1):
        mine = [p for p in found if p.seat == seat]
        groups: list[tuple[str, list[Pass1]]] = [(name, mine)]
        for held in sorted({p.trumps for p in mine}):
            groups.append(
                (f"  holding {held} of the up-card's suit", [p for p in mine if p.trumps == held])
            )
        groups.append(
            ("  the other side then made trump alone", [p for p in mine if p.their_loner])
        )
        for label, group in groups:
            if group:
                lines.append(
                    f"  {label:40s} {len(group):5d}: {_mean(p.played for p in group)} as played, "
                    f"{_mean(p.bid for p in group)} with a bid"
                )
    leads = [x for hand in hands if (x := lead(hand)) is not None]
    lines.append(
        "our opening leads: the card led, " + ", ".join(RULES) + ", the best seeing every hand"
    )
    keys = sorted({(x.part, x.bid_round, x.trumps) for x in leads})
    for label, group in [
        *(
            (
                f"{part}, round {r}, {t} trump{'' if t == 1 else 's'}",
                [x for x in leads if (x.part, x.bid_round, x.trumps) == (part, r, t)],
            )
            for part, r, t in keys
        ),
        ("all", leads),
    ]:
        figures = [_mean(x.led for x in group)]
        figures += [_mean(x.rules[i] for x in group) for i in range(len(RULES))]
        figures.append(_mean(x.best for x in group))
        lines.append(f"  {label:35s} {len(group):5d}: " + " ".join(figures))
    return lines


def main(argv: list[str] | None = None) -> None:
    """Read the recording named on the command line and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", type=Path, help="a file written by crossplay.py --record")
    args = parser.parse_args(argv)
    for line in report(read(args.record)):
        print(line)


if __name__ == "__main__":
    main()
