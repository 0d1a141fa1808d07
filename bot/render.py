"""Rendering: engine views and store rows into embeds and text. No rules, no I/O.

Everything here takes a :class:`~engine.view.PlayerView` (public or one seat's),
so a public embed can only ever show what the public view holds: the hidden
cards never reach this module for a channel post.

Cards show as their faces (:class:`~bot.emojis.CardFaces`, the bot's card emojis)
followed by their text (``<:tq_10h:…> 10♥``), which screen readers read; with
:data:`~bot.emojis.TEXT_FACES`, the default, as text alone.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import discord

from bot.emojis import TEXT_FACES, CardFaces
from bot.events.event import Event
from bot.events.event import Status as EventStatus
from bot.events.model import Config as EventConfig
from bot.events.model import Fill as EventFill
from bot.events.model import Format as EventFormat
from bot.events.model import SitOut
from bot.events.places import EventPlaces
from bot.store import (
    EventRow,
    GameRow,
    GameStatus,
    GuildSettings,
    LeaderboardRow,
    LobbyRow,
    LobbyStatus,
    PlayerStats,
    SeatKind,
    SeatRow,
)
from bot.table import Ending, Note, NoteKind, Result
from engine.actions import Action, Ask, Bid, Discard, OrderUp, Play, TakeUp, parse_action
from engine.cards import Card, Suit, cards_in, is_trump
from engine.game import Game
from engine.players.heuristic import known_partner
from engine.replay import Frame, FrameKind
from engine.rules_text import rules_text
from engine.variants import VARIANTS, Options, Variant
from engine.view import HandResult, Phase, PlayerView
from engine.wording import (
    DEALING,
    THROWN_IN,
    Wording,
    capital,
    computer_name,
    doing,
    goal,
    jokers_word,
    points_text,
    prompt,
    score_goal,
    score_text,
    side_name,
    sort_cards,
    stand_in_name,
    suit_groups,
    suit_text,
    tally,
    verb,
    verdict,
    won_game,
)

__all__ = [
    "HandText",
    "Seating",
    "action_label",
    "button_label",
    "button_labels",
    "end_reason",
    "game_over_embed",
    "hand_call_text",
    "hand_summary_embed",
    "hand_text",
    "leaderboard_embed",
    "lobby_embed",
    "lobby_seat_label",
    "ping_text",
    "played_for_text",
    "prompt_words",
    "reminder_text",
    "replay_caption",
    "replay_embed",
    "replay_label",
    "replay_story",
    "rules_embed",
    "score_line",
    "seating_of",
    "settings_embed",
    "start_text",
    "stats_embed",
    "table_note_text",
    "table_status",
    "table_title",
    "table_words",
]

TABLE_COLOUR = discord.Colour.dark_green()
HAND_COLOUR = discord.Colour.blurple()
RESULT_COLOUR = discord.Colour.gold()


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: display names and, for people, their user ids (``None``: computer)."""

    names: tuple[str, ...]
    user_ids: tuple[int | None, ...]

    def who(self, seat: int | None) -> str:
        """The display name of ``seat`` (``"—"`` for none)."""
        return "—" if seat is None else self.names[seat]

    def side_names(self, side: int, sides: Sequence[int]) -> str:
        """The side ``side`` by its players' names (:func:`engine.wording.side_name`)."""
        return _side_name(self.names, tuple(sides), side)


@functools.lru_cache(maxsize=4096)
def _side_name(names: tuple[str, ...], sides: tuple[int, ...], side: int) -> str:
    # Kept: every table message, score line and web view names each side again.
    return side_name([n for n, s in zip(names, sides, strict=True) if s == side])


def seating_of(seats: Sequence[SeatRow]) -> Seating:
    """The names of a game's seats, the same in every message, result and replay:
    members' display names, each computer by its seat (``CPU 2``,
    :func:`engine.wording.computer_name`), and the computer in a resigned member's seat
    by whose seat it is (``CPU for Ann``), never mentioned."""
    names = tuple(
        stand_in_name(s.display_name or "Player")
        if s.resigned
        else (s.display_name or "Player")
        if s.kind is not SeatKind.COMPUTER
        else computer_name(s.seat)
        for s in seats
    )
    return Seating(names, tuple(None if s.resigned else s.user_id for s in seats))


def _cards(cards: Sequence[Card], trump: Suit | None, twins: bool) -> str:
    """``cards`` sorted as a hand, as text (for files and logs, where faces do not show)."""
    return " ".join(c.pretty() for c in sort_cards(cards, trump, twins)) or "—"


def _variant(view: PlayerView) -> Variant:
    """The variant as this game is set up (seats and pack for its options)."""
    return _set_up(view.variant, view.options)


def _set_up(name: str, options: Options | None) -> Variant:
    variant = VARIANTS[name]
    return variant.configured(options) if options is not None else variant


def action_label(action: Action, view: PlayerView, seating: Seating | None = None) -> str:
    """A button label for ``action``: ``"Order it up"``, ``"Name ♥ hearts"``, ``"Play 10♥"``.

    The terminal's words (:meth:`engine.wording.Wording.action_label`), with
    ``seating``'s names for the seats an action names (default ``Seat 1``...).
    """
    names = _names(view, seating) if isinstance(action, Ask) else ()
    return _action_label(action, view.phase, view.variant, view.options, names)


@functools.lru_cache(maxsize=4096)
def _action_label(
    action: Action, phase: Phase, variant: str, options: Options | None, names: tuple[str, ...]
) -> str:
    # Kept: every change labels its turn's legal actions again (the hand message's
    # buttons, each web page's), and a label reads nothing of a view but its phase.
    configured = _set_up(variant, options)
    return Wording(configured, names).label(action, phase)


_BID_ALONE_SHORT = {8: "alone with widow", 15: "alone, no widow"}
"""RULES.md §7 Auction's bids that play alone, said on a button (the widow taken or not)."""


def button_label(action: Action, view: PlayerView, seating: Seating | None = None) -> str:
    """The label of ``action``'s button in a hand message: :func:`action_label`, with a
    suit shown by its symbol only where the words would be wider than a phone's button
    (about 25 characters at 360 px): ``Bid 8 ♥ alone with widow`` for ``Bid 8 in ♥
    hearts, alone after the widow``, ``Order it up, ♥ trump``."""
    names = _names(view, seating) if isinstance(action, Ask) else ()
    return _button_label(action, view.phase, view.variant, view.options, names)


def button_labels(view: PlayerView, seating: Seating | None = None) -> tuple[str, ...]:
    """The labels of ``view``'s legal actions' buttons, in their order
    (:func:`button_label` of each)."""
    # Only a loner's request for a card names a seat (Ask, offered in its phase only):
    # every other turn's labels read no name, and are kept for every table alike.
    names = _names(view, seating) if view.phase is Phase.CARD_REQUEST else ()
    return _button_labels(view.legal_actions, view.phase, view.variant, view.options, names)


def _names(view: PlayerView, seating: Seating | None) -> tuple[str, ...]:
    """The seats' names a label says (default ``Seat 1``...)."""
    return seating.names if seating else tuple(f"Seat {s + 1}" for s in range(view.players))


@functools.lru_cache(maxsize=4096)
def _button_labels(
    actions: tuple[Action, ...],
    phase: Phase,
    variant: str,
    options: Options | None,
    names: tuple[str, ...],
) -> tuple[str, ...]:
    # Kept, as _action_label: every change offers its turn's actions again (the hand
    # message's buttons, each web page's), and one key a turn costs less than one each.
    return tuple(_button_label(a, phase, variant, options, names) for a in actions)


def _button_label(
    action: Action, phase: Phase, variant: str, options: Options | None, names: tuple[str, ...]
) -> str:
    match action:
        case Bid(level=level, suit=suit):
            alone = f" {_BID_ALONE_SHORT[level]}" if level in _BID_ALONE_SHORT else ""
            return f"{capital(verb(action).you)} {level} {suit.symbol}{alone}"
        case OrderUp(suit=suit) | TakeUp(suit=suit) if suit is not None:
            return f"{capital(verb(action, phase).you)}, {suit.symbol} trump"
    return _action_label(action, phase, variant, options, names)


def _status(view: PlayerView, seating: Seating, ended: str | None = None) -> str:
    if ended is not None:
        return f"🏁 Game over: {ended}"
    if view.phase is Phase.GAME_OVER:
        assert view.winner is not None
        return f"🏆 {won_game(seating.side_names(view.winner, view.sides))}."
    if view.turn is None:
        return f"{DEALING}…"
    return f"**{seating.who(view.turn)}** {doing(view, _variant(view))}."


def _describe_bid(
    seat: int, action: Action, phase: Phase, view: PlayerView, seating: Seating
) -> str:
    """One bid of the hand so far, made in ``phase``, in the past: ``Ann ordered it up``,
    ``Ann didn't go alone``."""
    return _past_bid(seat, action, phase, view.variant, view.options, seating.names)


@functools.lru_cache(maxsize=4096)
def _past_bid(
    seat: int,
    action: Action,
    phase: Phase,
    variant: str,
    options: Options | None,
    names: tuple[str, ...],
) -> str:
    # Kept, as _action_label: every change of a hand tells its bids again (the table
    # message, each web page's words), and a bid's words read only these.
    configured = _set_up(variant, options)
    return Wording(configured, names).narrate(seat, action, phase, past=True)


def _trump_line(view: PlayerView, seating: Seating) -> str:
    if view.trump is None:
        return "not yet made"
    if view.maker is None:
        return f"{suit_text(view.trump)} (the turned suit)"  # Jackpot: nobody bids
    words = Wording(_variant(view), seating.names)
    line = f"{suit_text(view.trump)}, {words.made_by(view.maker, view.bid, view.alone)}"
    if view.lone_defender is not None:
        line += f"; {words.defends_alone(view.lone_defender)}"
    return line


def score_line(view: PlayerView, seating: Seating) -> str:
    """The score with what it is played to (:func:`engine.wording.score_text`), as every
    screen writes it: ``Ann & Cleo: 3 · Bob & Dev: 2 (to 10)``."""
    names = [seating.side_names(side, view.sides) for side in range(len(view.scores))]
    return score_text(view.scores, names, score_goal(view, _variant(view)))


def table_title(view: PlayerView, game_id: int) -> str:
    """The table message's heading: ``### Tuque · game #12 · hand 3``."""
    hand = f" · hand {view.hand_no}" if view.hand_no else ""
    return f"### {_variant(view).title} · game #{game_id}{hand}"


def _short_trump(view: PlayerView, seating: Seating) -> str | None:
    """Trump in a few words: ``♠ trump, made by Ann alone`` (None before it is made)."""
    if view.trump is None:
        return None
    if view.maker is None:
        return f"{view.trump.symbol} trump (turned)"  # Jackpot: nobody bids
    made_by = Wording(_variant(view), seating.names).made_by(view.maker, view.bid, view.alone)
    return f"{view.trump.symbol} trump, {made_by}"


def start_text(view: PlayerView, seating: Seating, game_id: int) -> str:
    """The message in the channel that starts a game's thread, where its table plays:
    ``**Tuque · game #12**: Ann vs Bob, first to 10 points. The table is in the thread.``
    (the public view: names and the target only)."""
    sides = sorted(set(view.sides))
    players = " vs ".join(seating.side_names(s, view.sides) for s in sides)
    goal = "chips" if _variant(view).chips else f"first to {view.target} points"
    title = f"{_variant(view).title} · game #{game_id}"
    return f"**{title}**: {players}, {goal}. The table is in the thread."


def table_status(view: PlayerView, seating: Seating, ended: str | None = None) -> str:
    """The table message's one status line under its picture: who is to act (or the
    game's end), trump and its maker, and the score:
    ``**Ann** to play · ♠ trump, made by Ann · Ann: 3 · Bob: 2 (to 10)``.

    Args:
        view: the PUBLIC view (``game.view(None)``).
        seating: names per seat.
        ended: why the game ended before its last hand (a resignation, a forfeit).

    Raises:
        ValueError: ``view`` is a seat's view, not the public one.
    """
    if view.seat is not None:
        raise ValueError("the table is rendered from the public view only")
    parts = [_status(view, seating, ended).removesuffix(".")]
    previous = view.hand_just_over
    if previous is not None and ended is None:
        parts.append(_hand_end(previous, view, seating))
    trump = _short_trump(view, seating) if view.phase is not Phase.GAME_OVER else None
    if trump is not None and ended is None:
        parts.append(trump)
    parts.append(score_line(view, seating))
    return " · ".join(parts)


def _hand_end(result: HandResult, view: PlayerView, seating: Seating) -> str:
    """The hand just over, as the table shows it until the next hand's first action:
    ``hand 3 euchred: Bob took 7 of 17 tricks · Ann +2; Bob won the last trick``
    (:meth:`engine.wording.Wording.outcome`, as the picture's band says it)."""
    variant = _variant(view)
    head = f"hand {result.hand_no}"
    if result.thrown_in:
        return f"{head}: {THROWN_IN}"
    said = verdict(result, variant)
    words = Wording(variant, seating.names).outcome(result)
    trick = result.last_trick
    last = f"; {seating.who(trick.winner)} won the last trick" if trick is not None else ""
    return f"{head}{' ' + said if said else ''}: {words}{last}"


def table_words(public: PlayerView, seating: Seating, ended: str | None = None) -> dict[str, Any]:
    """The web table's words that every viewer of the game shares, from the public view:
    the same words as the Discord messages', without their markdown. The page writes
    them and decides nothing (``docs/web.md`` "The page"). Made from the public view,
    they hold nothing one seat may see and another may not, so one set serves every
    viewer of a change; each viewer's own words are :func:`prompt_words`.

    Returns:
        ``title`` (the game's name), ``status`` (who acts, doing what, or the game's
        end), ``trump`` (trump and its maker, or None before it is made), ``call`` (a
        Call-Ace or Auction call, or None), ``tricks`` (tricks taken this hand and what
        the makers need, during the play, else None), ``score`` (the score and what it
        is played to), ``hand_end`` (the hand just over, while the table shows it, else
        None), ``bids`` (each bid of this hand in the past, in order: ``Ann ordered it
        up``) and ``sides`` (each side's name, in side order: ``Ann & Cleo``, ``Ann,
        Cleo and Eve``).

    Raises:
        ValueError: ``public`` is a seat's view (``game.view(seat)``), not the public one.
    """
    if public.seat is not None:
        raise ValueError("the words every viewer shares come from the public view")
    previous = public.hand_just_over
    return {
        "title": _variant(public).title,
        # The page draws its own trophy: an emoji font is not on every machine.
        "status": _status(public, seating, ended).replace("**", "").lstrip("🏆🏁 "),
        "trump": _short_trump(public, seating) if public.phase is not Phase.GAME_OVER else None,
        "call": _called_once(public, TEXT_FACES),
        "tricks": _tricks_line(public, seating).replace("\n", " · ")
        if public.phase is Phase.PLAY
        else None,
        "score": score_line(public, seating),
        "hand_end": None if previous is None else _hand_end(previous, public, seating),
        "bids": [
            _describe_bid(seat, action, phase, public, seating)
            for (seat, action), phase in zip(public.bids, public.bid_phases, strict=True)
        ],
        "sides": [seating.side_names(side, public.sides) for side in range(len(public.scores))],
    }


def prompt_words(view: PlayerView) -> str:
    """What the web table asks the viewer of ``view`` (a seat's or the public view), as
    the hand message asks it: empty when they have nothing to do."""
    return _prompt(view) if view.legal_actions else ""


def hand_call_text(user_ids: Sequence[int], game_id: int) -> str:
    """The message that calls members to their hands when a game starts without them
    having it: ``<@1> <@2>: game #12 is on. Press **Show my hand** for your cards.``"""
    mentions = " ".join(f"<@{u}>" for u in user_ids)
    return f"{mentions}: game #{game_id} is on. Press **Show my hand** for your cards."


def ping_text(view: PlayerView, user_id: int, game_id: int) -> str:
    """The short message that pings a member on their turn:
    ``<@1>, it's your turn to bid (round 1) in game #12.`` (public view only)."""
    return f"<@{user_id}>, it's your turn {doing(view, _variant(view))} in game #{game_id}."


@dataclass(frozen=True, slots=True)
class HandText:
    """The words of a player's private hand message, in the order it shows them.

    ``status`` (what to do now, or whom the game waits for, and a hint's words),
    ``cards`` (the hand by suit), ``table`` (what of the table the decision needs)
    go above the controls; ``footer`` (the game and hand numbers) below them.
    An empty part is left out of the message.
    """

    status: str
    cards: str
    table: str
    footer: str

    @property
    def head(self) -> tuple[str, ...]:
        """The parts above the controls, the empty ones left out."""
        return tuple(part for part in (self.status, self.cards, self.table) if part)


def end_reason(result: Result | None, seating: Seating, sides: Sequence[int]) -> str:
    """Why a game ended before its last hand and who won: the member who resigned or did
    not come back (docs/rulings.md R9, R26), then the winners; with no result, that it
    was stopped."""
    if result is None or result.by is None:
        return "the game was stopped."
    name = seating.names[result.by]
    winners = seating.side_names(result.winner, sides)
    if result.ending is Ending.FORFEITED:
        return f"{name} did not come back and forfeits; {won_game(winners)}."
    return f"{name} resigned; {won_game(winners)}."


def played_for_text(note: Note, before: Game, after: Game, seating: Seating) -> str:
    """The line a member reads after their forced move (``note``) was played for them.
    It names the card only while its hand goes on: beside the next hand's cards it
    would read as one of them."""
    assert note.action is not None
    ended = after.phase in (Phase.HAND_OVER, Phase.GAME_OVER) or after.hand_no != before.hand_no
    if ended:
        return "Your last card was played for you."
    label = action_label(note.action, before.view(before.turn), seating)
    return f"Played for you, your only choice: {label}."


def playing_for_text(action: Action, view: PlayerView, seating: Seating) -> str:
    """The line a member reads while their forced move (``action``, their only legal
    one, which their auto-play choice covers) waits to be played for them: ``Your last
    card is played for you.`` in a hand's last trick, else ``Played for you, your only
    choice: Pass.``"""
    if view.phase is Phase.PLAY and len(view.tricks) == _variant(view).tricks - 1:
        return "Your last card is played for you."
    return f"Played for you, your only choice: {action_label(action, view, seating)}."


def table_note_text(note: Note, seating: Seating, user_id: int | None) -> str:
    """The post that tells the table of ``note`` (away, back, resigned; R9, R26);
    ``user_id``: the member of the note's seat, mentioned when they are away."""
    name = seating.names[note.seat]
    if note.kind is NoteKind.AWAY:
        then = (
            "it keeps their seat for the rest of the game"
            if note.goes_on
            else "their side forfeits"
        )
        return (
            f"<@{user_id}> is away: the computer plays their cards for the rest of this "
            f"hand. If they are not back by its end, {then}; **Show my hand** brings them back."
        )
    if note.kind is NoteKind.BACK:
        return f"{name} is back and plays their own cards again."
    if note.kind is NoteKind.RESIGNED:
        return f"{name} resigned: a computer plays their seat from now on."
    raise ValueError(f"{note.kind} is told to the member alone")


def reminder_text(user_id: int, game_id: int, minutes: int) -> str:
    """The turn reminder of the member ``user_id`` (R9): ``minutes`` before the
    computer plays for them."""
    return (
        f"<@{user_id}>, it's your turn in game #{game_id}. "
        f"Play within {minutes} minute{'' if minutes == 1 else 's'} "
        "or the computer plays for you."
    )


def hand_text(
    view: PlayerView,
    seating: Seating,
    game_id: int,
    note: str | None = None,
    faces: CardFaces = TEXT_FACES,
    ended: str | None = None,
    hint: str | None = None,
) -> HandText:
    """One player's private view, short enough for a phone beside the table's picture.

    Each card shows once: its face where the bot has its emoji, else its text.
    The table message carries the whole table, so this shows only what the
    player's decision needs: their own tableau and the others' face-up cards, an
    up-card while it is bid on, trump and its maker, a call, the trick so far,
    the tricks taken and what the makers need, and the score.

    Args:
        view: the player's own view (``game.view(seat)``).
        seating: names per seat.
        game_id: shown in the footer with the hand number.
        note: an extra line shown first (e.g. the result of the last click).
        faces: how cards show (their emojis, or text).
        ended: why the game ended before its last hand: shown instead of whose turn.
        hint: a hint's words, shown under the "Your turn" line.

    Raises:
        ValueError: ``view`` is the public view.
    """
    if view.seat is None:
        raise ValueError("a hand is rendered from a seat's view")
    variant = _variant(view)
    status = [note] if note and note != ended else []
    if ended is not None or view.phase is Phase.GAME_OVER:
        status.append(_status(view, seating, ended))
    # A partner sitting out still gives the loner a card when asked (RULES.md §6).
    elif view.seat in view.out and view.turn != view.seat:
        status.append("You sit out this hand: your partner plays alone.")
    elif view.turn == view.seat:
        status.append("**Your turn:** " + _prompt(view))
        if hint:
            status.append(hint)
    elif view.turn is not None:
        status.append(f"Waiting for {seating.who(view.turn)}.")
    if view.blind:
        cards = "Your hand: unseen (you name trump before you look at it)."
    else:
        cards = _grouped(view.hand, view.trump, variant, faces)
    table: list[str] = []
    if view.has_tableaus:
        for seat in _from(view.seat, view.players):
            # A tableau played out (at the game's end, every one) would read "[—/ ]".
            if any(p.up is not None or p.face_down for p in view.tableaus[seat]):
                whose = "Your tableau" if seat == view.seat else f"{seating.who(seat)}'s tableau"
                table.append(f"**{whose}** {_piles(view, seat, faces)}")
    if view.discards:
        table.append("**You discarded** " + " ".join(faces.show(c) for c in view.discards))
    bidding = view.phase not in (Phase.PLAY, Phase.HAND_OVER, Phase.GAME_OVER)
    # The dealer who took the up-card up sees it among their cards, not on the table.
    if view.up_card is not None and view.hand_no and bidding and view.up_card not in view.hand:
        turned = " (turned down)" if view.up_card_turned_down else ""
        table.append(f"**Up-card** {faces.show(view.up_card)}{turned}")
    if view.trump is not None:
        table.append(f"**Trump** {_trump_line(view, seating)}")
    called = _called_once(view, faces)
    if called:
        table.append(f"**Called** {called}")
        if view.maker is not None and view.maker != view.seat and known_partner(view) == view.seat:
            # Only this seat's own view can tell it (RULES.md §7): nobody else's says it.
            maker = seating.who(view.maker)
            held = "the called card" if view.called_card else "the called suit's best card"
            table.append(
                f"**You are {maker}'s secret partner**: you hold {held}; "
                "the others learn it when it is played."
            )
    if view.phase is Phase.PLAY:
        plays = " · ".join(f"{seating.who(s)} {faces.show(c)}" for s, c in view.trick.plays)
        table.append(f"**Trick** {plays or '—'}")
    if view.phase is Phase.PLAY:  # before the play, everyone's 0 says nothing
        table.append("**Tricks** " + _tricks_line(view, seating).replace("\n", " · "))
    table.append(f"**Score** {score_line(view, seating)}")
    footer = f"-# Game #{game_id} · hand {view.hand_no} · /tuque rules {view.variant}"
    return HandText("\n".join(status), cards, "\n".join(table), footer)


def _piles(view: PlayerView, seat: int, faces: CardFaces) -> str:
    """A seat's tableau piles in plain sight, no notation to learn: ``K♠ on ▮`` (a
    face-up card on a face-down one, the back shown as the bot's card back), ``▮`` (its
    face-up card played, the one beneath turns up after the trick), ``9♦`` (nothing
    beneath); an empty pile is left out. Each card shows once (its face, else its
    text); once trump is made, a face-up trump says so, ``J♣ trump on ▮`` (a Left Bower
    or a Ben is trump whatever its face shows)."""
    back = faces.back()
    shown = []
    for pile in view.tableaus[seat]:
        up = "" if pile.up is None else faces.show(pile.up)
        if up and is_trump(pile.up, view.trump):
            up += " trump"
        under = back if pile.face_down else ""
        if up or under:
            shown.append(f"{up} on {under}" if up and under else up or under)
    return " · ".join(shown) or "empty"


def _called_once(view: PlayerView, faces: CardFaces) -> str | None:
    """The Call-Ace or Auction call (RULES.md §7), a called card shown once."""
    if view.called_suit is not None:
        return f"{suit_text(view.called_suit)}: whoever holds its best card is the maker's partner"
    if view.called_card is not None:
        return f"{faces.show(view.called_card)}: its holder is the maker's partner"
    return None


def _grouped(cards: Sequence[Card], trump: Suit | None, variant: Variant, faces: CardFaces) -> str:
    """``cards`` one suit a line, trump first once made (the Bowers and Bens with it);
    before, the jokers last, headed by their game's word (the Bens, the Benny). Each
    card shows once: its face, or its text without one."""
    if not cards:
        return "Your hand is empty."
    lines = []
    for suit, group in suit_groups(cards, trump, variant.twins):
        if suit is None:
            word = jokers_word(variant).removeprefix("the ")
            head = f"**{word[:1].upper() + word[1:]}**"
        elif suit is trump:
            head = f"**Trump {suit.symbol}**"
        else:
            head = f"**{suit.symbol}**"
        lines.append(f"{head} {' '.join(faces.show(c) for c in group)}")
    return "\n".join(lines)


def _from(seat: int, players: int) -> list[int]:
    """Every seat, starting with ``seat`` and going round the table."""
    return [(seat + i) % players for i in range(players)]


def _tricks_line(view: PlayerView, seating: Seating) -> str:
    """Tricks taken this hand, by side where sides are known, and what the makers need
    (RULES.md §1–§7 "Scoring": the contract, or an Auction bid's tricks)."""
    variant = _variant(view)
    playing = [s for s in range(view.players) if s not in view.out]
    if variant.teams:
        sides = sorted({view.sides[s] for s in playing})
        taken = tally(
            [sum(view.tricks_won[s] for s in playing if view.sides[s] == side) for side in sides],
            [seating.side_names(side, view.sides) for side in sides],
        )
    else:
        taken = tally([view.tricks_won[s] for s in playing], [seating.who(s) for s in playing])
    if view.maker is None or view.phase not in (Phase.PLAY, Phase.HAND_OVER):
        return taken
    need = min(view.bid, variant.tricks) if view.bid else variant.contract
    maker = seating.who(view.alone if view.alone is not None else view.maker)
    if view.alone is not None or variant.makers == "solo":
        who = f"{maker} needs"
    elif variant.makers == "side":
        side = view.sides[view.maker]
        plural = "need" if view.sides.count(side) > 1 else "needs"
        who = f"{seating.side_names(side, view.sides)} {plural}"
    else:  # a secret or called partner: nobody may add their tricks up yet
        who = f"{maker} and partner need"
    return f"{taken}\n{who} {need} of {variant.tricks} tricks."


def _prompt(view: PlayerView) -> str:
    """What the seat to act is asked (:func:`engine.wording.prompt`), as the terminal asks it."""
    return prompt(view, _variant(view))


def hand_summary_embed(
    result: HandResult, variant: str | Variant, seating: Seating
) -> discord.Embed:
    """The channel announcement of a finished hand: trump, maker, tricks, points, score.

    A secret partner (RULES.md §7) is named here, once the hand is over.
    """
    v = VARIANTS[variant] if isinstance(variant, str) else variant
    embed = discord.Embed(title=f"Hand {result.hand_no} result", colour=RESULT_COLOUR)
    said = verdict(result, v)
    outcome = f" {capital(said)}!" if said else ""
    if v.chips:
        assert result.trump is not None
        won = tally(result.tricks, seating.names)
        embed.description = f"{suit_text(result.trump)} were trump. Tricks: {won}.{outcome}"
        embed.add_field(name="Chips this hand", value=points_text(result.points, seating.names))
    elif result.thrown_in:
        embed.description = f"{capital(THROWN_IN)}."
        return embed
    else:
        words = Wording(v, seating.names)
        embed.description = f"{words.made(result, loner=False)}. {words.took(result)}.{outcome}"
        sides = [seating.side_names(side, v.sides) for side in range(len(result.points))]
        embed.add_field(name="Points", value=points_text(result.points, sides))
    names = [seating.side_names(side, v.sides) for side in range(len(result.scores))]
    embed.add_field(name="Score", value=score_text(result.scores, names))
    return embed


def game_over_embed(view: PlayerView, seating: Seating, reason: str | None = None) -> discord.Embed:
    """The channel announcement of a finished game (won on points, resigned or forfeited)."""
    embed = discord.Embed(title="Game over", colour=RESULT_COLOUR)
    if reason:
        embed.description = reason
    else:
        assert view.winner is not None
        embed.description = f"🏆 {won_game(seating.side_names(view.winner, view.sides))}!"
    embed.add_field(name="Final score", value=score_line(view, seating))
    return embed


def replay_story(record: Mapping[str, Any], seating: Seating) -> str:
    """A finished game hand by hand, every card revealed: each seat's cards as dealt
    (hand and tableau), the up-card, the bidding, trump and its maker, every trick and
    the hand's result. Plain text, one hand a paragraph, for a file attachment.

    Args:
        record: the game's record (``engine.game.Game.to_record``'s shape).
        seating: names per seat.

    Raises:
        engine.errors.RecordError: the record does not rebuild a game.
    """
    full = Game.from_record(dict(record))  # checks the record before the walk below
    variant = full.variant
    game = Game(
        record["variant"],
        seed=record["seed"],
        first_dealer=record["first_dealer"],
        **record["options"],
    )
    lines = [f"{variant.title}: {_title_sides(variant, seating)}", ""]
    results = iter(full.hand_results)
    bids: list[str] = []
    trick: list[str] = []
    for entry in record["actions"]:
        actor = game.turn
        before = game.copy()
        game.replay(entry)
        if entry.startswith("deal "):
            lines += _dealt(game, seating)
            continue
        assert actor is not None
        action = parse_action(entry)
        if isinstance(action, Play):
            trick.append(f"{seating.who(actor)} {action.card.pretty()}")
            done = game.view(None).tricks
            if before.view(None).tricks != done and done:
                lines.append(
                    f"  Trick {len(done)}: {' · '.join(trick)} → {seating.who(done[-1].winner)}"
                )
                trick = []
        elif isinstance(action, Discard):
            lines.append(f"  {seating.who(actor)} discarded {action.card.pretty()}")
        else:
            bids.append(_describe_bid(actor, action, before.phase, before.view(actor), seating))
            if game.phase not in _BIDDING:
                lines.append(f"  Bidding: {'; '.join(bids)}")
                bids = []
        if game.hand_no != before.hand_no or game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            if trick:  # a hand that ended mid-trick cannot happen; kept for safety of output
                lines.append(f"  Trick: {' · '.join(trick)}")
                trick = []
            if bids:
                lines.append(f"  Bidding: {'; '.join(bids)}")
                bids = []
            result = next(results, None)
            if result is not None:
                lines += [f"  {_result_line(result, variant, seating)}", ""]
    return "\n".join(lines).rstrip() + "\n"


_BIDDING = frozenset(
    {
        Phase.BIDDING_1,
        Phase.BIDDING_2,
        Phase.GOING_ALONE,
        Phase.BLIND_NAMING,
        Phase.AUCTION,
        Phase.CALLING,
        Phase.CARD_REQUEST,
        Phase.GIVING,
    }
)


def _title_sides(variant: Variant, seating: Seating) -> str:
    return " vs ".join(
        seating.side_names(side, variant.sides) for side in sorted(set(variant.sides))
    )


def _dealt(game: Game, seating: Seating) -> list[str]:
    """A fresh deal's header and every seat's cards (hand, then tableau piles)."""
    zones = game.zones()
    twins = game.variant.twins
    head = f"Hand {game.hand_no} · dealer {seating.who(game.dealer)}"
    if game.up_card is not None:
        head += f" · up-card {game.up_card.pretty()}"
    lines = [head]
    for seat in range(game.variant.players):
        hand = _cards(list(cards_in(zones[f"hand:{seat}"])), None, twins)
        line = f"  {seating.who(seat)}: {hand}"
        piles = game.view(None).tableaus[seat]
        if piles:
            down = list(cards_in(zones[f"tableau-down:{seat}"]))
            up = [p.up for p in piles if p.up is not None]
            line += f" | tableau up {_cards(up, None, twins)}, down {_cards(down, None, twins)}"
        lines.append(line)
    if zones["widow"]:
        lines.append(f"  Widow: {_cards(list(cards_in(zones['widow'])), None, twins)}")
    return lines


def _result_line(result: HandResult, variant: Variant, seating: Seating) -> str:
    """A hand's result on one line of a replay: who made trump (Jackpot: nobody), each
    seat's tricks, a march or a euchre, the points and the score."""
    if result.thrown_in:
        return f"{capital(THROWN_IN)}."
    tricks = tally(result.tricks, seating.names)
    sides = [seating.side_names(side, variant.sides) for side in range(len(result.points))]
    score = score_text(result.scores, sides)
    maker = f"{Wording(variant, seating.names).made(result)}. " if result.maker is not None else ""
    said = verdict(result, variant)
    outcome = f" {capital(said)}!" if said else ""
    points = points_text(result.points, sides)
    return f"{maker}Tricks: {tricks}.{outcome} Points: {points}. Score: {score}."


def replay_caption(frame: Frame, seating: Seating) -> str:
    """One line under a replay's picture: which hand, and what this step shows
    (``Hand 2 · trick 3 of 5 · Ann wins it``); the last hand's result says who won."""
    view = frame.view
    head = f"Hand {frame.hand_no}"
    if frame.kind is FrameKind.DEAL:
        line = f"{head} · {seating.who(view.dealer)} deals"
        if view.up_card is not None:
            line += f" and turns up {view.up_card.pretty()}"
        if view.trump is not None and view.maker is None:
            line += f" · {suit_text(view.trump)} trump"  # Jackpot: turned, not bid
        return line
    if frame.kind is FrameKind.BIDDING:
        return f"{head} · trump {_trump_line(view, seating)}"
    if frame.kind is FrameKind.TRICK:
        winner = seating.who(view.trick.winner)
        return f"{head} · trick {frame.trick_no} of {_variant(view).tricks} · {winner} wins it"
    if frame.kind is FrameKind.RESULT and view.last_hand is not None:
        variant = _variant(view)
        line = f"{head} · {_result_line(view.last_hand, variant, seating)}"
        if view.winner is not None:
            line += f" Game over: {won_game(seating.side_names(view.winner, variant.sides))}."
        return line
    return f"{head} · the game ended here, in the middle of the hand."


def replay_label(frame: Frame) -> str:
    """A replay step in a few plain words, for the picture's corner: ``Hand 2 · trick 3``
    (the picture's font draws no suit symbols; the caption under it says the rest)."""
    what = {
        FrameKind.DEAL: "the deal",
        FrameKind.BIDDING: "trump made",
        FrameKind.TRICK: f"trick {frame.trick_no}",
        FrameKind.RESULT: "result",
        FrameKind.STOPPED: "ended here",
    }[frame.kind]
    return f"Hand {frame.hand_no} · {what}"


def replay_embed(row: GameRow, seating: Seating, hands: int) -> discord.Embed:
    """The channel post of ``/tuque replay``: who played, how it ended, the final score;
    the attached files hold the record and the hand-by-hand story."""
    variant = VARIANTS[row.variant].configured(VARIANTS[row.variant].options(**row.options))
    embed = discord.Embed(
        title=f"Replay of game #{row.id}: {variant.title}",
        description=_title_sides(variant, seating),
        colour=RESULT_COLOUR,
    )
    ending = {
        GameStatus.FINISHED: "played to the end",
        GameStatus.RESIGNED: "ended by a resignation",
        GameStatus.FORFEITED: "forfeited by an absent player",
        GameStatus.ABANDONED: "abandoned",
    }.get(row.status, str(row.status))
    if row.winner_seat is not None:
        side = variant.sides[row.winner_seat]
        ending += f"; {seating.side_names(side, variant.sides)} won"
    embed.add_field(name="Result", value=f"{hands} hands, {ending}.", inline=False)
    embed.set_footer(
        text="The .txt file tells every hand with every card. The .json file is the game's "
        "record: the Tuque program for computers replays it step by step."
    )
    return embed


def rules_embed(variant: str) -> discord.Embed:
    """``variant``'s rules in a player's words (:func:`engine.rules_text.rules_text`):
    "The game" as the description, one field per section (ranks, making trump, going
    alone, play, scoring table, legend). Each variant's text fits Discord's limits
    (description 4096, field 1024, 6000 in all; tests/bot/test_render.py)."""
    v = VARIANTS[variant]
    game, *sections = rules_text(v)
    embed = discord.Embed(title=f"{v.title}: the rules", description=game.text)
    for section in sections:
        embed.add_field(name=section.heading, value=section.text, inline=False)
    return embed


def _configured(variant: str, options: dict[str, object]) -> Variant:
    v = VARIANTS[variant]
    return v.configured(v.options(**options))


def lobby_seat_label(lobby: LobbyRow, seat: int) -> str:
    """How a lobby names a seat: ``"Seat 2"``, and in a team game its partners' seats,
    ``"Seat 2 · partner of seat 4"``, ``"Seat 2 · partner of seats 4 & 6"``. A side is
    named by its players in every text, so before anyone sits it is named by its seats
    (no team letters that the table and results would never use)."""
    v = _configured(lobby.variant, lobby.options)
    if not v.teams:
        return f"Seat {seat + 1}"
    partners = [f"{s + 1}" for s in range(v.players) if s != seat and v.sides[s] == v.sides[seat]]
    plural = "s" if len(partners) > 1 else ""
    return f"Seat {seat + 1} · partner of seat{plural} {side_name(partners)}"


def _rules_in_words(lobby: LobbyRow) -> str:
    """The variant's summary and the table's options, as a player would say them."""
    v = _configured(lobby.variant, lobby.options)
    o = v.options(**lobby.options)
    words = [goal(v, o.target, o.hands) if v.chips else f"first to {o.target} points"]
    words.append(f"computers play at the {lobby.level} level")
    if o.stick_the_dealer and v.name == "euchre":
        words.append("stick the dealer")
    if o.no_alone_after_pass:
        words.append("no going alone after passing")
    if o.dealer_must_make:
        words.append("the dealer must take a Ben they named")
    if o.pack:
        words.append(f"{len(v.pack)} cards")
    if v.teams:
        sides = (
            "partners sit opposite"
            if len(set(v.sides)) == 2 and v.players == 4
            else ("two teams seated alternately")
        )
    elif v.name in ("call_ace", "auction"):
        sides = "the maker's partner is found each hand"
    else:
        sides = "each for themself"
    # The summary's own target is the variant's default: the table's is said below.
    summary = _DEFAULT_TARGET.sub("", rules_text(v)[0].text)
    return f"{summary}\n\n**This table**: {', '.join(words)}; {sides}."


_DEFAULT_TARGET = re.compile(r" ?First (?:side |team )?to \d+ points wins[^.]*\.")
"""The sentence of a rules summary that gives the variant's default target."""


def lobby_embed(lobby: LobbyRow) -> discord.Embed:
    """A lobby: the rules in words, every seat (teams drawn), what happens next.

    Shows only ids, names and the options: a lobby holds nothing hidden."""
    v = _configured(lobby.variant, lobby.options)
    # No number of its own: the game's number is the one a player quotes, once it starts.
    kind = "invitation" if lobby.invited else "open table"
    embed = discord.Embed(
        title=f"{v.title}: {kind}",
        description=_rules_in_words(lobby),
        colour=TABLE_COLOUR,
    )
    held = {s.seat: s for s in lobby.taken}
    lines = []
    for seat in range(lobby.seats):
        s = held.get(seat)
        if s is None and lobby.status is LobbyStatus.STARTED:
            who = computer_name(seat)
        elif s is None:
            who = f"*empty: {computer_name(seat)} if nobody sits*"
        elif s.kind is SeatKind.COMPUTER:
            # Named as at the table; a level other than the table's is said beside it.
            level = f" · {s.level} level" if s.level != lobby.level else ""
            who = computer_name(seat) + level
        else:
            who = f"<@{s.user_id}>" + (" (host)" if s.user_id == lobby.host_id else "")
            if not s.accepted:
                who += " · *invited*"
        lines.append(f"**{lobby_seat_label(lobby, seat)}**: {who}")
    embed.add_field(name="Seats", value="\n".join(lines), inline=False)
    expires = f"<t:{int(lobby.expires_at)}:R>"
    status = {
        LobbyStatus.STARTED: f"Game #{lobby.game_id} is on: press **Show my hand** for your cards.",
        LobbyStatus.CANCELLED: "The host cancelled this table.",
        LobbyStatus.DECLINED: "An invited member declined, so the game is off.",
        LobbyStatus.EXPIRED: "Nobody started this table in time.",
    }.get(lobby.status)
    if status is None and lobby.invited and not lobby.waiting_for:
        status = (
            "Everyone has accepted, but two of you still play a game together: finish it, "
            f"then press **Accept** again to start. It expires {expires}."
        )
    elif status is None and lobby.invited:
        waiting = ", ".join(f"<@{u}>" for u in lobby.waiting_for)
        status = (
            f"Waiting for {waiting} to accept. The game starts when all have; it expires {expires}."
        )
    elif status is None:
        status = (
            "**Join** or pick a seat. The host adds computers and presses **Start**; empty "
            f"seats get computers. The table closes {expires}."
        )
    embed.add_field(name="Next", value=status, inline=False)
    return embed


def settings_embed(
    current: GuildSettings, defaults: GuildSettings, note: str | None = None
) -> discord.Embed:
    """A server's settings, each marked when it is the bot's default; ``note`` (e.g.
    what was just changed) above them."""

    def shown(value: str, name: str) -> str:
        same = getattr(current, name) == getattr(defaults, name)
        return f"{value} *(bot default)*" if same else value

    embed = discord.Embed(title="Tuque settings of this server", description=note)
    embed.colour = TABLE_COLOUR
    embed.add_field(
        name="Turn reminder",
        value=shown(f"after {current.reminder_minutes:g} min of a turn", "reminder_minutes"),
        inline=False,
    )
    embed.add_field(
        name="Away: the computer plays for the member",
        value=shown(
            f"after {current.away_minutes:g} min of a turn, for the rest of the hand; not "
            "back by its end, their side forfeits (a table of several members plays on)",
            "away_minutes",
        ),
        inline=False,
    )
    embed.add_field(
        name="Computer's pause before each move",
        value=shown(f"{current.computer_delay_seconds:g} s", "computer_delay_seconds"),
        inline=False,
    )
    embed.add_field(
        name="Hints in rated games",
        value=shown("allowed" if current.hints_in_rated else "off", "hints_in_rated"),
        inline=False,
    )
    embed.add_field(
        name="Default game",
        value=shown(VARIANTS[current.default_variant].title, "default_variant"),
        inline=False,
    )
    embed.add_field(
        name="A thread per game",
        value=shown(
            "on: pings and hand results go in the game's thread"
            if current.threads
            else "off: everything goes in the channel",
            "threads",
        ),
        inline=False,
    )
    role = current.event_host_role_id
    embed.add_field(
        name="Event hosts",
        value=shown(
            "members with Manage Events" + ("" if role is None else f", or the <@&{role}> role"),
            "event_host_role_id",
        ),
        inline=False,
    )
    embed.set_footer(text="Members with Manage Server change these with /tuque settings.")
    return embed


def leaderboard_embed(
    rows: Sequence[LeaderboardRow],
    variant: str | None,
    page: int,
    pages: int,
    events_won: Mapping[int, int] | None = None,
) -> discord.Embed:
    """One page of the server's leaderboard: rank, name, wins, losses, win %, games, rating,
    and the events each has won (``events_won``, by user id) when any."""
    won = events_won or {}
    title = "Leaderboard" + (f": {VARIANTS[variant].title}" if variant else "")
    embed = discord.Embed(title=title, colour=RESULT_COLOUR)
    if not rows:
        embed.description = "No rated games yet: challenge someone with `/tuque challenge`."
        return embed
    lines = [
        f"**{r.rank}.** {r.display_name or f'<@{r.user_id}>'} — {won_lost(r.wins, r.losses)} "
        f"({r.win_rate:.0%} of {r.games}) · rating {rating_text(r.rating)}"
        + (f" · {_events_won(won[r.user_id])}" if won.get(r.user_id) else "")
        for r in rows
    ]
    embed.description = "\n".join(lines)
    embed.set_footer(text=f"Page {page + 1} of {pages} · rated games between people only")
    return embed


def _events_won(count: int) -> str:
    return f"🏆 {count} event{'s' if count != 1 else ''} won"


def won_lost(wins: int, losses: int) -> str:
    """Wins and losses, as the leaderboard and every stats line write them: ``2 won · 0 lost``."""
    return f"{wins} won · {losses} lost"


def rating_text(rating: float) -> str:
    """A rating as players read it: a whole number on a scale that starts at 1000, so a
    new player's first loss reads ``969``, not ``-3.1`` (``bot.ratings``'s ordinal, which
    starts at 0, times 10 plus 1000: the order and the gaps are the model's)."""
    return str(1000 + round(rating * 10))


def stats_embed(stats: PlayerStats, name: str, events: EventPlaces | None = None) -> discord.Embed:
    """A player's record: games, wins, hands made and euchred, marches, average tricks,
    and their finished events (played, won, podiums) when they played any."""
    title = f"{name}'s record" + (f": {VARIANTS[stats.variant].title}" if stats.variant else "")
    embed = discord.Embed(title=title, colour=HAND_COLOUR)
    rating = rating_text(stats.rating) if stats.rating is not None else "unrated"
    embed.add_field(
        name="Games",
        value=f"{stats.games} played · {won_lost(stats.wins, stats.losses)} "
        f"({stats.win_rate:.0%}) · rating {rating}",
        inline=False,
    )
    embed.add_field(
        name="Against the computer",
        value=won_lost(stats.computer_wins, stats.computer_losses),
    )
    avg = f"{stats.avg_tricks:.1f}" if stats.avg_tricks is not None else "—"
    embed.add_field(
        name="Hands",
        value=f"{stats.hands_played} played · trump made {stats.hands_called} times: "
        f"{stats.hands_made} made it · {stats.hands_euchred} euchred · {stats.marches} marches · "
        f"{avg} tricks a hand",
        inline=False,
    )
    if events is not None and events.played:
        embed.add_field(
            name="Events",
            value=f"{events.played} played · {events.won} won · "
            f"{events.podiums} on the podium (1st to 3rd)",
            inline=False,
        )
    if stats.hints:
        embed.add_field(name="Hints taken", value=str(stats.hints))
    return embed


# --- events (issue 42; docs/events.md) -------------------------------------------------

EVENT_COLOUR = discord.Colour.purple()

_EVENT_STATUS = {
    EventStatus.SIGN_UP: "Sign-up is open",
    EventStatus.RUNNING: "Under way",
    EventStatus.BETWEEN: "Between rounds",
    EventStatus.FINISHED: "Finished",
    EventStatus.CANCELLED: "Cancelled",
}


def round_length(config: EventConfig) -> str:
    """A round's length in words: ``8 hands``, ``30 minutes``, or both."""
    parts = []
    if config.hands is not None:
        parts.append(f"{config.hands} hand{'s' if config.hands != 1 else ''}")
    if config.minutes is not None:
        parts.append(f"{config.minutes} minute{'s' if config.minutes != 1 else ''}")
    return " or ".join(parts)


def event_score(score: Fraction, config: EventConfig) -> str:
    """A standings score as members read it: points (progressive), match points with
    halves (``2½``), or a duplicate percentage."""
    if config.format is EventFormat.DUPLICATE:
        return f"{float(score) * 100:.1f}%"
    whole, half = divmod(score, 1)
    return f"{int(whole)}{'½' if half else ''}" if score >= 0 else str(score)


def _entry_name(members: Sequence[int | None]) -> str:
    return " & ".join("a computer" if m is None else f"<@{m}>" for m in members)


def event_embed(row: EventRow) -> discord.Embed:
    """An event's sign-up message: what it is, when it starts, and who is in. Ids and
    options only: an event holds nothing hidden."""
    event, config = row.event, row.event.config
    title = VARIANTS[config.variant].title
    embed = discord.Embed(
        title=f"{config.name}", description=f"{title} · {config.format.label}", colour=EVENT_COLOUR
    )
    rules = [f"{config.rounds} round{'s' if config.rounds != 1 else ''} of {round_length(config)}"]
    if config.loner_bonus:
        rules.append(f"a loner that marches scores {config.loner_bonus} more")
    if config.format is EventFormat.PROGRESSIVE and config.fill is EventFill.SIT_OUT:
        sit = "the round's average" if config.sit_out is SitOut.AVERAGE else config.sit_out_points
        rules.append(f"a member who sits out scores {sit}")
    elif config.fill is EventFill.COMPUTERS:
        rules.append("computers fill the empty seats")
    embed.add_field(name="Rules", value="; ".join(rules) + ".", inline=False)
    when = f"<t:{int(row.starts_at)}:F> (<t:{int(row.starts_at)}:R>)"
    embed.add_field(name="Starts", value=when, inline=False)
    members = event.signed_up
    listed = " ".join(f"<@{m}>" for m in members[:80]) or "*nobody yet*"
    if len(members) > 80:
        listed += f" and {len(members) - 80} more"
    embed.add_field(name=f"In ({len(members)})", value=listed, inline=False)
    embed.set_footer(
        text=f"{_EVENT_STATUS[event.status]} · hosted by a member · needs "
        f"{config.format.minimum} or more"
    )
    return embed


def round_line(event: Event, ends_at: float | None) -> str:
    """An event table's line under its table message's status: the event, the round,
    and when the round's clock runs out as a Discord timestamp, which each member's
    client counts down (``Friday night · round 2 of 4 · ends in 12 minutes``)."""
    name = discord.utils.escape_markdown(event.config.name)
    line = f"{name} · round {event.round_no} of {event.config.rounds}"
    return line if ends_at is None else f"{line} · ends <t:{int(ends_at)}:R>"


def seating_text(event: Event) -> str:
    """The seating of the round in play: each table's sides (partners with ``&``), and
    who sits out."""
    rnd = event.rounds[-1]
    lines = [f"**{event.config.name}: round {rnd.number} of {event.config.rounds}**"]
    for seating in rnd.seatings:
        sides = " vs ".join(_entry_name(seating.side(side)) for side in (0, 1))
        lines.append(f"Table {seating.table}: {sides}")
    out = [m for e in event.entries if e.number in rnd.sitting_out for m in e.members]
    if out:
        lines.append(f"Sitting out: {_entry_name(out)}")
    return "\n".join(lines)


def standings_embed(event: Event, link: str | None = None) -> discord.Embed:
    """The standings so far: place, entry, score, rounds played, and the round in play's
    progress (tables finished); a member a computer plays for now is marked away.
    ``link``: the live standings page on the web (its title opens it), where it is on."""
    config = event.config
    embed = discord.Embed(title=f"{config.name}: standings", colour=EVENT_COLOUR, url=link)
    lines = []
    for line in event.standings()[:40]:
        place = "–" if line.place is None else f"{line.place}."
        notes = " · *away*" if line.away else (" · *left*" if line.left else "")
        lines.append(
            f"{place} {_entry_name(line.members)}: **{event_score(line.score, config)}** "
            f"({line.played} played){notes}"
        )
    embed.description = "\n".join(lines) or "*nobody yet*"
    if event.rounds:
        rnd = event.rounds[-1]
        done = sum(r is not None for r in rnd.results)
        embed.set_footer(
            text=f"Round {rnd.number} of {config.rounds}: {done} of {len(rnd.seatings)} "
            f"tables finished · {_EVENT_STATUS[event.status]}"
        )
    return embed


_PODIUM = ("🥇", "🥈", "🥉")


def results_embed(event: Event) -> discord.Embed:
    """The event's results: the podium, then each entry's night (its score each round)."""
    config = event.config
    lines = event.standings()
    podium = [
        f"{_PODIUM[line.place - 1]} {_entry_name(line.members)}: "
        f"**{event_score(line.score, config)}**"
        for line in lines
        if line.place is not None and line.place <= 3
    ]
    embed = discord.Embed(
        title=f"{config.name}: results",
        description="\n".join(podium) or "*nobody placed*",
        colour=RESULT_COLOUR,
    )
    nights = []
    for line in lines[:40]:
        rounds = " · ".join("–" if r is None else event_score(r, config) for r in line.rounds)
        place = "–" if line.place is None else f"{line.place}."
        nights.append(f"{place} {_entry_name(line.members)}: {rounds}")
    embed.add_field(name="Each night, round by round", value="\n".join(nights) or "–", inline=False)
    embed.set_footer(text=f"{VARIANTS[config.variant].title} · {config.format.label}")
    return embed


def results_csv(event: Event, names: Mapping[int, str]) -> str:
    """The event's results as CSV: place, entry, members (``names`` by user id, else the
    id), score, tie-breaks, points, rounds played, then each round's score."""
    out = io.StringIO()
    writer = csv.writer(out)
    config = event.config
    rounds = [f"round {n}" for n in range(1, event.round_no + 1)]
    writer.writerow(
        ["place", "entry", "members", "score", "tiebreaks", "points", "played", *rounds]
    )
    for line in event.standings():
        members = " & ".join(
            "computer" if m is None else names.get(m, str(m)) for m in line.members
        )
        writer.writerow(
            [
                "" if line.place is None else line.place,
                line.entry,
                members,
                event_score(line.score, config),
                " ".join(str(float(t)) for t in line.tiebreaks),
                line.points,
                line.played,
                *("" if r is None else event_score(r, config) for r in line.rounds),
            ]
        )
    return out.getvalue()
