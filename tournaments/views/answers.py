"""A player's own link: his tournament page, where he confirms his table's final totals or
disputes them with a word (``Tournament.table_confirm``). No account: the link's key, signed
for this tournament and entry, is the permission, so the page answers even for a members-only
club; a wrong key is a 404 that says nothing of the tournament or the player."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from engine.errors import EngineError
from games.text.errors import error_message
from tournaments import access
from tournaments.forms import TableAnswerForm
from tournaments.selectors import table_answers as answer_selectors
from tournaments.selectors.player import player_rounds
from tournaments.selectors.tournaments import tournament_by_public_id
from tournaments.services.table_answers import entry_for_link, table_answer
from tournaments.table_answers import own_path


@never_cache  # the address is a credential: no shared cache keeps the page
def own_page(request: HttpRequest, public_id: str, entry_id: int, key: str) -> HttpResponse:
    tournament = tournament_by_public_id(public_id=public_id)
    entry = entry_for_link(tournament, entry_id, key) if tournament is not None else None
    if tournament is None or entry is None:
        raise Http404
    form = TableAnswerForm()
    error = None
    if request.method == "POST":
        form = TableAnswerForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                table_answer(
                    tournament=tournament,
                    entry_id=entry.pk,
                    key=key,
                    disputed=data["answer"] == "dispute",
                    seen=data["seen"],
                    word=data["word"],
                    request_id=data["request_id"],
                )
            except EngineError as failed:
                error = error_message(failed)
                if failed.params.get("field") == "word":
                    form.add_error("word", error)
                    error = None
            else:
                # After a redirect, so a reload does not send the answer again.
                return redirect(f"{own_path(tournament, entry.pk)}#my-table")
        else:
            error = _("Choose whether the totals are right.")
    found = player_rounds(tournament=tournament, entry_id=entry.pk)
    if found is None:
        raise Http404
    role = access.tournament_role(user=request.user, tournament=tournament)
    context = {
        "tournament": tournament,
        "role": role,
        "can_manage": access.can_manage(role=role),
        "section": "standings",
        "found": found,
        "own": True,
        "answer": answer_selectors.player_answer(tournament=tournament, entry=entry)
        if tournament.table_confirm
        else None,
        "answer_form": form,
        "answer_error": error,
    }
    status = 400 if error or form.errors else 200
    return render(request, "tournaments/player.html", context, status=status)
