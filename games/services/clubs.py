"""Clubs: creating one, its settings, invite links, members and their roles, and undoing a
club's recorded change.

Roles: an organiser runs the club (members, merges, later seasons and tournaments), a
scorekeeper starts and records games in the club's name, a member reads and claims his player.
Role changes follow the hand writes: idempotent on resend, stale edits refused, recorded.
"""

from __future__ import annotations

import datetime
import uuid

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from games.models import AuditEntry, Club, ClubChange, Invite, Membership, Player
from games.text.names import clean_name, has_control

from .audit import record
from .errors import ServiceError, StaleVersion
from .players import Actor, idempotent, record_change, remerge, rename_back, unmerge

MAX_CLUB_NAME = 80
RESERVED_SLUGS = frozenset({"new", "join", "mine", "import"})
Role = Membership.Role


def check_club_name(raw: str) -> str:
    name = clean_name(raw)
    if not name:
        raise ServiceError("club_name_empty", "a club needs a name", field="name")
    if has_control(raw):
        raise ServiceError("name_control", "a name cannot contain control characters", field="name")
    if len(name) > MAX_CLUB_NAME:
        raise ServiceError(
            "club_name_too_long", "the club's name is too long", maximum=MAX_CLUB_NAME, field="name"
        )
    return name


def _free_slug(name: str) -> str:
    base = (slugify(name) or "club")[:40].strip("-") or "club"
    if base in RESERVED_SLUGS:
        base = f"{base}-club"
    slug, n = base, 2
    while Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def club_create(*, name: str, user: User) -> Club:
    """A new club with ``user`` as its organiser; its address is made from the name."""
    clean = check_club_name(name)
    for _attempt in range(5):
        try:
            with transaction.atomic():
                club = Club.objects.create(name=clean, slug=_free_slug(clean))
                Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
                return club
        except IntegrityError:
            continue  # another club took the address meanwhile
    raise ServiceError("slug_taken", "that address is taken", field="slug")


MAX_PROVISIONAL_GAMES = 100
MAX_INACTIVE_DAYS = 3650


def club_update(
    *,
    club: Club,
    name: str,
    slug: str,
    visibility: str,
    version: int | None,
    provisional_games: int | None = None,
    inactive_days: int | None = None,
    user: Actor = None,
) -> Club:
    """The club's settings; ``provisional_games`` / ``inactive_days`` None: kept as they are."""
    clean = check_club_name(name)
    if provisional_games is not None and not 0 <= provisional_games <= MAX_PROVISIONAL_GAMES:
        raise ServiceError(
            "club_option_range", "out of range", field="provisional_games", low=0, high=MAX_PROVISIONAL_GAMES
        )
    if inactive_days is not None and not 0 <= inactive_days <= MAX_INACTIVE_DAYS:
        raise ServiceError(
            "club_option_range", "out of range", field="inactive_days", low=0, high=MAX_INACTIVE_DAYS
        )
    slug = slugify(slug)[:50]
    if not slug or slug in RESERVED_SLUGS:
        raise ServiceError("slug_invalid", "the address needs letters or digits", field="slug")
    if visibility not in Club.Visibility.values:
        raise ServiceError("bad_visibility", "unknown visibility", field="visibility")
    with transaction.atomic():
        current = Club.objects.select_for_update(no_key=True).get(pk=club.pk)
        if version is not None and current.version != version:
            raise StaleVersion(kind="club")
        if Club.objects.filter(slug=slug).exclude(pk=club.pk).exists():
            raise ServiceError("slug_taken", "that address is taken", field="slug", slug=slug)
        provisional = current.provisional_games if provisional_games is None else provisional_games
        inactive = current.inactive_days if inactive_days is None else inactive_days
        wanted = (clean, slug, visibility, provisional, inactive)
        if (
            current.name,
            current.slug,
            current.visibility,
            current.provisional_games,
            current.inactive_days,
        ) == wanted:
            return current
        before = {
            "name": current.name,
            "slug": current.slug,
            "visibility": current.visibility,
            "provisional_games": current.provisional_games,
            "inactive_days": current.inactive_days,
        }
        current.name, current.slug, current.visibility, current.provisional_games, current.inactive_days = (
            wanted
        )
        current.version += 1
        current.save(
            update_fields=["name", "slug", "visibility", "provisional_games", "inactive_days", "version"]
        )
        _record_settings(current, before, user)
    return current


def _record_settings(club: Club, before: dict[str, object], user: Actor) -> None:
    after = {
        "name": club.name,
        "slug": club.slug,
        "visibility": club.visibility,
        "provisional_games": club.provisional_games,
        "inactive_days": club.inactive_days,
    }
    if before["visibility"] != after["visibility"]:
        data = {"before": before["visibility"], "after": after["visibility"]}
        record(club=club, action=AuditEntry.Action.VISIBILITY_CHANGED, actor=user, data=data)
    changed = {
        key: {"before": before[key], "after": after[key]}
        for key in ("name", "slug", "provisional_games", "inactive_days")
        if before[key] != after[key]
    }
    if changed:
        record(club=club, action=AuditEntry.Action.SETTINGS_CHANGED, actor=user, data=changed)


# ---------------------------------------------------------------------- invites

INVITE_DAYS = (1, 7, 30)


def invite_create(*, club: Club, user: User, days: int | None) -> Invite:
    """An invite link; ``days``: it expires after so many days (None: when revoked)."""
    expires = timezone.now() + datetime.timedelta(days=days) if days else None
    with transaction.atomic():
        invite = Invite.objects.create(club=club, created_by=user, expires_at=expires)
        record(
            club=club,
            action=AuditEntry.Action.INVITE_CREATED,
            actor=user,
            target=f"#{invite.pk}",
            data={"days": days},
        )
    return invite


def invite_revoke(*, invite: Invite, user: Actor = None) -> Invite:
    if invite.revoked_at is None:
        with transaction.atomic():
            invite.revoked_at = timezone.now()
            invite.save(update_fields=["revoked_at"])
            record(
                club=invite.club_id,
                action=AuditEntry.Action.INVITE_REVOKED,
                actor=user,
                target=f"#{invite.pk}",
            )
    return invite


def invite_url(invite: Invite) -> str:
    """The path of an invite link (the one place that builds it). The token travels in the
    fragment, which browsers never send, so it stays out of access logs, as the edit link's."""
    return reverse("games:club_join_page") + "#" + invite.token


def invite_find(*, token: str) -> Invite:
    """The invite of this link, or ServiceError ``invite_invalid`` (unknown, revoked, expired)."""
    invite = Invite.objects.select_related("club").filter(token=token).first() if len(token) < 100 else None
    if invite is None or not invite.active:
        raise ServiceError("invite_invalid", "this invite link is not valid any more")
    return invite


def club_join(*, token: str, user: User) -> Membership:
    """Join the invite's club as a member. Joining twice changes nothing."""
    with transaction.atomic():
        invite = invite_find(token=token)
        Invite.objects.select_for_update().filter(pk=invite.pk).first()
        membership, created = Membership.objects.get_or_create(
            club=invite.club, user=user, defaults={"role": Role.MEMBER}
        )
        if created:
            invite.uses += 1
            invite.save(update_fields=["uses"])
            record(
                club=invite.club,
                action=AuditEntry.Action.MEMBER_JOINED,
                actor=user,
                target=user.get_username(),
                data={"invite": invite.pk},
            )
    return membership


# ---------------------------------------------------------------------- members


def _organisers_left(club_id: int, without: Membership) -> int:
    return Membership.objects.filter(club_id=club_id, role=Role.ORGANISER).exclude(pk=without.pk).count()


def membership_set_role(
    *, membership: Membership, role: str, version: int | None, request_id: uuid.UUID | None, user: Actor
) -> ClubChange | None:
    """Give a member another role. The club keeps at least one organiser."""
    if role not in Role.values:
        raise ServiceError("bad_role", "unknown role", field="role")

    def write() -> ClubChange | None:
        Club.objects.select_for_update(no_key=True).filter(pk=membership.club_id).first()
        current = Membership.objects.select_related("user").filter(pk=membership.pk).first()
        if current is None:
            raise ServiceError("member_gone", "this member has left the club")
        if version is not None and current.version != version:
            raise StaleVersion(kind="member", member=current.user.username)
        if current.role == role:
            return None
        return _set_role(current, role, user, request_id)

    return idempotent(membership.club, request_id, write)


def _set_role(
    current: Membership,
    role: str,
    user: Actor,
    request_id: uuid.UUID | None,
    undoes: ClubChange | None = None,
) -> ClubChange:
    if (
        current.role == Role.ORGANISER
        and role != Role.ORGANISER
        and not _organisers_left(current.club_id, current)
    ):
        raise ServiceError("last_organiser", "a club needs an organiser", member=current.user.username)
    before = current.role
    current.role = role
    current.version += 1
    current.save(update_fields=["role", "version"])
    data = {"membership": current.pk, "member": current.user.username, "before": before, "after": role}
    change = record_change(current.club, ClubChange.Action.ROLE, data, user, request_id, undoes=undoes)
    assert change is not None
    record(
        club=current.club_id,
        action=AuditEntry.Action.ROLE_CHANGED,
        actor=user,
        target=current.user.username,
        data={"before": before, "after": role, "undo": undoes is not None},
    )
    return change


def membership_remove(*, membership: Membership, user: Actor = None) -> None:
    """Remove a member (or leave: ``user`` is the member). His player stays, with its games,
    no longer linked to his account."""
    with transaction.atomic():
        Club.objects.select_for_update(no_key=True).filter(pk=membership.club_id).first()
        current = Membership.objects.select_related("user").filter(pk=membership.pk).first()
        if current is None:
            return
        if current.role == Role.ORGANISER and not _organisers_left(current.club_id, current):
            raise ServiceError("last_organiser", "a club needs an organiser", member=current.user.username)
        Player.objects.filter(club_id=current.club_id, user_id=current.user_id).update(user=None)
        current.delete()
        leaving = user is not None and user.pk == current.user_id
        record(
            club=current.club_id,
            action=AuditEntry.Action.MEMBER_LEFT if leaving else AuditEntry.Action.MEMBER_REMOVED,
            actor=user,
            target=current.user.username,
            data={"role": current.role},
        )


def club_change_undo(*, change: ClubChange, user: Actor) -> ClubChange:
    """Undo one change of a club's players or roles, if nothing changed them since. The undo
    is itself a change, so it can be undone too."""
    with transaction.atomic():
        Club.objects.select_for_update(no_key=True).filter(pk=change.club_id).first()
        if ClubChange.objects.filter(undoes=change).exists():
            raise ServiceError("already_undone", "this change was already undone")
        if change.action == ClubChange.Action.MERGED:
            return unmerge(change, user)
        if change.action == ClubChange.Action.UNMERGED:
            return remerge(change, user)
        if change.action == ClubChange.Action.RENAMED:
            return rename_back(change, user)
        data = change.data
        current = Membership.objects.select_related("user", "club").filter(pk=data["membership"]).first()
        if current is None or current.role != data["after"]:
            raise ServiceError("club_changed_since", "the role was changed after this; undo that first")
        return _set_role(current, str(data["before"]), user, None, undoes=change)
