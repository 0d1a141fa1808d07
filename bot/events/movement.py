"""Movements: who sits where in each round, as functions of the rounds already seated.

Three tools, each deterministic given the event's seed (every tie is broken by a seeded
RNG, as the engine deals):

* :func:`seat_progressive`: an individual (progressive) round at tables of four. Two
  maximum-weight matchings (networkx's ``max_weight_matching``, Edmonds' blossom
  algorithm, the tool lichess's arena pairing uses too): first the partnerships, each
  repeated partnership costing more than anything else, so nobody partners the same
  person twice while this round can avoid it; then the tables, two partnerships each,
  computers spread one a table where they can be, then as few repeated opponents as
  can be.
* :func:`pair_swiss`: one round of a Swiss event (pairs, one-on-one), a weighted
  matching as well: no rematch (nor a second bye) while one can be avoided, then
  entries as close in the standings as can be.
* :func:`round_robin`: the circle method (Berger tables): every entry meets every other
  once in ``n - 1`` rounds, which a round-by-round Swiss matching can't promise.

``docs/events.md`` gives the sources; ``docs/rulings.md`` R31-R36 the choices made
where they are silent.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from bot.events.model import COMPUTERS, Entry, Fill, Round
from engine.game import SEED_LIMIT

__all__ = [
    "Meetings",
    "Seats",
    "deal_seed",
    "form_pairs",
    "lot",
    "orient",
    "pair_swiss",
    "round_robin",
    "seat_progressive",
]

Seats = tuple[int | None, ...]
"""A table's seats by seat number: a member's user id, or None for a computer."""


def deal_seed(seed: int, round_no: int, table: int = 0) -> int:
    """The game seed of table ``table`` in round ``round_no`` of the event seeded
    ``seed`` (``table`` 0: every table of a duplicate round, which deal alike)."""
    return random.Random(f"tuque-event:{seed}:{round_no}:{table}").randrange(SEED_LIMIT)


def lot(seed: int, member: int) -> float:
    """``member``'s draw in the event seeded ``seed``: who sits out first among equals,
    and the order pairs are drawn in. Each member's own, so a late sign-up changes
    nobody else's."""
    return random.Random(f"tuque-event:{seed}:lot:{member}").random()


def form_pairs(
    members: Sequence[int], seed: int, *, number: int = 1, first: int = 1
) -> tuple[Entry, ...]:
    """Fixed partnerships drawn by lot from ``members``: consecutive pairs in the draw's
    order, the odd member last with a computer partner. Numbered from ``number``, playing
    from round ``first``."""
    drawn = sorted(members, key=lambda m: lot(seed, m))
    pairs: list[tuple[int | None, ...]] = [tuple(drawn[i : i + 2]) for i in range(0, len(drawn), 2)]
    if pairs and len(pairs[-1]) == 1:
        pairs[-1] = (pairs[-1][0], None)
    return tuple(Entry(number + i, pair, first) for i, pair in enumerate(pairs))


@dataclass(frozen=True, slots=True)
class Meetings:
    """Who met whom in the rounds so far.

    Attributes:
        partners: times two members partnered, by ``frozenset({a, b})``.
        opponents: times two members sat on opposite sides of a table.
        computer_partners: times a member partnered a computer, by member.
        played: rounds a member was seated in, by member.
        met: times two entries met (side against side), by ``frozenset({e, f})``; a
            bye counts as meeting ``COMPUTERS``.
        first_side: times an entry played side 0 (North-South in duplicate).
    """

    partners: Counter[frozenset[int]]
    opponents: Counter[frozenset[int]]
    computer_partners: Counter[int]
    played: Counter[int]
    met: Counter[frozenset[int]]
    first_side: Counter[int]

    @classmethod
    def of(cls, rounds: Iterable[Round], byes: bool = False) -> Meetings:
        """The meetings of ``rounds``; ``byes``: their sit-outs are byes (Swiss)."""
        partners: Counter[frozenset[int]] = Counter()
        opponents: Counter[frozenset[int]] = Counter()
        computer_partners: Counter[int] = Counter()
        played: Counter[int] = Counter()
        met: Counter[frozenset[int]] = Counter()
        first_side: Counter[int] = Counter()
        for rnd in rounds:
            for s in rnd.seatings:
                seats = s.seats
                played.update(m for m in seats if m is not None)
                if len(seats) == 4:
                    for a, b in ((seats[0], seats[2]), (seats[1], seats[3])):
                        if a is not None and b is not None:
                            partners[frozenset((a, b))] += 1
                        elif a is not None:
                            computer_partners[a] += 1
                        elif b is not None:
                            computer_partners[b] += 1
                for a, b in _opposed(seats):
                    opponents[frozenset((a, b))] += 1
                sides = set(s.entries[0::2]), set(s.entries[1::2])
                if all(len(side) == 1 for side in sides):  # one entry a side: pairs, Swiss
                    (first,), (second,) = sides
                    met[frozenset((first, second))] += 1
                    first_side[first] += 1
            if byes:
                for e in rnd.sitting_out:
                    met[frozenset((e, COMPUTERS))] += 1
        return cls(partners, opponents, computer_partners, played, met, first_side)


def _opposed(seats: Seats) -> Iterable[tuple[int, int]]:
    """Every pair of members on opposite sides of a table."""
    for a in seats[0::2]:
        for b in seats[1::2]:
            if a is not None and b is not None:
                yield a, b


def seat_progressive(
    players: Sequence[int],
    history: Sequence[Round],
    *,
    round_no: int,
    fill: Fill,
    seed: int,
) -> tuple[tuple[Seats, ...], tuple[int, ...]]:
    """One progressive round: ``players`` (members' user ids, at least 4) at tables of
    four, after the rounds in ``history``.

    With ``Fill.SIT_OUT``, the count's remainder by four sits out: those who have played
    the most rounds, then by lot (:func:`lot`), so that the sit-out goes round before
    anyone sits out twice and a late sign-up sits out last. With ``Fill.COMPUTERS``,
    computers fill the last seats, each partnering a member.

    Then the partnerships: a maximum-weight matching of the players (and computers)
    that minimises the repeated partnerships of this round (a member partnering a
    computer again counts as one), so nobody partners anyone twice while this round
    can avoid it. Then the tables, a matching of the partnerships: computers at
    different tables where they can be, then as few repeated opponents as can be.

    Returns:
        the tables (seats by seat number, partners opposite: seats 0 and 2, 1 and 3; a
        computer is None), in table order; and the members who sit out.

    Raises:
        ValueError: fewer than 4 players, or a player twice.
    """
    if len(players) < 4 or len(set(players)) != len(players):
        raise ValueError("a progressive round seats 4 or more different players")
    rng = random.Random(f"tuque-event:{seed}:{round_no}:progressive")
    past = Meetings.of(history)
    out: tuple[int, ...] = ()
    computers = 0
    if fill is Fill.SIT_OUT:
        turn = sorted(players, key=lambda m: (-past.played[m], lot(seed, m)))
        out = tuple(sorted(turn[: len(players) % 4]))
    else:
        computers = -len(players) % 4
    playing = [m for m in players if m not in out]
    partnerships = _partnerships(playing, computers, past, rng)
    tables = _tables(partnerships, past, rng)
    return tuple(tuple(None if m < 0 else m for m in t) for t in tables), out


def _partnerships(
    playing: list[int], computers: int, past: Meetings, rng: random.Random
) -> list[tuple[int, int]]:
    """The round's partnerships; computers are the nodes -1, -2, -3 (never two together)."""
    nodes = sorted(playing) + [-(i + 1) for i in range(computers)]
    rng.shuffle(nodes)  # the order decides between equally good matchings: a seeded draw
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    base = 1 + sum(past.partners.values()) + sum(past.computer_partners.values())
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            if a < 0 and b < 0:
                continue
            if a < 0 or b < 0:
                repeats = past.computer_partners[max(a, b)]
            else:
                repeats = past.partners[frozenset((a, b))]
            graph.add_edge(a, b, weight=base - repeats)
    return _perfect(graph, len(nodes))


def _tables(
    partnerships: list[tuple[int, int]], past: Meetings, rng: random.Random
) -> list[tuple[int, int, int, int]]:
    """Two partnerships a table: computers apart first, then the fewest repeated opponents."""
    order = sorted(partnerships)
    rng.shuffle(order)
    repeats = sum(past.opponents.values())
    apart = 4 * repeats + 1  # a computer's second table outweighs every repeated opponent
    base = len(order) * apart + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(len(order)))
    for i, p in enumerate(order):
        for j in range(i + 1, len(order)):
            q = order[j]
            met = sum(past.opponents[frozenset((a, b))] for a in p for b in q if a > 0 < b)
            both = min(p) < 0 and min(q) < 0
            graph.add_edge(i, j, weight=base - apart * both - met)
    tables = []
    for i, j in _perfect(graph, len(order)):
        (a, c), (b, d) = order[i], order[j]
        tables.append((a, b, c, d))
    rng.shuffle(tables)
    return tables


def _perfect(graph: nx.Graph, nodes: int) -> list[tuple[int, int]]:
    """A maximum-weight perfect matching of ``graph``, each pair in the order the nodes
    were added (the seeded draw), sorted so that the answer does not depend on the
    order networkx returns a set in."""
    position = {node: n for n, node in enumerate(graph.nodes)}
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != nodes:
        raise ValueError("no seating seats everyone")
    pairs = (tuple(sorted(edge, key=position.__getitem__)) for edge in matching)
    return sorted(pairs, key=lambda pair: position[pair[0]])


def orient(
    matches: Iterable[tuple[int, int]], first_side: Mapping[int, int]
) -> list[tuple[int, int]]:
    """Each match's entries by side: the entry that has played side 0 (North-South) fewer
    times takes it, so directions even out; on a tie the order given."""
    return [(b, a) if first_side.get(a, 0) > first_side.get(b, 0) else (a, b) for a, b in matches]


def round_robin(entries: Sequence[int], round_no: int) -> list[tuple[int, int]]:
    """Round ``round_no`` (from 1) of a round robin of ``entries`` (an even count: add
    ``COMPUTERS`` for an odd one; whoever meets it has a bye or plays the computers),
    by the circle method of Berger's tables: the last entry stays, the others turn one
    place a round, so each meets every other once in ``n - 1`` rounds; later rounds
    start over.

    Raises:
        ValueError: an odd count, or fewer than 2.
    """
    n = len(entries)
    if n < 2 or n % 2:
        raise ValueError("a round robin pairs an even number of entries")
    turn = (round_no - 1) % (n - 1)
    ring = list(entries[:-1])
    ring = ring[turn:] + ring[:turn]
    pairs = [(entries[-1], ring[0])]
    pairs += [(ring[i], ring[-i]) for i in range(1, n // 2)]
    return pairs


def pair_swiss(
    entries: Sequence[int],
    groups: Mapping[int, int],
    met: Mapping[frozenset[int], int],
    *,
    round_no: int,
    seed: int,
) -> list[tuple[int, int]]:
    """One Swiss round of ``entries`` (add ``COMPUTERS`` for an odd count: its opponent
    has the bye, or plays the computers).

    A maximum-weight matching: each rematch (``met``, a bye counting as meeting
    ``COMPUTERS``) costs more than any difference of standing, so none happens while
    one can be avoided; then pairs are as close in the standings as can be, the sum of
    the squared differences of their score groups (``groups``: 0 the leaders, 1 the
    next score...) as small as can be. ``COMPUTERS`` counts as a group below the last,
    so the bye goes to the lowest entry that has not had one (FIDE C.04.1: a bye once).
    Ties are drawn by a seeded RNG.

    Returns:
        the matches, the leaders' first (table 1 is the top table).

    Raises:
        ValueError: an odd count.
    """
    if len(entries) % 2:
        raise ValueError("a Swiss round pairs an even number of entries")
    low = max(groups.values(), default=0) + 1
    group = {e: low if e == COMPUTERS else groups[e] for e in entries}
    rng = random.Random(f"tuque-event:{seed}:{round_no}:swiss")
    nodes = sorted(entries)
    rng.shuffle(nodes)
    spread = len(nodes) * (low + 1) ** 2 + 1  # more than all the standing differences
    rematch = spread
    base = rematch * (1 + max(met.values(), default=0)) + spread
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            cost = rematch * met.get(frozenset((a, b)), 0) + (group[a] - group[b]) ** 2
            graph.add_edge(a, b, weight=base - cost)
    matches = _perfect(graph, len(nodes))
    return sorted(matches, key=lambda m: (*sorted((group[m[0]], group[m[1]])), m))
