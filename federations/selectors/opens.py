"""What the opens' pages and API read: a federation's opens (upcoming and past, with their host
clubs and entry counts) and one open as its reader sees it (its entries with their register
entries, home clubs and federation ratings, and what the reader may do). Each is a fixed
number of queries, whatever the number of entries."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils import timezone

from federations.access import AnyUser
from federations.models import Federation, FederationOpen, FederationRating, Person, PersonLink
from federations.services.opens import Standing, standing
from federations.services.register import person_label
from games.models import Club
from tournaments.models import Entry, Round


@dataclass(frozen=True)
class OpenRow:
    open: FederationOpen  # with its tournament and host club
    entries: int


@dataclass(frozen=True)
class OpensPage:
    upcoming: list[OpenRow]
    past: list[OpenRow]


def opens_of(*, federation: Federation) -> list[OpenRow]:
    """Every open of the federation, the latest first (one query)."""
    rows = (
        FederationOpen.objects.filter(federation=federation)
        .select_related("tournament__club", "federation")
        .annotate(entry_count=Count("tournament__entries"))
        .order_by("-tournament__date", "-pk")
    )
    return [OpenRow(row, row.entry_count) for row in rows]  # type: ignore[attr-defined]


def opens_page(*, federation: Federation) -> OpensPage:
    """The opens to come (the soonest first) and the past ones (the latest first)."""
    today = timezone.localdate()
    rows = opens_of(federation=federation)
    upcoming = [r for r in rows if r.open.tournament.date >= today]
    upcoming.reverse()
    return OpensPage(upcoming=upcoming, past=[r for r in rows if r.open.tournament.date < today])


def open_of(*, federation: Federation, public_id: str) -> FederationOpen | None:
    return (
        FederationOpen.objects.filter(federation=federation, tournament__public_id=public_id[:16])
        .select_related("tournament__club", "federation")
        .first()
    )


@dataclass(frozen=True)
class OpenEntry:
    entry: int
    player: str
    person: Person | None  # with its home club; None: a host club player linked to no entry
    label: str
    rating: int | None
    may_withdraw: bool


@dataclass(frozen=True)
class OpenPage:
    open: FederationOpen
    entries: list[OpenEntry]
    closed: bool
    standing: Standing
    own_entered: bool
    # The people the reader may enter from a list (his clubs' people not entered yet).
    choices: list[tuple[int, str]] = field(default_factory=list)

    @property
    def row(self) -> OpenRow:
        return OpenRow(self.open, len(self.entries))

    @property
    def can_enter_self(self) -> bool:
        return (
            not self.closed
            and self.standing.own is not None
            and self.open.self_entry
            and not self.own_entered
        )

    @property
    def can_enter_anyone(self) -> bool:
        return not self.closed and self.standing.everyone


def closed(open_: FederationOpen, now: datetime.datetime | None = None) -> bool:
    """Entries are closed: round 1 is seated or the closing time has passed (one query)."""
    if open_.entries_close is not None and (now or timezone.now()) >= open_.entries_close:
        return True
    return Round.objects.filter(tournament_id=open_.tournament_id).exists()


def _entries(open_: FederationOpen) -> list[tuple[int, int, str, Person | None]]:
    """(entry, player id, player name, person) for each entry (two queries)."""
    rows = list(
        Entry.objects.filter(tournament_id=open_.tournament_id).values_list("pk", "player_id", "player__name")
    )
    links = PersonLink.objects.filter(
        federation_id=open_.federation_id, player_id__in=[r[1] for r in rows]
    ).select_related("person__home_club")
    person = {link.player_id: link.person for link in links}
    return [(pk, player, name, person.get(player)) for pk, player, name in rows]


def open_page(*, open_: FederationOpen, user: AnyUser) -> OpenPage:
    """The open as ``user`` sees it: its entries, best on the federation's list first (six
    queries for a visitor, nine for a club's organiser)."""
    federation = open_.federation
    rows = _entries(open_)
    ratings = dict(
        FederationRating.objects.filter(
            federation=federation,
            family=open_.tournament.family,
            person_id__in=[r[3].pk for r in rows if r[3] is not None],
        ).values_list("person_id", "rating")
    )
    who = standing(user=user, open_=open_)
    is_closed = closed(open_)
    entries: list[OpenEntry] = []
    entered: set[int] = set()
    # A members-only club's players appear only under the names they registered with.
    hidden = open_.tournament.club.visibility != Club.Visibility.PUBLIC and not who.everyone
    for pk, _player, name, person in rows:
        if person is not None:
            entered.add(person.pk)
        may = (
            person is not None
            and not is_closed
            and (who.everyone or person.pk == who.own or person.home_club_id in who.clubs)
        )
        entries.append(
            OpenEntry(
                entry=pk,
                player="" if hidden and person is None else name,
                person=person,
                label=person_label(federation, person.number) if person is not None else "",
                rating=ratings.get(person.pk) if person is not None else None,
                may_withdraw=may,
            )
        )
    entries.sort(key=lambda e: (e.rating is None, -(e.rating or 0), e.player.casefold()))
    choices: list[tuple[int, str]] = []
    if who.clubs and not who.everyone and not is_closed:
        theirs = (
            Person.objects.filter(federation=federation, merged_into=None)
            .filter(
                Q(home_club_id__in=who.clubs)
                | Q(links__club_id__in=who.clubs, links__state=PersonLink.State.LINKED)
            )
            .exclude(pk__in=entered)
            .values_list("number", "name")
            .distinct()
            .order_by("name", "number")
        )
        choices = [(number, f"{name} ({person_label(federation, number)})") for number, name in theirs]
    if who.clubs and not who.everyone:
        # An organiser withdraws the people linked to his clubs' players too (one query).
        linked = set(
            PersonLink.objects.filter(
                person_id__in=entered - {e.person.pk for e in entries if e.may_withdraw and e.person},
                club_id__in=who.clubs,
                state=PersonLink.State.LINKED,
            ).values_list("person_id", flat=True)
        )
        if linked and not is_closed:
            entries = [
                OpenEntry(e.entry, e.player, e.person, e.label, e.rating, True)
                if e.person is not None and e.person.pk in linked
                else e
                for e in entries
            ]
    return OpenPage(
        open=open_,
        entries=entries,
        closed=is_closed,
        standing=who,
        own_entered=who.own is not None and who.own in entered,
        choices=choices,
    )


def host_federations(*, club: Club) -> list[Federation]:
    """The federations the club is a member of, by name (one query)."""
    return list(
        Federation.objects.filter(clubs__club=club, clubs__state="member").order_by("name", "pk").distinct()
    )
