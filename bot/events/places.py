"""A member's places over a server's finished events, for ``/tuque stats`` and the
leaderboard (issue 42): events played, won and on the podium.

A place is the final standings' (:func:`bot.events.standings.standings`): ties share a
place, so two members tied first have both won; a computer never places, nor does a
member who left (R35), who has still played the event.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from bot.events.event import Event, Status

__all__ = ["PODIUM", "EventPlaces", "event_places"]

PODIUM = 3
"""The places on the podium: first to third."""


@dataclass(frozen=True, slots=True)
class EventPlaces:
    """One member's finished events.

    Attributes:
        played: events they played (an entry of theirs was seated, late sign-ups too).
        won: events they finished first (a shared first place counts).
        podiums: events they finished first to third, the wins included.
    """

    played: int = 0
    won: int = 0
    podiums: int = 0


def event_places(events: Iterable[Event], variant: str | None = None) -> dict[int, EventPlaces]:
    """Each member's :class:`EventPlaces` over ``events``, by user id: the finished ones
    only (others are skipped), of ``variant`` alone unless it is None. Members who
    played none are absent."""
    played: defaultdict[int, int] = defaultdict(int)
    won: defaultdict[int, int] = defaultdict(int)
    podiums: defaultdict[int, int] = defaultdict(int)
    for event in events:
        if event.status is not Status.FINISHED or variant not in (None, event.config.variant):
            continue
        for line in event.standings():
            for member in line.members:
                if member is None:
                    continue
                played[member] += 1
                if line.place == 1:
                    won[member] += 1
                if line.place is not None and line.place <= PODIUM:
                    podiums[member] += 1
    return {m: EventPlaces(n, won[m], podiums[m]) for m, n in played.items()}
