"""Event movements (bot/events/movement.py), checked by hand on small nights and by
properties on random ones: everyone seated once a round, nobody partnering or meeting
anyone twice while the round can avoid it, byes and sit-outs in turn."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.events.model import COMPUTERS, Fill, Round, Seating
from bot.events.movement import (
    Meetings,
    deal_seed,
    form_pairs,
    lot,
    orient,
    pair_swiss,
    round_robin,
    seat_progressive,
)

PROPERTY = settings(max_examples=40, deadline=None)


def night(players: Sequence[int], rounds: int, fill: Fill, seed: int = 3) -> list[Round]:
    """``rounds`` progressive rounds of ``players``, each seated after the ones before."""
    history: list[Round] = []
    for n in range(1, rounds + 1):
        tables, out = seat_progressive(players, history, round_no=n, fill=fill, seed=seed)
        seatings = tuple(
            Seating(t, seats, tuple(m or 0 for m in seats), 0) for t, seats in enumerate(tables, 1)
        )
        history.append(Round(n, seatings, out))
    return history


def partnerships(rnd: Round) -> list[tuple[int | None, int | None]]:
    return [(s.seats[a], s.seats[a + 2]) for s in rnd.seatings for a in (0, 1)]


def seated(rnd: Round) -> list[int]:
    return [m for s in rnd.seatings for m in s.seats if m is not None]


def test_thirteen_members_sitting_out_in_turn_over_four_rounds() -> None:
    """Three tables of four and one sit-out a round: four different members sit out,
    each round's sit-out one who has played the most, and nobody partners twice."""
    members = list(range(1, 14))
    rounds = night(members, 4, Fill.SIT_OUT)
    played: Counter[int] = Counter()
    outs = []
    for rnd in rounds:
        assert len(rnd.seatings) == 3 and all(None not in s.seats for s in rnd.seatings)
        (out,) = rnd.sitting_out
        assert sorted([*seated(rnd), out]) == members  # everyone once: a seat or out
        assert played[out] == max(played[m] for m in members)
        outs.append(out)
        played.update(seated(rnd))
    assert len(set(outs)) == 4
    pairs = [frozenset(p) for rnd in rounds for p in partnerships(rnd)]
    assert len(pairs) == 24 == len(set(pairs))


def test_thirteen_members_with_computers_over_four_rounds() -> None:
    """Four tables, three computers a round at three tables, each partnering a member;
    no member partners a computer or a member twice (12 computer partnerships for 13)."""
    members = list(range(1, 14))
    rounds = night(members, 4, Fill.COMPUTERS)
    with_computer = []
    for rnd in rounds:
        assert len(rnd.seatings) == 4 and rnd.sitting_out == ()
        assert sorted(seated(rnd)) == members
        assert [s.seats.count(None) for s in rnd.seatings].count(1) == 3
        for a, b in partnerships(rnd):
            assert (a, b) != (None, None)
            if None in (a, b):
                with_computer.append(a or b)
    assert len(with_computer) == 12 == len(set(with_computer))
    pairs = [frozenset(p) for rnd in rounds for p in partnerships(rnd) if None not in p]
    assert len(pairs) == len(set(pairs))


def test_four_players_partner_again_only_in_the_fourth_round() -> None:
    """Four players have three partnerings: rounds 1-3 use each once; round 4 must
    repeat one, and repeats exactly two partnerships (everyone partners once again)."""
    rounds = night([1, 2, 3, 4], 4, Fill.SIT_OUT)
    first = [frozenset(p) for rnd in rounds[:3] for p in partnerships(rnd)]
    assert len(set(first)) == 6
    assert all(frozenset(p) in first for p in partnerships(rounds[3]))


def test_the_same_seed_seats_the_same_night_and_another_seed_another() -> None:
    """A movement is a function of the seed and the rounds before."""
    members = list(range(1, 11))
    again = night(members, 3, Fill.SIT_OUT, seed=5)
    assert night(members, 3, Fill.SIT_OUT, seed=5) == again
    assert night(members, 3, Fill.SIT_OUT, seed=6) != again


def test_seeds_lots_and_pairs_follow_the_event_seed() -> None:
    """Deal seeds differ by table and round; pairs are drawn by lot, the odd member
    last with a computer partner."""
    assert deal_seed(1, 1, 1) != deal_seed(1, 1, 2) != deal_seed(1, 2, 2)
    assert deal_seed(1, 1, 0) == deal_seed(1, 1, 0) < 1 << 63
    pairs = form_pairs([10, 11, 12, 13, 14], seed=9, number=3, first=2)
    drawn = sorted([10, 11, 12, 13, 14], key=lambda m: lot(9, m))
    assert [p.members for p in pairs] == [tuple(drawn[:2]), tuple(drawn[2:4]), (drawn[4], None)]
    assert [(p.number, p.first) for p in pairs] == [(3, 2), (4, 2), (5, 2)]


def test_a_round_robin_meets_everyone_once() -> None:
    """Six entries, five rounds: each of the 15 pairings once; then it starts over."""
    entries = [1, 2, 3, 4, 5, 6]
    rounds = [round_robin(entries, n) for n in range(1, 6)]
    met = [frozenset(m) for rnd in rounds for m in rnd]
    assert len(met) == 15 == len(set(met))
    assert all(sorted(x for m in rnd for x in m) == entries for rnd in rounds)
    assert round_robin(entries, 6) == rounds[0]


def test_a_round_robin_of_five_gives_each_a_bye_once() -> None:
    """An odd count plays against ``COMPUTERS``: the bye (or the computers) in turn."""
    byes = [
        a if b == COMPUTERS else b
        for n in range(1, 6)
        for a, b in round_robin([1, 2, 3, 4, 5, COMPUTERS], n)
        if COMPUTERS in (a, b)
    ]
    assert sorted(byes) == [1, 2, 3, 4, 5]


def test_swiss_pairs_the_score_groups_and_the_bye_goes_to_the_lowest() -> None:
    """After round 1 of seven (1 beat 2, 3 beat 4, 5 beat 6, 7 had the bye): the four
    leaders play each other, no rematch; the bye goes to a loser."""
    met = Counter({frozenset(p): 1 for p in [(1, 2), (3, 4), (5, 6), (7, COMPUTERS)]})
    groups = {1: 0, 3: 0, 5: 0, 7: 0, 2: 1, 4: 1, 6: 1}
    matches = pair_swiss([*groups, COMPUTERS], groups, met, round_no=2, seed=1)
    assert all(frozenset(m) not in met for m in matches)
    assert [sorted(groups.get(e, 2) for e in m) for m in matches] == [
        [0, 0],
        [0, 0],
        [1, 1],
        [1, 2],
    ]


def test_swiss_rematches_only_when_nothing_else_pairs_everyone() -> None:
    """Three of four met each other already: 4 meets one of them; one rematch is forced
    and only one happens."""
    met = Counter({frozenset(p): 1 for p in [(1, 2), (2, 3), (1, 3)]})
    matches = pair_swiss([1, 2, 3, 4], {1: 0, 2: 0, 3: 0, 4: 0}, met, round_no=3, seed=2)
    assert sum(frozenset(m) in met for m in matches) == 1


def test_orient_evens_out_the_directions() -> None:
    """The entry with fewer rounds on side 0 takes side 0."""
    assert orient([(1, 2), (3, 4)], {1: 2, 2: 1, 3: 0}) == [(2, 1), (3, 4)]


def test_meetings_count_partners_opponents_computers_and_byes() -> None:
    """One table of four with a computer, one two-player table, a bye."""
    rounds = [
        Round(1, (Seating(1, (1, 2, 3, None), (1, 2, 3, 0), 0),), (4,)),
        Round(2, (Seating(1, (5, 6), (5, 6), 0),), (7,)),
    ]
    meetings = Meetings.of(rounds, byes=True)
    assert meetings.partners == Counter({frozenset((1, 3)): 1})
    assert meetings.computer_partners == Counter({2: 1})
    assert meetings.opponents == Counter({frozenset(p): 1 for p in [(1, 2), (2, 3), (5, 6)]})
    assert meetings.met == Counter(
        {frozenset((5, 6)): 1, frozenset((4, 0)): 1, frozenset((7, 0)): 1}
    )
    assert meetings.played == Counter({1: 1, 2: 1, 3: 1, 5: 1, 6: 1})


def _fewest_repeats(players: list[int], computers: int, past: Meetings) -> int:
    """By brute force: the fewest repeated partnerships any seating of the round has."""
    nodes = players + [-(i + 1) for i in range(computers)]

    def matchings(rest: list[int]) -> list[list[tuple[int, int]]]:
        if not rest:
            return [[]]
        first, others = rest[0], rest[1:]
        found = []
        for i, o in enumerate(others):
            if first < 0 and o < 0:
                continue
            for tail in matchings(others[:i] + others[i + 1 :]):
                found.append([(first, o), *tail])
        return found

    def repeats(a: int, b: int) -> int:
        if a < 0 or b < 0:
            return past.computer_partners[max(a, b)]
        return past.partners[frozenset((a, b))]

    return min(sum(repeats(a, b) for a, b in m) for m in matchings(nodes))


@PROPERTY
@given(
    count=st.integers(4, 10),
    rounds=st.integers(1, 6),
    fill=st.sampled_from(Fill),
    seed=st.integers(0, 1000),
)
def test_progressive_seats_everyone_once_with_the_fewest_repeated_partners(
    count: int, rounds: int, fill: Fill, seed: int
) -> None:
    """Every round: tables of four, each member seated once or sitting out, never two
    computers as partners, sit-outs in turn, and no more repeated partnerships than the
    best seating of the same players has (found by brute force)."""
    members = list(range(1, count + 1))
    history = night(members, rounds, fill, seed)
    for n, rnd in enumerate(history):
        past = Meetings.of(history[:n])
        assert all(len(s.seats) == 4 for s in rnd.seatings)
        playing = seated(rnd)
        assert sorted([*playing, *rnd.sitting_out]) == members
        assert (None, None) not in partnerships(rnd)
        if fill is Fill.SIT_OUT:
            assert len(rnd.sitting_out) == count % 4
            assert all(past.played[o] >= past.played[p] for o in rnd.sitting_out for p in playing)
        computers = sum(s.seats.count(None) for s in rnd.seatings)
        achieved = sum(
            past.computer_partners[a or b] if None in (a, b) else past.partners[frozenset((a, b))]
            for a, b in partnerships(rnd)
        )
        assert achieved == _fewest_repeats(sorted(playing), computers, past)


@PROPERTY
@given(
    count=st.integers(2, 14),
    rounds=st.integers(1, 7),
    seed=st.integers(0, 1000),
    data=st.data(),
)
def test_swiss_pairs_everyone_once_without_a_rematch_while_one_can_be_avoided(
    count: int, rounds: int, seed: int, data: st.DataObject
) -> None:
    """Random results: every entry in exactly one match a round (the odd one against
    ``COMPUTERS``), no rematch nor second bye while the round is within half the field
    (then the entries not yet met always pair everyone, by Dirac's theorem)."""
    entries = list(range(1, count + 1)) + ([COMPUTERS] if count % 2 else [])
    met: Counter[frozenset[int]] = Counter()
    wins: Counter[int] = Counter()
    for n in range(1, rounds + 1):
        scores = sorted({wins[e] for e in entries if e}, reverse=True)
        groups = {e: scores.index(wins[e]) for e in entries if e}
        matches = pair_swiss(entries, groups, met, round_no=n, seed=seed)
        assert sorted(x for m in matches for x in m) == sorted(entries)
        if n <= len(entries) // 2:
            assert all(frozenset(m) not in met for m in matches)
        for a, b in matches:
            met[frozenset((a, b))] += 1
            wins[data.draw(st.sampled_from((a, b)))] += 1
