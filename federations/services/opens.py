"""Federation opens: a member club's tournament hosted for the federation, entered from the
register of any member club and seeded by the federation's live list.

- **Hosting**: an organiser of a member club makes one of its tournaments that has no round yet
  an open of a federation the club belongs to. In the same transaction the tournament is marked
  federation-rated (as ``events.tournament_rate`` marks it) and seeded by rating; ending the
  open before round 1 takes back the mark it made.
- **Entering**: a register entry enters. A tournament's entries are players of its club, so
  the person's player in the host club is used when he is linked to one there; otherwise a
  player of the host club is made under his registered name (with his federation id after it
  when the club has a player of that name already) and linked to him, in the same transaction.
  Who may enter whom is ``Standing``: the person himself when the open allows it, an organiser
  of a member club for the people linked to his club's players or whose home club it is, and the
  federation's and the host club's organisers for anyone. Anyone else is refused before anything
  is looked up, so a stranger learns nothing of who is registered.
- Entries close when round 1 is seated (or at ``entries_close``); a person withdraws (or is
  withdrawn by the same people) until then.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.utils import timezone

from federations import access, derived
from federations.models import (
    Federation,
    FederationChange,
    FederationClub,
    FederationOpen,
    Person,
    PersonLink,
    RatedTournament,
)
from games.models import Membership, Player
from games.services.errors import NotAllowed, ServiceError
from games.text.names import loose_key, name_key
from tournaments.models import Entry, Round, Tournament, TournamentChange
from tournaments.services.entries import entries_add, entry_remove
from tournaments.services.writes import record_change

from .register import parse_number, person_label
from .writes import Actor, acting_user, record, write_once

Action = FederationChange.Action
MAX_PLAYER_NAME = 40


def _not_allowed() -> NotAllowed:
    return NotAllowed("open_not_allowed", "may not enter this person", field="person")


def _closed() -> ServiceError:
    return ServiceError("open_closed", "entries are closed", field="person")


def _started(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament).exists()


def host_target(tournament: Tournament) -> str:
    return f"open:{tournament.pk}"


def open_host(
    *,
    federation: Federation,
    tournament: Tournament,
    self_entry: bool = True,
    entries_close: datetime.datetime | None = None,
    user: Actor,
    request_id: uuid.UUID | None = None,
) -> FederationOpen:
    """Make the club's tournament an open of the federation (its club's organisers): marked
    federation-rated and seeded by rating in the same transaction. Hosting it again for the
    same federation changes nothing."""
    if not access.club_organiser(user=user or _anonymous(), club=tournament.club):
        raise NotAllowed("open_not_club_organiser", "not the club's organiser")
    target = host_target(tournament)

    def write(locked: Federation) -> FederationOpen:
        if not FederationClub.objects.filter(
            federation=locked, club_id=tournament.club_id, state=FederationClub.State.MEMBER
        ).exists():
            raise ServiceError("link_not_member", "not a member", club=tournament.club.name)
        held = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        existing = FederationOpen.objects.filter(tournament=held).select_related("federation").first()
        if existing is not None:
            if existing.federation_id == locked.pk:
                return existing
            raise ServiceError("open_taken", "another federation's open", federation=existing.federation.name)
        if _started(held):
            raise ServiceError("open_started", "a round is seated", tournament=held.name)
        made = FederationOpen.objects.create(
            federation=locked,
            tournament=held,
            self_entry=self_entry,
            entries_close=entries_close,
            created_by=acting_user(user),
        )
        mark, marked = RatedTournament.objects.get_or_create(federation=locked, tournament=held)
        if marked:
            derived.tournament_marked(mark)
        if not held.seed_by_rating:
            held.seed_by_rating, held.version = True, held.version + 1
            held.save(update_fields=["seed_by_rating", "version", "updated_at"])
            record_change(
                held,
                TournamentChange.Action.SETTINGS,
                user,
                None,
                before={"seed_by_rating": False},
                after={"seed_by_rating": True},
            )
        record(
            locked,
            Action.OPEN_HOSTED,
            user,
            request_id,
            target=target,
            club=held.club_id,
            tournament=held.public_id,
            name=held.name,
            club_name=held.club.name,
            self_entry=self_entry,
            marked=marked,
        )
        return made

    result = write_once(federation, request_id, target, write)
    if isinstance(result, FederationOpen):
        return result
    return FederationOpen.objects.select_related("federation", "tournament").get(tournament=tournament)


def open_end(*, open_: FederationOpen, user: Actor, request_id: uuid.UUID | None = None) -> None:
    """The tournament is no longer an open (the host club's or the federation's organisers),
    before round 1 is seated; the federation-rated mark hosting made goes with it. The players
    entered stay registered for the club's tournament."""
    tournament = open_.tournament
    anyone = user or _anonymous()
    if not (
        access.club_organiser(user=anyone, club=tournament.club)
        or access.is_organiser(user=anyone, federation=open_.federation)
    ):
        raise NotAllowed("open_not_club_organiser", "not the club's organiser")
    target = f"open-end:{tournament.pk}"

    def write(locked: Federation) -> None:
        held = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        current = FederationOpen.objects.filter(pk=open_.pk).first()
        if current is None:
            raise ServiceError("open_gone", "not an open")
        if _started(held):
            raise ServiceError("open_started", "a round is seated", tournament=held.name)
        hosted = (
            FederationChange.objects.filter(
                federation=locked, action=Action.OPEN_HOSTED, data__tournament=held.public_id
            )
            .order_by("-id")
            .first()
        )
        if hosted is not None and hosted.data.get("marked"):
            mark = RatedTournament.objects.filter(federation=locked, tournament=held).first()
            if mark is not None:
                derived.tournament_marked(mark)
                mark.delete()
        current.delete()
        record(
            locked,
            Action.OPEN_ENDED,
            user,
            request_id,
            target=target,
            club=held.club_id,
            tournament=held.public_id,
            name=held.name,
            club_name=held.club.name,
        )

    write_once(open_.federation, request_id, target, write)


def _anonymous() -> access.AnyUser:
    return AnonymousUser()


@dataclass(frozen=True)
class Standing:
    """Whom a user may enter in an open: ``everyone`` (the federation's or the host club's
    organisers), the people of ``clubs`` (the member clubs he organises: linked to their
    players or at home there) and ``own`` (his own register entry, when the open allows it)."""

    everyone: bool = False
    clubs: frozenset[int] = field(default_factory=frozenset)
    own: int | None = None
    own_number: int | None = None

    @property
    def anyone(self) -> bool:
        return self.everyone or bool(self.clubs) or self.own is not None

    def may(self, person: Person, club_ids: set[int]) -> bool:
        """``club_ids``: the clubs whose players the person is linked to."""
        if self.everyone or person.pk == self.own:
            return True
        return person.home_club_id in self.clubs or bool(club_ids & self.clubs)


def standing(*, user: access.AnyUser, open_: FederationOpen) -> Standing:
    """What the user may do in the open (at most three queries; none for a visitor)."""
    if not user.is_authenticated:
        return Standing()
    federation, tournament = open_.federation, open_.tournament
    if access.is_organiser(user=user, federation=federation):
        return Standing(everyone=True)
    organised = set(
        Membership.objects.filter(
            user_id=user.pk,
            role=Membership.Role.ORGANISER,
            club__federations__federation=federation,
            club__federations__state=FederationClub.State.MEMBER,
        ).values_list("club_id", flat=True)
    )
    if tournament.club_id in organised:
        return Standing(everyone=True)
    own = None
    number = None
    if open_.self_entry:
        found = (
            Person.objects.filter(federation=federation, user_id=user.pk, merged_into=None)
            .values_list("pk", "number")
            .first()
        )
        if found is not None:
            own, number = found
    return Standing(clubs=frozenset(organised), own=own, own_number=number)


def _linked_clubs(person: Person) -> set[int]:
    """The clubs whose players are linked to the person (a claim waiting for its club aside)."""
    linked = PersonLink.objects.filter(person=person, state=PersonLink.State.LINKED)
    return set(linked.values_list("club_id", flat=True))


def _entries_closed(open_: FederationOpen, tournament: Tournament) -> bool:
    if open_.entries_close is not None and timezone.now() >= open_.entries_close:
        return True
    return _started(tournament)


def _person(locked: Federation, who: Standing, number: int | None) -> Person:
    """The register entry of that number, as the caller may learn of it: the federation's and
    the host's organisers are told it is unknown or merged; anyone else only that he may not."""
    person = Person.objects.filter(federation=locked, number=number).first() if number is not None else None
    if person is None:
        if who.everyone:
            label = person_label(locked, number) if number is not None else ""
            raise ServiceError("person_unknown", "no such entry", field="person", number=label)
        raise _not_allowed()
    if person.merged_into_id is not None:
        if who.everyone or person.pk == who.own:
            raise ServiceError("person_merged", "merged", field="person", person=person.name)
        raise _not_allowed()
    if not who.may(person, _linked_clubs(person)):
        raise _not_allowed()
    return person


def _guest_name(federation: Federation, person: Person, club_id: int) -> str:
    """The person's registered name, or with his federation id after it when the host club has
    a player of that name already (who may be somebody else: never linked by name alone)."""
    taken = Player.objects.filter(club_id=club_id, key=name_key(person.name), merged_into=None)
    if not taken.exists():
        return person.name
    label = f" ({person_label(federation, person.number)})"
    return person.name[: MAX_PLAYER_NAME - len(label)].rstrip() + label


def _host_player(locked: Federation, person: Person, tournament: Tournament, user: Actor) -> Player:
    """The person's player in the host club: the one linked to him, or a new one linked now."""
    link = (
        PersonLink.objects.select_related("player")
        .filter(federation=locked, person=person, club_id=tournament.club_id)
        .first()
    )
    if link is not None:
        return link.player
    name = _guest_name(locked, person, tournament.club_id)
    if Player.objects.filter(club_id=tournament.club_id, key=name_key(name), merged_into=None).exists():
        raise ServiceError("open_name_taken", "name taken", field="person", person=person.name)
    player = Player.objects.create(
        club_id=tournament.club_id, name=name, key=name_key(name), loose_key=loose_key(name)
    )
    made = PersonLink.objects.create(
        federation=locked,
        person=person,
        player=player,
        club_id=tournament.club_id,
        state=PersonLink.State.LINKED,
        created_by=acting_user(user),
    )
    record(
        locked,
        Action.LINKED,
        user,
        None,
        club=tournament.club_id,
        link=made.pk,
        person=person.pk,
        number=person_label(locked, person.number),
        person_name=person.name,
        player=player.pk,
        player_name=player.name,
        guest=True,
    )
    return player


def enter_target(open_: FederationOpen, number: int | None) -> str:
    return f"enter:{open_.pk}:{number}"


def open_enter(
    *, open_: FederationOpen, person_id: str, user: Actor, request_id: uuid.UUID | None = None
) -> Entry:
    """Enter the register entry of a federation id (as typed) in the open."""
    who = standing(user=user or _anonymous(), open_=open_)
    if not who.anyone:
        raise _not_allowed()
    number = parse_number(open_.federation, person_id)
    target = enter_target(open_, number)

    def write(locked: Federation) -> Entry:
        tournament = (
            Tournament.objects.select_for_update(no_key=True)
            .select_related("club")
            .get(pk=open_.tournament_id)
        )
        if not FederationOpen.objects.filter(pk=open_.pk).exists():
            raise ServiceError("open_gone", "not an open")
        person = _person(locked, who, number)
        if person.pk == who.own and not who.everyone and not open_.self_entry:
            raise _not_allowed()
        if _entries_closed(open_, tournament):
            raise _closed()
        player = _host_player(locked, person, tournament, user)
        if Entry.objects.filter(tournament=tournament, player=player).exists():
            raise ServiceError("open_already_entered", "entered", field="person", person=person.name)
        entries_add(tournament=tournament, players=[player], user=user)
        entry = Entry.objects.select_related("player").get(tournament=tournament, player=player)
        _record_entry(locked, Action.OPEN_ENTERED, user, request_id, target, tournament, person, player.pk)
        return entry

    result = write_once(open_.federation, request_id, target, write)
    if isinstance(result, Entry):
        return result
    found = Entry.objects.filter(tournament_id=open_.tournament_id, player_id=result.data.get("player"))
    entry = found.select_related("player").first()
    if entry is None:
        raise ServiceError("entry_gone", "no longer registered")
    return entry


def open_withdraw(
    *, open_: FederationOpen, person_id: str, user: Actor, request_id: uuid.UUID | None = None
) -> None:
    """Take a register entry's player off the open before round 1 is seated (the same people who
    may enter him). His player in the host club and its link stay."""
    who = standing(user=user or _anonymous(), open_=open_)
    if not who.anyone:
        raise _not_allowed()
    number = parse_number(open_.federation, person_id)
    target = f"withdraw:{open_.pk}:{number}"

    def write(locked: Federation) -> None:
        tournament = (
            Tournament.objects.select_for_update(no_key=True)
            .select_related("club")
            .get(pk=open_.tournament_id)
        )
        if not FederationOpen.objects.filter(pk=open_.pk).exists():
            raise ServiceError("open_gone", "not an open")
        person = _person(locked, who, number)
        entry = (
            Entry.objects.select_related("player", "tournament")
            .filter(
                Q(player__federation_links__person=person, player__federation_links__federation=locked),
                tournament=tournament,
            )
            .first()
        )
        if entry is None:
            raise ServiceError("open_not_entered", "not entered", field="person", person=person.name)
        if _started(tournament):
            raise _closed()
        entry_remove(entry=entry, user=user)
        _record_entry(
            locked, Action.OPEN_WITHDRAWN, user, request_id, target, tournament, person, entry.player_id
        )

    write_once(open_.federation, request_id, target, write)


def _record_entry(
    federation: Federation,
    action: str,
    user: Actor,
    request_id: uuid.UUID | None,
    target: str,
    tournament: Tournament,
    person: Person,
    player_id: int,
) -> None:
    """An entry or a withdrawal as the federation's history shows it."""
    record(
        federation,
        action,
        user,
        request_id,
        target=target,
        club=tournament.club_id,
        tournament=tournament.public_id,
        tournament_name=tournament.name,
        person=person.pk,
        number=person_label(federation, person.number),
        name=person.name,
        player=player_id,
    )
