"""The admin has every model: its pages open for a superuser and are refused to everyone else,
and recorded data (hands, results, tournaments, seasons) cannot be written there."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.db import models, transaction
from django.test import Client, override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from federations import derived as federation_derived
from federations.models import FederationDirty, FederationOpen, FederationSeasonDirty, RatedTournament
from federations.publication import month_of, publish
from federations.services.federations import federation_create
from federations.services.links import link_make
from federations.services.memberships import club_answer, club_invite
from federations.services.register import person_add
from games.models import (
    AuditEntry,
    Club,
    ClubChange,
    Game,
    Hand,
    IdempotentRequest,
    Invite,
    Membership,
    Player,
    ResetLink,
    Result,
    UserSession,
)
from games.services.audit import record as audit_record
from games.services.clubs import invite_create
from games.services.rates import rate_hit
from games.services.resets import reset_link_create
from games.services.tokens import token_create
from tests.federations.seasons_support import seeded_season
from tournaments.models import (
    Bye,
    DerivedState,
    RatingDirty,
    Round,
    Season,
    SeasonDirty,
    TableAnswer,
    TableSeat,
    Tournament,
    TournamentChange,
)

# Not in the admin on purpose: each is shown or managed through another page.
NOT_IN_ADMIN = {
    "sessions.Session": "its keys are logins; users end their sessions on the site",
    "contenttypes.ContentType": "Django's own index of models",
    "auth.Permission": "chosen on the user and group pages",
    "axes.AccessAttemptExpiration": "shown with its access attempt",
}
MODELS = sorted((m for m in apps.get_models()), key=lambda m: m._meta.label)
# Recorded data and what is derived from it: the admin only shows them.
READ_ONLY = [Club, Membership, Player, Game, Hand, Result, Tournament, Round, Season]


@pytest.fixture(scope="module")
def populated(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """The demo club (games, a tournament, a season, ratings) and one row of every other model,
    in a transaction rolled back after this module."""
    with django_db_blocker.unblock(), transaction.atomic():
        with override_settings(DEBUG=True):
            call_command("load_demo", verbosity=0)
        user_model = get_user_model()
        boss = user_model.objects.create_superuser("boss", password="boss-Secret-1")
        staff = user_model.objects.create_user("clerk", password="clerk-Secret-1", is_staff=True)
        plain = user_model.objects.create_user("plain", password="plain-Secret-1")
        club = Club.objects.get()
        invite_create(club=club, user=boss, days=None)
        token_create(user=boss, name="script", scope="read")
        rate_hit("signup:192.0.2.1", limit=5, seconds=3600)
        IdempotentRequest.objects.create(key=uuid.uuid4(), scope="POST /api/v1/games/", digest="0" * 64)
        Group.objects.create(name="helpers")
        ClubChange.objects.create(club=club, action=ClubChange.Action.RENAMED, data={})
        LogEntry.objects.log_actions(boss.pk, [club], ADDITION, single_object=True)
        AccessAttempt.objects.create(username="x", ip_address="192.0.2.1", failures_since_start=1)
        AccessLog.objects.create(username="x", ip_address="192.0.2.1")
        AccessFailureLog.objects.create(username="x", ip_address="192.0.2.1")
        DBTaskResult.objects.create(
            args_kwargs={"args": [], "kwargs": {}}, task_path="x.y", backend_name="default"
        )
        season = Season.objects.get()
        RatingDirty.objects.create(club=club, family="zoliky", since_at=timezone.now(), since_game=1)
        SeasonDirty.objects.create(club=club, season=season)
        DerivedState.objects.get_or_create(club=club)
        round_ = Round.objects.filter(status="seated").first()
        assert round_ is not None
        entry = round_.tournament.entries.first()
        assert entry is not None
        Bye.objects.create(round=round_, entry=entry)
        seat = TableSeat.objects.select_related("table").first()
        assert seat is not None
        TableAnswer.objects.create(table=seat.table, entry_id=seat.entry_id, disputed=True, seen="1")
        audit_record(club=club, action=AuditEntry.Action.INVITE_CREATED, actor=boss, target="invite")
        member = user_model.objects.create_user("member", password="member-Secret-1")
        Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
        reset_link_create(user=member, by=boss, club=club)
        browser = SessionStore()
        browser.create()  # a live session: logins prune the rows of ended ones
        UserSession.objects.create(
            user=plain, session_key=str(browser.session_key), user_agent="phone", last_seen=timezone.now()
        )
        if not TournamentChange.objects.exists():
            TournamentChange.objects.create(tournament=round_.tournament, action="created")
        federation = federation_create(name="Federation", user=boss)
        membership = club_invite(
            federation=federation, club=club, counts_from=datetime.date(2000, 1, 1), user=boss
        )
        club_answer(membership=membership, accept=True, version=membership.version, user=boss)
        person = person_add(federation=federation, name="Eva")
        link_make(federation=federation, club=club, player=entry.player, person_id=str(person.number))
        RatedTournament.objects.create(federation=federation, tournament=round_.tournament)
        FederationOpen.objects.create(federation=federation, tournament=round_.tournament)
        federation_derived.apply(federation.pk)
        # Next month's list: every rated game is before its midnight.
        publish(
            federation, round_.tournament.family, (month_of() + datetime.timedelta(days=32)).replace(day=1)
        )
        FederationDirty.objects.create(
            federation=federation, family="zoliky", since_at=timezone.now(), since_game=1
        )
        grand_prix = seeded_season(federation, 2)  # a season, its lines and results
        FederationSeasonDirty.objects.create(season=grand_prix, federation=federation)
        yield {"boss": boss, "staff": staff, "plain": plain}
        transaction.set_rollback(True)


def test_every_model_is_in_the_admin_or_named_as_left_out() -> None:
    missing = [
        m._meta.label for m in MODELS if m not in admin.site._registry and m._meta.label not in NOT_IN_ADMIN
    ]
    assert missing == []
    # Each one left out is a real model: a renamed one would otherwise hide a new model.
    assert set(NOT_IN_ADMIN) <= {m._meta.label for m in MODELS}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "model", [m for m in MODELS if m._meta.label not in NOT_IN_ADMIN], ids=lambda m: m._meta.label
)
def test_admin_pages_open_for_a_superuser_and_are_refused_to_others(
    model: type[models.Model], populated: dict[str, Any]
) -> None:
    instance = model._default_manager.order_by("pk").first()
    assert instance is not None, f"no {model._meta.label} to open"
    base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    change = f"{base}{instance.pk}/change/"
    boss = Client()
    boss.force_login(populated["boss"])
    listed = boss.get(base)
    assert listed.status_code == 200
    assert boss.get(base, {"q": "a"}).status_code == 200  # the search box works
    assert boss.get(change).status_code == 200
    model_admin = admin.site._registry[model]
    added = boss.get(f"{base}add/")
    request = listed.wsgi_request
    assert added.status_code == (200 if model_admin.has_add_permission(request) else 403)

    for who in ("staff", "plain"):
        other = Client()
        other.force_login(populated[who])
        for url in (base, change, f"{base}add/"):
            answer = other.get(url)
            # Staff without permissions: 403; anyone else is sent to the admin's login.
            assert answer.status_code in (302, 403), (who, url, answer.status_code)
            if answer.status_code == 302:
                assert "/admin/login/" in answer["Location"]
    anonymous = Client().get(base)
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("model", READ_ONLY, ids=lambda m: m._meta.label)
def test_recorded_data_cannot_be_written_in_the_admin(
    model: type[models.Model], populated: dict[str, Any]
) -> None:
    instance = model._default_manager.order_by("pk").first()
    assert instance is not None
    boss = Client()
    boss.force_login(populated["boss"])
    base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    page = boss.get(f"{base}{instance.pk}/change/")
    assert b'type="submit"' not in page.content.split(b'id="content-main"', 1)[1]
    assert boss.post(f"{base}{instance.pk}/change/", {}).status_code == 403
    assert boss.post(f"{base}{instance.pk}/delete/", {"post": "yes"}).status_code == 403
    assert boss.get(f"{base}add/").status_code == 403
    assert model._default_manager.filter(pk=instance.pk).exists()


@pytest.mark.django_db
def test_no_secret_is_shown_in_the_admin(populated: dict[str, Any]) -> None:
    boss = Client()
    boss.force_login(populated["boss"])
    game = Game.objects.first()
    invite = Invite.objects.first()
    assert game is not None and invite is not None
    assert game.edit_token not in boss.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert invite.token not in boss.get(f"/admin/games/invite/{invite.pk}/change/").content.decode()
    assert invite.token not in boss.get("/admin/games/invite/").content.decode()
    browser = UserSession.objects.first()
    assert browser is not None
    assert (
        browser.session_key not in boss.get(f"/admin/games/usersession/{browser.pk}/change/").content.decode()
    )
    link = ResetLink.objects.first()
    assert link is not None
    assert link.digest not in boss.get(f"/admin/games/resetlink/{link.pk}/change/").content.decode()


@pytest.mark.django_db
def test_the_admin_revokes_invite_links_through_the_service(populated: dict[str, Any]) -> None:
    boss = Client()
    boss.force_login(populated["boss"])
    invite = Invite.objects.filter(revoked_at=None).first()
    assert invite is not None
    answer = boss.post(
        "/admin/games/invite/", {"action": "revoke", "_selected_action": [invite.pk], "index": 0}
    )
    assert answer.status_code == 302
    invite.refresh_from_db()
    assert invite.revoked_at is not None and not invite.active
