"""Site-wide pages: the home page and the health check."""

import datetime

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import never_cache

from tournaments.derived import backlog, whole_within
from tournaments.selectors.home import home_of


def home(request: HttpRequest) -> HttpResponse:
    """A signed-in person's home leads him to what is on now in his clubs
    (``tournaments.selectors.home``); everyone else gets the welcome page."""
    if request.user.is_authenticated:
        response = render(request, "home_member.html", {"home": home_of(user=request.user)})
        # One person's page at the address everyone shares: no cache between keeps it.
        patch_cache_control(response, private=True)
        return response
    return render(request, "home.html")


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers a query, 503 otherwise (for load balancers and monitors),
    with how far the task worker is behind: the age in seconds of the oldest change whose
    ratings or standings are not yet updated (null: none), how many clubs' updates failed their
    last try, the bound within which a dead worker's club is taken up again, and by name the
    clubs stuck (changes older than that bound and no job alive at them: no worker running, or
    one that keeps dying) and those failing, with their ages. A worker behind is not a reason to
    take this server out of service, so it does not change the status."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        behind = backlog()
    except DatabaseError as exc:
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    now = timezone.now()

    def age(since: datetime.datetime | None) -> float | None:
        return None if since is None else round((now - since).total_seconds(), 1)

    return JsonResponse(
        {
            "status": "ok",
            "database": "ok",
            "derived": {
                "oldest_pending_seconds": age(behind.oldest),
                "failing_clubs": behind.failing,
                "whole_within_seconds": whole_within().total_seconds(),
                "stuck": [
                    {"club": c.club, "pending_seconds": age(c.pending_since)} for c in behind.stuck_clubs
                ],
                "failing": [
                    {
                        "club": c.club,
                        "failures": c.failures,
                        "pending_seconds": age(c.pending_since),
                        "last_failed_seconds": age(c.failed_at),
                    }
                    for c in behind.failing_clubs
                ],
            },
        }
    )
