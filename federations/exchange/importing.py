"""A valid federation document written into a new federation in one transaction, its live
rating list re-rated inside it."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from federations import derived, seasons
from federations.exchange.validation import ImportInvalid, settings_of, validate
from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationOpen,
    FederationOrganiser,
    FederationSeason,
    Person,
    PersonLink,
    PublishedLine,
    PublishedList,
    RatedTournament,
)
from federations.ratings import refresh
from federations.services.federations import RESERVED_SLUGS, checked_settings, free_slug
from federations.services.writes import record
from games.services.errors import ServiceError
from games.services.players import check_name
from games.text.names import loose_key

IMPORT_TARGET = "federation:import"


@dataclass(frozen=True)
class Imported:
    federation: Federation
    people: int
    clubs: int
    links: int
    rated_tournaments: int
    published: int
    seasons: int
    opens: int


def _moment(value: str | None) -> datetime.datetime | None:
    return None if value is None else datetime.datetime.fromisoformat(value)


def _day(value: str | None) -> datetime.date | None:
    return None if value is None else datetime.date.fromisoformat(value)


def _slug(wanted: str, name: str) -> str:
    """The document's address when it is free here, else one made from it."""
    slug = slugify(wanted)[:50]
    if slug and slug not in RESERVED_SLUGS and not Federation.objects.filter(slug=slug).exists():
        return slug
    return free_slug(slug or name)


def import_federation(doc: object, *, user: User | None) -> Imported:
    """Import ``doc`` into a new federation with ``user`` as its organiser (none: the site's
    administrator adds one). Validates everything first: ``ImportInvalid`` with every problem,
    nothing written. Then one transaction writes the records, records one "imported" change
    and re-rates the live list from the start."""
    problems, found = validate(doc)
    if problems:
        raise ImportInvalid(problems)
    assert isinstance(doc, Mapping)
    settings = checked_settings(settings_of(doc["federation"]))
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return _write(doc, found, settings, user)
        except IntegrityError:
            # Another federation took the address meanwhile: the next attempt makes another.
            continue
    raise ServiceError("slug_taken", "that address is taken", field="slug")


def _write(doc: Mapping[str, Any], found: Any, settings: Any, user: User | None) -> Imported:
    spec = doc["federation"]
    federation = Federation.objects.create(
        name=settings.name,
        slug=_slug(settings.slug, settings.name),
        visibility=settings.visibility,
        counts=settings.counts,
        id_prefix=settings.id_prefix,
        provisional_games=settings.provisional_games,
        inactive_days=settings.inactive_days,
        next_number=spec["next_number"],
    )
    if user is not None:
        FederationOrganiser.objects.create(federation=federation, user=user)
    people = _write_register(federation, doc["register"], found.clubs)
    for period in doc["clubs"]:
        made = FederationClub.objects.create(
            federation=federation,
            club=found.clubs[period["club"]],
            state=period["state"],
            counts_from=_day(period["counts_from"]),
            joined_at=_moment(period["joined_at"]),
            ended_at=_moment(period["ended_at"]),
        )
        if period.get("invited_at"):
            # Set after the row is made: the field is stamped on creation.
            FederationClub.objects.filter(pk=made.pk).update(invited_at=_moment(period["invited_at"]))
    PersonLink.objects.bulk_create(
        [
            PersonLink(
                federation=federation,
                person=people[link["person"]],
                player=found.players[(link["club"], link["player"])],
                club=found.clubs[link["club"]],
                state=link["state"],
                # Who made a link or claimed an entry is an account, not exported: a claim
                # confirmed after an import links the player and gives the entry no account.
                created_by=None,
            )
            for link in doc["links"]
        ]
    )
    RatedTournament.objects.bulk_create(
        [RatedTournament(federation=federation, tournament=t) for t in found.tournaments]
    )
    published = _write_published(federation, doc["published"], people)
    FederationOpen.objects.bulk_create(
        [
            FederationOpen(
                federation=federation,
                tournament=tournament,
                self_entry=row["self_entry"],
                entries_close=_moment(row["entries_close"]),
                created_by=None,
            )
            for tournament, row in zip(found.opens, doc.get("opens", []), strict=True)
        ]
    )
    # Their standings are derived: marked with everything below and derived here.
    FederationSeason.objects.bulk_create(
        [FederationSeason(federation=federation, **fields) for fields in found.seasons]
    )
    record(
        federation,
        FederationChange.Action.IMPORTED,
        user,
        None,
        target=IMPORT_TARGET,
        name=federation.name,
        people=len(people),
        clubs=len(doc["clubs"]),
        links=len(doc["links"]),
        published=published,
        seasons=len(found.seasons),
        opens=len(found.opens),
    )
    # The live list and the seasons' standings are derived: every family re-rated from the
    # start and every season derived, as ``rebuild_derived --federation`` does, inside this
    # transaction.
    derived.everything_changed(federation)
    refresh(federation)
    seasons.refresh(federation)
    return Imported(
        federation=federation,
        people=len(people),
        clubs=len(doc["clubs"]),
        links=len(doc["links"]),
        rated_tournaments=len(found.tournaments),
        published=published,
        seasons=len(found.seasons),
        opens=len(found.opens),
    )


def _write_register(
    federation: Federation, register: list[Mapping[str, Any]], clubs: Mapping[str, Any]
) -> dict[int, Person]:
    people: dict[int, Person] = {}
    for entry in register:
        name = check_name(entry["name"])
        people[entry["number"]] = Person(
            federation=federation,
            number=entry["number"],
            name=name,
            key=loose_key(name),
            home_club=clubs[entry["home_club"]] if entry["home_club"] else None,
        )
    Person.objects.bulk_create(list(people.values()))
    merged = []
    for entry in register:
        if entry["merged_into"] is not None:
            person = people[entry["number"]]
            person.merged_into = people[entry["merged_into"]]
            merged.append(person)
    Person.objects.bulk_update(merged, ["merged_into"])
    return people


def _write_published(
    federation: Federation, published: list[Mapping[str, Any]], people: Mapping[int, Person]
) -> int:
    made: dict[tuple[str, str], PublishedList] = {}
    # By month, so that a list's previous one is made before it.
    for listed in sorted(published, key=lambda p: (p["family"], p["month"])):
        previous = listed.get("previous")
        row = PublishedList.objects.create(
            federation=federation,
            family=listed["family"],
            month=datetime.date.fromisoformat(listed["month"]),
            cutoff=datetime.datetime.fromisoformat(listed["cutoff"]),
            previous=made[(listed["family"], previous)] if previous is not None else None,
        )
        # Stamped on creation: the moment it was published is the document's.
        PublishedList.objects.filter(pk=row.pk).update(published_at=_moment(listed["published_at"]))
        made[(listed["family"], listed["month"])] = row
        PublishedLine.objects.bulk_create(
            [
                PublishedLine(
                    published=row,
                    # A frozen copy: the entry of that number if the register has it.
                    person=people.get(line["number"]),
                    **{**line, "last_played": _moment(line["last_played"])},
                )
                for line in listed["lines"]
            ],
            batch_size=2000,
        )
    return len(made)
