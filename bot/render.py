"""Rendering: engine views and store rows into embeds and text. No rules, no I/O.

Everything here takes a :class:`~engine.view.PlayerView` (public or one seat's),
so a public embed can only ever show what the public view holds: the hidden
cards never reach this module for a channel post.

Cards show as their faces (:class:`~bot.emojis.CardFaces`, the bot's card emojis)
followed by their text (``<:tq_10h:…> 10♥``), which screen readers read; with
:data:`~bot.emojis.TEXT_FACES`, the default, as text alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.emojis import TEXT_FACES, CardFaces
from bot.store import LeaderboardRow, LobbyRow, LobbyStatus, PlayerStats, SeatKind
from engine.actions import (
    Action,
    Ask,
    Bid,
    CallCard,
    CallSuit,
    Discard,
    GoAlone,
    NameTrump,
    OrderUp,
    Pass,
    Play,
    TakeUp,
    TurnDown,
)
from engine.cards import DOUBLE_POWER, EFFECTIVE_SUIT, POWER, SUITS, TWIN, Card, Suit
from engine.render_text import TextRenderer
from engine.variants import VARIANTS, Variant
from engine.view import HandResult, Phase, PlayerView

__all__ = [
    "Seating",
    "action_label",
    "game_over_embed",
    "hand_embed",
    "hand_summary_embed",
    "leaderboard_embed",
    "lobby_embed",
    "lobby_seat_label",
    "rules_embed",
    "sort_cards",
    "stats_embed",
    "table_content",
    "table_embed",
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
        """The names on ``side`` joined with ``&``."""
        return " & ".join(n for n, s in zip(self.names, sides, strict=True) if s == side)


def sort_cards(cards: Sequence[Card], trump: Suit | None, twins: bool = False) -> list[Card]:
    """Cards grouped by effective suit (trump first once made), high to low within a suit;
    ``twins``: the double pack's, whose jokers rank by trump's colour (RULES.md §6)."""
    if trump is None:
        return sorted(
            cards, key=lambda c: (c.suit is None, c.suit.index if c.suit else 0, -_first(c), c.copy)
        )
    t = trump.index
    power = (DOUBLE_POWER if twins else POWER)[t]

    def key(card: Card) -> tuple[int, int, int]:
        suit = EFFECTIVE_SUIT[t][card.index]
        return (0 if suit == t else 1 + suit, -power[suit][card.index], card.copy)

    return sorted(cards, key=key)


def _first(card: Card) -> int:
    """The index of ``card``'s first copy (its own, but for a double pack's second copy)."""
    return TWIN[card.index] if card.copy else card.index


def _card(card: Card, faces: CardFaces) -> str:
    """``card`` as its face and its text (``<:tq_10h:…> 10♥``), or as text without a face."""
    shown, text = faces.show(card), card.pretty()
    return text if shown == text else f"{shown} {text}"


def _suit(suit: Suit) -> str:
    return f"{suit.symbol} {suit.noun}"


def _variant(view: PlayerView) -> Variant:
    """The variant as this game is set up (seats and pack for its options)."""
    variant = VARIANTS[view.variant]
    return variant.configured(view.options) if view.options is not None else variant


def action_label(action: Action, view: PlayerView, seating: Seating | None = None) -> str:
    """A button label for ``action``: ``"Order it up"``, ``"Name ♥ hearts"``, ``"10♥"``.

    The RULES.md §4–§7 decisions (bids, calls, requests, gifts) take the terminal's
    wording, with ``seating``'s names for the seats they name.
    """
    if isinstance(action, Play):
        return action.card.pretty()
    if isinstance(action, Discard):
        return f"Discard {action.card.pretty()}"
    if isinstance(action, Pass):
        return "Play with partner" if view.phase is Phase.GOING_ALONE else "Pass"
    if isinstance(action, OrderUp):
        return "Order it up" if action.suit is None else f"Order up: {_suit(action.suit)}"
    if isinstance(action, TakeUp):
        return "Take it up" if action.suit is None else f"Take up: {_suit(action.suit)}"
    if isinstance(action, NameTrump):
        return f"Name {_suit(action.suit)}"
    if isinstance(action, GoAlone):
        return "Go alone"
    names = seating.names if seating else tuple(f"Seat {s + 1}" for s in range(view.players))
    return TextRenderer(_variant(view), names=names).action_label(view, action)


def _tableau(view: PlayerView, seat: int, faces: CardFaces) -> str:
    piles = view.tableaus[seat]
    shown = []
    for pile in piles:
        up = _card(pile.up, faces) if pile.up is not None else "·"
        shown.append(f"{up}{faces.back() if pile.face_down else ''}")
    down = sum(p.face_down for p in piles)
    return f"{'  '.join(shown)}  ({down} face-down)"


def _status(view: PlayerView, seating: Seating) -> str:
    if view.phase is Phase.GAME_OVER:
        assert view.winner is not None
        return f"🏆 {seating.side_names(view.winner, view.sides)} won the game."
    if view.turn is None:
        return "Dealing the next hand…"
    who = seating.who(view.turn)
    doing = {
        Phase.BIDDING_1: "to bid (round 1)",
        Phase.BIDDING_2: "to bid (round 2)",
        Phase.DISCARD: "to discard",
        Phase.GOING_ALONE: "to decide on going alone",
        Phase.PLAY: "to lead" if not view.trick.plays else "to play",
        Phase.BLIND_NAMING: "to name trump before looking at their hand",
        Phase.CARD_REQUEST: "to ask a partner for a card",
        Phase.GIVING: "to give the loner a card",
        Phase.CALLING: "to call a partner",
        Phase.AUCTION: "to bid",
    }[view.phase]
    return f"**{who}** {doing}."


def _describe_bid(seat: int, action: Action, seating: Seating) -> str:
    name = seating.who(seat)
    if isinstance(action, Pass):
        return f"{name} passed"
    if isinstance(action, GoAlone):
        return f"{name} is going alone"
    if isinstance(action, OrderUp):
        return f"{name} ordered it up" + (f" ({_suit(action.suit)})" if action.suit else "")
    if isinstance(action, TakeUp):
        return f"{name} took it up" + (f" ({_suit(action.suit)})" if action.suit else "")
    if isinstance(action, TurnDown):
        return f"{name} turned it down to go alone"
    if isinstance(action, CallSuit):
        return f"{name} called {_suit(action.suit)}"
    if isinstance(action, CallCard):
        return f"{name} called {action.card.pretty()}"
    if isinstance(action, Ask):
        return f"{name} asked {seating.who(action.seat)} for a card"
    if isinstance(action, Bid):
        return f"{name} bid {action.level} in {_suit(action.suit)}"
    assert isinstance(action, NameTrump)
    return f"{name} named {_suit(action.suit)}"


def _trick_line(plays: Sequence[tuple[int, Card]], seating: Seating, faces: CardFaces) -> str:
    return " · ".join(f"{seating.who(s)} {_card(c, faces)}" for s, c in plays) or "—"


def _title(view: PlayerView, seating: Seating) -> str:
    sides = " vs ".join(seating.side_names(side, view.sides) for side in sorted(set(view.sides)))
    return f"{_variant(view).title}: {sides}"


def _trump_line(view: PlayerView, seating: Seating) -> str:
    if view.trump is None:
        return "not yet made"
    if view.maker is None:
        return f"{_suit(view.trump)} (the turned suit)"  # Jackpot: nobody bids
    line = f"{_suit(view.trump)}, made by {seating.who(view.maker)}"
    if view.bid:
        line += f" (bid {view.bid})"
    if view.alone is not None:
        line += f" (alone: {seating.who(view.alone)})"
    if view.lone_defender is not None:
        line += f"; {seating.who(view.lone_defender)} defends alone"
    return line


def _called_line(view: PlayerView, faces: CardFaces) -> str | None:
    """The Call-Ace or Auction call (RULES.md §7); never who the partner is."""
    if view.called_suit is not None:
        return (
            f"{_suit(view.called_suit)}: whoever holds its best card is the maker's secret partner"
        )
    if view.called_card is not None:
        return f"{_card(view.called_card, faces)}: its holder is the maker's partner"
    return None


def _score_line(view: PlayerView, seating: Seating) -> str:
    score = " · ".join(
        f"{seating.side_names(side, view.sides)} {points}"
        for side, points in enumerate(view.scores)
    )
    if _variant(view).chips:
        hands = view.options.hands if view.options is not None else 0
        return f"{score} chips · pool {view.pool} (deal {view.hand_no} of {hands})"
    return f"{score} (to {view.target})"


def table_embed(
    view: PlayerView, seating: Seating, game_id: int, faces: CardFaces = TEXT_FACES
) -> discord.Embed:
    """The public table: players, dealer, up-card, trump, tableaus, trick, tricks, score.

    Args:
        view: the PUBLIC view (``game.view(None)``); a seat's view would show a hand.
        seating: names per seat.
        game_id: shown in the footer so players can tell tables apart.
        faces: how cards show (their emojis, or text).

    Raises:
        ValueError: ``view`` is a seat's view, not the public one.
    """
    if view.seat is not None:
        raise ValueError("the table is rendered from the public view only")
    variant = _variant(view)
    embed = discord.Embed(
        title=_title(view, seating), description=_status(view, seating), colour=TABLE_COLOUR
    )
    if view.hand_no:
        embed.add_field(name="Dealer", value=seating.who(view.dealer))
        if view.up_card is not None:
            up = _card(view.up_card, faces) + (" (turned down)" if view.up_card_turned_down else "")
            embed.add_field(name="Up-card", value=up)
        elif variant.widow:
            widow = f"{view.widow} cards face down" if view.widow else "taken by the maker"
            embed.add_field(name="Widow", value=widow)
        embed.add_field(name="Trump", value=_trump_line(view, seating))
        called = _called_line(view, faces)
        if called:
            embed.add_field(name="Called", value=called, inline=False)
        if view.out:
            out = ", ".join(seating.who(s) for s in view.out)
            embed.add_field(name="Sitting out", value=out, inline=False)
        bidding = view.phase not in (Phase.PLAY, Phase.GAME_OVER, Phase.HAND_OVER, Phase.DEAL)
        if view.bids and bidding:
            bids = "; ".join(_describe_bid(s, a, seating) for s, a in view.bids)
            embed.add_field(name="Bidding", value=bids[-1024:], inline=False)
        for seat, name in enumerate(seating.names):
            if view.tableaus[seat]:
                value = f"{_tableau(view, seat, faces)}\nHand: {view.hand_sizes[seat]} cards"
                embed.add_field(name=f"{name}'s tableau", value=value, inline=False)
        if view.phase is Phase.PLAY or view.tricks:
            embed.add_field(
                name="Trick", value=_trick_line(view.trick.plays, seating, faces), inline=False
            )
            if view.tricks:
                last = view.tricks[-1]
                line = f"{_trick_line(last.plays, seating, faces)} → {seating.who(last.winner)}"
                embed.add_field(name="Last trick", value=line, inline=False)
        won = " · ".join(
            f"{n} {t}"
            for seat, (n, t) in enumerate(zip(seating.names, view.tricks_won, strict=True))
            if seat not in view.out
        )
        embed.add_field(name="Tricks this hand", value=won, inline=False)
    embed.add_field(name="Score", value=_score_line(view, seating), inline=False)
    embed.set_footer(text=f"Game #{game_id} · hand {view.hand_no} · {variant.rules}")
    return embed


def table_content(view: PlayerView, seating: Seating) -> str | None:
    """The table message's text: a mention of the person to act, so they see it's their turn."""
    if view.turn is None or view.phase is Phase.GAME_OVER:
        return None
    user = seating.user_ids[view.turn]
    return f"<@{user}>, it's your turn." if user is not None else None


def hand_embed(
    view: PlayerView,
    seating: Seating,
    game_id: int,
    note: str | None = None,
    faces: CardFaces = TEXT_FACES,
) -> discord.Embed:
    """One player's private view, enough to play from without scrolling to the table.

    Shows, in this order: what to do now (or whom the game waits for), the hand
    grouped by suit with trump first (the Bowers and Bens in trump), the player's
    own tableau and every other seat's face-up cards, the up-card, trump and its
    maker, a call, the trick so far, the tricks each side has taken and what the
    makers need, and the score.

    Args:
        view: the player's own view (``game.view(seat)``).
        seating: names per seat.
        game_id: shown in the footer with the hand number.
        note: an extra line shown first (e.g. the result of the last click).
        faces: how cards show (their emojis, or text).

    Raises:
        ValueError: ``view`` is the public view.
    """
    if view.seat is None:
        raise ValueError("a hand is rendered from a seat's view")
    variant = _variant(view)
    lines = [note] if note else []
    if view.phase is Phase.GAME_OVER:
        lines.append(_status(view, seating))
    elif view.seat in view.out:
        lines.append("You sit out this hand: your partner plays alone.")
    elif view.turn == view.seat:
        lines.append("**Your turn:** " + _prompt(view))
    elif view.turn is not None:
        lines.append(f"Waiting for {seating.who(view.turn)}.")
    embed = discord.Embed(
        title="Your hand", description="\n".join(lines) or None, colour=HAND_COLOUR
    )
    if view.blind:
        hand = "(unseen: you name trump before you look at it)"
    else:
        hand = _grouped(view.hand, view.trump, variant.twins, faces)
    embed.add_field(name=f"Hand ({len(view.hand)})", value=hand, inline=False)
    if view.tableaus:
        for seat in _from(view.seat, view.players):
            if not view.tableaus[seat]:
                continue
            name = "Your tableau" if seat == view.seat else f"{seating.who(seat)}'s tableau"
            embed.add_field(name=name, value=_tableau(view, seat, faces), inline=False)
    if view.discards:
        discarded = " ".join(_card(c, faces) for c in view.discards)
        embed.add_field(name="You discarded", value=discarded)
    if view.up_card is not None and view.hand_no:
        up = _card(view.up_card, faces) + (" (turned down)" if view.up_card_turned_down else "")
        embed.add_field(name="Up-card", value=up)
    if view.trump is not None:
        embed.add_field(name="Trump", value=_trump_line(view, seating))
    called = _called_line(view, faces)
    if called:
        embed.add_field(name="Called", value=called, inline=False)
    if view.phase is Phase.PLAY:
        trick = _trick_line(view.trick.plays, seating, faces)
        embed.add_field(name="Trick", value=trick, inline=False)
    if view.hand_no and view.phase is not Phase.GAME_OVER:
        embed.add_field(name="Tricks", value=_tricks_line(view, seating), inline=False)
    embed.add_field(name="Score", value=_score_line(view, seating), inline=False)
    embed.set_footer(text=f"Game #{game_id} · hand {view.hand_no}")
    return embed


def _from(seat: int, players: int) -> list[int]:
    """Every seat, starting with ``seat`` and going round the table."""
    return [(seat + i) % players for i in range(players)]


def _grouped(
    cards: Sequence[Card], trump: Suit | None, twins: bool, faces: CardFaces = TEXT_FACES
) -> str:
    """``cards`` one suit a line, trump first once made (the Bowers and Bens with it)."""
    if not cards:
        return "—"
    lines: list[tuple[str, list[str]]] = []
    for card in sort_cards(cards, trump, twins):
        suit = _effective_suit(card, trump)
        if trump is not None and suit is trump:
            head = f"**Trump {trump.symbol}**"
        elif suit is None:
            head = "Jokers"
        else:
            head = suit.symbol
        if not lines or lines[-1][0] != head:
            lines.append((head, []))
        lines[-1][1].append(_card(card, faces))
    return "\n".join(f"{head}  {' '.join(shown)}" for head, shown in lines)


def _effective_suit(card: Card, trump: Suit | None) -> Suit | None:
    """The suit ``card`` follows: trump's for a Bower or a Ben once trump is made."""
    if trump is None:
        return card.suit
    return SUITS[EFFECTIVE_SUIT[trump.index][card.index]]


def _tricks_line(view: PlayerView, seating: Seating) -> str:
    """Tricks taken this hand, by side where sides are known, and what the makers need
    (RULES.md §1–§7 "Scoring": the contract, or an Auction bid's tricks)."""
    variant = _variant(view)
    playing = [s for s in range(view.players) if s not in view.out]
    if variant.teams:
        sides = sorted({view.sides[s] for s in playing})
        taken = " · ".join(
            f"{seating.side_names(side, view.sides)} "
            f"{sum(view.tricks_won[s] for s in playing if view.sides[s] == side)}"
            for side in sides
        )
    else:
        taken = " · ".join(f"{seating.who(s)} {view.tricks_won[s]}" for s in playing)
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
    if view.phase is Phase.DISCARD:
        owed = len(view.hand) - _variant(view).hand_size
        if owed > 1:
            return f"discard {owed} cards from your hand, one at a time."
        return "discard one card from your hand."
    return {
        Phase.BIDDING_1: "order it up, or pass."
        if view.seat != view.dealer
        else "take it up, or pass.",
        Phase.BIDDING_2: "name a suit, or pass."
        if Pass() in view.legal_actions
        else "name a suit.",
        Phase.GOING_ALONE: "go alone, or play with your partner.",
        Phase.PLAY: "play a card." if view.trick.plays else "lead a card.",
        Phase.BLIND_NAMING: "name trump before you look at your hand.",
        Phase.CARD_REQUEST: "ask a partner for a card (they choose which), or pass.",
        Phase.GIVING: "give the loner one of your cards.",
        Phase.CALLING: "call a partner.",
        Phase.AUCTION: "bid higher than the bid standing, or pass.",
    }.get(view.phase, "")


def _makers(result: HandResult, variant: Variant) -> set[int]:
    """The seats that played with the maker this hand (RULES.md §3–§7)."""
    assert result.maker is not None
    if variant.makers == "side":
        side = variant.sides[result.maker]
        return {s for s in range(variant.players) if variant.sides[s] == side}
    return {result.maker} | ({result.partner} if result.partner is not None else set())


def hand_summary_embed(
    result: HandResult, variant: str | Variant, seating: Seating
) -> discord.Embed:
    """The channel announcement of a finished hand: trump, maker, tricks, points, score.

    A secret partner (RULES.md §7) is named here, once the hand is over.
    """
    v = VARIANTS[variant] if isinstance(variant, str) else variant
    embed = discord.Embed(title=f"Hand {result.hand_no} result", colour=RESULT_COLOUR)

    def signed(points: int) -> str:
        return f"+{points}" if points > 0 else f"−{-points}"

    if v.chips:
        assert result.trump is not None
        best = max(result.tricks)
        swept = " — a march sweeps the pool!" if best == v.tricks else ""
        won = " · ".join(f"{n} {t}" for n, t in zip(seating.names, result.tricks, strict=True))
        embed.description = f"{_suit(result.trump)} were trump. Tricks: {won}{swept}."
        chips = ", ".join(
            f"{n} {signed(p)}" for n, p in zip(seating.names, result.points, strict=True) if p
        )
        embed.add_field(name="Chips this hand", value=chips or "none")
    elif result.thrown_in:
        embed.description = "Everyone passed: the hand is thrown in."
        return embed
    else:
        assert result.maker is not None and result.trump is not None
        makers = _makers(result, v)
        made = sum(t for s, t in enumerate(result.tricks) if s in makers)
        bid = f" bidding {result.bid}" if result.bid else ""
        line = (
            f"{seating.who(result.maker)} made {_suit(result.trump)}{bid} and took {made} "
            f"of {v.tricks}"
        )
        if result.alone is not None:
            line += f" (alone: {seating.who(result.alone)})"
        if result.partner is not None and result.partner != result.maker:
            line += f", partnered by {seating.who(result.partner)}"
        if result.lone_defender is not None:
            line += f"; {seating.who(result.lone_defender)} defended alone"
        if result.march:
            line += " — a march!"
        elif result.euchred:
            line += " — euchred!"
        embed.description = line if line.endswith("!") else line + "."
        gained = [
            f"{seating.side_names(side, v.sides)} {signed(p)}"
            for side, p in enumerate(result.points)
            if p
        ]
        embed.add_field(name="Points", value=", ".join(gained) or "none")
    score = " · ".join(
        f"{seating.side_names(side, v.sides)} {p}" for side, p in enumerate(result.scores)
    )
    embed.add_field(name="Score", value=score)
    return embed


def game_over_embed(view: PlayerView, seating: Seating, reason: str | None = None) -> discord.Embed:
    """The channel announcement of a finished game (won on points, resigned or forfeited)."""
    embed = discord.Embed(title="Game over", colour=RESULT_COLOUR)
    if reason:
        embed.description = reason
    else:
        assert view.winner is not None
        embed.description = f"🏆 {seating.side_names(view.winner, view.sides)} won the game!"
    score = " · ".join(
        f"{seating.side_names(side, view.sides)} {p}" for side, p in enumerate(view.scores)
    )
    goal = "chips" if _variant(view).chips else f"(to {view.target})"
    embed.add_field(name="Final score", value=f"{score} {goal}")
    return embed


_RULES = {
    "tuque": (
        "Two players, 39 cards (6–A and three Bens). Each has 7 cards in hand and a tableau of "
        "5 face-up cards on 5 face-down ones; face-up tableau cards are playable, and the card "
        "beneath is turned up when the trick is over.\n\n"
        "**Trump**: the non-dealer orders up or passes, then the dealer takes it up or passes; "
        "the dealer picks up the up-card and discards. If both pass, the up-card is turned down "
        "and each may name another suit; the dealer must name one (stick the dealer). If a Ben "
        "is turned up, whoever accepts names the suit.\n\n"
        "**Ranking**: B3 > B2 > B1 > Right Bower (trump jack) > Left Bower (same-colour jack) > "
        "A K Q 10 9 8 7 6. The Bens and the Left Bower are trumps. Follow suit if you can.\n\n"
        "**17 tricks. Scoring**: maker with 9+ tricks scores 1, 12+ scores 2, 15+ scores 3; "
        "otherwise the defender scores 2 (3 with 12+ tricks, 4 with 15+)."
    ),
    "tuque61": (
        "Tuque with per-trick scoring: deal, trump and play exactly as in Tuque.\n\n"
        "**Scoring**: the maker scores 1 point per trick; the defender 1 per trick, or 2 per "
        "trick with 9 or more. First to 61 wins; if both pass 61 in one hand the higher total "
        "wins, and an exact tie plays another hand."
    ),
    "euchre": (
        "Four players in two partnerships, 24 cards (9–A). Five cards each, one up-card.\n\n"
        "**Trump**: from the dealer's left, each passes or orders it up (the dealer takes it "
        "up) and the dealer discards; if all pass, each may name another suit. The maker may "
        "go alone: their partner sits out.\n\n"
        "**Scoring**: makers with 3–4 tricks score 1, all 5 (a march) 2, a march alone 4; "
        "euchred makers give the defenders 2. First to 10."
    ),
    "british": (
        "Four players in two partnerships, 25 cards (9–A and the Benny, the top trump).\n\n"
        "**Trump**: as in Euchre, except that the dealer's partner may *turn it down*: play "
        "alone with the turned suit as trump. A Benny turned up: the dealer names trump before "
        "looking at their hand.\n\n**Alone**: once trump is made, any player, maker or "
        "defender, may play alone (both sides may).\n\n**Scoring**: as in Euchre, and a lone "
        "defender who euchres the makers scores 4. First to 10 (or 11, 21)."
    ),
    "three_hand": (
        "Three players, each for themself; 25 cards with the Benny (or 24).\n\n"
        "**Trump**: as in Euchre; the maker plays alone against the other two together.\n\n"
        "**Scoring**: the maker scores 1 for 3–4 tricks, 2 for all five; euchred, the maker "
        "*loses* 2 (scores can go below zero). First to 10 (or 5, 7)."
    ),
    "two_hand": (
        "Three-hand Euchre for two: each for themself, 25 cards with the Benny (or 24).\n\n"
        "**Scoring**: the maker scores 1 for 3–4 tricks, 2 for all five; euchred, the maker "
        "*loses* 2. First to 10 (or 5, 7)."
    ),
    "six_hand": (
        "Six players in two teams of three, seated alternately; 33 cards (7–A and the "
        "Benny).\n\n**Trump**: as in Euchre.\n\n**Alone**: one player of either side (or "
        "both) may play alone; their partners lay down their hands, and the loner may ask one "
        "partner for a card (the partner chooses it) and discards one.\n\n**Scoring**: 1 for "
        "3–4 tricks, 3 for a march or a euchre, 6 for a march alone. First to 10.\n\n"
        "**Double pack** (option): 50 cards, two of each 9–A and two jokers; of two identical "
        "cards in a trick the second played wins, and the joker of trump's colour beats the "
        "other."
    ),
    "almonte": (
        "Six players in two teams of three; 31 cards (8–A and three Bens, the top trumps).\n\n"
        "**Trump**: as in Euchre; a Ben turned up: the dealer names the suit before looking at "
        "their hand (an option makes the dealer take it if all pass).\n\n**Scoring**: 1 for "
        "3–4 tricks, 3 for a march or a euchre, 6 for a march alone. First to 15."
    ),
    "call_ace": (
        "Four, five or six players, each scoring for themself; 25, 29 or 33 cards.\n\n"
        "**Trump**: as in Euchre. Then the maker calls a suit: whoever holds its best card is "
        "the maker's *secret partner*, known only when they play it (the maker may turn out "
        "to be their own partner), or the maker plays alone.\n\n**Scoring**: as in Euchre, "
        "each member of a side scoring the side's points. First to 10."
    ),
    "jackpot": (
        "Four, five or six players, each for themself; no bidding: the turned card's suit is "
        "trump.\n\n**Chips**: everyone puts a chip in the pool each deal; each trick won "
        "draws a chip while the pool lasts; a player who wins no trick pays one; whoever "
        "takes all five tricks sweeps the pool and ends the game.\n\nOtherwise the most chips "
        "after the last deal wins."
    ),
    "auction": (
        "Five players, each for themself; 28 cards (8–A; or 32), 5 each and a widow.\n\n"
        "**Bidding**: one bid each, naming trump: 3, 4 or 5 tricks, 8 (alone after the "
        "widow) or 15 (alone with the hand as dealt). The maker takes the widow and discards, "
        "then calls a card: its holder is the partner.\n\n**Scoring**: makers who take the "
        "bid score it, else it is deducted from each. First to 50."
    ),
}


def rules_embed(variant: str) -> discord.Embed:
    """A short rules summary of ``variant`` (RULES.md §1–§3)."""
    v = VARIANTS[variant]
    embed = discord.Embed(title=f"{v.title}: the rules", description=_RULES[v.name])
    embed.set_footer(text=f"Full rules: {v.rules}")
    return embed


_TEAM_NAMES = "ABC"


def _configured(variant: str, options: dict[str, object]) -> Variant:
    v = VARIANTS[variant]
    return v.configured(v.options(**options))


def lobby_seat_label(lobby: LobbyRow, seat: int) -> str:
    """``"Seat 2 · team B"`` (team games) or ``"Seat 2"``: how a lobby names a seat."""
    v = _configured(lobby.variant, lobby.options)
    team = f" · team {_TEAM_NAMES[v.sides[seat]]}" if v.teams else ""
    return f"Seat {seat + 1}{team}"


def _rules_in_words(lobby: LobbyRow) -> str:
    """The variant's summary and the table's options, as a player would say them."""
    v = _configured(lobby.variant, lobby.options)
    o = v.options(**lobby.options)
    words = [
        f"{o.hands} deals or a sweep" if v.name == "jackpot" else f"first to {o.target} points"
    ]
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
    summary = _RULES[v.name].split("\n\n")[0]
    return f"{summary}\n\n**This table**: {', '.join(words)}; {sides}."


def lobby_embed(lobby: LobbyRow) -> discord.Embed:
    """A lobby: the rules in words, every seat (teams drawn), what happens next.

    Shows only ids, names and the options: a lobby holds nothing hidden."""
    v = _configured(lobby.variant, lobby.options)
    kind = "invitation" if lobby.invited else "table"
    embed = discord.Embed(
        title=f"{v.title}: {kind} #{lobby.id}",
        description=_rules_in_words(lobby),
        colour=TABLE_COLOUR,
    )
    held = {s.seat: s for s in lobby.taken}
    lines = []
    for seat in range(lobby.seats):
        s = held.get(seat)
        if s is None:
            who = f"*empty: a computer ({lobby.level}) if nobody sits*"
        elif s.kind is SeatKind.COMPUTER:
            who = f"Computer ({s.level})"
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


def leaderboard_embed(
    rows: Sequence[LeaderboardRow], variant: str | None, page: int, pages: int
) -> discord.Embed:
    """One page of the server's leaderboard: rank, name, wins, losses, win %, games, rating."""
    title = "Leaderboard" + (f": {VARIANTS[variant].title}" if variant else "")
    embed = discord.Embed(title=title, colour=RESULT_COLOUR)
    if not rows:
        embed.description = "No rated games yet: challenge someone with `/tuque challenge`."
        return embed
    lines = [
        f"**{r.rank}.** {r.display_name or f'<@{r.user_id}>'} — {r.wins}W {r.losses}L "
        f"({r.win_rate:.0%} of {r.games}) · rating {r.rating:.1f}"
        for r in rows
    ]
    embed.description = "\n".join(lines)
    embed.set_footer(text=f"Page {page + 1} of {pages} · rated games between people only")
    return embed


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    """A player's record: games, wins, hands made and euchred, marches, average tricks."""
    title = f"{name}'s record" + (f": {VARIANTS[stats.variant].title}" if stats.variant else "")
    embed = discord.Embed(title=title, colour=HAND_COLOUR)
    rating = f"{stats.rating:.1f}" if stats.rating is not None else "unrated"
    embed.add_field(
        name="Games",
        value=f"{stats.games} played · {stats.wins} won · {stats.losses} lost "
        f"({stats.win_rate:.0%}) · rating {rating}",
        inline=False,
    )
    embed.add_field(
        name="Against the computer", value=f"{stats.computer_wins}W {stats.computer_losses}L"
    )
    avg = f"{stats.avg_tricks:.1f}" if stats.avg_tricks is not None else "—"
    embed.add_field(
        name="Hands",
        value=f"{stats.hands_played} played · {stats.hands_called} called · "
        f"{stats.hands_made} made · {stats.hands_euchred} euchred · {stats.marches} marches · "
        f"{avg} tricks a hand",
        inline=False,
    )
    if stats.hints:
        embed.add_field(name="Hints taken", value=str(stats.hints))
    return embed
