"""The reader's language on every address (docs/design/frontend.md, "Languages").

A page's address may name its language (``/pl/g/…``) or not (``/g/…``). An address with a
language prefix answers in that language, for every language, the default's included (links
printed before the default changed keep their language). An address without one answers in the
reader's language: the one he chose in the language menu (the ``django_language`` cookie), else
the first of the five his phone asks for (``Accept-Language``), else the site's
``LANGUAGE_CODE``. Its answer varies on both headers, so no cache serves one reader's language to
another. Links shared for other phones to open (QR codes, invites, edit links) carry no prefix,
so each phone reads them in its own language.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.urls import URLResolver
from django.urls.resolvers import LocalePrefixPattern
from django.utils import translation
from django.utils.cache import patch_vary_headers


def language_codes() -> frozenset[str]:
    return frozenset(code for code, _name in settings.LANGUAGES)


class AnyLanguagePrefix(LocalePrefixPattern):
    """Matches ``<code>/…`` for each of the site's languages, and an address without a prefix.
    Links are made as Django makes them: the active language's prefix, none for the default."""

    def match(self, path: str) -> tuple[str, tuple[()], dict[str, Any]]:
        first, slash, rest = path.partition("/")
        if slash and first in language_codes():
            return rest, (), {}
        return path, (), {}


def language_patterns(*urls: Any) -> list[URLResolver]:
    """``i18n_patterns(*urls, prefix_default_language=False)`` with the matching above."""
    return [URLResolver(AnyLanguagePrefix(prefix_default_language=False), list(urls))]


class ReaderLanguage(LocaleMiddleware):
    """Django's locale middleware answers every address without a prefix in ``LANGUAGE_CODE``;
    this one answers it in the reader's language (cookie, then ``Accept-Language``)."""

    def process_request(self, request: HttpRequest) -> None:
        translation.activate(translation.get_language_from_request(request, check_path=True))
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        response = super().process_response(request, response)
        if not translation.get_language_from_path(request.path_info):
            # The menu's choice is a cookie: a cache keyed without it would serve one
            # reader's language to the next.
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response
