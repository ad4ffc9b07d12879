"""A federation: creating one, its settings and its organisers."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from federations import derived
from federations.models import Federation, FederationChange, FederationOrganiser
from games.services.errors import RequestIdReused, ServiceError
from games.text.names import clean_name, has_control

from .writes import Actor, check_version, record, write_once

MAX_NAME = 80
MAX_PREFIX = 6
MAX_PROVISIONAL_GAMES = 100
MAX_INACTIVE_DAYS = 3650
# "import" is the API's route beside the federations' addresses (federations/import/).
RESERVED_SLUGS = frozenset({"new", "mine", "import"})
Action = FederationChange.Action
_PREFIX = re.compile(r"[A-Z0-9]{0,6}")  # MAX_PREFIX


def check_name(raw: str) -> str:
    name = clean_name(raw)
    if not name:
        raise ServiceError("federation_name_empty", "a federation needs a name", field="name")
    if has_control(raw):
        raise ServiceError("name_control", "a name cannot contain control characters", field="name")
    if len(name) > MAX_NAME:
        raise ServiceError("federation_name_too_long", "too long", maximum=MAX_NAME, field="name")
    return name


def check_prefix(raw: str) -> str:
    prefix = raw.strip().upper()
    if not _PREFIX.fullmatch(prefix):
        raise ServiceError("federation_prefix", "bad prefix", maximum=MAX_PREFIX, field="id_prefix")
    return prefix


def free_slug(name: str) -> str:
    """An address made from ``name`` that no federation has (a number added when taken)."""
    base = (slugify(name) or "federation")[:40].strip("-") or "federation"
    if base in RESERVED_SLUGS:
        base = f"{base}-federation"
    slug, n = base, 2
    while Federation.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


CREATE_TARGET = "federation:new"


def _created(request_id: uuid.UUID | None) -> Federation | None:
    """The federation a resend of this creation made already (its id given to another change
    is refused)."""
    if request_id is None:
        return None
    change = FederationChange.objects.filter(request_id=request_id).select_related("federation").first()
    if change is None:
        return None
    if change.target != CREATE_TARGET:
        raise RequestIdReused()
    return change.federation


def federation_create(
    *, name: str, user: User, id_prefix: str = "", request_id: uuid.UUID | None = None
) -> Federation:
    """A new federation with ``user`` as its organiser; its address is made from the name. A
    resend (the same request id) answers the federation the first send made."""
    clean, prefix = check_name(name), check_prefix(id_prefix)
    made = _created(request_id)
    if made is not None:
        return made
    for _attempt in range(5):
        try:
            with transaction.atomic():
                federation = Federation.objects.create(name=clean, slug=free_slug(clean), id_prefix=prefix)
                FederationOrganiser.objects.create(federation=federation, user=user)
                record(federation, Action.CREATED, user, request_id, target=CREATE_TARGET, name=clean)
                return federation
        except IntegrityError:
            continue  # another federation took the address meanwhile
    raise ServiceError("slug_taken", "that address is taken", field="slug")


@dataclass(frozen=True)
class Settings:
    name: str
    slug: str
    visibility: str
    counts: str
    id_prefix: str
    provisional_games: int
    inactive_days: int

    @classmethod
    def of(cls, federation: Federation) -> Settings:
        return cls(
            name=federation.name,
            slug=federation.slug,
            visibility=federation.visibility,
            counts=federation.counts,
            id_prefix=federation.id_prefix,
            provisional_games=federation.provisional_games,
            inactive_days=federation.inactive_days,
        )


def checked_settings(settings: Settings) -> Settings:
    """The settings cleaned, or a ``ServiceError`` at the first field that is wrong."""
    slug = slugify(settings.slug)[:50]
    if not slug or slug in RESERVED_SLUGS:
        raise ServiceError("slug_invalid", "the address needs letters or digits", field="slug")
    if settings.visibility not in Federation.Visibility.values:
        raise ServiceError("bad_visibility", "unknown visibility", field="visibility")
    if settings.counts not in Federation.Counts.values:
        raise ServiceError("bad_counts", "unknown choice", field="counts")
    if not 0 <= settings.provisional_games <= MAX_PROVISIONAL_GAMES:
        raise ServiceError(
            "federation_option_range",
            "out of range",
            field="provisional_games",
            low=0,
            high=MAX_PROVISIONAL_GAMES,
        )
    if not 0 <= settings.inactive_days <= MAX_INACTIVE_DAYS:
        raise ServiceError(
            "federation_option_range", "out of range", field="inactive_days", low=0, high=MAX_INACTIVE_DAYS
        )
    return Settings(
        name=check_name(settings.name),
        slug=slug,
        visibility=settings.visibility,
        counts=settings.counts,
        id_prefix=check_prefix(settings.id_prefix),
        provisional_games=settings.provisional_games,
        inactive_days=settings.inactive_days,
    )


def federation_update(
    *,
    federation: Federation,
    settings: Settings,
    version: int | None,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> Federation:
    """The federation's settings, recorded with what each was before."""
    wanted = checked_settings(settings)

    def write(locked: Federation) -> Federation:
        check_version(locked.version, version, "stale_federation")
        if Federation.objects.filter(slug=wanted.slug).exclude(pk=locked.pk).exists():
            raise ServiceError("slug_taken", "that address is taken", field="slug", slug=wanted.slug)
        before = Settings.of(locked)
        if before == wanted:
            return locked
        changed = {
            key: {"before": getattr(before, key), "after": getattr(wanted, key)}
            for key in Settings.__dataclass_fields__
            if getattr(before, key) != getattr(wanted, key)
        }
        for key in changed:
            setattr(locked, key, getattr(wanted, key))
        locked.version += 1
        locked.save(update_fields=[*changed, "version"])
        if "counts" in changed:
            derived.everything_changed(locked)
        record(locked, Action.SETTINGS, user, request_id, target="settings", details=changed)
        return locked

    result = write_once(federation, request_id, "settings", write)
    return result if isinstance(result, Federation) else Federation.objects.get(pk=federation.pk)


def organiser_add(
    *, federation: Federation, username: str, request_id: uuid.UUID | None = None, user: Actor = None
) -> FederationOrganiser:
    """Another organiser, by his account's name."""
    found = User.objects.filter(username=username.strip()[:150]).first()
    if found is None:
        raise ServiceError("organiser_unknown", "no such account", field="username", username=username[:40])

    def write(locked: Federation) -> FederationOrganiser:
        organiser, created = FederationOrganiser.objects.get_or_create(federation=locked, user=found)
        if created:
            record(
                locked,
                Action.ORGANISER_ADDED,
                user,
                request_id,
                target=f"organiser:{found.pk}",
                username=found.get_username(),
            )
        return organiser

    result = write_once(federation, request_id, f"organiser:{found.pk}", write)
    if isinstance(result, FederationOrganiser):
        return result
    return FederationOrganiser.objects.get(federation=federation, user=found)


def organiser_remove(
    *,
    federation: Federation,
    organiser: FederationOrganiser,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> None:
    """An organiser steps down or is removed; the federation keeps at least one."""

    def write(locked: Federation) -> None:
        current = FederationOrganiser.objects.select_related("user").filter(pk=organiser.pk).first()
        if current is None:
            return
        if not FederationOrganiser.objects.filter(federation=locked).exclude(pk=current.pk).exists():
            raise ServiceError("organiser_last", "the last organiser")
        current.delete()
        record(
            locked,
            Action.ORGANISER_REMOVED,
            user,
            request_id,
            target=f"organiser-off:{current.user_id}",
            username=current.user.get_username(),
        )

    write_once(federation, request_id, f"organiser-off:{organiser.user_id}", write)
