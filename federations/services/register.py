"""The federation's register of persons: adding and editing entries, merging duplicates and
undoing a merge (as a club merges its players: the links move, and undo moves them back while
nothing changed since)."""

from __future__ import annotations

import uuid

from django.db.models import Q

from federations import derived
from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationRating,
    Person,
    PersonLink,
)
from games.models import Club
from games.services.errors import ServiceError
from games.services.players import check_name
from games.text.names import loose_key

from .writes import Actor, check_version, record, write_once

Action = FederationChange.Action


def person_label(federation: Federation, number: int) -> str:
    """A register entry's federation id as people read it: the prefix and the number."""
    return f"{federation.id_prefix}-{number:05d}" if federation.id_prefix else f"{number:05d}"


def parse_number(federation: Federation, raw: str) -> int | None:
    """The number of a federation id as typed ("CZ-00042", "cz 42", "42"), or None."""
    text = raw.strip().upper().replace(" ", "").replace("-", "")
    prefix = federation.id_prefix.upper()
    if prefix and text.startswith(prefix):
        text = text[len(prefix) :]
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def find_person(federation: Federation, number: int, *, follow: bool = False) -> Person:
    """The entry of that number; ``follow``: a merged entry's survivor."""
    person = Person.objects.filter(federation=federation, number=number).first()
    if person is None:
        raise ServiceError(
            "person_unknown", "no such entry", field="person", number=person_label(federation, number)
        )
    while follow and person.merged_into_id is not None:
        person = Person.objects.get(pk=person.merged_into_id)
    return person


def _check_home(locked: Federation, home_club: Club | None) -> None:
    if (
        home_club is not None
        and not FederationClub.objects.filter(
            federation=locked, club=home_club, state=FederationClub.State.MEMBER
        ).exists()
    ):
        raise ServiceError("home_club_not_member", "not a member", field="home_club")


def person_add(
    *,
    federation: Federation,
    name: str,
    home_club: Club | None = None,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> Person:
    """A new register entry with the federation's next number."""
    clean = check_name(name)
    target = "person:new"

    def write(locked: Federation) -> Person:
        _check_home(locked, home_club)
        number = locked.next_number
        locked.next_number += 1
        locked.save(update_fields=["next_number"])
        person = Person.objects.create(
            federation=locked, number=number, name=clean, key=loose_key(clean), home_club=home_club
        )
        record(
            locked,
            Action.PERSON_ADDED,
            user,
            request_id,
            target=target,
            club=home_club,
            person=person.pk,
            number=number,
            name=clean,
        )
        return person

    result = write_once(federation, request_id, target, write)
    return result if isinstance(result, Person) else Person.objects.get(pk=result.data["person"])


def person_edit(
    *,
    person: Person,
    name: str,
    home_club: Club | None,
    version: int | None,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> Person:
    clean = check_name(name)
    target = f"person:{person.pk}:edit"

    def write(locked: Federation) -> Person:
        current = Person.objects.get(pk=person.pk)
        check_version(current.version, version, "stale_person")
        if home_club is not None and home_club.pk != current.home_club_id:
            _check_home(locked, home_club)
        before = {"name": current.name, "home_club": current.home_club_id}
        after = {"name": clean, "home_club": home_club.pk if home_club else None}
        if before == after:
            return current
        current.name, current.key, current.home_club = clean, loose_key(clean), home_club
        current.version += 1
        current.save(update_fields=["name", "key", "home_club", "version"])
        FederationRating.objects.filter(person=current).update(key=current.key)  # the list's order
        record(
            locked,
            Action.PERSON_EDITED,
            user,
            request_id,
            target=target,
            person=current.pk,
            number=current.number,
            before=before,
            after=after,
        )
        return current

    result = write_once(person.federation, request_id, target, write)
    return result if isinstance(result, Person) else Person.objects.get(pk=person.pk)


def likely_duplicates(federation: Federation) -> list[list[Person]]:
    """Entries whose names read alike (accents, case and spacing aside): merge candidates."""
    people = (
        Person.objects.filter(federation=federation, merged_into=None)
        .select_related("home_club")
        .order_by("key", "number")
    )
    groups: dict[str, list[Person]] = {}
    for person in people:
        groups.setdefault(person.key, []).append(person)
    return [group for group in groups.values() if len(group) > 1]


def person_merge(
    *,
    source: Person,
    into: Person,
    versions: tuple[int | None, int | None],
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> FederationChange:
    """Merge a duplicate entry into another: its links move there and it points at the
    survivor (its number still finds him). Refused when both are linked in one club: a person
    is one player per club, so the club merges its two players first."""
    if source.pk == into.pk:
        raise ServiceError("merge_same", "the same entry")
    target = f"merge:{source.pk}:{into.pk}"

    def write(locked: Federation) -> FederationChange:
        pair = {
            p.pk: p for p in Person.objects.select_for_update(no_key=True).filter(pk__in=[source.pk, into.pk])
        }
        src, dst = pair[source.pk], pair[into.pk]
        check_version(src.version, versions[0], "stale_person")
        check_version(dst.version, versions[1], "stale_person")
        for person in (src, dst):
            if person.merged_into_id is not None:
                raise ServiceError("person_merged", "merged", person=person.name)
        links = list(PersonLink.objects.select_related("player", "club").filter(person=src))
        theirs = {
            link.club_id: link for link in PersonLink.objects.select_related("player").filter(person=dst)
        }
        for link in links:
            other = theirs.get(link.club_id)
            if other is not None:
                raise ServiceError(
                    "merge_same_club",
                    "one club",
                    club=link.club.name,
                    first=link.player.name,
                    second=other.player.name,
                )
        moved = [link.pk for link in links]
        PersonLink.objects.filter(pk__in=moved).update(person=dst)
        derived.players_moved(locked, [link.player_id for link in links])
        took_user = src.user_id is not None and dst.user_id is None
        user_id = src.user_id
        src.merged_into, src.version = dst, src.version + 1
        if took_user:
            src.user = None
        src.save(update_fields=["merged_into", "user", "version"])
        dst.version += 1
        if took_user:
            dst.user_id = user_id
        dst.save(update_fields=["user", "version"])
        return record(
            locked,
            Action.MERGED,
            user,
            request_id,
            target=target,
            source=src.pk,
            into=dst.pk,
            source_number=src.number,
            into_number=dst.number,
            source_name=src.name,
            into_name=dst.name,
            links=moved,
            user_moved=user_id if took_user else None,
            versions=[src.version, dst.version],
        )

    return write_once(source.federation, request_id, target, write)


def change_undo(
    *, change: FederationChange, request_id: uuid.UUID | None = None, user: Actor = None
) -> FederationChange:
    """Undo a merge while both entries and the moved links are as it left them; the undo is
    itself a change (undoing it merges again)."""
    target = f"undo:{change.pk}"

    def write(locked: Federation) -> FederationChange:
        current = FederationChange.objects.filter(pk=change.pk, federation=locked).first()
        if current is None or current.action not in (Action.MERGED, Action.UNMERGED):
            raise ServiceError("nothing_to_undo", "cannot be undone")
        if FederationChange.objects.filter(undoes=current).exists():
            raise ServiceError("nothing_to_undo", "undone already")
        return _reverse(locked, current, request_id, target, user)

    return write_once(change.federation, request_id, target, write)


def _pair(data: dict) -> tuple[Person, Person]:
    pair = {
        p.pk: p
        for p in Person.objects.select_for_update(no_key=True).filter(pk__in=[data["source"], data["into"]])
    }
    return pair[data["source"]], pair[data["into"]]


def _reverse(
    locked: Federation, change: FederationChange, request_id: uuid.UUID | None, target: str, user: Actor
) -> FederationChange:
    """Undo a merge (the links go back to the merged entry, which stands again) or an undone
    merge (merged again), while both entries and the links are as ``change`` left them."""
    data = change.data
    src, dst = _pair(data)
    merging = change.action == Action.UNMERGED  # undoing an unmerge merges again
    holder, taker = (src, dst) if merging else (dst, src)
    links = PersonLink.objects.filter(pk__in=data["links"])
    if (
        [src.version, dst.version] != data["versions"]
        or src.merged_into_id != (None if merging else dst.pk)
        or links.filter(~Q(person=holder)).exists()
        or links.count() != len(data["links"])
    ):
        raise ServiceError("undo_later_change", "changed since")
    links.update(person=taker)
    derived.players_moved(locked, list(links.values_list("player_id", flat=True)))
    src.merged_into, src.version, dst.version = (dst if merging else None), src.version + 1, dst.version + 1
    if data["user_moved"] is not None:
        holder.user, taker.user_id = None, data["user_moved"]
    # The one giving up the account is saved first: an account holds one entry at a time.
    for person in (holder, taker):
        person.save(update_fields=["merged_into", "user", "version"])
    return record(
        locked,
        Action.MERGED if merging else Action.UNMERGED,
        user,
        request_id,
        target=target,
        undoes=change,
        details={**data, "versions": [src.version, dst.version]},
    )
