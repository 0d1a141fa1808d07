"""Custom_id formats (``bot.custom_ids``): a mistake in one fails at import."""

from __future__ import annotations

import pytest

from bot.custom_ids import CustomId


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
