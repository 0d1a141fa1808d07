"""Message layouts (Components V2) and how each persistent component looks.

The builders here arrange texts, pictures and the kinds of ``bot.buttons`` into the
messages the bot sends: a player's hand (``hand_layout``), the public table
(``table_layout``), a finished game's Rematch, a resignation's confirmation, a
choice of games, a replay's buttons. They decide labels, emoji, styles and rows,
and nothing about the rules: ``view.legal_actions`` says what a hand may do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.buttons import (
    ActionButton,
    ActionSelect,
    HintButton,
    LaunchButton,
    RematchButton,
    ReplayButton,
    ResignButton,
    ShowHandButton,
    SuitSelect,
)
from bot.emojis import TEXT_FACES, CardFaces
from engine.actions import Action, Bid, CallCard, Discard, Give, Play
from engine.cards import SUITS, Suit, is_trump
from engine.variants import VARIANTS
from engine.view import PlayerView
from engine.wording import sort_cards

__all__ = [
    "CHOICES_SHOWN",
    "HINT_EMOJI",
    "TABLE_PICTURE",
    "default_suit",
    "game_over_view",
    "games_view",
    "hand_layout",
    "launch_button",
    "rematch_started_view",
    "replay_row",
    "resign_view",
    "shortened",
    "show_hand_button",
    "suit_choices",
    "suit_of",
    "table_layout",
    "web_button",
]


def _style(action: Action) -> discord.ButtonStyle:
    # Cards, discards included, are grey: a discard is a normal part of the hand, not
    # a danger; decisions (bids, calls, going alone) stand out in blue.
    if isinstance(action, Play | Discard):
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary


MAX_BUTTONS = 25
"""Discord's limit of components in a message: five rows of five buttons."""


_CARD_ACTIONS = (Play, Discard, Give, CallCard)
"""The actions on one card, whose buttons show its face."""


def _emoji(action: Action, faces: CardFaces) -> discord.PartialEmoji | None:
    """The face of the card ``action`` moves or names, if it has one."""
    if isinstance(action, _CARD_ACTIONS):
        return faces.emoji(action.card)
    return None


HINT_EMOJI = "💡"
"""The mark of the button a hint means (and of the Hint button itself)."""
HAND_ACCENT = discord.Colour.blurple()
"""The hand message's container colour (the table's is green)."""
ROW_SIZE = 5
"""Buttons in one action row (Discord's limit)."""
MAX_LAYOUT_COMPONENTS = 40
"""Discord's limit of components in a Components V2 message, nested ones included."""


def suit_of(action: Action) -> Suit | None:
    """The suit the compact controls file ``action`` under: a bid's trump, a called
    card's suit (RULES.md §7 Auction); None for every other action (and a joker)."""
    if isinstance(action, Bid):
        return action.suit
    if isinstance(action, CallCard):
        return action.card.suit
    return None


def suit_choices(view: PlayerView) -> list[Suit]:
    """The suits a hand view's suit select offers: those with a legal bid or call, in
    the order ♣ ♦ ♥ ♠; empty where the controls are plain buttons."""
    found = {suit_of(a) for a in view.legal_actions} - {None}
    return [s for s in SUITS if s in found]


def default_suit(view: PlayerView) -> Suit | None:
    """The suit shown before the player chooses one: trump when calling a card (a high
    trump is the usual call), else the suit they hold most of (the first on a tie)."""
    choices = suit_choices(view)
    if not choices:
        return None
    calling = any(isinstance(a, CallCard) for a in view.legal_actions)
    if calling and view.trump in choices:
        return view.trump
    return max(choices, key=lambda s: (sum(c.suit is s for c in view.hand), -s.index))


def _marked(button: discord.ui.Button[Any], marked: bool) -> discord.ui.Button[Any]:
    # The hint's mark: a colour and the bulb, the label as it was (so it reads the same).
    if marked:
        button.style = discord.ButtonStyle.success
        button.emoji = HINT_EMOJI
    return button


@dataclass(frozen=True)
class _Controls:
    """What the controls of one hand message are made of: ``view.legal_actions`` paired
    with their labels, offered at log length ``seq`` of game ``game_id``, drawn with
    ``faces``, the action ``marked`` by a hint."""

    game_id: int
    seq: int
    view: PlayerView
    pairs: Sequence[tuple[Action, str]]
    faces: CardFaces
    marked: int | None

    def button(self, action: Action, label: str) -> ActionButton:
        button = discord.ui.Button[Any](
            label=label, emoji=_emoji(action, self.faces), style=_style(action)
        )
        marked = _marked(button, action.id == self.marked)
        return ActionButton.of(marked, game=self.game_id, seq=self.seq, action=action.id)


def _rows(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    return [discord.ui.ActionRow(*items[i : i + ROW_SIZE]) for i in range(0, len(items), ROW_SIZE)]


def _suit_controls(controls: _Controls, suit: Suit | None) -> list[discord.ui.Item[Any]]:
    """A suit select, the chosen suit's bids or calls as buttons, then the other actions."""
    view, pairs = controls.view, controls.pairs
    choices = suit_choices(view)
    hinted = next((suit_of(a) for a, _ in pairs if a.id == controls.marked), None)
    chosen = hinted or (suit if suit in choices else default_suit(view))
    calling = any(isinstance(a, CallCard) for a, _ in pairs)
    options = []
    for option in choices:
        count = sum(suit_of(a) is option for a, _ in pairs)
        held = sum(c.suit is option for c in view.hand)
        options.append(
            discord.SelectOption(
                label=f"{option.symbol} {option.noun}",
                value=option.value,
                description=f"{count} cards you may call" if calling else f"You hold {held}",
                emoji=HINT_EMOJI if option is hinted else None,
                default=option is chosen,
            )
        )
    select = discord.ui.Select[Any](
        placeholder="The suit of the card to call" if calling else "The suit to bid in",
        options=options,
    )
    items: list[discord.ui.Item[Any]] = [
        discord.ui.ActionRow(SuitSelect.of(select, game=controls.game_id, seq=controls.seq))
    ]
    items += _rows([controls.button(a, label) for a, label in pairs if suit_of(a) is chosen])
    others = [controls.button(a, label) for a, label in pairs if suit_of(a) is None]
    return [*items, *_rows(others)]


def _card_controls(controls: _Controls) -> list[discord.ui.Item[Any]]:
    """Buttons, five a row: the hand's actions, then under their own line the face-up
    tableau cards, labelled as such (not coloured: a colour would read as advice)."""
    view, pairs = controls.view, _in_hand_order(controls.view, controls.pairs)
    tableau = set(view.face_up(view.seat)) if view.seat is not None and view.has_tableaus else set()
    from_tableau = [(a, label) for a, label in pairs if isinstance(a, Play) and a.card in tableau]
    from_hand = [pair for pair in pairs if pair not in from_tableau]
    items: list[discord.ui.Item[Any]] = list(
        _rows([controls.button(a, label) for a, label in from_hand])
    )
    if from_tableau:
        items.append(discord.ui.TextDisplay("From your tableau:"))
        tableau_buttons = [
            controls.button(a, _tableau_label(a, label, view)) for a, label in from_tableau
        ]
        items += _rows(tableau_buttons)
    return items


def _in_hand_order(
    view: PlayerView, pairs: Sequence[tuple[Action, str]]
) -> list[tuple[Action, str]]:
    """``pairs`` with the actions on cards in the order the hand message lists the cards
    (trump first once made, each suit high to low: ``engine.wording.sort_cards``), and
    the other actions after them as the engine gives them."""
    variant = VARIANTS[view.variant]
    twins = (variant.configured(view.options) if view.options is not None else variant).twins
    cards = [a.card for a, _ in pairs if isinstance(a, _CARD_ACTIONS)]
    place = {card: n for n, card in enumerate(sort_cards(cards, view.trump, twins))}
    return sorted(
        pairs,
        key=lambda pair: place[pair[0].card] if isinstance(pair[0], _CARD_ACTIONS) else len(place),
    )


def _tableau_label(action: Action, label: str, view: PlayerView) -> str:
    """A tableau card's button label: ``Play K♠ (tableau)``, and once trump is made
    ``Play J♣ (tableau, trump)`` for a trump: a face that shows another suit (the Left
    Bower) or none (a Ben) is trump all the same."""
    trump = isinstance(action, Play) and is_trump(action.card, view.trump)
    return f"{label} (tableau{', trump' if trump else ''})"


def _select_controls(controls: _Controls) -> list[discord.ui.Item[Any]]:
    """Selects of at most 25 actions each, in action order, where buttons would not fit."""
    pairs = controls.pairs
    parts = -(-len(pairs) // MAX_BUTTONS)
    size = -(-len(pairs) // parts)
    rows: list[discord.ui.Item[Any]] = []
    for part in range(parts):
        chunk = pairs[part * size : (part + 1) * size]
        select = discord.ui.Select[Any](
            placeholder=f"{chunk[0][1]} … {chunk[-1][1]}",
            options=[
                discord.SelectOption(
                    label=label,
                    value=str(a.id),
                    emoji=HINT_EMOJI if a.id == controls.marked else _emoji(a, controls.faces),
                )
                for a, label in chunk
            ],
        )
        rows.append(
            discord.ui.ActionRow(
                ActionSelect.of(select, game=controls.game_id, seq=controls.seq, part=part)
            )
        )
    return rows


def _count(items: Sequence[discord.ui.Item[Any]]) -> int:
    """Components in ``items``, an action row's buttons included."""
    return sum(
        1 + len(item.children) if isinstance(item, discord.ui.ActionRow) else 1 for item in items
    )


def _with_hint(
    items: list[discord.ui.Item[Any]], game_id: int, seq: int
) -> list[discord.ui.Item[Any]]:
    """The Hint button after the controls: in the last row of buttons while it has room
    (and is not the tableau's, where it would read as a card), else in a row of its own."""
    button = discord.ui.Button[Any](
        label="Hint", emoji=HINT_EMOJI, style=discord.ButtonStyle.secondary
    )
    hint = HintButton.of(button, game=game_id, seq=seq)
    last = items[-1] if items else None
    tableau_row = len(items) >= 2 and isinstance(items[-2], discord.ui.TextDisplay)
    if (
        isinstance(last, discord.ui.ActionRow)
        and not tableau_row
        and not any(
            isinstance(c, discord.ui.Select | SuitSelect | ActionSelect) for c in last.children
        )
        and len(last.children) < ROW_SIZE
    ):
        last.add_item(hint)
        return items
    return [*items, discord.ui.ActionRow(hint)]


def hand_layout(
    game_id: int,
    seq: int,
    view: PlayerView,
    labels: Sequence[str],
    head: Sequence[str],
    footer: str = "",
    faces: CardFaces = TEXT_FACES,
    *,
    hint: bool = False,
    suit: Suit | None = None,
    marked: int | None = None,
    controls: bool = True,
    web_link: str | None = None,
) -> discord.ui.LayoutView:
    """A player's private hand message in Discord's component layout (Components V2).

    One container: the texts of ``head`` (what to do, the cards, the table's
    essentials; see :func:`bot.render.hand_text`), then the controls for exactly
    ``view.legal_actions`` (``labels`` in the same order), with ``hint`` a "Hint"
    button after them, then ``footer`` in small print.

    The controls: in Auction's bidding and its call of a card (RULES.md §7) a suit
    select, that suit's bids or cards as buttons, and Pass; elsewhere one button per
    action, five a row, the face-up tableau cards under a line of their own and
    labelled "(tableau)", or "(tableau, trump)" for a trump; selects of actions where
    buttons would not fit.

    Args:
        suit: the suit the player chose in the select (another falls back to
            :func:`default_suit`).
        marked: the id of the action a hint means: its button is green with 💡, and
            in the compact bidding its suit is the one shown.
        controls: False for a game that ended before its last hand (a resignation, a
            forfeit): the engine still has actions, but there is nothing to click.
        web_link: the member's own link to their seat at the web table, a link button
            in a row of its own at the end (only ever in this ephemeral message).
    """
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container[Any](accent_colour=HAND_ACCENT)
    for text in head:
        container.add_item(discord.ui.TextDisplay(text))
    if view.legal_actions and controls:
        pairs = list(zip(view.legal_actions, labels, strict=True))
        controls = _Controls(game_id, seq, view, pairs, faces, marked)
        if suit_choices(view):
            items = _suit_controls(controls, suit)
        else:
            items = _card_controls(controls)
            # The container, the separator, the footer and a row of its own for the hint.
            fixed = len(head) + 2 + bool(footer) + 2 * hint + 2 * bool(web_link)
            if fixed + _count(items) > MAX_LAYOUT_COMPONENTS:
                items = _select_controls(controls)
        if hint:
            items = _with_hint(items, game_id, seq)
        container.add_item(discord.ui.Separator())
        for item in items:
            container.add_item(item)
    if footer:
        container.add_item(discord.ui.TextDisplay(footer))
    if web_link is not None:
        container.add_item(discord.ui.ActionRow[Any](web_button(web_link, "Play on the web")))
    layout.add_item(container)
    return layout


def game_over_view(game_id: int) -> discord.ui.View:
    """The game-over message's components: "Rematch"."""
    ui = discord.ui.View(timeout=None)
    button = discord.ui.Button[Any](label="Rematch", emoji="🔁", style=discord.ButtonStyle.success)
    ui.add_item(RematchButton.of(button, game=game_id))
    return ui


def rematch_started_view(rematch_id: int) -> discord.ui.View:
    """The game-over message's components once its rematch, game ``rematch_id``, started:
    a disabled button that says so, in place of "Rematch"."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(
        discord.ui.Button[Any](
            label=f"Rematch started · game #{rematch_id}",
            emoji="🔁",
            style=discord.ButtonStyle.secondary,
            disabled=True,
        )
    )
    return ui


TABLE_ACCENT = discord.Colour.dark_green()
TABLE_PICTURE = "table.jpg"
"""The file name of the table's picture, attached to the table message."""


def table_layout(
    game_id: int,
    title: str,
    status: str,
    description: str,
    *,
    finished: bool,
    watch_link: str | None = None,
    activity: bool = False,
) -> discord.ui.LayoutView:
    """The public table message in Discord's component layout (Components V2): ``title``,
    the table's picture (the attachment :data:`TABLE_PICTURE`, with ``description`` as
    its text for screen readers), one ``status`` line, and "Show my hand" while the
    game runs, beside "Watch on the web" (``watch_link``, a spectator's link: the
    public view) where the web table is on, and "Open the table" (:func:`launch_button`)
    where it also runs inside Discord (``activity``)."""
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container[Any](accent_colour=TABLE_ACCENT)
    container.add_item(discord.ui.TextDisplay(title))
    gallery = discord.ui.MediaGallery[Any]()
    gallery.add_item(media=f"attachment://{TABLE_PICTURE}", description=description)
    container.add_item(gallery)
    container.add_item(discord.ui.TextDisplay(status))
    if not finished:
        buttons: list[discord.ui.Item[Any]] = [show_hand_button(game_id)]
        if activity:
            buttons.append(launch_button())
        if watch_link is not None:
            buttons.append(web_button(watch_link, "Watch on the web"))
        container.add_item(discord.ui.ActionRow[Any](*buttons))
    layout.add_item(container)
    return layout


def web_button(url: str, label: str) -> discord.ui.Button[Any]:
    """A link button to the web table (Discord opens ``url`` in the browser)."""
    return discord.ui.Button[Any](label=label, emoji="🌐", url=url)


def launch_button() -> LaunchButton:
    """ "Open the table": launches the table inside Discord, the Activity, for the clicker."""
    button = discord.ui.Button[Any](label="Open the table", emoji="🎴")
    return LaunchButton.of(button)


def show_hand_button(game_id: int, label: str = "Show my hand") -> ShowHandButton:
    """The public "Show my hand" button of game ``game_id`` (``label``: another text, such
    as the game it is for)."""
    button = discord.ui.Button[Any](label=label, emoji="🃏", style=discord.ButtonStyle.primary)
    return ShowHandButton.of(button, game=game_id)


def _resign_button(game_id: int, label: str = "Yes, resign") -> ResignButton:
    button = discord.ui.Button[Any](label=label, style=discord.ButtonStyle.danger)
    return ResignButton.of(button, game=game_id)


def resign_view(game_id: int) -> discord.ui.View:
    """The confirm button of ``/tuque resign``."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(_resign_button(game_id))
    return ui


CHOICES_SHOWN = 25
"""Games a choice of games offers at most: Discord's 5 rows of 5 buttons."""


def games_view(games: Sequence[tuple[int, str]], resign: bool) -> discord.ui.View:
    """One button per ``(game id, label)`` of a member's games (the first
    ``CHOICES_SHOWN``): "Show my hand" for that game, or with ``resign`` its confirm
    button. Labels are cut to Discord's 80 characters."""
    ui = discord.ui.View(timeout=None)
    for game_id, label in games[:CHOICES_SHOWN]:
        text = shortened(f"Resign {label}" if resign else label, 80)
        ui.add_item(_resign_button(game_id, text) if resign else show_hand_button(game_id, text))
    return ui


def shortened(text: str, limit: int) -> str:
    """``text`` as it is if it fits in ``limit`` characters, else cut at the last word
    that fits, with "…" (a name cut mid-word can read as another name)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]  # room for the "…"
    if text[limit - 1] != " " and " " in head.strip():
        head = head.rsplit(" ", 1)[0]  # the word cut off goes whole
    return head.rstrip(" ·,") + "…"


REPLAY_WAYS = {
    "prevhand": ("⏮", "Hand"),
    "prev": ("◀", "Back"),
    "next": ("▶", "Next"),
    "nexthand": ("⏭", "Hand"),
}
"""A replay's buttons, in their row's order: what the custom_id says, the emoji and label."""


def replay_row(
    game_id: int, step: int, hand_starts: Sequence[int], steps: int
) -> discord.ui.ActionRow[Any]:
    """The buttons under step ``step`` (0-based) of a replay of ``steps`` steps whose
    hands start at ``hand_starts``: the start of this hand (or, from there, of the one
    before), the step before, the step after, the start of the next hand (or the last
    step); each disabled where it would not move."""
    current = max((s for s in hand_starts if s <= step), default=0)
    back_hand = current if current < step else max((s for s in hand_starts if s < step), default=0)
    next_hand = min((s for s in hand_starts if s > step), default=steps - 1)
    targets = {
        "prevhand": back_hand,
        "prev": max(step - 1, 0),
        "next": min(step + 1, steps - 1),
        "nexthand": next_hand,
    }
    return discord.ui.ActionRow[Any](
        *(
            _replay_button(game_id, target, way, disabled=target == step)
            for way, target in targets.items()
        )
    )


def _replay_button(game_id: int, step: int, way: str, *, disabled: bool) -> ReplayButton:
    emoji, label = REPLAY_WAYS[way]
    forward = way == "next"  # the usual click stands out
    button = discord.ui.Button[Any](
        label=label,
        emoji=emoji,
        style=discord.ButtonStyle.primary if forward else discord.ButtonStyle.secondary,
        disabled=disabled,
    )
    return ReplayButton.of(button, game=game_id, step=step, way=way)
