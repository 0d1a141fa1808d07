"""Every kind of component's custom_id: one declared format builds and parses it, its
DynamicItem's template matches exactly its ids, forged ids are refused, and the ids
are the very strings older versions of the bot sent (their buttons must keep working)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import buttons
from bot.buttons import (
    DYNAMIC_ITEMS,
    KINDS,
    ActionButton,
    ActionSelect,
    ChallengeButton,
    Control,
    EventButton,
    HintButton,
    LaunchButton,
    LeaderboardButton,
    LobbyButton,
    LobbySelect,
    RematchButton,
    ReplayButton,
    ResignButton,
    ShowHandButton,
    SuitSelect,
    UnknownButton,
)
from bot.custom_ids import MAX_LENGTH, CustomId

# Written out by hand, as the bot has sent them since each kind was added.
OLD_IDS: list[tuple[type[Control[Any]], dict[str, int | str], str]] = [
    (ActionButton, {"game": 12, "seq": 0, "action": 7}, "tuque:act:12:0:7"),
    (ActionButton, {"game": 3, "seq": 41, "action": 0}, "tuque:act:3:41:0"),
    (ActionSelect, {"game": 12, "seq": 5, "part": 1}, "tuque:pick:12:5:1"),
    (SuitSelect, {"game": 12, "seq": 5}, "tuque:suit:12:5"),
    (ShowHandButton, {"game": 12}, "tuque:hand:12"),
    (HintButton, {"game": 12, "seq": 5}, "tuque:hint:12:5"),
    (LaunchButton, {}, "tuque:launch"),
    (RematchButton, {"game": 12}, "tuque:rematch:12"),
    (ResignButton, {"game": 12}, "tuque:resign:12"),
    (ChallengeButton, {"challenge": 9, "answer": "accept"}, "tuque:challenge:9:accept"),
    (ChallengeButton, {"challenge": 9, "answer": "decline"}, "tuque:challenge:9:decline"),
    *(
        (LobbyButton, {"lobby": 4, "what": what}, f"tuque:lobby:4:{what}")
        for what in ("join", "leave", "start", "cancel", "accept", "decline")
    ),
    (LobbySelect, {"lobby": 4, "what": "seat"}, "tuque:lobby:4:seat"),
    (LobbySelect, {"lobby": 4, "what": "computer"}, "tuque:lobby:4:computer"),
    (LeaderboardButton, {"variant": "all", "page": 0}, "tuque:lb:all:0"),
    (LeaderboardButton, {"variant": "three_hand", "page": 2}, "tuque:lb:three_hand:2"),
    *(
        (ReplayButton, {"game": 12, "step": 30, "way": way}, f"tuque:replay:12:30:{way}")
        for way in ("prevhand", "prev", "next", "nexthand")
    ),
    *(
        (EventButton, {"event": 3, "what": what}, f"tuque:event:3:{what}")
        for what in ("join", "leave", "start", "cancel")
    ),
    (
        ShowHandButton,
        {"game": 2**63 - 1},
        "tuque:hand:9223372036854775807",
    ),
]

# Each a tuque: id that no kind parses: UnknownButton answers it.
FORGED = [
    "tuque:",
    "tuque:act:12:0",  # a field missing
    "tuque:act:12:0:7:1",  # a field too many
    "tuque:act:12:x:7",  # not a number
    "tuque:act:12:0.5:7",
    "tuque:act:-12:0:7",  # a sign
    "tuque:act:+12:0:7",
    "tuque:act:012:0:7",  # another spelling of 12
    "tuque:act:0x1f:0:7",
    "tuque:act:1_2:0:7",
    "tuque:act:١٢:0:7",  # digits int() reads, but not ASCII ones
    "tuque:act:12: 0:7",
    "tuque:act:0:0:7",  # no game has id 0
    "tuque:ACT:12:0:7",  # the wrong prefix
    "tuque:acts:12:0:7",
    "tuque:hand:",
    "tuque:challenge:9:maybe",  # a word not listed
    "tuque:challenge:9:Accept",
    "tuque:lobby:4:seats",
    "tuque:replay:12:30:last",
    "tuque:lb:Euchre:0",
    "tuque:lb:euchre:0:1",
    "tuque:new-feature:1",
    f"tuque:hand:1{'0' * (MAX_LENGTH - len('tuque:hand:'))}",  # one character too long
]

# Well-formed but out of range: the kind's template takes them (a regular expression does
# not bound a number), its format refuses them, and its callback explains why.
OUT_OF_RANGE = [
    (ActionButton, f"tuque:act:{2**63}:0:7"),
    (ActionButton, f"tuque:act:12:{2**63}:7"),
    (SuitSelect, "tuque:suit:18446744073709551615:0"),
    (ChallengeButton, f"tuque:challenge:{10**30}:accept"),
    (LeaderboardButton, f"tuque:lb:euchre:{2**63}"),
]


def _routed_to(custom_id: str) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The registered items whose template takes ``custom_id``, as discord.py finds them."""
    return [i for i in DYNAMIC_ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]


def test_every_kind_is_registered_and_has_its_old_ids_here() -> None:
    """Each Control of bot.buttons is registered, and OLD_IDS has an id of each."""
    declared = {c for c in Control.__subclasses__() if c.__module__ == buttons.__name__}
    assert set(KINDS) == declared
    assert set(DYNAMIC_ITEMS) == {*declared, UnknownButton}
    assert {kind for kind, _, _ in OLD_IDS} == declared


@pytest.mark.parametrize(("kind", "fields", "old"), OLD_IDS, ids=[old for _, _, old in OLD_IDS])
def test_an_id_is_built_as_before_and_parsed_back(
    kind: type[Control[Any]], fields: dict[str, int | str], old: str
) -> None:
    """build gives the old string, parse gives the fields back, typed, and only this
    kind's template takes it."""
    assert kind.ids.build(**fields) == old
    parsed = kind.ids.parse(old)
    assert parsed == fields
    assert parsed is not None
    assert {name: type(value) for name, value in parsed.items()} == kind.ids.types
    assert kind.__discord_ui_compiled_template__ is kind.ids.pattern
    assert _routed_to(old) == [kind]


@pytest.mark.parametrize(("kind", "fields", "old"), OLD_IDS, ids=[old for _, _, old in OLD_IDS])
def test_a_kind_wraps_the_item_it_is_given(
    kind: type[Control[Any]], fields: dict[str, int | str], old: str
) -> None:
    """``of`` keeps the item's looks and gives it the id."""
    item: discord.ui.Button[Any] | discord.ui.Select[Any]
    if issubclass(kind, ActionSelect | SuitSelect | LobbySelect):
        item = discord.ui.Select(placeholder="Pick")
    else:
        item = discord.ui.Button(label="Go", style=discord.ButtonStyle.success)
    control = kind.of(item, **fields)
    assert control.item is item and control.custom_id == old
    assert control.to_component_dict()["custom_id"] == old


@pytest.mark.parametrize("custom_id", FORGED)
def test_a_forged_id_is_no_kind_s(custom_id: str) -> None:
    """No kind parses it or takes it; UnknownButton does."""
    assert all(kind.ids.parse(custom_id) is None for kind in KINDS)
    assert _routed_to(custom_id) == [UnknownButton]


@pytest.mark.parametrize("custom_id", ["other:act:12:0:7", "tuque:act:12:0:7\n", "tuqueact:1"])
def test_an_id_of_another_namespace_is_left_alone(custom_id: str) -> None:
    """An id that is not ``tuque:`` (another bot's, or followed by a line break) is no
    item's."""
    assert _routed_to(custom_id) == []


@pytest.mark.parametrize(("kind", "custom_id"), OUT_OF_RANGE)
def test_a_number_out_of_range_reaches_its_kind_and_is_refused(
    kind: type[Control[Any]], custom_id: str
) -> None:
    """The kind's template takes it, so its callback answers; its format refuses it."""
    assert _routed_to(custom_id) == [kind]
    assert kind.ids.parse(custom_id) is None


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        (ActionButton, {"game": 12, "seq": 0}),  # a field missing
        (ActionButton, {"game": 12, "seq": 0, "action": 7, "part": 1}),  # one too many
        (ActionButton, {"game": 0, "seq": 0, "action": 7}),  # not an id
        (ActionButton, {"game": 12, "seq": -1, "action": 7}),
        (ActionButton, {"game": 2**63, "seq": 0, "action": 7}),
        (ActionButton, {"game": "12", "seq": 0, "action": 7}),  # a str for a number
        (ActionButton, {"game": True, "seq": 0, "action": 7}),
        (ChallengeButton, {"challenge": 9, "answer": "maybe"}),  # a word not listed
        (ChallengeButton, {"challenge": 9, "answer": 1}),
        (LeaderboardButton, {"variant": "euchre:1", "page": 0}),  # another field smuggled in
        (LeaderboardButton, {"variant": "e" * MAX_LENGTH, "page": 0}),  # too long
    ],
)
def test_build_refuses_fields_that_make_no_id(
    kind: type[Control[Any]], fields: dict[str, int | str]
) -> None:
    """A bad field is a ValueError, never a malformed id sent to Discord."""
    with pytest.raises(ValueError):
        kind.ids.build(**fields)


@given(st.data())
def test_any_numbers_in_range_round_trip(data: st.DataObject) -> None:
    """For any ids and counts in range, parse undoes build and the template takes the id."""
    kind, example, _ = data.draw(st.sampled_from(OLD_IDS))
    fields = {
        name: data.draw(st.integers(1, 2**63 - 1)) if kind.ids.types[name] is int else value
        for name, value in example.items()
    }
    built = kind.ids.build(**fields)
    assert kind.ids.parse(built) == fields
    assert _routed_to(built) == [kind]


@pytest.mark.parametrize(
    "format",
    [
        "tuque:x:{game:float}",  # a type this module does not know
        "tuque:x:{game:id}:{game:int}",  # a name twice
        "tuque:x:{game}",  # no type
        "tuque:x:{game:id}}",  # a brace outside a field
        "tuque:x:{way:prev|}",
    ],
)
def test_a_format_that_is_not_one_is_refused(format: str) -> None:
    """A mistake in a declared format fails when the module is imported."""
    with pytest.raises(ValueError):
        CustomId(format)


def test_an_id_is_built_and_parsed_back() -> None:
    """parse undoes build, numbers typed as ints, and the pattern names each field."""
    spec = CustomId("tuque:x:{game:id}:{seq:int}:{way:prev|next}:{name:word}")
    fields: dict[str, int | str] = {"game": 3, "seq": 0, "way": "next", "name": "euchre"}
    assert spec.build(**fields) == "tuque:x:3:0:next:euchre"
    assert spec.parse("tuque:x:3:0:next:euchre") == fields
    assert spec.types == {"game": int, "seq": int, "way": str, "name": str}
    match = spec.pattern.fullmatch("tuque:x:3:0:next:euchre")
    assert match is not None and match["way"] == "next"


def test_a_kind_whose_route_does_not_take_its_fields_is_refused() -> None:
    """``route``'s keyword-only parameters are the fields, typed as parsed: else a TypeError
    when the class is made."""
    with pytest.raises(TypeError, match="route takes"):

        class _Missing(Control[discord.ui.Button[Any]], ids="tuque:x:{game:id}:{seq:int}"):
            async def route(self, interaction: discord.Interaction, *, game: int) -> None:
                raise AssertionError

    with pytest.raises(TypeError, match="route takes"):

        class _Mistyped(Control[discord.ui.Button[Any]], ids="tuque:x:{game:id}"):
            async def route(self, interaction: discord.Interaction, *, game: str) -> None:
                raise AssertionError


def test_where_two_fields_touch_an_id_that_reads_back_otherwise_is_refused() -> None:
    """Fields checked one by one make one id only where a separator follows each; where
    two touch, build checks the id it made parses back to its fields."""
    spec = CustomId("tuque:x:{name:word}{seq:int}")
    assert spec.build(name="ab", seq=1) == "tuque:x:ab1"
    with pytest.raises(ValueError):
        spec.build(name="a1", seq=23)  # "a123" reads back as a12 and 3
