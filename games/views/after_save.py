"""The line a saving phone sees after a save, carried across the redirect without JavaScript.

With htmx the save answers the game's body with the line in it. Without JavaScript the save
redirects; the line then travels in Django's messages framework (tagged ``saved-hand`` with
the change its Undo button takes back) and the game page draws it in the same place instead
of in the page's message list (``base.html`` skips that tag).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest

from games.selectors.after_save import SavedLine

TAG = "saved-hand"


def remember_saved(request: HttpRequest, line: SavedLine) -> None:
    tags = f"{TAG} change-{line.change_id}" if line.change_id is not None else TAG
    messages.success(request, line.text, extra_tags=tags)


def saved_from_messages(request: HttpRequest) -> SavedLine | None:
    """The saved line waiting in this request's messages, if any (the messages stay for the
    page's message list, which leaves this one out)."""
    for message in messages.get_messages(request):  # type: ignore[arg-type]
        tags = message.extra_tags.split()
        if TAG in tags:
            change = next((t.removeprefix("change-") for t in tags if t.startswith("change-")), "")
            return SavedLine(text=str(message.message), change_id=int(change) if change.isdigit() else None)
    return None
