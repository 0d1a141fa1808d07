"""The web table's JSON protocol, version :data:`PROTOCOL_VERSION` (``docs/web.md``).

The server is the rulebook and the page a screen: every ``view`` frame is one viewer's
whole view (a seat's :class:`~engine.view.PlayerView`, or the public view for a
spectator) with its legal actions and their labels, so the page offers only those and
a late or missed frame is repaired by the next. What a frame shows of the game comes
from that viewer's ``PlayerView`` alone; the score pad's history of hands carries no
card at all. Everything here is pure: no sockets, no asyncio.

Frames are UTF-8 JSON bytes made by orjson (a tenth of the stdlib's ``json`` time on a
view), sent as text frames: the same JSON as ``json.dumps`` would give, compact. What a
page sends is read by :func:`read_json`, which refuses what orjson would let through
unseen: a key given twice.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import orjson
from zlib_ng import zlib_ng

from bot import render
from bot.sessions.state import Session, ended
from engine.actions import Action
from engine.cards import CARDS, Card, Suit
from engine.variants import Options
from engine.view import HandResult, PlayerView, TableauPile, Trick
from engine.wording import suit_groups

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "Act",
    "Hint",
    "Malformed",
    "action_kind",
    "encode",
    "encoded_views",
    "frame",
    "parse",
    "read_json",
    "tag_of",
    "view_frame",
    "view_of",
    "views_of",
]

PROTOCOL_VERSION = 1
"""Sent in ``hello``; a page of another version reloads."""

MAX_MESSAGE_BYTES = 1024
"""The largest message a page may send (an ``act`` is under 60 bytes); a bigger one
closes the socket (code 1009)."""

Json = dict[str, Any]


class Malformed(ValueError):
    """A page's message that is not a message of the protocol; the text says why."""


class _KeyTwice(Exception):
    """An object that gives a key twice (raised inside the JSON decoder)."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _KeyTwice
    return found


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no JSON value")


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_constant=_no_constant)
"""Made once: ``json.loads`` with a hook makes a decoder for every message."""


def read_json(text: str | bytes) -> Any:
    """The JSON value a page sent: a socket message's, or an HTTP request body's (UTF-8).

    Stricter than ``orjson.loads``, which keeps the last of a key given twice: here
    ``{"action": 1, "action": 2}`` is refused, so that what the server decides is
    what every reader of the message sees. Read by the stdlib's decoder, whose pairs
    hook sees every key (a page's messages are a few dozen bytes).

    Raises:
        Malformed: not JSON (``NaN`` and ``Infinity`` included), nested past the
            interpreter's recursion limit (about 1,000 levels), or an object that gives a
            key twice.
    """
    try:
        return _DECODER.decode(text if isinstance(text, str) else text.decode())
    except _KeyTwice:
        raise Malformed("That message gives a key twice.") from None
    except RecursionError:
        raise Malformed("That message is nested too deep.") from None
    except ValueError:
        # JSONDecodeError, and bytes that are not UTF-8 (UnicodeDecodeError).
        raise Malformed("That message is not JSON.") from None


@dataclass(frozen=True, slots=True)
class Act:
    """A page's ``{"type": "act", "seq": N, "action": ID}``: play action ``ID`` (an id of
    :data:`engine.actions.ACTIONS`) in the view of log length ``N``."""

    seq: int
    action: int


@dataclass(frozen=True, slots=True)
class Hint:
    """A page's ``{"type": "hint", "seq": N}``: what the hard computer would do for the
    viewer's seat in the view of log length ``N`` (answered by a ``hint`` frame)."""

    seq: int


_SHAPES = {"act": {"type", "seq", "action"}, "hint": {"type", "seq"}}
"""Each message a page may send, by type: exactly these keys."""


def parse(text: str | bytes) -> Act | Hint:
    """The page's message ``text`` (a text frame's, as ``str`` or UTF-8): an ``act`` or
    a ``hint``.

    Raises:
        Malformed: not JSON (:func:`read_json`: a key given twice included), not an
            object, another type, a key too many or missing (a ``seat`` or ``game`` is
            never the page's to say: the link says them), or ``seq`` (and an act's
            ``action``) not whole numbers from 0 (nor past 64 bits: no seq or id is one).
    """
    message = read_json(text)
    kind = message.get("type") if isinstance(message, dict) else None
    if kind not in _SHAPES:
        raise Malformed('A page sends {"type": "act", ...} or {"type": "hint", ...} only.')
    if kind == "act":
        if set(message) != _SHAPES[kind]:
            raise Malformed('An act is exactly {"type": "act", "seq": N, "action": ID}.')
        if not (_whole(message["seq"]) and _whole(message["action"])):
            raise Malformed("An act's seq and action are whole numbers from 0.")
        return Act(message["seq"], message["action"])
    if set(message) != _SHAPES[kind]:
        raise Malformed('A hint is exactly {"type": "hint", "seq": N}.')
    if not _whole(message["seq"]):
        raise Malformed("A hint's seq is a whole number from 0.")
    return Hint(message["seq"])


def _whole(n: object) -> bool:
    # bool is an int in Python, and true is no seq.
    return type(n) is int and 0 <= n < 2**64


def action_kind(action: Action) -> str:
    """What ``action`` does, from its class, in snake case: ``play``, ``discard``,
    ``pass``, ``order_up``, ``take_up``, ``name_trump``, ``go_alone``, ``turn_down``,
    ``call_suit``, ``ask``, ``give``, ``bid``, ``call_card``. A page lays it out by
    this (a card's action on the card), never by its label."""
    return _kind_of(type(action))


@functools.cache
def _kind_of(kind: type[Action]) -> str:
    # A regex a class, not a regex each legal action of every view.
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind.__name__).lower()


_CODES: tuple[str, ...] = tuple(card.code for card in CARDS)
"""Each card's code by its index: a view names dozens of cards, every change."""
_SCALARS = (type(None), bool, int, float, str)
_FIELDS: dict[type, tuple[str, ...]] = {}
"""A dataclass's field names, by class (``dataclasses.fields`` builds them anew)."""


def _plain(value: object) -> Any:
    """``value`` as JSON values: a card by its code (``TH``, ``B2``, ``AS'``), a suit or
    phase by its value, an action as ``{"id", "text"}``, a dataclass as an object of
    its fields, a tuple as a list.

    Raises:
        TypeError: a value of none of those kinds.
    """
    # By exact type first: this runs for every card and field of every view sent.
    kind = type(value)
    if kind is Card:
        return _CODES[value.index]  # type: ignore[attr-defined]
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else _plain(v) for v in value]  # type: ignore[attr-defined]
    if kind in _SCALARS:
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Action):
        return {"id": value.id, "text": str(value)}
    if kind is Trick:
        return _trick(value)  # type: ignore[arg-type]
    if kind is TableauPile:
        return _pile(value)  # type: ignore[arg-type]
    if kind in _SETTLED:
        return _settled(value)
    return _fields(value)


def _trick(trick: Trick) -> Json:
    # A dozen in every view of a long hand: written out rather than walked.
    plays = [[seat, _CODES[card.index]] for seat, card in trick.plays]  # type: ignore[attr-defined]
    return {"leader": trick.leader, "plays": plays, "winner": trick.winner}


def _pile(pile: TableauPile) -> Json:
    up = pile.up
    return {"up": None if up is None else _CODES[up.index], "face_down": pile.face_down}  # type: ignore[attr-defined]


def _fields(value: object) -> Json:
    """A dataclass as an object of its fields' JSON values."""
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            raise TypeError(f"no JSON form for {kind.__name__}")
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
    return {name: _plain(getattr(value, name)) for name in names}


_SETTLED = (HandResult, Options)
"""Values that never change once made and come back in view after view (each finished
hand's result in the score pad, the game's options): their JSON is kept."""


@functools.lru_cache(maxsize=4096)
def _settled(value: HandResult | Options) -> Json:
    # Shared between views: nothing mutates a view's parts after view_of builds them.
    return _fields(value)


# A hand's result in the score pad, before this hand: its cards (the up-card, the last
# trick) belong to no view any more, so the pad names none.
_PAD_FIELDS = tuple(
    f.name for f in dataclasses.fields(HandResult) if f.name not in ("up_card", "last_trick")
)


@functools.lru_cache(maxsize=4096)
def _pad_line(result: HandResult) -> Json:
    return {name: _plain(getattr(result, name)) for name in _PAD_FIELDS}


@functools.lru_cache(maxsize=4096)
def _legal(actions: tuple[Action, ...], labels: tuple[str, ...]) -> list[Json]:
    """Legal actions as a page offers them: each one's id, its button's label
    (``labels``, in order), its kind (:func:`action_kind`) and the card it plays,
    discards, gives or calls (or null). Kept: the views share it, never changing it."""
    return [_legal_one(action, label) for action, label in zip(actions, labels, strict=True)]


@functools.lru_cache(maxsize=8192)
def _legal_one(action: Action, label: str) -> Json:
    # Kept one by one too: a turn's set of actions is seldom another table's, its
    # actions (a card to play, a suit to name) and their labels often are.
    card = getattr(action, "card", None)
    return {
        "id": action.id,
        "label": label,
        "kind": action_kind(action),
        "card": None if card is None else card.code,
    }


_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(PlayerView) if f.name != "legal_actions")
"""A view's fields as sent: its legal actions go as ``legal``, with their labels."""


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [_CODES[card.index] for card in cards]  # type: ignore[attr-defined]


def _tableaus(tableaus: tuple[tuple[TableauPile, ...], ...]) -> list[list[Any]]:
    return [[_pile(pile) for pile in piles] for piles in tableaus]


def _tricks(tricks: tuple[Trick, ...]) -> list[Any]:
    # The engine keeps a hand's completed tricks in one tuple from state to state until
    # the next trick completes: its JSON is kept by the tuple's identity (the tuple held
    # here, so that its id is not reused while kept), the oldest let go past 4,096.
    kept = _KEPT_TRICKS.get(id(tricks))
    if kept is not None and kept[0] is tricks:
        return kept[1]
    made = [_done_trick(trick) for trick in tricks]
    if len(_KEPT_TRICKS) >= 4096:
        del _KEPT_TRICKS[next(iter(_KEPT_TRICKS))]
    _KEPT_TRICKS[id(tricks)] = (tricks, made)
    return made


_KEPT_TRICKS: dict[int, tuple[tuple[Trick, ...], list[Any]]] = {}


def _done_trick(trick: Trick) -> Json:
    # A trick completed this hand: the engine's next tuple of tricks holds the same
    # Trick, so only the newest one is made (kept as the tuples are, by identity; a
    # thousand tables' hands hold some 12,000).
    kept = _KEPT_DONE.get(id(trick))
    if kept is not None and kept[0] is trick:
        return kept[1]
    made = _trick(trick)
    if len(_KEPT_DONE) >= 16384:
        del _KEPT_DONE[next(iter(_KEPT_DONE))]
    _KEPT_DONE[id(trick)] = (trick, made)
    return made


_KEPT_DONE: dict[int, tuple[Trick, Json]] = {}


_CONVERT = {
    "hand": _cards,
    "discards": _cards,
    "tableaus": _tableaus,
    "tricks": _tricks,
    "trick": _trick,
}
"""The fields of every view whose values are always of one shape, converted without
:func:`_plain`'s search for their kind (the same JSON): a dozen tricks and piles a view."""
_FIELD_CONVERTERS = tuple((name, _CONVERT.get(name, _plain)) for name in _VIEW_FIELDS)


def view_of(session: Session, seat: int | None) -> Json:
    """What the viewer at ``seat`` (None: a spectator) may see of the game now.

    Every field of their ``PlayerView`` (see :class:`engine.view.PlayerView`; cards
    by code, ``legal_actions`` replaced by ``legal``: ``[{"id", "label", "kind",
    "card"}]`` with the hand message's button labels), and: ``hand_groups`` (the hand
    as the hand message groups it: ``[{"suit", "trump", "cards"}]``, trump first, high
    to low; ``suit`` null for the jokers before trump is made), ``words`` (the
    Discord messages' words: :func:`bot.render.table_words`, the same for every viewer,
    and ``prompt``, the viewer's own, :func:`bot.render.prompt_words`), ``game`` (its
    id), ``names`` and ``computer``
    per seat (a computer plays it: a computer's seat, an away or resigned member's),
    ``away`` (the away members' seats), ``hand_just_over`` (the hand whose end the
    table shows, or null), ``history`` (every finished hand's result without its
    cards, oldest first: the score pad), ``result`` (the game's end: ``ending``,
    ``winner``, ``by``, ``scores`` and ``places`` per seat; null while it runs),
    ``ended`` (why it ended before its last hand, in words, or null) and
    ``played_for_you`` (null, or, when the viewer's only legal move is about to be
    played for them by their auto-play choice, the words saying so: the move stays in
    ``legal``, but the page offers nothing to click).
    """
    return views_of(session, (seat,))[seat]


def views_of(session: Session, seats: Iterable[int | None]) -> dict[int | None, Json]:
    """The view of each of ``seats`` (None: a spectator), each exactly :func:`view_of`'s,
    built together once per change: what every viewer shares is made once.

    A view's keys come in two runs: first what the viewers share (``game``, the fields
    of the state that the engine gives every viewer alike, ``names``, ``computer``,
    ``away``, ``history``, ``result``, ``ended``, ``hand_just_over``), the same JSON
    values in every view, then the viewer's own (``seat``, ``hand``, ``discard``,
    ``blind``, ``discards``, ``legal``, ``hand_groups``, ``words``, ``played_for_you``).
    Each viewer's ``PlayerView`` is still the engine's for their seat
    (:meth:`engine.game.Game.view`), and a viewer shares the first one's JSON only if
    every shared field of theirs is the first's (the same object, or equal): equal
    values have equal JSON, so no viewer is sent a value that is not their own.

    Returns:
        ``{seat: view}`` for each distinct seat, in the order first given. The views
        share parts: never mutate one.
    """
    parts, _ = _view_parts(session, seats)
    return {seat: {**shared[0], **own} for seat, (shared, own) in parts.items()}


def encoded_views(
    session: Session, seats: Iterable[int | None]
) -> dict[int | None, tuple[bytes, str]]:
    """Each of :func:`views_of`'s views encoded as :func:`encode` would (the same bytes
    and tag), with the shared run of keys encoded once for all viewers who share it.

    Raises:
        TypeError: as :func:`encode`.
    """
    parts, runs = _view_parts(session, seats)
    heads = [orjson.dumps(shared)[:-1] for shared, _ in runs]
    encoded: dict[int | None, tuple[bytes, str]] = {}
    for seat, ((_, run), own) in parts.items():
        # {"shared": ...} and {"own": ...} joined are the JSON of {**shared, **own}.
        text = b"".join((heads[run], b",", orjson.dumps(own)[1:]))
        encoded[seat] = text, _tag(text)
    return encoded


_OWN_FIELDS = ("seat", "hand", "discard", "blind", "discards")
"""The fields of a ``PlayerView`` that are the viewer's own (besides its legal actions,
sent as ``legal``); the engine gives every viewer of a state the others alike."""
_SHARED_CONVERTERS = tuple((n, c) for n, c in _FIELD_CONVERTERS if n not in _OWN_FIELDS)
_OWN_CONVERTERS = tuple((n, c) for n, c in _FIELD_CONVERTERS if n in _OWN_FIELDS)

_Shared = tuple[Json, int]
"""A run of shared keys and its number in :func:`_view_parts`' list of runs."""


def _view_parts(
    session: Session, seats: Iterable[int | None]
) -> tuple[dict[int | None, tuple[_Shared, Json]], list[tuple[Json, PlayerView]]]:
    """Each seat's view in its two runs of keys (:func:`views_of`): ``{seat: ((shared,
    run number), own)}``, and the distinct shared runs, each with the first view it was
    made from."""
    table = session.table
    game = table.game
    result = table.result
    why = ended(session)
    shared_words = render.table_words(game.view(None), session.seating, why)
    names = list(session.seating.names)
    computer = [table.is_computer(s.number) for s in table.seats]
    away = sorted(table.away)
    history = [_pad_line(r) for r in game.hand_results]
    outcome = (
        None
        if result is None
        else {
            "ending": result.ending.value,
            "winner": result.winner,
            "by": result.by,
            "scores": list(result.scores),
            "places": list(result.places),
        }
    )
    parts: dict[int | None, tuple[_Shared, Json]] = {}
    runs: list[tuple[Json, PlayerView]] = []
    for seat in seats:
        if seat in parts:
            continue
        view = game.view(seat)
        run = next((i for i, (_, made) in enumerate(runs) if _shares(view, made)), None)
        if run is None:
            shared: Json = {"game": table.id}
            for name, convert in _SHARED_CONVERTERS:
                shared[name] = convert(getattr(view, name))
            shared["names"] = names
            shared["computer"] = computer
            shared["away"] = away
            shared["history"] = history
            shared["result"] = outcome
            shared["ended"] = why
            shared["hand_just_over"] = _plain(view.hand_just_over)
            run = len(runs)
            runs.append((shared, view))
        own = {name: convert(getattr(view, name)) for name, convert in _OWN_CONVERTERS}
        own["legal"] = (
            _legal(view.legal_actions, render.button_labels(view, session.seating))
            if not table.finished
            else []
        )
        own["hand_groups"] = _hand_groups(view.hand, view.trump, game.variant.twins)
        own["words"] = {**shared_words, "prompt": render.prompt_words(view)}
        # The viewer's only move, played for them after a pause (their auto-play
        # choice): not theirs to click, so the page shows it as on its way.
        forced = table.forced(seat) if seat is not None and seat == game.turn else None
        own["played_for_you"] = (
            None if forced is None else render.playing_for_text(forced, view, session.seating)
        )
        parts[seat] = ((runs[run][0], run), own)
    return parts, runs


@functools.lru_cache(maxsize=8192)
def _hand_groups(hand: tuple[Card, ...], trump: Suit | None, twins: bool) -> list[Json]:
    """``hand`` as the hand message groups it (:func:`engine.wording.suit_groups`), as
    JSON. Kept: a seat's hand stands from change to change until it plays (the views
    share the list, never changing it); 8,192 hold a thousand busy tables' hands."""
    return [
        {
            "suit": None if suit is None else suit.value,
            "trump": suit is not None and suit is trump,
            "cards": _cards(tuple(cards)),
        }
        for suit, cards in suit_groups(hand, trump, twins)
    ]


def _shares(view: PlayerView, made: PlayerView) -> bool:
    """Whether every shared field of ``view`` is ``made``'s (the engine gives every
    viewer the same objects: no comparing them)."""
    for name, _ in _SHARED_CONVERTERS:
        value = getattr(view, name)
        mine = getattr(made, name)
        if value is not mine and value != mine:
            return False
    return True


def encode(view: Json) -> tuple[bytes, str]:
    """``view`` as compact JSON (UTF-8), and its tag: a short digest of that text, so
    that a page that resumes with the tag of the view it holds is sent none if its view
    is still the game's. The text goes into :func:`view_frame` as it is.

    Raises:
        TypeError: a value JSON has no form for (orjson's, a ``TypeError``).
    """
    text = orjson.dumps(view)
    return text, _tag(text)


def _tag(text: bytes) -> str:
    # A resume's check, not a secret: a page can only be shown a view of its own. A
    # CRC-32 sees every change that lies within 4 bytes in a row, Adler-32 is a sum of
    # another kind (64 bits in all), and the two take a tenth of SHA-256's time on a
    # 3 kB view.
    return f"{zlib_ng.crc32(text):08x}{zlib_ng.adler32(text):08x}"


def tag_of(view: Json) -> str:
    """The tag of ``view`` (see :func:`encode`)."""
    return encode(view)[1]


def view_frame(seq: int, tag: str, token: str, view_text: bytes, clock: Json | None) -> bytes:
    """A ``view`` frame as the bytes sent, around a view already encoded
    (:func:`encode`): the same JSON as ``frame("view", ...)``, without encoding the
    view again for every page that shows it."""
    head = frame("view", seq=seq, tag=tag, token=token)
    return b"".join((head[:-1], b',"view":', view_text, b',"clock":', orjson.dumps(clock), b"}"))


def frame(type_: str, /, **fields: Any) -> bytes:
    """A server frame of type ``type_`` as the bytes sent (compact JSON in UTF-8, a
    websocket text frame's payload): ``{"type": type_, **fields}``.

    Raises:
        TypeError: a field JSON has no form for.
    """
    return orjson.dumps({"type": type_, **fields})
