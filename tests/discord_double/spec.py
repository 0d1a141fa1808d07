"""Discord's published OpenAPI description of API v10 as the judge of every request.

`discord-api-spec/openapi.json` is Discord's own description (see the README there).
`spec()` loads it once per process, lazily, and prepares it for JSON Schema 2020-12
(`jsonschema`, with `referencing` resolving the `$ref`s), honouring the conventions its
repository states:

- `anyOf` unions marked `x-discord-union: oneOf` mean one of the listed shapes, never a
  blend of two. Since every object is closed here (see below), `anyOf` says exactly that.
  JSON Schema's own `oneOf` would say more than Discord means: it refuses a value that fits
  two shapes, and every interaction follow-up fits both of execute_webhook's shapes
  (IncomingWebhookUpdateRequestPartial's fields are a subset of IncomingWebhookRequestPartial's).
  The file's plain `oneOf`s (nullable wrappers, unions tagged by a `type` field) are read as
  `anyOf` too: their shapes do not overlap, except through the next rule.
- Integer fields also accept strings that parse as integers (snowflakes); their `minimum`
  and `maximum` apply to the number such a string spells. (So "12" fits both shapes of a
  message `nonce`, an integer or a string: one more reason for `anyOf`.)

And it is stricter than the file alone, as a test double should be:

- Objects are closed: a field that an object schema does not list is an error
  (`additionalProperties: false` on every schema that lists `properties` and says nothing
  of others). `DISCORD_PY_FIELDS` names the few fields discord.py 2.7 always sends that the
  schemas lack, each allowed where it occurs, with the reason.
- Query and path parameters are checked too, against the operation's `parameters`.

`Spec.check` matches a request's path to the specification's path templates (the most
literal template wins: `/messages/@original` before `/messages/{message_id}`), then checks
the parameters and the JSON body, or a multipart request's `payload_json` and the names of
its file parts. Validators are built once per operation and cached.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import jsonschema
import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from .validation import FieldError

SPEC_FILE = Path(__file__).parent / "discord-api-spec" / "openapi.json"
_BASE_URI = "https://discord.com/api/v10/openapi.json"
_SCHEMA_URI = "https://discord.com/api/v10/schemas/"
_LOCAL_SCHEMA = "#/components/schemas/"
_METHODS = ("get", "put", "post", "patch", "delete")
_INTEGER_STRING = re.compile(r"^-?[0-9]+$")
_TRUE, _FALSE = frozenset({"true", "True", "1"}), frozenset({"false", "False", "0"})


def _allow_integer_snowflake(properties: dict[str, Any], field: str) -> None:
    """Let the snowflake `field` (`{"oneOf": [null, SnowflakeType]}` or a bare `$ref`) be a
    non-negative JSON number too."""
    properties[field] = {"anyOf": [properties[field], {"type": "integer", "minimum": 0}]}


DISCORD_PY_FIELDS: dict[tuple[str, ...], Callable[[dict[str, Any]], None]] = {
    # discord.py's Embed.to_dict() always includes `flags` (0 for the embeds a bot builds);
    # Discord ignores it on requests.
    ("RichEmbed", "flags"): lambda properties: properties.setdefault(
        "flags", {"type": ["integer", "null"]}
    ),
    # handle_message_parameters() sends `tts: false` on message edits too.
    ("MessageEditRequestPartial", "tts"): lambda properties: properties.setdefault(
        "tts", {"type": ["boolean", "null"]}
    ),
    ("IncomingWebhookUpdateRequestPartial", "tts"): lambda properties: properties.setdefault(
        "tts", {"type": ["boolean", "null"]}
    ),
    ("IncomingWebhookUpdateForInteractionCallbackRequestPartial", "tts"): (
        lambda properties: properties.setdefault("tts", {"type": ["boolean", "null"]})
    ),
    # Discord's documentation lists `nsfw` (age-restricted) among a command's fields, and
    # discord.py sends it with every command; the specification's schema lacks it.
    ("ApplicationCommandUpdateRequest", "nsfw"): lambda properties: properties.setdefault(
        "nsfw", {"type": ["boolean", "null"]}
    ),
    # PartialEmoji.to_dict() sends a custom emoji's id as a JSON number.
    ("ComponentEmojiForRequest", "id"): lambda properties: _allow_integer_snowflake(
        properties, "id"
    ),
    # File.to_dict(index) sends a new attachment's id (its index among the files) as a number.
    ("MessageAttachmentRequest", "id"): lambda properties: _allow_integer_snowflake(
        properties, "id"
    ),
    # Guild.create_scheduled_event and ScheduledEvent.edit send a voice or stage event's
    # channel_id as the channel's id, a number.
    **{
        (f"{kind}ScheduledEvent{request}", "channel_id"): (
            lambda properties: _allow_integer_snowflake(properties, "channel_id")
        )
        for kind in ("Stage", "Voice")
        for request in ("CreateRequest", "PatchRequestPartial")
    },
}
"""Harmless differences between discord.py 2.7's requests and the schemas: (schema name,
field) -> the change to that schema's `properties` that allows it."""

DOCUMENTED_FILE_PARTS = frozenset(
    {"create_interaction_response", "execute_webhook", "create_thread"}
)
"""Operations that take file parts `files[0]`..`files[9]` beside `payload_json`, as
Discord's documentation says ("Uploading Files"; an interaction response "supports file
attachments similar to the webhook endpoints"), though the specification's multipart
schemas of these operations list no file part."""
_FILE_PARTS = frozenset(f"files[{n}]" for n in range(10))

_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "pattern": "STRING_TYPE_REGEX",
}


# ---------------------------------------------------------------------- the validator class


def _is_integer(checker: Any, instance: Any) -> bool:
    if isinstance(instance, str):
        return _INTEGER_STRING.match(instance) is not None
    return Draft202012Validator.TYPE_CHECKER.is_type(instance, "integer")


def _bound(keyword: str) -> Callable[..., Iterator[ValidationError]]:
    base = Draft202012Validator.VALIDATORS[keyword]

    def check(validator: Any, bound: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if isinstance(instance, str) and _INTEGER_STRING.match(instance):
            instance = int(instance)
        yield from base(validator, bound, instance, schema)

    return check


_ANY_OF = Draft202012Validator.VALIDATORS["anyOf"]


def _any_of(
    validator: Any, branches: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """`anyOf`, trying only the branches whose `type` tag admits the value's `type` where
    `prepare` found a tagged union (`x-double-tags`): the others cannot match, and trying
    each of seven component or callback shapes in full is most of the time spent."""
    tags = schema.get("x-double-tags")
    picked = tags.get(str(instance.get("type"))) if tags and isinstance(instance, dict) else None
    if picked is None:
        yield from _ANY_OF(validator, branches, instance, schema)
        return
    errors: list[ValidationError] = []
    for index in picked:
        found = list(validator.descend(instance, branches[index], schema_path=index))
        if not found:
            return
        errors.extend(found)
    yield ValidationError(
        f"{instance!r} is not valid under any of the given schemas", context=errors
    )


SpecValidator = jsonschema.validators.extend(
    Draft202012Validator,
    validators={
        "anyOf": _any_of,
        **{
            keyword: _bound(keyword)
            for keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
        },
    },
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)
"""JSON Schema 2020-12 where an integer may also be written as a string of digits."""


# ---------------------------------------------------------------------- preparing the document


def _subschemas(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key in ("items", "additionalProperties", "not", "if", "then", "else", "contains"):
        if isinstance(schema.get(key), dict):
            yield schema[key]
    for key in ("properties", "patternProperties", "$defs"):
        yield from (schema.get(key) or {}).values()
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        yield from schema.get(key) or ()


def _named_constant(schema: Any) -> bool:
    return isinstance(schema, dict) and "const" in schema and set(schema) <= _CONSTANT_KEYS


_CONSTANT_KEYS = frozenset({"const", "title", "description"})


def _close(schema: Any) -> None:
    """Close every object schema under `schema` that lists its properties, and read every
    `oneOf` as `anyOf` (see `prepare`): an `enum` if it names constants, else with its
    `null` branch last."""
    if not isinstance(schema, dict):
        return
    if "oneOf" in schema:
        union = schema.pop("oneOf")
        if "anyOf" in schema:
            schema.setdefault("allOf", []).append({"anyOf": union})
        else:
            schema["anyOf"] = union
    branches = schema.get("anyOf")
    if branches and "enum" not in schema and all(_named_constant(b) for b in branches):
        # An enumeration written as a union of named constants: the same as an `enum`,
        # which checks in one step what the union checks in one branch a constant.
        schema["enum"] = [branch["const"] for branch in schema.pop("anyOf")]
    elif branches:
        # `null` last: most values are not null, and a failed branch costs an error.
        branches.sort(key=lambda branch: branch == {"type": "null"})
    if (
        isinstance(schema.get("properties"), dict)
        and "additionalProperties" not in schema
        and "unevaluatedProperties" not in schema
        and "patternProperties" not in schema
    ):
        schema["additionalProperties"] = False
    for sub in _subschemas(schema):
        _close(sub)


def _tag_unions(schema: Any, schemas: dict[str, Any]) -> None:
    """Mark every `anyOf` under `schema` whose branches are all objects tagged by the
    values their `type` field may take: `x-double-tags` maps each tag to its branches."""
    if not isinstance(schema, dict):
        return
    branches = schema.get("anyOf")
    if branches and "x-double-tags" not in schema:
        tags: dict[str, list[int]] = {}
        for index, branch in enumerate(branches):
            target = branch
            while isinstance(target, dict) and set(target) == {"$ref"}:
                target = schemas[target["$ref"].removeprefix(_LOCAL_SCHEMA)]
            tag = ((target or {}).get("properties") or {}).get("type") or {}
            values = tag.get("enum", [tag["const"]] if "const" in tag else [])
            if not values or "type" not in target.get("required", ()):
                tags = {}
                break
            for value in values:
                tags.setdefault(str(value), []).append(index)
        if tags:
            schema["x-double-tags"] = tags
    for sub in _subschemas(schema):
        _tag_unions(sub, schemas)


def _address_schemas(node: Any) -> None:
    """Point every `$ref` to a component schema at that schema's own resource
    (`_SCHEMA_URI` + name): a registry hit instead of a JSON pointer walked through the
    whole document on every use."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_LOCAL_SCHEMA):
            node["$ref"] = _SCHEMA_URI + ref.removeprefix(_LOCAL_SCHEMA)
        for value in node.values():
            _address_schemas(value)
    elif isinstance(node, list):
        for value in node:
            _address_schemas(value)


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for template, item in document["paths"].items():
        for method in _METHODS:
            if method in item:
                yield template, method, item[method]


def _parameters_schema(shared: list[dict[str, Any]], own: list[dict[str, Any]]) -> dict[str, Any]:
    """One object schema for a request's parameters: {"path": {...}, "query": {...}}."""
    places: dict[str, dict[str, Any]] = {
        place: {"type": "object", "properties": {}, "required": []} for place in ("path", "query")
    }
    for parameter in [*shared, *own]:  # an operation's own parameter overrides the path's
        place = places.get(parameter["in"])
        if place is None:
            continue
        place["properties"][parameter["name"]] = parameter.get("schema", {})
        if parameter.get("required") and parameter["name"] not in place["required"]:
            place["required"].append(parameter["name"])
    return {"type": "object", "properties": places}


def prepare(document: dict[str, Any]) -> dict[str, Any]:
    """Make `document` (changed in place) say what `Spec` checks (see the module's
    docstring): discord.py's named fields allowed, each operation's parameters as one
    schema (`x-double-parameters`), objects closed, `oneOf` read as `anyOf`; then mark the
    tagged unions and give each component schema its own address (both for speed)."""
    schemas = document["components"]["schemas"]
    for (name, field), change in DISCORD_PY_FIELDS.items():
        properties = schemas[name]["properties"]
        change(properties)
        if field not in properties:
            raise KeyError(f"{name}.{field}: the change did not add the field")
    for template, _, operation in _operations(document):
        operation["x-double-parameters"] = _parameters_schema(
            document["paths"][template].get("parameters", []), operation.get("parameters", [])
        )
    for schema in schemas.values():
        _close(schema)
    for _, _, operation in _operations(document):
        _close(operation["x-double-parameters"])
        for media in (operation.get("requestBody") or {}).get("content", {}).values():
            _close(media["schema"])
            _tag_unions(media["schema"], schemas)
    for schema in schemas.values():
        _tag_unions(schema, schemas)
    _address_schemas(document)
    return document


# ---------------------------------------------------------------------- checking requests


class Verdict(NamedTuple):
    """What the specification says of one request.

    `operation` is the matched operationId (None when no path matches). `status` is 0 when
    the request conforms, else what Discord answers: 404 (no such path), 405 (no such
    method on it) or 400 (parameters or body; `errors` says which fields).
    """

    operation: str | None
    status: int
    errors: list[FieldError]


@dataclass(frozen=True)
class Operation:
    """One operation of the specification, as `Spec` uses it."""

    operation_id: str
    pointer: str
    """JSON pointer of the operation object in the document."""
    content_types: frozenset[str]
    body_required: bool
    boolean_query: frozenset[str]
    """Query parameters that are booleans (`true`, `false`, `1`, `0` in a URL)."""
    file_fields: frozenset[str]
    """The binary parts a multipart request may carry (`files[0]`, ...)."""


def _pointer(*parts: str) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


_MESSAGES: dict[str, Callable[[Any], str]] = {
    "maxLength": "Must be {} or fewer in length.".format,
    "maxItems": "Must be {} or fewer in length.".format,
    "minLength": "Must be {} or more in length.".format,
    "minItems": "Must be {} or more in length.".format,
    "maximum": "Must be less than or equal to {}.".format,
    "minimum": "Must be greater than or equal to {}.".format,
    "required": lambda _: "This field is required",
}


_RANGES = {
    "minLength": ("minLength", "maxLength"),
    "maxLength": ("minLength", "maxLength"),
    "minItems": ("minItems", "maxItems"),
    "maxItems": ("minItems", "maxItems"),
}


def _code_and_message(error: ValidationError) -> tuple[str, str]:
    """Discord's code and wording where they are known, else jsonschema's message (cut to
    300 characters). A length with both bounds reads as Discord says it: "between"."""
    keyword = str(error.validator)
    low, high = _RANGES.get(keyword, ("", ""))
    if low in error.schema and high in error.schema:
        bounds = error.schema[low], error.schema[high]
        return "BASE_TYPE_BAD_LENGTH", "Must be between {} and {} in length.".format(*bounds)
    wording = _MESSAGES.get(keyword)
    text = wording(error.validator_value) if wording else error.message
    code = _CODES.get(keyword, f"SPEC_{keyword.upper()}")
    return code, text if len(text) <= 300 else text[:297] + "..."


def _wrong_shape(error: ValidationError) -> bool:
    """Whether `error` says the value is not even of its union branch's shape: another JSON
    type, or another `type` tag (the field unions of components and options are tagged by)."""
    path = list(error.relative_path)
    return (not path and error.validator == "type") or (
        path == ["type"] and error.validator in ("enum", "const")
    )


def causes(error: ValidationError) -> list[ValidationError]:
    """The errors behind `error`: for a union, those of the one branch whose shape the
    value has (all of them); when no single branch fits, jsonschema's `best_match`."""
    if not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [subs for subs in branches.values() if not any(map(_wrong_shape, subs))]
    if len(fitting) != 1:
        return [best_match([error]) or error]
    return [cause for sub in fitting[0] for cause in causes(sub)]


def field_errors(errors: Iterable[ValidationError]) -> list[FieldError]:
    """Discord-style field errors (dotted path, code, message) for `jsonschema` errors."""
    out: list[FieldError] = []
    for error in (cause for top in errors for cause in causes(top)):
        path = [str(part) for part in error.absolute_path]
        code, message = _code_and_message(error)
        instance = error.instance
        if error.validator == "required" and isinstance(instance, dict):
            missing = [name for name in error.validator_value if name not in instance]
            out += [FieldError(".".join([*path, name]), code, message) for name in missing]
        elif error.validator == "additionalProperties" and isinstance(instance, dict):
            known = set(error.schema.get("properties") or {})
            for name in sorted(set(instance) - known):
                out.append(
                    FieldError(".".join([*path, name]), "UNKNOWN_FIELD", f"Unknown field {name!r}")
                )
        else:
            out.append(FieldError(".".join(path) or "_root", code, message))
    return out


class Spec:
    """The prepared specification: matches requests to operations and validates them."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = prepare(document)
        self._registry: Registry[Any] = Registry().with_resources(
            [(_BASE_URI, DRAFT202012.create_resource(self.document))]
            + [
                (_SCHEMA_URI + name, DRAFT202012.create_resource(schema))
                for name, schema in self.document["components"]["schemas"].items()
            ]
        )
        self._fast_registry = jsonschema_rs.Registry(
            [(_BASE_URI, self.document)]
            + [
                (_SCHEMA_URI + name, schema)
                for name, schema in self.document["components"]["schemas"].items()
            ],
            draft=jsonschema_rs.Draft202012,
        )
        self._fast: dict[str, Any] = {}
        self._validators: dict[str, Any] = {}
        self._routes: list[tuple[re.Pattern[str], dict[str, Operation]]] = []
        ranked = []
        for template, item in self.document["paths"].items():
            segments = template.strip("/").split("/")
            literal = sum(not s.startswith("{") for s in segments)
            pattern = "/".join(
                f"(?P<{s[1:-1]}>[^/]+)" if s.startswith("{") else re.escape(s) for s in segments
            )
            operations = {
                method.upper(): self._operation(template, method, item[method])
                for method in _METHODS
                if method in item
            }
            ranked.append((-literal, template, re.compile(f"^/{pattern}$"), operations))
        self._routes = [(regex, ops) for _, _, regex, ops in sorted(ranked)]

    @staticmethod
    def _operation(template: str, method: str, operation: dict[str, Any]) -> Operation:
        body = operation.get("requestBody") or {}
        content = body.get("content", {})
        multipart = content.get("multipart/form-data", {}).get("schema", {})
        files = {
            name
            for part in [multipart, *multipart.get("allOf", [])]
            for name, schema in (part.get("properties") or {}).items()
            if schema.get("contentEncoding") == "binary"
        }
        query = operation["x-double-parameters"]["properties"]["query"]["properties"]
        return Operation(
            operation_id=operation["operationId"],
            boolean_query=frozenset(
                name
                for name, schema in query.items()
                if schema.get("type") in ("boolean", ["boolean", "null"])
            ),
            pointer=_pointer("paths", template, method),
            content_types=frozenset(content),
            body_required=bool(body.get("required")),
            file_fields=frozenset(files)
            | (_FILE_PARTS if operation["operationId"] in DOCUMENTED_FILE_PARTS else frozenset()),
        )

    def validator(self, pointer: str) -> Any:
        """The (cached) validator of the schema at JSON pointer `pointer`."""
        validator = self._validators.get(pointer)
        if validator is None:
            ref = f"{_BASE_URI}#{quote(pointer, safe='/~')}"
            validator = SpecValidator({"$ref": ref}, registry=self._registry)
            self._validators[pointer] = validator
        return validator

    def fast_validator(self, pointer: str) -> Any:
        """The (cached) compiled validator of the schema at `pointer`, in plain JSON Schema
        2020-12: stricter than :meth:`validator` (no integer written as a string), so a
        value it accepts the other accepts; it only says yes or no."""
        validator = self._fast.get(pointer)
        if validator is None:
            ref = f"{_BASE_URI}#{quote(pointer, safe='/~')}"
            validator = jsonschema_rs.Draft202012Validator(
                {"$ref": ref}, registry=self._fast_registry, validate_formats=False
            )
            self._fast[pointer] = validator
        return validator

    def operation(self, method: str, path: str) -> tuple[Operation | None, dict[str, str], int]:
        """The operation serving `method path` (path without /api/v10), the path parameters,
        and 0, or else None and Discord's status: 404 (unknown path), 405 (unknown method)."""
        for regex, operations in self._routes:
            match = regex.match(path)
            if match is None:
                continue
            operation = operations.get(method.upper())
            if operation is None:
                return None, {}, 405
            return operation, match.groupdict(), 0
        return None, {}, 404

    def check(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        content_type: str | None,
        body: Any,
        file_fields: Iterable[str] = (),
    ) -> Verdict:
        """Check one request: `path` without /api/v10; `content_type` None when it has no
        body; `body` the parsed JSON (a multipart request's `payload_json`); `file_fields`
        the names of a multipart request's file parts."""
        operation, path_parameters, status = self.operation(method, path)
        if operation is None:
            what = "path" if status == 404 else "method"
            message = f"{method} {path}: no such {what} in Discord's API specification"
            return Verdict(None, status, [FieldError("_root", "SPEC_UNKNOWN_ROUTE", message)])
        errors = self._parameter_errors(operation, path_parameters, query)
        errors += self._body_errors(operation, content_type, body, list(file_fields))
        return Verdict(operation.operation_id, 400 if errors else 0, errors)

    def _parameter_errors(
        self, operation: Operation, path: dict[str, str], query: Mapping[str, str]
    ) -> list[FieldError]:
        values: dict[str, Any] = dict(query)
        for name in operation.boolean_query & values.keys():
            if values[name] in _TRUE | _FALSE:
                values[name] = values[name] in _TRUE
        validator = self.validator(operation.pointer + "/x-double-parameters")
        return field_errors(validator.iter_errors({"path": path, "query": values}))

    def _body_errors(
        self, operation: Operation, content_type: str | None, body: Any, files: list[str]
    ) -> list[FieldError]:
        if content_type is None:
            if operation.body_required:
                return [FieldError("_root", "BASE_TYPE_REQUIRED", "This request needs a body")]
            return []
        if content_type not in operation.content_types:
            return [
                FieldError(
                    "_root",
                    "SPEC_CONTENT_TYPE",
                    f"{operation.operation_id} takes no {content_type} body "
                    f"(it takes: {sorted(operation.content_types) or 'none'})",
                )
            ]
        errors: list[FieldError] = []
        if content_type == "multipart/form-data":
            unknown = sorted(set(files) - operation.file_fields)
            errors += [
                FieldError(name, "SPEC_UNKNOWN_FILE_FIELD", f"Unknown form field {name!r}")
                for name in unknown
            ]
            # The form's JSON part: the same shape as the JSON body of the operation.
            if "application/json" in operation.content_types:
                content_type = "application/json"
        media = _pointer("requestBody", "content", content_type, "schema")
        # Most bodies conform: the compiled check says so in a fiftieth of the time, and
        # only a body it refuses goes through the full check, for Discord's field errors
        # (or to be accepted after all, where an integer is written as digits).
        if self.fast_validator(operation.pointer + media).is_valid(body):
            return errors
        validator = self.validator(operation.pointer + media)
        errors += field_errors(validator.iter_errors(body))
        return errors


@functools.cache
def spec() -> Spec:
    """The specification, loaded and prepared once per process."""
    with SPEC_FILE.open(encoding="utf-8") as file:
        return Spec(json.load(file))


def report_totals(lines: Iterable[str]) -> list[str]:
    """The closing note of a run with DISCORD_SPEC_REPORT: each double appended one JSON
    line (`{"counts": {operationId: n}, "seconds": s}`); these are the totals."""
    totals: dict[str, int] = {}
    seconds = 0.0
    doubles = 0
    for line in lines:
        if not line.strip():
            continue
        entry = json.loads(line)
        doubles += 1
        seconds += entry["seconds"]
        for operation, count in entry["counts"].items():
            totals[operation] = totals.get(operation, 0) + count
    out = [
        f"{sum(totals.values())} requests of {doubles} doubles validated against Discord's "
        f"API specification ({seconds:.2f} s of validation)"
    ]
    out += [
        f"{count:>8}  {operation}"
        for operation, count in sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    ]
    return out
