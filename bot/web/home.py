"""``tuque-web``'s home page: the person's unfinished games, and a form per game of the
family that starts one against computers (``docs/web.md``, "Play without Discord").

The forms offer, and :func:`parse_new` accepts, exactly what ``/tuque bot`` does: the
variants and computer levels of :mod:`bot.options`, each number option's values from
its :class:`~bot.options.TableNumber`, and the switches a variant lets a game change,
all checked at last by the engine (``options.game_options``). Everything here is pure:
text in, text out.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from string import Template

from bot import replies
from bot.options import (
    DISCORD_LEVELS,
    DISCORD_VARIANTS,
    TABLE_NUMBERS,
    TABLE_OPTION_HELP,
    game_options,
)
from bot.web.server import STATIC
from engine.variants import VARIANTS, Options, Variant
from engine.wording import goal

__all__ = ["DEFAULT_LEVEL", "SWITCHES", "FormRefused", "NewGame", "YourGame", "page", "parse_new"]

DEFAULT_LEVEL = "normal"
"""The computers' level a form offers first, as ``/tuque bot`` does."""

SWITCHES = tuple(f.name for f in dataclasses.fields(Options) if f.type in ("bool", bool))
"""The game options that are on or off (``stick_the_dealer``, ...): a checkbox each."""

_YES = "yes"
"""What a ticked checkbox sends (its ``value``)."""

_TEMPLATE = Template((STATIC / "home.html").read_text(encoding="utf-8"))


class FormRefused(ValueError):
    """A ``/new`` form that starts nothing: not one of the page's forms, or a value its
    game does not take. The message says why, in a player's words."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """The game a form asks for: the person at seat 0, computers of ``level`` elsewhere.

    Attributes:
        variant: a key of :data:`engine.variants.VARIANTS`.
        level: the computers' level, one of :data:`bot.options.DISCORD_LEVELS`.
        options: the options given, by the engine's names, checked for the variant
            (what ``GameSessions.start`` takes).
    """

    variant: str
    level: str
    options: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class YourGame:
    """An unfinished game of the person's, as the home page lists it.

    Attributes:
        link: the person's seat's link (``/table/<id>?t=<token>``).
        title: e.g. ``Game #3: Tuque``.
        state: where it stands, e.g. ``You: 4 · CPU 2: 7 (to 10); your turn``.
    """

    link: str
    title: str
    state: str


def parse_new(fields: Iterable[tuple[str, object]]) -> NewGame:
    """The game that the ``/new`` form's ``fields`` (name, value pairs, as posted) asks for.

    ``variant`` is required; ``level`` (default ``normal``), each number option and each
    switch (``yes`` when ticked) are optional, and a variant's defaults stand for what
    is left out.

    Raises:
        FormRefused: a field twice, not text, or of no form; a variant or level the
            page does not offer; a number the variant does not take; a switch of
            another variant, or an option the engine refuses for it.
    """
    given: dict[str, str] = {}
    for name, value in fields:
        if not isinstance(value, str):
            raise FormRefused(f"The form's {name!r} is not text.")
        if name in given:
            raise FormRefused(f"The form gives {name!r} twice.")
        given[name] = value
    variant = given.pop("variant", "")
    if variant not in DISCORD_VARIANTS:
        listed = ", ".join(DISCORD_VARIANTS)
        raise FormRefused(f"There is no game {variant!r} here: choose {listed}.")
    level = given.pop("level", DEFAULT_LEVEL)
    if level not in DISCORD_LEVELS:
        raise FormRefused(f"There is no computer level {level!r}: choose easy, normal or hard.")
    options: dict[str, object] = {}
    try:
        for name, value in given.items():
            if name in TABLE_NUMBERS:
                # At most three digits: a number past any option's range is refused as
                # one, without turning a megabyte of digits into an int.
                number = (
                    int(value) if value.isascii() and value.isdigit() and len(value) <= 3 else None
                )
                options[name] = TABLE_NUMBERS[name].check(variant, number)
            elif name in SWITCHES:
                if value != _YES:
                    raise FormRefused(f"Tick {name.replace('_', ' ')} or leave it out.")
                options[name] = True
            else:
                raise FormRefused(f"{name!r} is not an option of a game.")
        checked = game_options(variant, **options)
    except replies.UserError as error:
        # Its words are Discord's markdown: `5`, `10` is plain 5, 10 on a page.
        raise FormRefused(str(error).replace("`", "")) from None
    return NewGame(variant, level, checked)


def page(games: Sequence[YourGame]) -> str:
    """The home page: ``games`` (the person's unfinished games, newest first; none: no
    such section) and a form for every variant, Tuque's open."""
    return _TEMPLATE.substitute(games=_games(games), variants="\n".join(map(_form, VARIANTS)))


def _games(games: Sequence[YourGame]) -> str:
    if not games:
        return ""
    items = "\n".join(
        f'<li><a href="{html.escape(g.link)}">{html.escape(g.title)}</a>'
        f' <span class="state">{html.escape(g.state)}</span></li>'
        for g in games
    )
    return (
        '<section aria-labelledby="yours"><h2 id="yours">Your games</h2>'
        f'<ul class="games">\n{items}\n</ul></section>'
    )


def _about(variant: Variant) -> str:
    """``2 players · game to 10``: who plays and what ends the game."""
    counts = variant.choices.get("players") if "players" in variant.adjustable else None
    players = f"{min(counts)}–{max(counts)}" if counts else str(variant.players)
    teams = len(set(variant.sides))
    if variant.teams:
        players += f" players in {teams} teams"
    else:
        players += " players"
    ends = goal(variant, variant.defaults.target, variant.defaults.hands)
    return f"{players} · {ends}"


def _select(name: str, label: str, values: Sequence[tuple[str, str]], chosen: str) -> str:
    options = "".join(
        f'<option value="{html.escape(v)}"{" selected" if v == chosen else ""}>'
        f"{html.escape(text)}</option>"
        for v, text in values
    )
    return f'<label>{html.escape(label)} <select name="{name}">{options}</select></label>'


def _form(key: str) -> str:
    """The ``<details>`` of one variant: its name, who plays, and the form to start it."""
    variant = VARIANTS[key]
    title = html.escape(variant.title)
    against = "Computers" if variant.players > 2 or "players" in variant.adjustable else "Computer"
    rows = [
        f'<input type="hidden" name="variant" value="{key}">',
        _select("level", against, [(lv, lv) for lv in DISCORD_LEVELS], DEFAULT_LEVEL),
    ]
    for name, number in TABLE_NUMBERS.items():
        offered = number.offers(key)
        if len(offered) > 1:
            values = [(str(n), f"{n} {number.unit}") for n in offered]
            rows.append(_select(name, number.what.capitalize(), values, str(offered[0])))
    for name in SWITCHES:
        if name in variant.adjustable:
            # TABLE_OPTION_HELP says "euchre: what it does": the variant is this form's.
            what = TABLE_OPTION_HELP[name].partition(": ")[2]
            rows.append(
                f'<label class="switch"><input type="checkbox" name="{name}" value="{_YES}">'
                f" {name.replace('_', ' ').capitalize()} <small>{html.escape(what)}</small>"
                "</label>"
            )
    rows.append(f'<button type="submit">Play {title}</button>')
    fields = "\n".join(rows)
    opened = " open" if key == "tuque" else ""
    return (
        f'<details class="variant"{opened}><summary><span class="title">{title}</span>'
        f' <span class="about">{html.escape(_about(variant))}</span></summary>\n'
        f'<form method="post" action="/new">\n{fields}\n</form></details>'
    )
