"""Site-wide pages: the home page and the health check."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import never_cache

from tournaments.derived import backlog
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
    ratings or standings are not yet updated (null: none), and how many clubs' updates failed
    their last try. A worker behind is not a reason to take this server out of service, so it
    does not change the status."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        behind = backlog()
    except DatabaseError as exc:
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    age = None if behind.oldest is None else round((timezone.now() - behind.oldest).total_seconds(), 1)
    return JsonResponse(
        {
            "status": "ok",
            "database": "ok",
            "derived": {"oldest_pending_seconds": age, "failing_clubs": behind.failing},
        }
    )
