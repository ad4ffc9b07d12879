"""Account pages beside Django's own: the user's active sessions (end the others), and
password help without e-mail (a one-time reset link an organiser or the site admin makes,
and the page that uses it). Django's e-mail reset is offered only when the site can send
e-mail (settings.EMAIL_ENABLED); otherwise its page says whom to ask.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from engine.errors import EngineError
from games.models import Club, Membership
from games.selectors.clubs import club_membership
from games.selectors.users import user_by_username
from games.services.rates import rate_hit
from games.services.resets import (
    RESET_MINUTES,
    reset_link_create,
    reset_link_find,
    reset_link_path,
    reset_link_use,
)
from games.text.errors import error_message
from games.views.clubs import _club
from games.web.client import client_ip
from games.web.input import read_int
from games.web.links import absolute_url, qr_svg
from games.web.sessions import active_sessions, session_end, session_end_others

# ---------------------------------------------------------------------- sessions


@never_cache
@login_required
def account_sessions(request: HttpRequest) -> HttpResponse:
    """The user's logged-in browsers; end one of the others, or all of them."""
    user = request.user
    assert isinstance(user, User)
    current = request.session.session_key
    if request.method == "POST":
        if request.POST.get("action") == "end_others":
            ended = session_end_others(user=user, current_key=current)
            messages.success(request, _("Other sessions ended: %(count)d.") % {"count": ended})
        else:
            chosen = read_int(request.POST.get("session"), lo=1, hi=2**63 - 1)
            try:
                session_end(user=user, pk=chosen or 0, current_key=current)
            except EngineError as error:
                messages.error(request, error_message(error))
            else:
                messages.success(request, _("Session ended: that browser is logged out."))
        return redirect("account_sessions")
    rows = active_sessions(user=user)
    return render(request, "registration/sessions.html", {"rows": rows, "current": current})


# ---------------------------------------------------------------------- reset links


def _shown(request: HttpRequest, token: str, who: User, back: str, club: Club | None) -> HttpResponse:
    """The new link, shown once (never stored, never in a message, which would keep it in a
    cookie): with its code to scan and a share button."""
    link = absolute_url(request, reset_link_path(token))
    context = {
        "link": link,
        "qr": qr_svg(link, label=_("QR code of the password reset link")),
        "who": who,
        "minutes": RESET_MINUTES,
        "back": back,
        "club": club,
    }
    return render(request, "registration/reset_link_made.html", context)


@never_cache
@require_POST
@login_required
def reset_link_new(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """An organiser makes a reset link for a member of his club."""
    club, _role = _club(request, slug, Membership.Role.ORGANISER)
    membership = club_membership(club=club, pk=pk)
    if membership is None:
        raise Http404
    back = reverse("games:club_members", kwargs={"slug": club.slug})
    try:
        _row, token = reset_link_create(user=membership.user, by=request.user, club=club)  # type: ignore[arg-type]
    except EngineError as error:
        messages.error(request, _("No reset link was made: %(reason)s") % {"reason": error_message(error)})
        return redirect(back)
    return _shown(request, token, membership.user, back, club)


class AdminResetForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150)

    def clean_username(self) -> User:
        user = user_by_username(username=self.cleaned_data["username"])
        if user is None:
            raise forms.ValidationError(_("There is no account of that name."))
        return user


@never_cache
@login_required
def admin_reset_link(request: HttpRequest) -> HttpResponse:
    """The site admin makes a reset link for any account."""
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only the site's administrator can do this."))
    form = AdminResetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        who = form.cleaned_data["username"]
        try:
            _row, token = reset_link_create(user=who, by=request.user, club=None)  # type: ignore[arg-type]
        except EngineError as error:
            form.add_error(None, error_message(error))
        else:
            return _shown(request, token, who, reverse("admin_reset_link"), None)
    return render(request, "registration/reset_link_admin.html", {"form": form})


def _blank() -> SetPasswordForm[User]:
    """The new-password fields before the link's account is known (the token is the page's
    own field, filled from the link's fragment, not the form's)."""
    return SetPasswordForm(User())


@never_cache  # the answer to the link's own post
def reset_link_use_view(request: HttpRequest) -> HttpResponse:
    """The reset link's page: ``/accounts/reset/link/#<token>``. The token travels in the
    fragment (never sent, so in no access log); static/js/reset_link.js puts it in the form,
    which posts it with the new password. Without JavaScript the link is pasted."""
    if request.method != "POST":
        return render(request, "registration/reset_link_use.html", {"form": _blank()})
    address = client_ip(request) or "unknown"
    hit = rate_hit(f"reset-use:{address}", limit=settings.RESET_TRIES_PER_HOUR, seconds=3600)
    if not hit.allowed:
        form = _blank()
        context = {"form": form, "error": _("Too many tries from this address: try again in an hour.")}
        response = render(request, "registration/reset_link_use.html", context, status=429)
        response["Retry-After"] = str(int(hit.wait) + 1)
        return response
    raw = request.POST.get("token", "") or request.POST.get("pasted", "")
    token = raw.strip().rsplit("#", 1)[-1].strip()
    link = reset_link_find(token=token)
    if link is None:
        context = {
            "form": _blank(),
            "error": _(
                "This reset link does not work any more (used, replaced or expired): ask for a new one."
            ),
        }
        return render(request, "registration/reset_link_use.html", context, status=404)
    form = SetPasswordForm(link.user, request.POST)
    if form.is_valid():
        try:
            reset_link_use(token=token, password=form.cleaned_data["new_password1"])
        except EngineError as error:
            context = {"form": _blank(), "error": error_message(error)}
            return render(request, "registration/reset_link_use.html", context, status=404)
        messages.success(request, _("Your password is set. Log in with it."))
        return redirect("login")
    context = {"form": form, "token": token, "who": link.user}
    return render(request, "registration/reset_link_use.html", context, status=400)


# ---------------------------------------------------------------------- e-mail reset


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset by e-mail when the site can send e-mail; otherwise a page that says
    whom to ask for a reset link."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.EMAIL_ENABLED:
            return render(request, "registration/password_reset_no_email.html")
        return super().dispatch(request, *args, **kwargs)
