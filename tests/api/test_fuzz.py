"""Schemathesis against the live schema, in three runs: every operation with generated
requests (valid and not) as an anonymous caller and with a read-write token, and the stateful
phase (calls chained by the links schemathesis infers between operations) with a read-write
token over a club with players, games, a tournament and a season. No request may get a server
error, every answer must conform to the schema (status codes, content types, bodies, headers),
a request the schema forbids must be refused and one it allows accepted, a deleted resource
must stay gone, a created one be found, and a write must not pass without its credential.

On SQLite (the default database) in the normal test run: few examples, derandomized, so the
suite stays fast and repeatable; ``FUZZ_EXAMPLES``, ``FUZZ_SCENARIOS`` and ``FUZZ_STEPS``
raise them for a deeper run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.core.parameters import ParameterLocation

from rummy_site.wsgi import application

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
# The answers must conform: no server error, documented status codes, content types, bodies and
# headers; a request with a value of another type than the schema's is refused (bodies are
# checked against the schema's types, games.api.body_types). One request-side check is left to
# the stateful run, which can say where it applies: the API validates more than a schema can say
# (a card must be a card, a hand's outcome must score), so a schema-valid request can rightly
# be refused (positive_data_acceptance).
EXCLUDED = [checks.positive_data_acceptance]

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


# The stateful phase: sequences of calls chained by the links schemathesis infers (a created
# game's id into its hands, a club's slug into its players...), with a read-write token over a
# club with players, games, a tournament part-played and a season. Every check is on; the one
# judgement left to configuration is which refusals are about state rather than data.
STEPS = int(os.environ.get("FUZZ_STEPS", "5"))
SCENARIOS = int(os.environ.get("FUZZ_SCENARIOS", str(6 * EXAMPLES)))
# Writes whose bodies mean more than their types: cards and tiles to read, a hand that must
# score for these players, a user by name, a game or round in the right state for the step, a
# player merged into another one of the club, an export document to import, a game's date
# (not in the future), a penalty's reason, a pair kept apart (two players, both registered), a
# player's answer for his table (while it is finished and unconfirmed). A schema-valid
# body may rightly be refused there (400 with its code); every other operation must accept
# what its schema allows.
DOMAIN_CHECKED = "|".join(
    [
        r"^/api/v1/engine/",
        r"/arrange/$",
        r"/hands/",
        r"/transfer/$",
        r"/merge/$",
        r"/end/$",
        r"/reopen/$",
        r"/rematch/$",
        r"/undo/$",
        r"^/api/v1/clubs/import/$",
        r"^/api/v1/games/$",
        r"^/api/v1/games/\{public_id\}/$",
        r"/rounds/\{number\}/",
        r"/entries/",
        r"^/api/v1/clubs/\{slug\}/(tournaments|seasons)/$",
        r"^/api/v1/(tournaments|seasons)/\{public_id\}/$",
        r"/players/\{player_id\}/versus/",
        r"/date/$",
        r"/penalties/",
        r"/apart/$",
        r"/own/",
        r"/final/$",
        # The JSON reader refuses an integer beyond 2**53 anywhere in a body (games/web/input.py).
        # The schema bounds the fields it names but cannot bound properties it does not name,
        # where the generator puts such numbers: here, in the invite join's body and the
        # standings' reveal (a body of no named field).
        r"^/api/v1/clubs/join/$",
        r"/standings/reveal/$",
        # A federation's names, prefix and address are checked by its services (a name of spaces
        # only, a prefix of other characters), its clubs, accounts and register entries named.
        r"^/api/v1/federations/",
        r"^/api/v1/clubs/\{slug\}/federations/",
    ]
)
STATEFUL_CONFIG: dict[str, Any] = {
    "seed": 26,
    # The site refuses NUL in any text (PostgreSQL cannot store it): documented, not fuzzed.
    "generation": {
        "allow-x00": False,
        "deterministic": True,
        "database": "none",
        "with-security-parameters": False,
    },
    "checks": {
        "not_a_server_error": {"enabled": True},
        "status_code_conformance": {"enabled": True},
        "content_type_conformance": {"enabled": True},
        "response_headers_conformance": {"enabled": True},
        "response_schema_conformance": {"enabled": True},
        "negative_data_rejection": {"enabled": True},
        # A stale or missing If-Match (412, 428) and a reused Idempotency-Key (422) are about
        # the state the request meets, not its data.
        "positive_data_acceptance": {
            "enabled": True,
            "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "412", "422", "428", "429"],
        },
        "use_after_free": {"enabled": True},
        "ensure_resource_availability": {"enabled": True},
        "ignored_auth": {"enabled": True},
    },
    "operations": [
        {"include-path-regex": DOMAIN_CHECKED, "checks": {"positive_data_acceptance": {"enabled": False}}}
    ],
}


def _full_world() -> dict[str, Any]:
    """The fuzzing club, with a tournament whose first round is confirmed and second seated, and
    a season; a read-write token of its organiser."""
    from django.core.management import call_command

    from games.models import Club
    from games.services.tokens import token_create
    from tests.tournaments.support import play_round, season_settings, tournament
    from tournaments.services.round_seating import round_seat
    from tournaments.services.seasons import season_create

    call_command(
        "generate_club",
        "--players",
        "10",
        "--games",
        "6",
        "--hands",
        "30",
        "--name",
        "Fuzz club",
        "--seed",
        "26",
    )
    club = Club.objects.get(name="Fuzz club")
    user = club.memberships.get().user
    cup = tournament(club, user, 8)
    play_round(cup, 1, user)
    round_seat(tournament=cup, number=2, user=user)
    season_create(club=club, settings=season_settings(), user=user)
    federation = _fuzz_federation(club, user)
    hosted = _fuzz_open(federation, tournament(club, user, 4, name="Fuzz open"), user)
    _row, token = token_create(user=user, name="fuzz", scope="write")
    players = list(club.players.order_by("pk").values_list("pk", flat=True)[:2])
    entry = cup.entries.order_by("pk").values_list("pk", flat=True)[0]
    season = club.seasons.get()
    return {
        "token": token,
        "club": club.slug,
        "tournament": cup.public_id,
        "season": season.public_id,
        "player": players[0],
        "other": players[1],
        "entry": entry,
        "federation": federation,
        "open": hosted,
    }


def _fuzz_federation(club: Any, user: Any) -> str:
    """A federation the club's organiser runs, the club a member, three entries in its
    register (two alike): its slug."""
    from federations.services.federations import federation_create
    from federations.services.memberships import club_answer, club_invite
    from federations.services.register import person_add

    federation = federation_create(name="Fuzz federation", user=user, id_prefix="FZ")
    invited = club_invite(federation=federation, club=club, user=user)
    club_answer(membership=invited, accept=True, version=invited.version, user=user)
    for name in ("Ann Fuzz", "Ann  FUZZ", "Bob Fuzz"):
        person_add(federation=federation, name=name, home_club=club, user=user)
    return federation.slug


def _fuzz_open(slug: str, cup: Any, user: Any) -> str:
    """A tournament of the club hosted as an open of the fuzzing federation: its id."""
    from federations.models import Federation
    from federations.services.opens import open_host

    open_host(federation=Federation.objects.get(slug=slug), tournament=cup, user=user)
    return str(cup.public_id)


def _fuzz_federation_season(slug: str) -> str:
    """A season of the fuzzing federation: its id."""
    import datetime

    from federations.models import Federation
    from federations.services.seasons import GrandPrixSettings, season_create

    settings = GrandPrixSettings(
        name="Fuzz GP",
        starts=datetime.date(2026, 1, 1),
        ends=datetime.date(2026, 12, 31),
        families=["rummikub"],
    )
    return season_create(federation=Federation.objects.get(slug=slug), settings=settings).public_id


def _known_objects(world: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The seeded objects' identifiers by path prefix, for the scenarios that start at an
    existing club, tournament or season (none of them can be deleted through the API). Games are
    left to the links: a scenario may delete one."""
    return {
        "/api/v1/tournaments/{public_id}/": {
            "public_id": world["tournament"],
            "entry_id": world["entry"],
            "number": 2,
        },
        "/api/v1/seasons/{public_id}/": {"public_id": world["season"]},
        "/api/v1/federations/{slug}/": {
            "slug": world["federation"],
            "number": 1,
            "club": world["club"],
            "public_id": _fuzz_federation_season(world["federation"]),
        },
        # Later prefixes win: an open's address names the open, not the season.
        "/api/v1/federations/{slug}/opens/": {"public_id": world["open"]},
        "/api/v1/clubs/{slug}/": {
            "slug": world["club"],
            "id": world["player"],
            "player_id": world["player"],
            "other_id": world["other"],
        },
    }


# In one transaction: each scenario runs in a savepoint rolled back after it, so every scenario
# starts from the same club (Hypothesis needs a scenario's draws to depend on its own calls only).
@pytest.fixture
def requests_keep_the_connection() -> Iterator[None]:
    """Schemathesis calls the WSGI application itself, not through Django's test client, so
    every request's end would close the database connection inside the test's transaction (its
    autocommit differs from the settings'); the test client leaves it open, and so does this."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.django_db
@pytest.mark.usefixtures("requests_keep_the_connection")
def test_stateful_workflows_conform() -> None:
    from hypothesis.stateful import run_state_machine_as_test
    from schemathesis.config import SchemathesisConfig

    world = _full_world()
    # The token as configured headers: the checks know it is the caller's (ignored_auth then
    # sends each successful request again without it, and with a wrong one).
    config = {**STATEFUL_CONFIG, "headers": {"Authorization": f"Bearer {world['token']}"}}
    live = schemathesis.openapi.from_wsgi(
        "/api/v1/schema/?format=json", application, config=SchemathesisConfig.from_dict(config)
    )
    workflow: Any = live.as_state_machine()

    known = _known_objects(world)
    headers = config["headers"]

    class Workflows(workflow):  # type: ignore[misc, valid-type]
        def setup(self) -> None:
            self.savepoint = transaction.savepoint_create()

        def teardown(self) -> None:
            transaction.savepoint_rollback(self.savepoint)

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            # The checks are told the token is the caller's own, not a generated one.
            case.validate_response(
                response,
                additional_checks=additional_checks,
                headers=headers,
                transport_kwargs=kwargs or None,
                recorder=getattr(self, "recorder", None),
            )

        def before_call(self, case: Any) -> None:
            # A scenario's first call names a seeded object, unless its path is the part made
            # invalid on purpose (then a 404 is the right answer).
            if case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH):
                return
            for prefix, values in known.items():
                if case.operation.path.startswith(prefix):
                    for name, value in values.items():
                        if name in (case.path_parameters or {}):
                            case.path_parameters[name] = value

    run_state_machine_as_test(
        Workflows,
        settings=settings(
            max_examples=SCENARIOS,
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )


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
