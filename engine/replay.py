"""A recorded game as the steps a watcher pages through: each hand's deal, the
bidding's outcome, every trick complete and the hand's result.

The steps come from applying the record's entries one by one to a fresh
:class:`~engine.game.Game`, so they show what the rules did, never a second
reading of them. Each step holds the public view at that moment and, beside it,
every hidden card (each seat's hand and the face-down tableau cards): a replay
shows a game face up, so it is only for games that have ended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from engine.cards import Card
from engine.errors import RecordError
from engine.game import Game
from engine.view import Phase, PlayerView

__all__ = ["Frame", "FrameKind", "hand_starts", "replay_frames"]


class FrameKind(Enum):
    """What a step of a replay shows."""

    DEAL = "deal"
    """A hand just dealt: every hand face up, the up-card (or the turned trump)."""
    BIDDING = "bidding"
    """Trump made (and who went alone), the discards done: the first lead is next."""
    TRICK = "trick"
    """A trick complete, each card before the seat that played it (``view.trick``)."""
    RESULT = "result"
    """A hand over: its result is ``view.last_hand`` (thrown in, when all passed)."""
    STOPPED = "stopped"
    """Where the record stops in the middle of a hand (a resignation, a forfeit)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay.

    Attributes:
        kind: what the step shows.
        view: the public view (``Game.view(None)``) at that moment; in a ``TRICK``
            step, ``trick`` is the complete trick and its winner, nobody is to act, and
            the scores are still those before the hand's result.
        hands: each seat's hand at that moment (hidden in the game: a replay shows it).
        face_down: per seat, per tableau pile, the face-down card or ``None``.
        hand_no: the hand's number (1-based).
        trick_no: the trick's number in its hand (1-based) in a ``TRICK`` step, else 0.
    """

    kind: FrameKind
    view: PlayerView
    hands: tuple[tuple[Card, ...], ...]
    face_down: tuple[tuple[Card | None, ...], ...]
    hand_no: int
    trick_no: int = 0


def replay_frames(record: Mapping[str, Any]) -> tuple[Frame, ...]:
    """The steps of the game ``record`` holds (``Game.to_record``'s shape).

    Per hand: its deal; the bidding's outcome, if there was bidding and play began
    (a hand thrown in goes from its deal to its result, and Jackpot turns trump
    without bidding); each trick once complete; the result. A record that stops in
    the middle of a hand ends with a ``STOPPED`` step of where it stopped.

    Raises:
        RecordError: the record does not rebuild a game.
    """
    game = Game.from_record({**record, "actions": []})  # checks the header
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("a record's actions must be a list of strings")
    frames: list[Frame] = []
    bid_shown = False
    tricks_done = 0
    before = game.view(None)
    for i, entry in enumerate(actions):
        try:
            game.replay(entry)
        except (TypeError, ValueError) as err:
            raise RecordError(f"action {i} ({entry[:40]!r}) does not replay: {err}") from err
        if entry.startswith("deal "):
            frames.append(_frame(game, FrameKind.DEAL))
            before = frames[-1].view
            # Jackpot turns trump at the deal: play starts with no bidding to show.
            bid_shown = game.phase is Phase.PLAY
            tricks_done = 0
            continue
        over = game.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
        after = game.view(None)
        if len(after.tricks) > tricks_done:
            tricks_done = len(after.tricks)
            # Nobody is to act while a complete trick lies on the table: its winner leads
            # the next one, after the step that shows it.
            view = replace(after, trick=after.tricks[-1], turn=None)
            if over:
                # The last trick still lies on the table: the hand is scored in the next step.
                view = replace(
                    view,
                    phase=Phase.PLAY,
                    scores=before.scores,
                    winner=None,
                    last_hand=before.last_hand,
                    pool=before.pool,
                )
            frames.append(_frame(game, FrameKind.TRICK, view, trick_no=tricks_done))
        elif not bid_shown and game.phase is Phase.PLAY:
            bid_shown = True
            frames.append(_frame(game, FrameKind.BIDDING, after))
        if over:
            frames.append(_frame(game, FrameKind.RESULT, after))
        before = after
    if frames and game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        frames.append(_frame(game, FrameKind.STOPPED))
    return tuple(frames)


def _frame(
    game: Game, kind: FrameKind, view: PlayerView | None = None, *, trick_no: int = 0
) -> Frame:
    """The step ``kind`` of ``game`` as it stands (``view``: its public view, adjusted)."""
    seats = range(game.variant.players)
    return Frame(
        kind=kind,
        view=view if view is not None else game.view(None),
        hands=tuple(game.hand_of(s) for s in seats),
        face_down=tuple(game.face_down_of(s) for s in seats),
        hand_no=game.hand_no,
        trick_no=trick_no,
    )


def hand_starts(frames: Sequence[Frame]) -> tuple[int, ...]:
    """The index of each hand's first step (its deal), in order."""
    return tuple(i for i, frame in enumerate(frames) if frame.kind is FrameKind.DEAL)
