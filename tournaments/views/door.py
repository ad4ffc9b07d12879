"""The self check-in at a tournament's door: a player opens the link from the code by the door,
finds his name and checks himself in. No account: the link's key is the permission, so the
page answers even for a members-only club, and 404 to a wrong key; each address is throttled,
and only while the organiser keeps the door open does a tap check anyone in."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from engine.errors import EngineError
from games.services.errors import ServiceError
from games.text.errors import error_message
from games.web.client import client_ip
from tournaments.forms import SelfCheckInForm
from tournaments.selectors.entries import check_in_matches, tournament_entry
from tournaments.selectors.tournaments import tournament_by_public_id
from tournaments.services.entries import check_in_key_matches, check_in_try, entry_self_check_in


def check_in(request: HttpRequest, public_id: str, key: str) -> HttpResponse:
    tournament = tournament_by_public_id(public_id=public_id)
    if tournament is None or not check_in_key_matches(tournament, key):
        raise Http404
    url = reverse("tournaments:check_in", kwargs={"public_id": public_id, "key": key})
    query = request.GET.get("q", "").strip()[:80]
    context: dict[str, object] = {"tournament": tournament, "query": query, "error": None, "done": None}
    if request.method == "POST" or query:
        hit = check_in_try(tournament, client_ip(request) or "unknown")
        if not hit.allowed:
            context["throttled"] = True
            response = render(request, "tournaments/check_in.html", context, status=429)
            response["Retry-After"] = str(max(1, int(hit.wait)))
            return response
    if request.method == "POST":
        form = SelfCheckInForm(request.POST)
        if form.is_valid():
            try:
                entry = entry_self_check_in(
                    tournament=tournament,
                    key=key,
                    entry_id=form.cleaned_data["entry"],
                    request_id=form.cleaned_data["request_id"],
                )
            except EngineError as error:
                context["error"] = error_message(error)
            else:
                # After a redirect, so a reload does not send the tap again.
                return redirect(f"{url}?done={entry.pk}")
        else:
            context["error"] = error_message(ServiceError("check_in_unknown", "a form without a player"))
        tournament.refresh_from_db()
    done = request.GET.get("done", "")
    if done.isascii() and done.isdigit():
        arrived = tournament_entry(tournament=tournament, entry_id=int(done))
        context["done"] = arrived if arrived is not None and arrived.checked_in else None
    searched = query and tournament.check_in_open  # a closed door shows no names
    context["results"] = check_in_matches(tournament=tournament, query=query) if searched else []
    status = 400 if context["error"] else 200
    return render(request, "tournaments/check_in.html", context, status=status)
