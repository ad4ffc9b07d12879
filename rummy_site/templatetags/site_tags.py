"""Tags of the site's frame (base.html)."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def language_menu() -> list[tuple[str, str]]:
    """Each language's code and its own name, for the language menu: a tag, not a context
    processor, so that pages drawn without a request (Django's CSRF failure page) list them too."""
    return [(code, settings.LANGUAGE_NAMES.get(code, code)) for code, _name in settings.LANGUAGES]
