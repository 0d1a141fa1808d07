"""The ``tuque`` command: play against the computer, watch computers play, replay a saved game.

``main`` takes its arguments and streams as parameters so that tests drive it
with scripted input; ``docs/terminal.md`` shows a session. All the text comes
from :mod:`engine.render_text` (a hint's words from :mod:`engine.advice`); this
module only runs the game loop and talks to the person. On a terminal it colours
that text with rich (red suits red, trump underlined, headings bold) and shows
"thinking…" while a computer decides; into a file or a pipe, or with ``NO_COLOR``
set, it writes the plain text.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TextIO

import rich.console
import rich.text

from engine.actions import Action, Discard, Give, Play, parse_action
from engine.advice import certainty, hint_text, reason
from engine.cards import Card, Suit, effective_suit
from engine.errors import IllegalAction, RecordError
from engine.game import Deal, Game
from engine.players import LEVELS, make_player
from engine.render_text import FullPile, TextRenderer, rules_page
from engine.variants import VARIANTS, Variant
from engine.view import Phase, PlayerView
from engine.wording import goal

__all__ = ["main"]

EXIT_OK = 0
EXIT_SAVE_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # the shell's code for a program ended by Ctrl-C (128 + SIGINT)

_QUIT_WORDS = frozenset({"quit", "exit", "q"})
_HELP_WORDS = frozenset({"help", "?", "h"})
_HINT_WORDS = frozenset({"hint"})
HINT_SECONDS = 0.8
"""How long the hard computer searches for a hint (as long as Discord's hint): the
answer within a second."""
_SYMBOLS = "♣♦♥♠🃏▮—…"
# A card as the renderer writes it: 10♥, A♠', 🃏3, or in ASCII 10H, AS', B3 (upper
# case, whole words, so that no ordinary word is taken for a card).
_CARD = re.compile(r"(?<![\w'])(?:(10|[6-9JQKA])([♣♦♥♠CDHS])('?)|🃏([1-3])|B([1-3]))(?![\w'])")
_HEADING = re.compile(r"^(---|===) .* (---|===)$|^Game over: .*|^Symbols:$", re.MULTILINE)
_MENU_NUMBER = re.compile(r"(?:^|(?<=   ))\d+\)", re.MULTILINE)
_SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class Console:
    """The person's terminal: lines out, answers in.

    Args:
        stdin: where answers are read; end of input raises :class:`EOFError`.
        stdout: where every line is written.
        live: ``stdout`` is a terminal someone watches: "thinking…" lines may be
            shown and taken back.
        colour: colour the text (a live terminal, ``NO_COLOR`` unset); else plain text.
    """

    def __init__(
        self, stdin: TextIO, stdout: TextIO, *, live: bool = False, colour: bool = False
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.colour = colour
        self._rich = (
            rich.console.Console(
                file=stdout,
                force_terminal=True,
                no_color=not colour,
                highlight=False,
                markup=False,
                emoji=False,
                soft_wrap=True,
            )
            if live
            else None
        )

    def say(self, text: str = "", *, trump: Suit | None = None, bold: bool = False) -> None:
        """Write ``text`` and a newline; on a colour terminal its cards coloured by suit
        and ``trump`` (the trump suit as the text speaks of it), ``bold`` all of it."""
        if self._rich is None or not self.colour:
            self.stdout.write(text + "\n")
            return
        self._rich.print(_styled(text, trump, bold))

    @contextmanager
    def thinking(self, text: str) -> Iterator[None]:
        """Show ``text`` with a spinner on a live terminal while the block runs, then
        take it back; elsewhere nothing (a transcript keeps only what happened)."""
        if self._rich is None:
            yield
            return
        with self._rich.status(text):
            yield

    def ask(self, prompt: str) -> str:
        """Show ``prompt`` and return the answer without its newline.

        Raises:
            EOFError: the input has ended.
        """
        if self.stdin is sys.stdin and self.stdout is sys.stdout and sys.stdin.isatty():
            return input(prompt)  # a real terminal: input() gives line editing
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        answer = line.rstrip("\r\n")
        self.stdout.write(answer + "\n")  # echoed so that a transcript reads like a session
        return answer


def _styled(text: str, trump: Suit | None, bold: bool) -> rich.text.Text:
    """``text`` with its cards in their suit's colour (trump bold and underlined, the
    jokers magenta), its headings bold and its menu numbers bold."""
    styled = rich.text.Text(text, style="bold" if bold else "")
    for match in _CARD.finditer(text):
        rank, suit_mark, prime, ben, ascii_ben = match.groups()
        if ben or ascii_ben:
            card = Card.parse(f"B{ben or ascii_ben}")
        else:
            letter = _SUIT_LETTER.get(suit_mark, suit_mark)
            card = Card.parse(f"{rank}{letter}{prime}")
        style = "magenta" if card.is_ben else "red" if card.suit and card.suit.is_red else ""
        if trump is not None and effective_suit(card, trump) is trump:
            style += " bold underline"
        if style:
            styled.stylize(style.strip(), match.start(), match.end())
    for line in _HEADING.finditer(text):
        styled.stylize("bold", line.start(), line.end())
    for number in _MENU_NUMBER.finditer(text):
        styled.stylize("bold", number.start(), number.end())
    styled.highlight_words(["(trump)"], "bold")
    return styled


class _Quit(Exception):
    """The person typed ``quit``."""


class Table:
    """Runs one game and prints what its reader may see as it happens.

    Args:
        game: the game, in any phase.
        renderer: the text for this table.
        console: where the narration goes.
        reader: the seat whose view is narrated (``None``: the public view).
        review: watching or replaying: every hand is shown at the deal, every
            discard is named, and each trick is printed on one line once complete.
        pause: called after each deal or action that printed something (``--step``:
            wait for Enter); it may raise to stop the game.
    """

    def __init__(
        self,
        game: Game,
        renderer: TextRenderer,
        console: Console,
        *,
        reader: int | None,
        review: bool,
        pause: Callable[[], None] | None = None,
    ) -> None:
        self.game = game
        self.renderer = renderer
        self.console = console
        self.reader = reader
        self.review = review
        self.pause = pause
        self._from_tableau: set[Card] = set()
        self._hidden_discards = 0  # another seat's discards so far in a run not yet told

    def run(self, choose: Callable[[int], Action]) -> None:
        """Deal and play until the game is over; ``choose(seat)`` gives each seat's action."""
        game = self.game
        while game.phase is not Phase.GAME_OVER:
            if game.turn is None:
                game.deal()
                self.dealt()
            else:
                seat = game.turn
                self.step(seat, choose(seat))

    def dealt(self) -> None:
        """Announce the hand just dealt (with every card in review)."""
        view = self.game.view(self.reader)
        if not self.review:
            self.console.say(self.renderer.hand_start(view), trump=view.trump)
            return
        deal = self.game.log[-1]
        assert isinstance(deal, Deal)
        hands = [self.game.hand_of(s) for s in range(view.players)]
        tableaus = _tableaus(self.game.variant, deal)
        self.console.say(self.renderer.full_deal(view, hands, tableaus), trump=view.trump)
        if self.pause is not None:
            self.pause()

    def step(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` and narrate it and whatever it completes.

        Raises:
            IllegalAction: the action is not legal (nothing is printed or changed).
        """
        game, r = self.game, self.renderer
        before = game.view(self.reader)
        game.apply(seat, action)
        after = game.view(self.reader)
        said = False

        def say(text: str) -> None:
            nonlocal said
            said = True
            self.console.say(text, trump=after.trump or before.trump)

        if isinstance(action, Play) and action.card in before.face_up(seat):
            self._from_tableau.add(action.card)
        if isinstance(action, Discard) and r.hides(seat, action, after, reveal=self.review):
            # An Auction maker discards 3 or 5 hidden cards: one line, once they all are.
            self._hidden_discards += 1
            if after.phase is Phase.DISCARD and after.turn == seat:
                return
            count, self._hidden_discards = self._hidden_discards, 0
            say(r.action_line(before, seat, action, after, reveal=False, discards=count))
        elif not (self.review and isinstance(action, Play)):
            say(r.action_line(before, seat, action, after, reveal=self.review))
        if len(after.tricks) > len(before.tricks):
            if self.review:
                say(r.trick_summary(after, frozenset(self._from_tableau)))
            else:
                say(r.trick_won(after))
            self._from_tableau.clear()
            for line in r.turned_up(before, after):
                say(line)
        if after.last_hand is not before.last_hand and after.last_hand is not None:
            say(r.hand_result(after.last_hand, after.target, after.tie_break))
        if after.phase is Phase.GAME_OVER:
            say(r.game_result(after))
        if said and self.pause is not None and after.phase is not Phase.GAME_OVER:
            self.pause()


def _goal(game: Game) -> str:
    """What ends ``game`` (:func:`engine.wording.goal`): ``game to 10``, ``12 deals or a march``."""
    return goal(game.variant, game.options.target, game.options.hands)


def _opponents(variant: Variant) -> str:
    """Who plays with whom, for a table of three or more without fixed partners: each
    for themself, or a partner the maker calls each hand (RULES.md §5, §7)."""
    others = f"{variant.players - 1} computers"
    if variant.makers == "call_suit":
        return (
            f"You play against {others}, each scoring for themself: each hand the maker "
            "calls a suit, and whoever holds its best card is the maker's secret partner."
        )
    if variant.makers == "call_card":
        return (
            f"You play against {others}, each scoring for themself: each hand the highest "
            "bidder calls a card, and whoever holds it is the bidder's partner."
        )
    return f"You play each for yourself against {others}."


def _tableaus(variant: Variant, deal: Deal) -> list[list[FullPile]]:
    """Each seat's piles as dealt, in the layout :meth:`Game.deal` documents.

    Seat by seat: the face-down cards of the piles, the face-up cards on them, then
    the hand (docs/rulings.md R3). No view pairs a face-down card with its pile,
    so review reads the deal itself.
    """
    piles, stride = variant.tableau_piles, 2 * variant.tableau_piles + variant.hand_size
    result = []
    for seat in range(variant.players):
        start = seat * stride
        down = deal.cards[start : start + piles]
        up = deal.cards[start + piles : start + 2 * piles]
        result.append(list(zip(up, down, strict=True)))
    return result


Advice = Callable[[PlayerView], tuple[Action, Mapping[int, float]]]
"""A hint's search: the hard computer's action for a view and its shares of the search."""


def _advisor(seed: int | None) -> Advice:
    """The hard computer as an adviser: it searches :data:`HINT_SECONDS` on the view."""

    def advise(view: PlayerView) -> tuple[Action, Mapping[int, float]]:
        # Imported on the first hint, as engine.players imports the levels: a game that
        # asks for none starts without loading the search.
        from engine.ai.search import SearchPlayer

        player = SearchPlayer(seed=seed, time_budget=HINT_SECONDS)
        action = player.choose(view, view.legal_actions)
        return action, player.last_shares

    return advise


class Person:
    """The person at the keyboard: shows their screen and reads their choice.

    Args:
        game: the game being played.
        seat: the person's seat.
        renderer: the text for this table.
        console: the terminal.
        advise: the search behind ``hint`` (the hard computer by default).
    """

    def __init__(
        self,
        game: Game,
        seat: int,
        renderer: TextRenderer,
        console: Console,
        advise: Advice | None = None,
    ) -> None:
        self.game = game
        self.seat = seat
        self.renderer = renderer
        self.console = console
        self.advise = advise or _advisor(None)

    def choose(self) -> Action:
        """Show the screen and the numbered choices, and ask until a legal action is given.

        A forced move (exactly one legal action) is made at once, with a line saying so.

        Raises:
            EOFError: the input ended.
            _Quit: the person typed ``quit``.
        """
        view = self.game.view(self.seat)
        legal = self.renderer.choices(view)
        if len(legal) == 1:
            self.console.say(self.renderer.forced(view, legal[0]), trump=view.trump)
            return legal[0]

        def say(text: str = "") -> None:
            self.console.say(text, trump=view.trump)

        say()
        say(self.renderer.screen(view))
        say(self.renderer.menu(view))
        hint = ""
        while True:
            text = self.console.ask(f"Your choice [1-{len(legal)}]: ").strip()
            word = text.lower()
            if word in _QUIT_WORDS:
                raise _Quit
            if not text or word in _HELP_WORDS:
                say(self.renderer.input_help(view))
                continue
            if word in _HINT_WORDS:
                hint = hint or self._hint(view, legal)
                say(hint)
                continue
            if text.isdigit():
                number = int(text)
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                say(f"There is no choice {number}: type a number from 1 to {len(legal)}.")
                continue
            try:
                action = self._parse(text, view)
            except ValueError as err:
                say(f"Sorry, I don't understand that: {err}.")
                say(self.renderer.input_help(view))
                continue
            try:
                self.game.check(self.seat, action)
            except IllegalAction as err:
                say(str(err))
                continue
            return action

    def _hint(self, view: PlayerView, legal: Sequence[Action]) -> str:
        """What the hard computer would do, by its menu number, why and how sure, in the
        words of :mod:`engine.advice` (meant for Discord's hint too)."""
        r = self.renderer
        with self.console.thinking("Looking for a hint" + ("..." if r.ascii_only else "…")):
            action, shares = self.advise(view)
        labels = {a.id: r.menu_label(view, a) for a in legal}
        label = f"{legal.index(action) + 1}) {labels[action.id]}"
        return hint_text(
            label,
            reason(view, action, ascii_only=r.ascii_only),
            certainty(shares, action.id, labels),
            markdown=False,
            ascii_only=r.ascii_only,
        )

    def _parse(self, text: str, view: PlayerView) -> Action:
        """An action from a menu label, the action notation, or a bare card.

        Raises:
            ValueError: none of these.
        """
        legal = view.legal_actions
        for action in legal:
            labels = (
                self.renderer.action_label(view, action),
                self.renderer.menu_label(view, action),
            )
            if text.lower() in (label.lower() for label in labels):
                return action
        try:
            return parse_action(text)
        except ValueError as not_an_action:
            # A bare card ("10h") plays it, or discards or gives it when that is asked.
            verb = next((type(a) for a in legal if isinstance(a, Discard | Give)), Play)
            try:
                return verb(Card.parse(text))
            except ValueError:
                raise not_an_action from None


# --- commands -------------------------------------------------------------------------


def _seat_name(variant: Variant, seat: int) -> str:
    return TextRenderer(variant).names[seat]


def _seat_seed(game: Game, seat: int) -> int:
    # Each computer gets its own seed, derived from the game's, so a seeded game
    # replays the same and two computers never mirror each other's random choices.
    return game.seed * 16 + seat


def _new_game(args: argparse.Namespace) -> Game:
    """The game the options ask for.

    Raises:
        ValueError: an option the variant does not allow (the message says which).
    """
    variant = VARIANTS[args.variant]
    options: dict[str, object] = {
        "target": args.target,
        "players": args.players,
        "pack": args.pack,
        "hands": args.hands,
    }
    # Tuque always sticks the dealer (RULES.md §1), so the flag only matters elsewhere.
    if args.stick_the_dealer and not variant.defaults.stick_the_dealer:
        options["stick_the_dealer"] = True
    for flag in ("no_alone_after_pass", "dealer_must_make", "double_pack"):
        if getattr(args, flag):
            options[flag] = True
    return Game(variant, seed=args.seed, **options)


def _save(game: Game, path: Path | None, console: Console, err: TextIO) -> bool:
    """Write the game record to ``path`` (if any); ``False`` when writing failed."""
    if path is None:
        return True
    try:
        path.write_text(json.dumps(game.to_record(), indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        err.write(f"tuque: could not save the game to {path}: {error.strerror or error}\n")
        return False
    console.say(f"Game saved to {path}.")
    return True


def _pause(console: Console) -> Callable[[], None]:
    """``--step``: after each move, wait for Enter; ``quit`` stops the game.

    The pause raises ``_Quit`` for ``quit`` and ``EOFError`` at the end of input.
    """

    def pause() -> None:
        if console.ask("Enter: next move; 'quit' stops. ").strip().lower() in _QUIT_WORDS:
            raise _Quit

    return pause


def _play(args: argparse.Namespace, console: Console, err: TextIO) -> int:
    for flag, given in (("--opponent-level", args.opponent_level), ("--step", args.step)):
        if given and not args.watch:
            err.write(f"tuque play: error: {flag} needs --watch\n")
            return EXIT_USAGE
    try:
        game = _new_game(args)
    except ValueError as error:
        err.write(f"tuque play: error: {error}\n")
        return EXIT_USAGE
    variant = game.variant
    if args.watch:
        renderer = TextRenderer(variant, ascii_only=args.ascii)
        levels = [
            args.level if variant.sides[s] == 0 else args.opponent_level or args.level
            for s in range(variant.players)
        ]
        computers = {s: make_player(levels[s], _seat_seed(game, s)) for s in range(variant.players)}
        sides = " against ".join(
            f"{name} ({levels[variant.sides.index(side)]})"
            for side, name in enumerate(renderer.side_names)
        )
        console.say(f"{variant.title}: {sides}. {_goal(game).capitalize()}, seed {game.seed}.")
        console.say(renderer.legend())
        pause = _pause(console) if args.step else None
        table = Table(game, renderer, console, reader=None, review=True, pause=pause)
        person = None
    else:
        renderer = TextRenderer(variant, you=0, ascii_only=args.ascii)
        computers = {
            s: make_player(args.level, _seat_seed(game, s)) for s in range(1, variant.players)
        }
        person = Person(game, 0, renderer, console, _advisor(_seat_seed(game, 0)))
        console.say(
            f"{variant.title} against the computer ({args.level}). "
            f"{_goal(game).capitalize()}, seed {game.seed}."
        )
        if variant.teams:
            partners = [
                renderer.names[s] for s in range(1, variant.players) if variant.sides[s] == 0
            ]
            console.say(
                f"You sit {_seat_name(variant, 0)}; your partners ({', '.join(partners)}) "
                "are computers too."
            )
        elif variant.players > 2:
            console.say(_opponents(variant))
        console.say(renderer.legend())
        console.say("Type the number of a choice or the action itself; 'help' explains more.")
        table = Table(game, renderer, console, reader=0, review=False)

    def choose(seat: int) -> Action:
        if person is not None and seat == person.seat:
            return person.choose()
        with console.thinking(renderer.thinking(seat)):
            return computers[seat].choose(game.view(seat), game.legal_actions(seat))

    code = EXIT_OK
    try:
        table.run(choose)
    except KeyboardInterrupt:
        console.say("\nInterrupted: game stopped.")
        code = EXIT_INTERRUPTED
    except EOFError:
        console.say("\nEnd of input: game stopped.")
    except _Quit:
        console.say("Game stopped.")
    if not _save(game, args.save, console, err):
        return code or EXIT_SAVE_FAILED
    return code


def _replay(args: argparse.Namespace, console: Console, err: TextIO) -> int:
    path: Path = args.file
    try:
        text = path.read_text(encoding="utf-8")
        try:
            record = json.loads(text)
        except RecursionError:
            raise RecordError("its JSON is nested too deeply") from None
        except ValueError as error:
            if isinstance(error, json.JSONDecodeError):
                raise
            # Python refuses to read integers of more than 4,300 digits.
            raise RecordError("it holds a number too long to read") from None
        Game.from_record(record)  # check the whole record before printing anything
    except OSError as error:
        err.write(f"tuque replay: error: cannot read {path}: {error.strerror or error}\n")
        return EXIT_USAGE
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        err.write(f"tuque replay: error: {path} is not a JSON file: {error}\n")
        return EXIT_USAGE
    except RecordError as error:
        err.write(f"tuque replay: error: {path} is not a valid game record: {error}\n")
        return EXIT_USAGE
    game = Game.from_record({**record, "actions": []})
    renderer = TextRenderer(game.variant, ascii_only=args.ascii)
    first = renderer.names[game.first_dealer]
    console.say(
        f"Replay of {path}: {game.variant.title}, {_goal(game)}, "
        f"seed {game.seed}, {first} dealt first."
    )
    console.say(renderer.legend())
    pause = _pause(console) if args.step else None
    table = Table(game, renderer, console, reader=None, review=True, pause=pause)
    try:
        for entry in record["actions"]:
            if entry.startswith("deal "):
                game.replay(entry)
                table.dealt()
            else:
                assert game.turn is not None
                table.step(game.turn, parse_action(entry))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except (EOFError, _Quit):
        console.say("Replay stopped.")
        return EXIT_OK
    if game.phase is not Phase.GAME_OVER:
        console.say(renderer.unfinished(game.view(None)))
    return EXIT_OK


def _rules(args: argparse.Namespace, console: Console, err: TextIO) -> int:
    variant = VARIANTS[args.variant]
    previous = ""
    for line in rules_page(variant, args.ascii).split("\n"):
        console.say(line, bold=not previous)  # the title, and each heading after a blank line
        previous = line
    others = ", ".join(name for name in VARIANTS if name != variant.name)
    console.say()
    console.say(
        textwrap.fill(f"Other games: {others}. 'tuque rules VARIANT' tells one's rules.", 78)
    )
    return EXIT_OK


# --- arguments ------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _parser() -> argparse.ArgumentParser:
    levels = list(LEVELS)
    display = argparse.ArgumentParser(add_help=False)
    display.add_argument(
        "--ascii",
        action="store_true",
        help="show cards as 10H, AS, B3 instead of 10♥, A♠, 🃏3 (for terminals without "
        "those symbols; chosen automatically when the output cannot print them)",
    )
    parser = argparse.ArgumentParser(
        prog="tuque",
        description="Tuque and the Euchre family in a terminal: play against the computer, "
        "watch computers play, replay a saved game, or read a game's rules. On a terminal "
        "cards are coloured (NO_COLOR=1 turns it off); into a file, plain text.",
        epilog="Run 'tuque COMMAND --help' for a command's options.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = commands.add_parser(
        "play",
        parents=[display],
        help="play a game against the computer (or watch one with --watch)",
        description=(
            "Play a whole game against the computer. Each turn shows your hand, the\n"
            "tableaus, trump and the trick, then numbered choices: type a number or the\n"
            "action itself ('pass', 'order', 'name hearts', 'play 10h'). 'quit', Ctrl-C\n"
            "or Ctrl-D stop the game. In Euchre your partner (North) is a computer too."
        ),
        epilog=(
            "examples:\n"
            "  tuque play\n"
            "  tuque play --variant euchre --level hard --save game.json\n"
            "  tuque play --watch --seed 7 --level easy --opponent-level hard\n"
            "  tuque play --watch --step --variant euchre"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument(
        "--variant",
        choices=list(VARIANTS),
        default="tuque",
        help="the game ('tuque rules VARIANT' tells its rules): "
        + "; ".join(f"{name}: {v.title}" for name, v in VARIANTS.items())
        + "; default: %(default)s",
    )
    play.add_argument(
        "--players",
        type=int,
        choices=(4, 5, 6),
        help="call_ace and jackpot: seats at the table (default 4)",
    )
    play.add_argument(
        "--pack",
        type=int,
        choices=(24, 25, 28, 32),
        help="three_hand and two_hand: 25 (with the joker) or 24; auction: 28 or 32",
    )
    play.add_argument(
        "--hands", type=_positive, metavar="N", help="jackpot: deals before the game ends"
    )
    play.add_argument(
        "--no-alone-after-pass",
        action="store_true",
        help="british, six_hand: a player who passed in the round trump was made can't go alone",
    )
    play.add_argument(
        "--dealer-must-make",
        action="store_true",
        help="almonte: the dealer who named the suit for a turned-up Ben must take it",
    )
    play.add_argument(
        "--double-pack",
        action="store_true",
        help="six_hand: the 50-card double pack (two of each 9-A, two jokers)",
    )
    play.add_argument("--seed", type=int, help="seed for the deals and the computers")
    play.add_argument(
        "--target", type=_positive, metavar="N", help="points that win (default: the variant's)"
    )
    play.add_argument(
        "--level",
        choices=levels,
        default="normal",
        help="the computer's level (with --watch: South's side); default: %(default)s",
    )
    play.add_argument(
        "--opponent-level",
        choices=levels,
        help="with --watch: the other side's level (default: the same as --level)",
    )
    play.add_argument(
        "--stick-the-dealer",
        action="store_true",
        help="Euchre: the dealer must name trump if all pass twice (always so in Tuque)",
    )
    play.add_argument(
        "--watch",
        action="store_true",
        help="computer against computer, every card shown",
    )
    play.add_argument(
        "--step",
        action="store_true",
        help="with --watch: wait for Enter after each move ('quit' stops)",
    )
    play.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="write the game record (JSON) to FILE when the game ends or stops",
    )
    play.set_defaults(run=_play)
    replay = commands.add_parser(
        "replay",
        parents=[display],
        help="print a saved game hand by hand",
        description="Print a game saved with 'tuque play --save': each deal with every "
        "hand and tableau, the bidding, every trick, each hand's result and the score.",
    )
    replay.add_argument("file", type=Path, metavar="FILE", help="the saved game (JSON)")
    replay.add_argument(
        "--step", action="store_true", help="wait for Enter after each move ('quit' stops)"
    )
    replay.set_defaults(run=_replay)
    rules = commands.add_parser(
        "rules",
        parents=[display],
        help="print a game's rules",
        description="Print a game's rules as a player tells them: how to win, the cards "
        "and their ranks, making trump, going alone, the play, the scoring and what each "
        "symbol on the table means.",
    )
    rules.add_argument(
        "variant",
        nargs="?",
        choices=list(VARIANTS),
        default="tuque",
        metavar="VARIANT",
        help="the game: " + ", ".join(VARIANTS) + " (default: %(default)s)",
    )
    rules.set_defaults(run=_rules)
    return parser


def _can_print_symbols(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True  # an in-memory stream holds any text
    try:
        _SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _is_live(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal that can take control codes (not ``TERM=dumb``)."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False
    return tty and os.environ.get("TERM") != "dumb"


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the ``tuque`` command and return its exit code.

    Args:
        argv: the arguments (default: the command line).
        stdin, stdout, stderr: the streams (default: the process's).

    Returns:
        0 on success or when the person stops the game; 1 if the game could not be
        saved; 2 for bad arguments or a bad replay file; 130 after Ctrl-C.
    """
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    try:
        # argparse prints help and usage errors on sys.stdout/sys.stderr itself.
        with redirect_stdout(out), redirect_stderr(err):
            args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    args.ascii = args.ascii or not _can_print_symbols(out)
    live = _is_live(out)
    # NO_COLOR (no-color.org): any non-empty value turns colour off.
    colour = live and not os.environ.get("NO_COLOR")
    console = Console(stdin if stdin is not None else sys.stdin, out, live=live, colour=colour)
    try:
        return args.run(args, console, err)
    except BrokenPipeError:
        # The reader went away (e.g. `tuque replay game.json | head`): stop quietly,
        # and point stdout at nothing so the interpreter's final flush cannot fail.
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
