"""Discord's rules for guild scheduled events, as the double applies them.

Source: Discord's "Guild Scheduled Event" resource (discord-api-docs,
docs/resources/guild-scheduled-event): the field requirements by entity type, the valid
status transitions, the permissions by entity type, the users list's order and its
pagination, and the limit of 100 uncompleted events a guild. The OpenAPI description
(`spec`) checks each request's shape first; these rules are what it cannot say.

What Discord answers, as the double answers it:

- An unknown event: 404 10070 Unknown Guild Scheduled Event.
- Missing permissions: 403 50013 Missing Permissions.
- Any change to a COMPLETED or CANCELED event: 400 180000 Cannot update a finished event.
- Another status change than SCHEDULED -> ACTIVE, SCHEDULED -> CANCELED or
  ACTIVE -> COMPLETED, or a field that the entity type requires missing or set where it
  must be null: 400 50035 Invalid Form Body with field errors. Discord documents the
  rules, not these field errors' codes: ``BASE_TYPE_REQUIRED``, ``BASE_TYPE_BAD_LENGTH``,
  ``DATE_TIME_TYPE_PARSE`` and ``IMAGE_INVALID`` are its codes for such cases elsewhere;
  the ``GUILD_SCHEDULED_EVENT_*`` codes are the double's names after them (a start in
  the past reads "Cannot schedule event in the past.", as Discord's answer does).
- A 101st SCHEDULED or ACTIVE event: 400 30038 Maximum number of uncompleted guild
  scheduled events reached (100).

The double records malformed requests and missing permissions as test failures; an
unknown or finished event, a status already moved on and a full guild are only answered,
since a member's change in Discord can bring them about under the bot's feet.

Not modelled: recurring events (``recurrence_rule``: recorded as unknown to the double),
their exceptions, stage instances (``entity_id`` is always null), the creator's own
interest (no one is Interested until a test says so) and Discord's own status changes
(an external event started at its start time and ended at its end time, an unstarted one
cancelled hours later): a test scripts those with `DiscordDouble.edit_scheduled_event`.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .models import (
    ACTIVE,
    CANCELED,
    COMPLETED,
    CONNECT,
    CREATE_EVENTS,
    EXTERNAL,
    GUILD_STAGE_VOICE,
    GUILD_VOICE,
    MANAGE_CHANNELS,
    MANAGE_EVENTS,
    MOVE_MEMBERS,
    MUTE_MEMBERS,
    SCHEDULED,
    STAGE_INSTANCE,
    VIEW_CHANNEL,
    VOICE,
    Guild,
    ScheduledEvent,
    User,
)
from .validation import FieldError, image_data

UNCOMPLETED_LIMIT = 100
"""SCHEDULED or ACTIVE events a guild may have at once."""

TRANSITIONS = frozenset({(SCHEDULED, ACTIVE), (SCHEDULED, CANCELED), (ACTIVE, COMPLETED)})
"""The status changes Discord allows (from, to)."""

CHANNEL_PERMISSIONS = {
    EXTERNAL: 0,
    VOICE: VIEW_CHANNEL | CONNECT,
    STAGE_INSTANCE: MANAGE_CHANNELS | MUTE_MEMBERS | MOVE_MEMBERS,
}
"""What creating, editing or deleting an event of each entity type needs in its channel
besides Create or Manage Events (the double has no overwrites: the guild's permissions
are every channel's)."""

CHANNEL_TYPES = {VOICE: GUILD_VOICE, STAGE_INSTANCE: GUILD_STAGE_VOICE}
"""The channel type each entity type is hosted in."""


class Rejection(NamedTuple):
    """What Discord answers a request it refuses: HTTP status, JSON code, message, and
    for 50035 the field errors."""

    status: int
    code: int
    message: str
    errors: list[FieldError]


def _invalid(errors: list[FieldError]) -> Rejection | None:
    return Rejection(400, 50035, "Invalid Form Body", errors) if errors else None


FINISHED = Rejection(400, 180000, "Cannot update a finished event", [])
MISSING_PERMISSIONS = Rejection(403, 50013, "Missing Permissions", [])
TOO_MANY = Rejection(
    400, 30038, "Maximum number of uncompleted guild scheduled events reached (100)", []
)


def _has(permissions: int, needed: int) -> bool:
    return permissions & needed == needed


def may_view(permissions: int, entity_type: int) -> bool:
    """Whether a member with guild `permissions` sees events of `entity_type`: those in a
    channel need View Channel; external ones need nothing."""
    return entity_type == EXTERNAL or _has(permissions, VIEW_CHANNEL)


def may_create(permissions: int, entity_type: int) -> bool:
    """Whether guild `permissions` allow creating an event of `entity_type`."""
    return _has(permissions, CREATE_EVENTS | CHANNEL_PERMISSIONS[entity_type])


def may_change(permissions: int, event: ScheduledEvent, user_id: int, entity_type: int) -> bool:
    """Whether `user_id` with guild `permissions` may edit or delete `event` into one of
    `entity_type`: their own event with Create Events or Manage Events, another's with
    Manage Events, plus the channel permissions of both the old and the new type."""
    events = CREATE_EVENTS | MANAGE_EVENTS if event.creator.id == user_id else MANAGE_EVENTS
    channel = CHANNEL_PERMISSIONS[event.entity_type] | CHANNEL_PERMISSIONS[entity_type]
    return bool(permissions & events) and _has(permissions, channel)


def parse_time(value: Any) -> datetime.datetime | None:
    """An ISO 8601 timestamp as an aware UTC datetime (no offset: UTC); None if it is not
    one."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(datetime.UTC)


def image_hash(uri: Any) -> tuple[str | None, list[FieldError]]:
    """The cover image's hash for an ``image`` field (None clears it), or its error."""
    if uri is None:
        return None, []
    data = image_data(uri)
    if data is None:
        return None, [FieldError("image", "IMAGE_INVALID", "Invalid image data")]
    return hashlib.md5(data, usedforsecurity=False).hexdigest(), []


class _Draft(NamedTuple):
    """An event's fields after a create or an edit, before they are checked."""

    entity_type: int
    name: str
    start: Any
    end: Any
    channel_id: Any
    location: Any


def _draft_errors(
    draft: _Draft, guild: Guild, now: datetime.datetime, *, moving: bool
) -> list[FieldError]:
    """The field errors of `draft`: the name's length, the times (a start that `moving`
    sets must not be past), and each entity type's requirements."""
    errors: list[FieldError] = []
    if not 1 <= len(draft.name) <= 100:
        errors.append(
            FieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        )
    start = draft.start if isinstance(draft.start, datetime.datetime) else None
    end = draft.end if isinstance(draft.end, datetime.datetime) else None
    for key, given, parsed in (
        ("scheduled_start_time", draft.start, start),
        ("scheduled_end_time", draft.end, end),
    ):
        if given is not None and parsed is None:
            errors.append(
                FieldError(
                    key, "DATE_TIME_TYPE_PARSE", f"Could not parse {given}. Should be ISO8601."
                )
            )
    if start is not None and moving and start < now:
        errors.append(
            FieldError(
                "scheduled_start_time",
                "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                "Cannot schedule event in the past.",
            )
        )
    if start is not None and end is not None and end <= start:
        errors.append(
            FieldError(
                "scheduled_end_time",
                "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                "Cannot schedule event to end before starting.",
            )
        )
    if draft.entity_type == EXTERNAL:
        if draft.channel_id is not None:
            errors.append(
                FieldError(
                    "channel_id",
                    "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_NULL",
                    "An external event has no channel: channel_id must be null.",
                )
            )
        if not isinstance(draft.location, str) or not 1 <= len(draft.location) <= 100:
            path = "entity_metadata.location"
            if draft.location is None:
                errors.append(FieldError(path, "BASE_TYPE_REQUIRED", "This field is required"))
            else:
                errors.append(
                    FieldError(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
                )
        if draft.end is None:
            errors.append(
                FieldError("scheduled_end_time", "BASE_TYPE_REQUIRED", "This field is required")
            )
        return errors
    if draft.channel_id is None:
        errors.append(FieldError("channel_id", "BASE_TYPE_REQUIRED", "This field is required"))
        return errors
    channel = guild.channels.get(int(draft.channel_id))
    if channel is None or channel.type != CHANNEL_TYPES[draft.entity_type]:
        kind = "stage" if draft.entity_type == STAGE_INSTANCE else "voice"
        errors.append(
            FieldError(
                "channel_id",
                "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL",
                f"Must be a {kind} channel of the guild.",
            )
        )
    return errors


def create_rejection(
    body: Mapping[str, Any], guild: Guild, now: datetime.datetime
) -> Rejection | None:
    """What Discord refuses in a Create Guild Scheduled Event `body` (already checked
    against the specification) in `guild` at `now`, or None."""
    metadata = body.get("entity_metadata") or {}
    draft = _Draft(
        entity_type=int(body["entity_type"]),
        name=body["name"],
        start=parse_time(body["scheduled_start_time"]) or body["scheduled_start_time"],
        end=parse_time(body.get("scheduled_end_time")) or body.get("scheduled_end_time"),
        channel_id=body.get("channel_id"),
        location=metadata.get("location"),
    )
    errors = _draft_errors(draft, guild, now, moving=True)
    errors += image_hash(body.get("image"))[1]
    return _invalid(errors)


def _edited(event: ScheduledEvent, body: Mapping[str, Any]) -> _Draft:
    entity_type = int(body.get("entity_type") or event.entity_type)
    metadata = body.get("entity_metadata")
    location = event.location if entity_type == event.entity_type else None
    if entity_type == EXTERNAL and isinstance(metadata, dict) and "location" in metadata:
        location = metadata["location"]
    # A change of entity type takes the new type's channel (null for external) only from
    # the body, as Discord requires it there.
    channel_id = event.channel_id if entity_type == event.entity_type else None
    if "channel_id" in body:
        channel_id = body["channel_id"]
    start, end = event.scheduled_start_time, event.scheduled_end_time
    if "scheduled_start_time" in body:
        start = parse_time(body["scheduled_start_time"]) or body["scheduled_start_time"]
    if "scheduled_end_time" in body:
        end = parse_time(body["scheduled_end_time"]) or body["scheduled_end_time"]
    return _Draft(entity_type, body.get("name", event.name), start, end, channel_id, location)


def edit_rejection(
    event: ScheduledEvent, body: Mapping[str, Any], now: datetime.datetime
) -> Rejection | None:
    """What Discord refuses in a Modify Guild Scheduled Event `body` (already checked
    against the specification) of `event` at `now`, or None: a finished event changes no
    more, the status only along `TRANSITIONS` (the same status again changes nothing),
    and the result must meet its entity type's requirements."""
    if event.finished:
        return FINISHED
    errors: list[FieldError] = []
    status = body.get("status")
    if status is not None and status != event.status and (event.status, status) not in TRANSITIONS:
        errors.append(
            FieldError(
                "status",
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                f"Cannot change the status from {event.status} to {status}.",
            )
        )
    draft = _edited(event, body)
    if draft.entity_type == EXTERNAL != event.entity_type and "channel_id" not in body:
        # Discord: a change to EXTERNAL must set channel_id, to null.
        errors.append(FieldError("channel_id", "BASE_TYPE_REQUIRED", "This field is required"))
    moving = "scheduled_start_time" in body and event.status == SCHEDULED
    errors += _draft_errors(draft, event.guild, now, moving=moving)
    if "image" in body:
        errors += image_hash(body["image"])[1]
    return _invalid(errors)


def new_event(
    event_id: int, guild: Guild, creator: User, body: Mapping[str, Any]
) -> ScheduledEvent:
    """The event a valid create `body` makes (see `create_rejection`)."""
    entity_type = int(body["entity_type"])
    start = parse_time(body["scheduled_start_time"])
    assert start is not None, "create_rejection first"
    event = ScheduledEvent(
        id=event_id,
        guild=guild,
        creator=creator,
        name=body["name"],
        entity_type=entity_type,
        scheduled_start_time=start,
        scheduled_end_time=parse_time(body.get("scheduled_end_time")),
        description=body.get("description"),
        privacy_level=int(body["privacy_level"]),
        image=image_hash(body.get("image"))[0],
    )
    if entity_type == EXTERNAL:
        event.location = body["entity_metadata"]["location"]
    else:
        event.channel_id = int(body["channel_id"])
    return event


def apply_edit(event: ScheduledEvent, body: Mapping[str, Any]) -> None:
    """Change `event` as a valid modify `body` says (see `edit_rejection`); Discord
    discards ``entity_metadata`` for events that are not external."""
    draft = _edited(event, body)
    event.entity_type = draft.entity_type
    event.name = draft.name
    event.scheduled_start_time = draft.start
    event.scheduled_end_time = draft.end
    event.channel_id = None if draft.channel_id is None else int(draft.channel_id)
    event.location = draft.location if draft.entity_type == EXTERNAL else None
    if "description" in body:
        event.description = body["description"]
    if "privacy_level" in body:
        event.privacy_level = int(body["privacy_level"])
    if body.get("status") is not None:
        event.status = int(body["status"])
    if "image" in body:
        event.image = image_hash(body["image"])[0]


def uncompleted(guild: Guild) -> int:
    """How many of `guild`'s events are SCHEDULED or ACTIVE."""
    return sum(not event.finished for event in guild.scheduled_events.values())


def users_page(
    user_ids: Sequence[int], *, limit: int, before: int | None, after: int | None
) -> list[int]:
    """One page of an event's users, as Discord documents it: always in ascending order
    of user id; ``before`` (which wins over ``after``) gives the `limit` users nearest
    below it, ``after`` (or neither) the `limit` users from just above it."""
    ordered = sorted(user_ids)
    if before is not None:
        return [user_id for user_id in ordered if user_id < before][-limit:]
    return [user_id for user_id in ordered if after is None or user_id > after][:limit]
