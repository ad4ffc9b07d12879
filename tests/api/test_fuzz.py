"""Schemathesis against the live schema: every operation, with generated requests (valid and
not), as an anonymous caller and with a read-write token over a small club. No request may get
a server error, and every answer must conform to the schema (status codes, content types,
bodies). Stateful links are followed where the schema has them.

On SQLite (the default database) in the normal test run: a few examples per operation, so the
whole suite stays fast; ``FUZZ_EXAMPLES`` raises it for a deeper run.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from rummy_site.wsgi import application

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
# The answers must conform: no server error, documented status codes, content types, bodies and
# headers. Two request-side checks are left out, with reason: the API validates more than a
# schema can say (a card must be a card, a hand's outcome must score, a club slug must exist),
# so a schema-valid request can rightly be refused (positive_data_acceptance); and DRF's
# lenient parsers accept what the schema's strict types would not ("true" for a boolean, "5"
# for a number), which harms nobody (negative_data_rejection).
EXCLUDED = [checks.positive_data_acceptance, checks.negative_data_rejection]

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)


@pytest.fixture
def world(django_db_setup: Any, django_db_blocker: Any) -> dict[str, str]:
    """A club with a tournament, a season and games, and a read-write token of its organiser."""
    from django.core.management import call_command

    from games.models import Club
    from games.services.tokens import token_create

    with django_db_blocker.unblock():
        call_command(
            "generate_club", "--players", "10", "--games", "12", "--hands", "60", "--name", "Fuzz club"
        )
        club = Club.objects.get(name="Fuzz club")
        user = club.memberships.get().user
        _row, token = token_create(user=user, name="fuzz", scope="write")
    return {"token": token, "club": club.slug}


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms(case: Any, world: dict[str, str]) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {world['token']}"}, excluded_checks=EXCLUDED)


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(max_examples=max(2, EXAMPLES // 2), deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms_anonymously(case: Any) -> None:
    case.call_and_validate(excluded_checks=EXCLUDED)
