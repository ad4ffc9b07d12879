"""The edit link's page, with the token in the URL's fragment: ``/g/<id>/edit/#<token>``.

A fragment never reaches the server, so the token stays out of access logs, proxies and
Referer headers. ``static/js/edit_link.js`` reads it and posts it (with the CSRF token) to the
same address; without JavaScript the page asks for the link to be pasted. The older form
``/g/<id>/edit/<token>/`` (links already shared) still works: ``games.views.games.edit_link``.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from games.views import games as views
from games.web.links import token_from


@never_cache
def edit_link_page(request: views.HtmxHttpRequest, public_id: str) -> HttpResponse:
    game = views._game(public_id)
    error = None
    if request.method == "POST":
        token = token_from(request.POST.get("token", ""))
        if token:
            try:
                # The same check and grant as the older link form, so both stay one rule.
                return views.edit_link(request, public_id, token)
            except Http404:
                pass
        error = _(
            "This edit link does not work. It may have been replaced by a new one: ask whoever "
            "started the game for the current link."
        )
    return render(
        request, "games/edit_link.html", {"game": game, "error": error}, status=404 if error else 200
    )
