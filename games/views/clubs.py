"""Club and player pages: thin views over games.selectors and games.services.

A members-only club answers 404 to everyone outside it, so nobody learns it exists; pages
for organisers answer 403 to a member who may see the club but not run it. Every form works
without JavaScript (post, redirect, get).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from games.club_forms import (
    AccountForm,
    ClubForm,
    ClubSettingsForm,
    InviteForm,
    MergeForm,
    RenameForm,
    RoleForm,
    SignupForm,
    TokenForm,
    put_error,
)
from games.extensions import panels
from games.models import Club, Invite, Membership, Player
from games.selectors.clubs import (
    active_invites,
    club_by_slug,
    club_change,
    club_games,
    club_history,
    club_invite,
    club_members,
    club_membership,
    user_clubs,
)
from games.selectors.players import club_roster, own_roster, player_by_pk, player_summary, similar_pairs
from games.selectors.tokens import user_token, user_tokens
from games.services.access import can_view_club, can_view_player, club_role, is_member, role_allows
from games.services.clubs import (
    club_change_undo,
    club_create,
    club_join,
    club_update,
    invite_create,
    invite_find,
    invite_revoke,
    invite_url,
    membership_remove,
    membership_set_role,
)
from games.services.errors import NameRefused, StalePlayer
from games.services.players import account_rename, player_claim, player_merge, player_rename
from games.services.rates import invite_lookup_allowed, rate_hit
from games.services.resets import account_set_email
from games.services.tokens import token_create, token_revoke
from games.text.errors import error_message
from games.web.input import read_int
from games.web.links import absolute_url, qr_svg, token_from

Role = Membership.Role


def _club(request: HttpRequest, slug: str, needed: str | None = None) -> tuple[Club, str | None]:
    """The club and the user's role in it; 404 when he may not see it, 403 when he may see
    it but not do what ``needed`` asks."""
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    role = club_role(user=request.user, club=club)
    if not can_view_club(club=club, role=role):
        raise Http404
    if needed is not None and not role_allows(role, needed):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    return club, role


# ---------------------------------------------------------------------- clubs


@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_create(name=form.cleaned_data["name"], user=request.user)  # type: ignore[arg-type]
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(
                request,
                _("Club %(name)s created. Invite the members from its Members page.") % {"name": club.name},
            )
            return redirect("games:club", slug=club.slug)
    memberships = user_clubs(user=request.user)  # type: ignore[arg-type]
    return render(request, "clubs/list.html", {"memberships": memberships, "form": form})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug)
    context = {
        "club": club,
        "role": role,
        "games": club_games(club=club),
        "roster": club_roster(club=club)[:30],
        "can_record": role_allows(role, Role.SCOREKEEPER),
        "can_manage": role_allows(role, Role.ORGANISER),
    }
    return render(request, "clubs/detail.html", context)


@login_required
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug, Role.ORGANISER)
    initial = {
        "name": club.name,
        "slug": club.slug,
        "visibility": club.visibility,
        "provisional_games": club.provisional_games,
        "inactive_days": club.inactive_days,
        "version": club.version,
    }
    form = ClubSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = club_update(
                club=club,
                name=data["name"],
                slug=data["slug"],
                visibility=data["visibility"],
                version=data["version"],
                provisional_games=data["provisional_games"],
                inactive_days=data["inactive_days"],
                user=request.user,
            )
        except EngineError as error:
            put_error(form, error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("games:club", slug=club.slug)
    return render(request, "clubs/settings.html", {"club": club, "role": role, "form": form})


# ---------------------------------------------------------------------- members and invites


@never_cache  # private, no-store: shows the invite links
@login_required
def club_members_view(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug, Role.ORGANISER)
    rows = [
        (row, RoleForm(initial={"role": row.membership.role, "version": row.membership.version}))
        for row in club_members(club=club)
    ]
    # The address phones open (the Wi-Fi one when the organiser's browser is at localhost), as
    # the game's share links name it, with a code to scan across the table.
    invites = []
    for invite in active_invites(club=club):
        link = absolute_url(request, invite_url(invite))
        invites.append((invite, link, qr_svg(link, label=_("QR code of the invite link"))))
    context = {"club": club, "role": role, "rows": rows, "invites": invites, "invite_form": InviteForm()}
    return render(request, "clubs/members.html", context)


@require_POST
@login_required
def invite_new(request: HttpRequest, slug: str) -> HttpResponse:
    club, _role = _club(request, slug, Role.ORGANISER)
    form = InviteForm(request.POST)
    if form.is_valid():
        invite_create(club=club, user=request.user, days=form.cleaned_data["days"] or None)  # type: ignore[arg-type]
        messages.success(request, _("Invite link created. Share it with the new members."))
    else:
        messages.error(request, _("Choose when the link expires."))
    return redirect("games:club_members", slug=club.slug)


@require_POST
@login_required
def invite_revoke_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, _role = _club(request, slug, Role.ORGANISER)
    invite = club_invite(club=club, pk=pk)
    if invite is None:
        raise Http404
    invite_revoke(invite=invite, user=request.user)
    messages.success(request, _("Invite link revoked: it no longer lets anyone join."))
    return redirect("games:club_members", slug=club.slug)


@require_POST
@login_required
def member_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, _role = _club(request, slug, Role.ORGANISER)
    membership = club_membership(club=club, pk=pk)
    if membership is None:
        raise Http404
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for e in form.non_field_errors()) or _("Choose a role."))
    else:
        try:
            membership_set_role(
                membership=membership,
                role=form.cleaned_data["role"],
                version=form.cleaned_data["version"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            messages.error(request, error_message(error))
        else:
            messages.success(request, _("%(member)s's role saved.") % {"member": membership.user.username})
    return redirect("games:club_members", slug=club.slug)


@require_POST
@login_required
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """An organiser removes a member; any member may remove himself (leave the club)."""
    club = club_by_slug(slug=slug)
    if club is None:
        raise Http404
    membership = club_membership(club=club, pk=pk)
    role = club_role(user=request.user, club=club)
    if membership is None or not can_view_club(club=club, role=role):
        raise Http404
    leaving = membership.user_id == request.user.pk
    if not leaving and not role_allows(role, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    try:
        membership_remove(membership=membership, user=request.user)
    except EngineError as error:
        messages.error(request, error_message(error))
        return redirect("games:club", slug=club.slug)
    if leaving:
        messages.success(request, _("You left %(club)s.") % {"club": club.name})
        return redirect("games:clubs")
    messages.success(request, _("%(member)s removed from the club.") % {"member": membership.user.username})
    return redirect("games:club_members", slug=club.slug)


# The invite a browser opened (its link's token, from the fragment): kept in the session while
# its owner logs in or makes an account, so the token is in no address the server sees.
INVITE_SESSION_KEY = "invite_token"


def _invite_tries_left(request: HttpRequest) -> bool:
    return invite_lookup_allowed(get_client_ip_address(request) or "unknown")


def _too_many_invite_tries(request: HttpRequest) -> HttpResponse:
    error = _("Too many invite links tried from this address: try again in an hour.")
    response = render(request, "clubs/join.html", {"error": error}, status=429)
    response["Retry-After"] = "3600"
    return response


def _join(request: HttpRequest, invite: Invite, token: str) -> HttpResponse:
    """The join button's answer: log in first, then join the invite's club."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.path}")
    try:
        club_join(token=token, user=request.user)  # type: ignore[arg-type]
    except EngineError as error:
        return render(request, "clubs/join.html", {"error": error_message(error)}, status=404)
    messages.success(request, _("Welcome to %(club)s.") % {"club": invite.club.name})
    return redirect("games:club", slug=invite.club.slug)


@never_cache
def club_join_page(request: HttpRequest) -> HttpResponse:
    """The invite link's page, ``/clubs/join/#<token>``, like the edit link's: the token in the
    fragment never reaches the server, so it is in no access log. static/js/edit_link.js posts
    it; without JavaScript the page asks for the link to be pasted. A valid token is kept in the
    session (post, redirect, get), and the page then offers to join, or to log in or sign up
    and come back here."""
    if request.method == "POST" and "token" in request.POST:
        if not _invite_tries_left(request):
            return _too_many_invite_tries(request)
        token = token_from(request.POST["token"])
        try:
            invite_find(token=token)
        except EngineError as error:
            return render(request, "clubs/join_link.html", {"error": error_message(error)}, status=404)
        request.session[INVITE_SESSION_KEY] = token
        return redirect("games:club_join_page")
    held = request.session.get(INVITE_SESSION_KEY)
    invite = None
    if isinstance(held, str):
        try:
            invite = invite_find(token=held)
        except EngineError:
            request.session.pop(INVITE_SESSION_KEY, None)
    if invite is None or not isinstance(held, str):
        return render(request, "clubs/join_link.html", {})
    if request.method == "POST":
        response = _join(request, invite, held)
        if response.status_code == 302 and request.user.is_authenticated:
            request.session.pop(INVITE_SESSION_KEY, None)
        return response
    member = is_member(user=request.user, club=invite.club)
    context = {"invite": invite, "club": invite.club, "member": member, "fragment_form": True}
    return render(request, "clubs/join.html", context)


@never_cache  # its links carry the invite token
def club_join_view(request: HttpRequest, token: str) -> HttpResponse:
    """The older invite link, with the token in its path (links already shared still work)."""
    if not _invite_tries_left(request):
        return _too_many_invite_tries(request)
    try:
        invite = invite_find(token=token)
    except EngineError as error:
        return render(request, "clubs/join.html", {"error": error_message(error)}, status=404)
    if request.method == "POST":
        return _join(request, invite, token)
    member = is_member(user=request.user, club=invite.club)
    return render(request, "clubs/join.html", {"invite": invite, "club": invite.club, "member": member})


# ---------------------------------------------------------------------- players


def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug)
    context = {
        "club": club,
        "role": role,
        "roster": club_roster(club=club),
        "pairs": similar_pairs(club=club) if role_allows(role, Role.ORGANISER) else [],
        "can_manage": role_allows(role, Role.ORGANISER),
    }
    return render(request, "clubs/players.html", context)


def _player(request: HttpRequest, pk: int, slug: str | None) -> tuple[Player, str | None]:
    """The player (even one merged since: the services refuse to change those) and the
    user's role in its club; 404 when the user may not see it."""
    player = player_by_pk(pk=pk)
    if player is None or (player.club.slug if player.club else None) != slug:
        raise Http404
    role = club_role(user=request.user, club=player.club) if player.club else None
    if not can_view_player(player=player, user=request.user, role=role):
        raise Http404
    return player, role


def _may_manage(request: HttpRequest, player: Player, role: str | None) -> bool:
    if player.club_id is not None:
        return role_allows(role, Role.ORGANISER)
    return request.user.is_authenticated and player.owner_id == request.user.pk


def _player_page(
    request: HttpRequest,
    player: Player,
    role: str | None,
    *,
    rename_form: RenameForm | None = None,
    merge_form: MergeForm | None = None,
) -> HttpResponse:
    """The player's page; a refused rename or merge is shown again with its message at the field."""
    manage = _may_manage(request, player, role)
    if manage and rename_form is None:
        rename_form = RenameForm(initial={"name": player.name, "version": player.version})
    if manage and player.club_id and merge_form is None:
        merge_form = MergeForm(drop=player, initial={"version": player.version})
    context = {
        "player": player,
        "club": player.club,
        "role": role,
        "summary": player_summary(player=player),
        "panels": panels("player", request, player),
        "can_manage": manage,
        "rename_form": rename_form if manage else None,
        "merge_form": merge_form if manage and player.club_id else None,
        "can_claim": role is not None
        and request.user.is_authenticated
        and player.club_id is not None
        and player.user_id in (None, request.user.pk),
    }
    return render(request, "clubs/player.html", context)


def player_detail(request: HttpRequest, pk: int, slug: str | None = None) -> HttpResponse:
    player, role = _player(request, pk, slug)
    if player.merged_into is not None:
        return redirect(_player_url(player.merged_into))  # an old link to a merged player
    return _player_page(request, player, role)


def _player_url(player: Player) -> str:
    if player.club is not None:
        return reverse("games:club_player", kwargs={"slug": player.club.slug, "pk": player.pk})
    return reverse("games:own_player", kwargs={"pk": player.pk})


@require_POST
@login_required
def player_rename_view(request: HttpRequest, pk: int, slug: str | None = None) -> HttpResponse:
    player, role = _player(request, pk, slug)
    if not _may_manage(request, player, role):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    form = RenameForm(request.POST)
    if form.is_valid():
        try:
            player_rename(
                player=player,
                name=form.cleaned_data["name"],
                version=form.cleaned_data["version"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except EngineError as error:
            # An error about the typed name belongs at the name field; the others above the form.
            form.add_error("name" if isinstance(error, NameRefused) else None, error_message(error))
        else:
            messages.success(
                request,
                _("Renamed to %(name)s. Old score sheets keep the name they were played under.")
                % {"name": player.name},
            )
            return redirect(_player_url(player))
    player.refresh_from_db()
    return _player_page(request, player, role, rename_form=form)


@require_POST
@login_required
def player_merge_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    player, role = _player(request, pk, slug)
    if not _may_manage(request, player, role) or player.club is None:
        raise PermissionDenied(_("Only the club's organisers can do this."))
    form = MergeForm(request.POST, drop=player)
    if form.is_valid():
        keep = form.cleaned_data["keep"]
        try:
            player_merge(
                keep=keep,
                drop=player,
                keep_version=None,
                drop_version=form.cleaned_data["version"],
                request_id=form.cleaned_data["request_id"],
                user=request.user,
            )
        except StalePlayer as stale:
            form.add_error(None, error_message(stale))
        except EngineError as error:
            form.add_error("keep", error_message(error))
        else:
            messages.success(
                request,
                _("%(drop)s merged into %(keep)s. You can undo this in the club's history.")
                % {"drop": player.name, "keep": keep.name},
            )
            return redirect(_player_url(keep))
    if player.merged_into_id is not None:
        return redirect(_player_url(player))
    return _player_page(request, player, role, merge_form=form)


@require_POST
@login_required
def player_claim_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    player, role = _player(request, pk, slug)
    claim = request.POST.get("claim") == "1"
    if player.club is None or (claim and not is_member(user=request.user, club=player.club)):
        raise PermissionDenied(_("Only the club's members can claim a player."))
    if not claim and player.user_id != request.user.pk and not role_allows(role, Role.ORGANISER):
        raise PermissionDenied(_("Only the club's organisers can do this."))
    try:
        player_claim(player=player, user=request.user if claim else player.user or request.user, claim=claim)  # type: ignore[arg-type]
    except EngineError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request, _("This is you now.") if claim else _("The player is no longer linked to an account.")
        )
    return redirect(_player_url(player))


@login_required
def own_players(request: HttpRequest) -> HttpResponse:
    """The players of a user's private games (his own roster)."""
    return render(request, "clubs/own_players.html", {"roster": own_roster(user=request.user)})  # type: ignore[arg-type]


# ---------------------------------------------------------------------- history


@login_required
def club_history_view(request: HttpRequest, slug: str) -> HttpResponse:
    club, role = _club(request, slug, Role.ORGANISER)
    return render(
        request, "clubs/history.html", {"club": club, "role": role, "changes": club_history(club=club)}
    )


@require_POST
@login_required
def club_undo(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club, _role = _club(request, slug, Role.ORGANISER)
    change = club_change(club=club, pk=pk)
    if change is None:
        raise Http404
    try:
        club_change_undo(change=change, user=request.user)
    except EngineError as error:
        messages.error(request, _("The change was not undone: %(reason)s") % {"reason": error_message(error)})
    else:
        messages.success(request, _("Change undone."))
    return redirect("games:club_history", slug=club.slug)


# ---------------------------------------------------------------------- accounts


@never_cache  # private, no-store: shows a new token once
@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The user's display name (and the way to his password), and his API tokens: made here,
    shown once in the answer to the form that made it (never stored, never in a message, which
    would keep it in a cookie), revoked here."""
    user = request.user
    action = request.POST.get("action") if request.method == "POST" else None
    form = AccountForm(
        request.POST if action is None and request.method == "POST" else None,
        initial={"display_name": getattr(user, "first_name", ""), "email": getattr(user, "email", "")},
    )
    if not settings.EMAIL_ENABLED:
        del form.fields["email"]
    token_form = TokenForm(request.POST if action == "token_create" else None)
    new_token = None
    if action is None and request.method == "POST" and form.is_valid():
        try:
            if "email" in form.cleaned_data:
                account_set_email(user=user, email=form.cleaned_data["email"])  # type: ignore[arg-type]
        except EngineError as error:
            put_error(form, error)
        else:
            account_rename(user=user, name=form.cleaned_data["display_name"])  # type: ignore[arg-type]
            messages.success(request, _("Saved."))
            return redirect("account")
    if action == "token_create" and token_form.is_valid():
        try:
            _row, new_token = token_create(
                user=user,  # type: ignore[arg-type]
                name=token_form.cleaned_data["name"],
                scope=token_form.cleaned_data["scope"],
            )
        except EngineError as error:
            put_error(token_form, error)
        else:
            token_form = TokenForm()
    owner = int(user.pk or 0)
    if action == "token_revoke":
        chosen = read_int(request.POST.get("token"), lo=1, hi=2**63 - 1)
        row = user_token(user_id=owner, pk=chosen) if chosen else None
        if row is not None:
            token_revoke(token=row)
            messages.success(request, _("Token revoked: it no longer works."))
        return redirect("account")
    tokens = user_tokens(user_id=owner)
    context = {"form": form, "token_form": token_form, "new_token": new_token, "tokens": tokens}
    return render(request, "registration/account.html", context)


def signup_allowed(target: str, request: HttpRequest | None = None) -> bool:
    """Sign-up is open, or the account is made to follow a club's current invite link (an
    older one with its token in ``target``, or the one this browser opened)."""
    if settings.SIGNUP_OPEN:
        return True
    try:
        match = resolve(urlsplit(target).path)
    except Resolver404:
        return False
    if match.view_name == "games:club_join":
        token = match.kwargs["token"]
    elif match.view_name == "games:club_join_page" and request is not None:
        token = request.session.get(INVITE_SESSION_KEY)
    else:
        return False
    try:
        invite_find(token=token if isinstance(token, str) else "")
    except EngineError:
        return False
    return True


@never_cache  # like the login page (its "next" may be an invite link)
def signup(request: HttpRequest) -> HttpResponse:
    """A new account, then back where the user came from (an invite link, usually)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = ""
    if not signup_allowed(target, request):
        return render(request, "registration/signup_closed.html", status=403)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        address = get_client_ip_address(request) or "unknown"
        hit = rate_hit(f"signup:{address}", limit=settings.SIGNUPS_PER_HOUR, seconds=3600)
        if not hit.allowed:
            form.add_error(None, _("Too many new accounts from this address: try again in an hour."))
            response = render(request, "registration/signup.html", {"form": form, "next": target}, status=429)
            response["Retry-After"] = str(int(hit.wait) + 1)
            return response
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s.") % {"name": user.username})
        return redirect(target or "home")
    return render(request, "registration/signup.html", {"form": form, "next": target})
