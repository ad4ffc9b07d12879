"""Panels that the apps built on games add to its pages, without games importing them.

An app registers a panel for a page in its ``AppConfig.ready`` (``register("game", panel)``);
the games views ask ``panels("game", request, game)`` and the templates print what comes back.
A panel returns HTML (already escaped: a rendered template) or None to show nothing. Pages:
``game`` (the score sheet, shown above the sheet), ``player`` (a player's page) and
``tournament`` (a tournament's page, below its standings; the tournaments app asks).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.utils.safestring import SafeString

Panel = Callable[[HttpRequest, Any], SafeString | None]
_PANELS: defaultdict[str, list[Panel]] = defaultdict(list)


def register(page: str, panel: Panel) -> None:
    if panel not in _PANELS[page]:
        _PANELS[page].append(panel)


def panels(page: str, request: HttpRequest, subject: object) -> list[SafeString]:
    drawn = (panel(request, subject) for panel in _PANELS[page])
    return [html for html in drawn if html]
