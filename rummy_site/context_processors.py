"""What every page's frame needs to know about the site."""

from __future__ import annotations

from django.http import HttpRequest

from games.views.clubs import signup_allowed


def signup(request: HttpRequest) -> dict[str, bool]:
    """Whether the header and the login page offer "Create an account" (to this page's ``next``)."""
    return {"signup_open": signup_allowed(request.GET.get("next", ""), request)}
