"""Discord's documented payload limits, checked the way the API reports them.

Each check returns `FieldError`s; `form_error_body` turns them into Discord's
`50035 Invalid Form Body` JSON so discord.py raises the same `HTTPException` text
it would against the real API.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Collection
from typing import Any, NamedTuple

from .models import COMPONENTS_V2, walk_components


class FieldError(NamedTuple):
    """One rejected field: dotted path (`embeds.0.title`), Discord error code, message."""

    path: str
    code: str
    message: str


def _too_long(path: str, limit: int) -> FieldError:
    return FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_length(errors: list[FieldError], path: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.append(_too_long(path, limit))


def form_error_body(errors: list[FieldError]) -> dict[str, Any]:
    """Build Discord's nested `errors` object for a 400 Invalid Form Body response."""
    tree: dict[str, Any] = {}
    for error in errors:
        node = tree
        for part in error.path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": tree}


def _embed_errors(embeds: list[dict[str, Any]]) -> list[FieldError]:
    errors: list[FieldError] = []
    if len(embeds) > 10:
        errors.append(
            FieldError("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        )
    total = 0
    for i, embed in enumerate(embeds):
        base = f"embeds.{i}"
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        _check_length(errors, f"{base}.title", title, 256)
        _check_length(errors, f"{base}.description", description, 4096)
        _check_length(errors, f"{base}.footer.text", footer, 2048)
        _check_length(errors, f"{base}.author.name", author, 256)
        total += len(title) + len(description) + len(footer) + len(author)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.append(
                FieldError(
                    f"{base}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            )
        for j, embed_field in enumerate(fields):
            name = embed_field.get("name") or ""
            value = embed_field.get("value") or ""
            for key, text, limit in (("name", name, 256), ("value", value, 1024)):
                path = f"{base}.fields.{j}.{key}"
                if not text:
                    errors.append(FieldError(path, "BASE_TYPE_REQUIRED", "This field is required"))
                _check_length(errors, path, text, limit)
            total += len(name) + len(value)
    if total > 6000:
        errors.append(
            FieldError(
                "embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
            )
        )
    return errors


def _interactive_errors(component: dict[str, Any], path: str) -> list[FieldError]:
    """Rules for one button or select, wherever it sits in the tree."""
    errors: list[FieldError] = []
    kind = component.get("type")
    custom_id = component.get("custom_id")
    _check_length(errors, f"{path}.custom_id", custom_id, 100)
    if kind == 2:
        style = component.get("style")
        if style == 5:
            if not component.get("url"):
                errors.append(
                    FieldError(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
                )
            if custom_id is not None:
                errors.append(
                    FieldError(
                        f"{path}.custom_id",
                        "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                        "A custom id cannot be set on a link button",
                    )
                )
        elif style != 6 and not custom_id:
            errors.append(
                FieldError(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
            )
        _check_length(errors, f"{path}.label", component.get("label"), 80)
        if not component.get("label") and not component.get("emoji"):
            errors.append(
                FieldError(
                    path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "Label or emoji required"
                )
            )
    elif kind in (3, 5, 6, 7, 8):
        if not custom_id:
            errors.append(
                FieldError(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
            )
        _check_length(errors, f"{path}.placeholder", component.get("placeholder"), 150)
        options = component.get("options") or []
        if kind == 3 and not 1 <= len(options) <= 25:
            errors.append(
                FieldError(
                    f"{path}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
                )
            )
        for k, option in enumerate(options):
            for key in ("label", "value", "description"):
                _check_length(errors, f"{path}.options.{k}.{key}", option.get(key), 100)
        low = int(component.get("min_values", 1))
        high = int(component.get("max_values", 1))
        ceiling = len(options) if kind == 3 else 25
        if not 0 <= low <= high <= max(ceiling, 1):
            errors.append(
                FieldError(
                    f"{path}.max_values",
                    "SELECT_COMPONENT_VALUES_INVALID",
                    "min_values/max_values out of range for the options given",
                )
            )
    return errors


def _component_errors(components: list[dict[str, Any]], flags: int) -> list[FieldError]:
    errors: list[FieldError] = []
    if flags & COMPONENTS_V2:
        every = list(walk_components(components))
        if len(every) > 40:
            errors.append(
                FieldError("components", "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in total.")
            )
        for i, component in enumerate(every):
            if component.get("type") in (2, 3, 5, 6, 7, 8):
                errors.extend(_interactive_errors(component, f"components.{i}"))
    else:
        if len(components) > 5:
            errors.append(
                FieldError("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
            )
        for i, row in enumerate(components):
            path = f"components.{i}"
            if row.get("type") != 1:
                errors.append(
                    FieldError(
                        f"{path}.type",
                        "COMPONENT_LAYOUT_INVALID",
                        "Top-level components must be action rows",
                    )
                )
                continue
            children = row.get("components") or []
            if not 1 <= len(children) <= 5:
                errors.append(
                    FieldError(
                        f"{path}.components",
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 5 in length.",
                    )
                )
            if len(children) > 1 and any(c.get("type") != 2 for c in children):
                errors.append(
                    FieldError(
                        f"{path}.components",
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "A select menu must be alone in its action row",
                    )
                )
            for j, child in enumerate(children):
                errors.extend(_interactive_errors(child, f"{path}.components.{j}"))
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            errors.append(
                FieldError(
                    "components",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated: {custom_id!r}",
                )
            )
        seen.add(custom_id)
    return errors


def message_errors(payload: dict[str, Any], flags: int) -> list[FieldError]:
    """Check the message fields present in a create/edit payload against Discord's limits."""
    errors: list[FieldError] = []
    content = payload.get("content")
    _check_length(errors, "content", content, 2000)
    if flags & COMPONENTS_V2 and (content or payload.get("embeds")):
        errors.append(
            FieldError(
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "content and embeds cannot be used with the IS_COMPONENTS_V2 flag",
            )
        )
    errors.extend(_embed_errors(payload.get("embeds") or []))
    errors.extend(_component_errors(payload.get("components") or [], flags))
    return errors


def modal_errors(data: dict[str, Any]) -> list[FieldError]:
    """Check a modal (interaction callback type 9) against Discord's limits."""
    errors: list[FieldError] = []
    if not data.get("custom_id"):
        errors.append(FieldError("data.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
    _check_length(errors, "data.custom_id", data.get("custom_id"), 100)
    title = data.get("title") or ""
    if not title:
        errors.append(FieldError("data.title", "BASE_TYPE_REQUIRED", "This field is required"))
    _check_length(errors, "data.title", title, 45)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.append(
            FieldError(
                "data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        )
    for i, component in enumerate(walk_components(components)):
        _check_length(errors, f"data.components.{i}.custom_id", component.get("custom_id"), 100)
    return errors


_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _option_errors(options: list[dict[str, Any]], path: str) -> list[FieldError]:
    errors: list[FieldError] = []
    if len(options) > 25:
        errors.append(FieldError(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    seen_optional = False
    names: set[str] = set()
    for i, option in enumerate(options):
        base = f"{path}.{i}"
        errors.extend(_name_and_description(option, base))
        if option.get("name") in names:
            errors.append(
                FieldError(
                    f"{base}.name",
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            )
        names.add(option.get("name", ""))
        if option.get("type") in (1, 2):
            errors.extend(_option_errors(option.get("options") or [], f"{base}.options"))
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(
                    FieldError(
                        f"{base}.required",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            errors.append(
                FieldError(
                    f"{base}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
                )
            )
        for k, choice in enumerate(choices):
            _check_length(errors, f"{base}.choices.{k}.name", choice.get("name"), 100)
            _check_length(errors, f"{base}.choices.{k}.value", choice.get("value"), 100)
        if choices and option.get("autocomplete"):
            errors.append(
                FieldError(
                    f"{base}.autocomplete",
                    "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
                    "Autocomplete cannot be set on an option that has choices",
                )
            )
        errors.extend(_bound_errors(option, base))
    return errors


OPTION_VALUE_LIMIT = 2**53
"""An integer or number option's min_value and max_value lie within ±2^53."""


def _bound_errors(option: dict[str, Any], path: str) -> list[FieldError]:
    """An option's bounds: values within ±2^53 (integer and number options), lengths
    within 0..6000 (string options), and each minimum at most its maximum."""
    errors: list[FieldError] = []
    for low_key, high_key, floor, ceiling in (
        ("min_value", "max_value", -OPTION_VALUE_LIMIT, OPTION_VALUE_LIMIT),
        ("min_length", "max_length", 0, 6000),
    ):
        low, high = option.get(low_key), option.get(high_key)
        for key, value in ((low_key, low), (high_key, high)):
            numeric = isinstance(value, int | float) and not isinstance(value, bool)
            if numeric and not floor <= value <= ceiling:
                errors.append(
                    FieldError(
                        f"{path}.{key}",
                        "NUMBER_TYPE_MAX" if value > ceiling else "NUMBER_TYPE_MIN",
                        f"Must be between {floor} and {ceiling}.",
                    )
                )
        numbers = [v for v in (low, high) if isinstance(v, int | float) and not isinstance(v, bool)]
        if len(numbers) == 2 and numbers[0] > numbers[1]:
            errors.append(
                FieldError(
                    f"{path}.{high_key}",
                    "APPLICATION_COMMAND_OPTION_RANGE_INVALID",
                    f"{high_key} must be greater than or equal to {low_key}",
                )
            )
    return errors


COMMAND_TEXT_LIMIT = 8000
"""Characters a command may spend on the names, descriptions and choice values of
itself, its options and their choices (localizations count too)."""


def _command_text(item: dict[str, Any]) -> int:
    total = len(str(item.get("name") or "")) + len(str(item.get("description") or ""))
    if "value" in item:
        total += len(str(item["value"]))
    for key in ("name_localizations", "description_localizations"):
        total += sum(len(str(text)) for text in (item.get(key) or {}).values())
    for child in [*(item.get("options") or []), *(item.get("choices") or [])]:
        total += _command_text(child)
    return total


def _name_and_description(item: dict[str, Any], path: str) -> list[FieldError]:
    errors: list[FieldError] = []
    name = item.get("name") or ""
    if not _COMMAND_NAME.match(name) or name != name.lower():
        errors.append(
            FieldError(
                f"{path}.name",
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r}",
            )
        )
    description = item.get("description") or ""
    if not 1 <= len(description) <= 100:
        errors.append(
            FieldError(
                f"{path}.description",
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        )
    return errors


def command_errors(commands: list[dict[str, Any]]) -> list[FieldError]:
    """Check a bulk-overwrite command list (names, descriptions, option ordering, limits)."""
    errors: list[FieldError] = []
    chat_input = [c for c in commands if c.get("type", 1) == 1]
    if len(chat_input) > 100:
        errors.append(
            FieldError("_root", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        )
    seen: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        key = (kind, command.get("name", ""))
        if key in seen:
            errors.append(
                FieldError(
                    f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate name {key[1]!r}"
                )
            )
        seen.add(key)
        if kind == 1:
            errors.extend(_name_and_description(command, str(i)))
            errors.extend(_option_errors(command.get("options") or [], f"{i}.options"))
        if _command_text(command) > COMMAND_TEXT_LIMIT:
            errors.append(
                FieldError(
                    str(i),
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_TEXT_LIMIT})",
                )
            )
    return errors


EMOJI_IMAGE_LIMIT = 256 * 1024
"""Bytes an emoji's image may hold."""
_EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]+$")
_DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]*={0,2})$")
_IMAGE_MAGIC = {
    "png": b"\x89PNG\r\n\x1a\n",
    "jpeg": b"\xff\xd8\xff",
    "gif": b"GIF8",
    "webp": b"RIFF",
}


def emoji_errors(body: Any, taken: Collection[str]) -> tuple[list[FieldError], bytes]:
    """Check an emoji upload (`name` and `image`, a base64 data URI) against Discord's rules;
    `taken` are the names already in use. Returns the errors and the decoded image."""
    if not isinstance(body, dict):
        return [FieldError("_root", "DICT_TYPE_CONVERT", "Only dictionaries may be used")], b""
    errors: list[FieldError] = []
    name = body.get("name")
    if not isinstance(name, str) or not 2 <= len(name) <= 32:
        errors.append(
            FieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
        )
    elif not _EMOJI_NAME.match(name):
        errors.append(
            FieldError("name", "STRING_TYPE_REGEX", "String value did not match validation regex.")
        )
    elif name in taken:
        errors.append(
            FieldError(
                "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name is already taken."
            )
        )
    image = image_data(body.get("image"))
    if image is None:
        errors.append(FieldError("image", "IMAGE_INVALID", "Invalid image data"))
    elif len(image) > EMOJI_IMAGE_LIMIT:
        errors.append(
            FieldError("image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
        )
    return errors, image or b""


def image_data(uri: Any) -> bytes | None:
    """The image an image data URI (Discord's "Image Data": ``data:image/png;base64,...``,
    PNG, JPEG, GIF or WebP) carries, or None if it is not one."""
    match = _DATA_URI.match(uri) if isinstance(uri, str) else None
    if match is None:
        return None
    try:
        image = base64.b64decode(match[2], validate=True)
    except binascii.Error:
        return None
    return image if image.startswith(_IMAGE_MAGIC[match[1]]) else None


def component_emoji_errors(
    components: list[dict[str, Any]], known: Collection[int]
) -> list[FieldError]:
    """A custom emoji on a button or a select option must be one the bot may use (here:
    the application's own); a Unicode emoji (no id) always may."""
    errors: list[FieldError] = []
    for i, component in enumerate(walk_components(components)):
        emojis = [(f"components.{i}.emoji", component.get("emoji"))]
        emojis += [
            (f"components.{i}.options.{k}.emoji", option.get("emoji"))
            for k, option in enumerate(component.get("options") or [])
        ]
        for path, emoji in emojis:
            emoji_id = (emoji or {}).get("id")
            if emoji_id is not None and int(emoji_id) not in known:
                errors.append(FieldError(f"{path}.id", "COMPONENT_INVALID_EMOJI", "Invalid emoji"))
    return errors


def autocomplete_errors(data: dict[str, Any]) -> list[FieldError]:
    """An autocomplete answer's documented limits: at most 25 choices, each name 1–100
    characters, each value a string of at most 100 characters or a number."""
    choices = data.get("choices")
    if not isinstance(choices, list):
        return [FieldError("data.choices", "BASE_TYPE_REQUIRED", "This field is required")]
    errors: list[FieldError] = []
    if len(choices) > 25:
        errors.append(_too_long("data.choices", 25))
    for i, choice in enumerate(choices):
        name, value = choice.get("name"), choice.get("value")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.append(
                FieldError(
                    f"data.choices.{i}.name",
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                )
            )
        if isinstance(value, str):
            _check_length(errors, f"data.choices.{i}.value", value, 100)
        elif isinstance(value, bool) or not isinstance(value, int | float):
            errors.append(
                FieldError(
                    f"data.choices.{i}.value",
                    "BASE_TYPE_CHOICES",
                    "Value must be a string or a number.",
                )
            )
    return errors
