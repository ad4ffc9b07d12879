"""What the tournament and season services share: who acts, the version check, names, bounds."""

from __future__ import annotations

from datetime import date

from django.contrib.auth.models import AnonymousUser, User

from games.services.errors import ServiceError, StaleVersion
from games.text.names import clean_name, has_control

Actor = User | AnonymousUser | None

# A season's event counts and games needed, and the length of custom points typed: the same
# bounds for the pages and the API, so that a setting made in one can be kept in the other.
MAX_EVENTS = 1000
MAX_MIN_GAMES = 10000
MAX_QUALIFY = 1000
MAX_CUSTOM_POINTS = 500
# The days a tournament or a season may have: a day far outside them is a typing slip, and the
# year 1 leaves no room for the time zones its evenings are counted in.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)


def acting_user(user: Actor) -> User | None:
    return user if user is not None and user.is_authenticated else None


def check_day(day: date, field: str) -> None:
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ServiceError(
            "day_range", "a day out of range", field=field, first=FIRST_DAY.year, last=LAST_DAY.year
        )


def check_version(kind: str, stored: int, version: int | None) -> None:
    if version is None:
        raise ServiceError("version_required", "the form did not say which version it changes")
    if stored != version:
        raise StaleVersion(kind=kind)


def clean_event_name(raw: str) -> str:
    """A tournament's or a season's name, cleaned as player and club names are (no invisible
    format characters such as bidirectional overrides); control characters are refused."""
    if has_control(raw):
        raise ServiceError("name_control", "a name cannot contain control characters", field="name")
    return clean_name(raw)
