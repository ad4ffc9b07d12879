"""A club's membership of a federation: the federation invites (from a day its games count
from), the club's organisers accept or decline, and either side ends it. A club that leaves
keeps all its data; what it played while a member still counts for the federation."""

from __future__ import annotations

import datetime
import uuid

from django.db.models import Q
from django.utils import timezone

from federations import derived
from federations.models import Federation, FederationChange, FederationClub
from federations.ratings import day_start
from games.models import Club
from games.services.errors import ServiceError

from .writes import Actor, check_version, record, write_once

State = FederationClub.State
Action = FederationChange.Action
OPEN = (State.INVITED, State.MEMBER)
FIRST_YEAR = 1990


def _check_day(day: datetime.date) -> datetime.date:
    last = timezone.localdate().year + 1
    if not FIRST_YEAR <= day.year <= last:
        raise ServiceError(
            "counts_from_range", "out of range", field="counts_from", first=FIRST_YEAR, last=last
        )
    return day


def find_club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug.strip()[:50]).first()
    if club is None:
        raise ServiceError("club_unknown", "no such club", field="club", club=slug[:50])
    return club


def club_invite(
    *,
    federation: Federation,
    club: Club,
    counts_from: datetime.date | None = None,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> FederationClub:
    """Invite a club; its games count from ``counts_from`` once it accepts (default: the day
    it accepts), so a federation founded by clubs with a history can count that history."""
    day = _check_day(counts_from) if counts_from is not None else None
    target = f"invite:{club.pk}"

    def write(locked: Federation) -> FederationClub:
        current = FederationClub.objects.filter(federation=locked, club=club, state__in=OPEN).first()
        if current is not None:
            code = "club_already_member" if current.state == State.MEMBER else "club_already_invited"
            raise ServiceError(code, "already", field="club", club=club.name)
        membership = FederationClub.objects.create(federation=locked, club=club, counts_from=day)
        record(
            locked,
            Action.CLUB_INVITED,
            user,
            request_id,
            target=target,
            club=club,
            club_name=club.name,
            counts_from=day.isoformat() if day else None,
            membership=membership.pk,
        )
        return membership

    return _membership(write_once(federation, request_id, target, write))


def _membership(result: FederationClub | FederationChange) -> FederationClub:
    if isinstance(result, FederationClub):
        return result
    return FederationClub.objects.get(pk=result.data["membership"])


def _open(locked: Federation, membership: FederationClub, version: int | None) -> FederationClub:
    current = (
        FederationClub.objects.select_related("club").filter(pk=membership.pk, federation=locked).first()
    )
    if current is None or current.state not in OPEN:
        raise ServiceError("membership_gone", "ended meanwhile")
    check_version(current.version, version, "stale_membership")
    return current


def club_answer(
    *,
    membership: FederationClub,
    accept: bool,
    version: int | None,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> FederationClub:
    """The club's organisers accept the invitation (the club is a member from now on) or
    decline it."""
    target = f"answer:{membership.pk}"

    def write(locked: Federation) -> FederationClub:
        current = _open(locked, membership, version)
        if current.state != State.INVITED:
            raise ServiceError("membership_gone", "answered meanwhile")
        now = timezone.now()
        if accept:
            current.state, current.joined_at = State.MEMBER, now
            if current.counts_from is None:  # an invitation without a day: from today
                current.counts_from = timezone.localdate()
        else:
            current.state, current.ended_at = State.DECLINED, now
        current.version += 1
        current.save(update_fields=["state", "joined_at", "ended_at", "counts_from", "version"])
        if accept and current.counts_from is not None:
            derived.membership_changed(current, since=day_start(current.counts_from))
        action = Action.CLUB_JOINED if accept else Action.CLUB_DECLINED
        record(
            locked,
            action,
            user,
            request_id,
            target=target,
            club=current.club,
            club_name=current.club.name,
            membership=current.pk,
        )
        return current

    return _membership(write_once(membership.federation, request_id, target, write))


def membership_end(
    *,
    membership: FederationClub,
    by_club: bool,
    version: int | None,
    request_id: uuid.UUID | None = None,
    user: Actor = None,
) -> FederationClub:
    """End a membership or withdraw an invitation: by the club (it leaves) or by the federation.
    Nothing recorded is touched: the games the club played as a member still count."""
    target = f"end:{membership.pk}"

    def write(locked: Federation) -> FederationClub:
        current = _open(locked, membership, version)
        was = current.state
        current.state, current.ended_at = State.ENDED, timezone.now()
        current.version += 1
        current.save(update_fields=["state", "ended_at", "version"])
        if was == State.MEMBER:
            derived.membership_changed(current, since=current.ended_at)
        if was == State.INVITED:
            action = Action.CLUB_DECLINED if by_club else Action.INVITE_WITHDRAWN
        else:
            action = Action.CLUB_LEFT if by_club else Action.CLUB_REMOVED
        record(
            locked,
            action,
            user,
            request_id,
            target=target,
            club=current.club,
            club_name=current.club.name,
            membership=current.pk,
        )
        return current

    return _membership(write_once(membership.federation, request_id, target, write))


def member_clubs(federation: Federation) -> Q:
    """The clubs that are members now, as a filter of clubs."""
    return Q(federations__federation=federation, federations__state=State.MEMBER)
