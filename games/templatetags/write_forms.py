"""``{% request_id %}``: a fresh idempotency key for each small form of a list (a check-in, a
drop-out, a game put in an evening...), so that a resent form changes nothing twice."""

from __future__ import annotations

import uuid

from django import template

register = template.Library()


@register.simple_tag
def request_id() -> str:
    return str(uuid.uuid4())
