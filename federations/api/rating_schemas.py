"""The schema text of the federation's rating lists, their CSV downloads, the freshness and a
tournament's rating report."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from engine.rules import FAMILIES
from federations.api.rating_serializers import (
    MAX_PAGE,
    MAX_QUERY,
    FederationFamiliesSerializer,
    FederationFreshnessSerializer,
    FederationLiveListSerializer,
    FederationReportSerializer,
    PublishedListSerializer,
    PublishedMonthsSerializer,
)
from games.api.common import problems

TAGS = ["federations"]

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The federation's slug.")
FAMILY = OpenApiParameter(
    "family", str, OpenApiParameter.PATH, enum=list(FAMILIES), description="A rule family."
)
MONTH = OpenApiParameter(
    "month",
    {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"},
    OpenApiParameter.PATH,
    description="yyyy-mm.",
)
PAGE = OpenApiParameter(
    "page",
    {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
    OpenApiParameter.QUERY,
    required=False,
    description="From 1, 100 rows a page; past the last: the last.",
)
QUERY = OpenApiParameter(
    "q",
    {"type": "string", "maxLength": MAX_QUERY},
    OpenApiParameter.QUERY,
    required=False,
    description='A part of a name, or a federation id ("CZ-00042", "42"); each row keeps its rank '
    "in the whole list.",
)


def _csv_download(operation_id: str, summary: str, parameters: list[Any]) -> Any:
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description="The page's CSV download, the whole list: UTF-8 with a byte-order mark, the header "
        "row in the request's language, every row naming the federation, the family and the list.",
        tags=TAGS,
        parameters=parameters,
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The CSV file."),
            **problems(404),
        },
    )


federation_rating_families = extend_schema(
    operation_id="federation_rating_families",
    summary="The rule families the federation rates",
    tags=TAGS,
    parameters=[SLUG],
    responses={200: FederationFamiliesSerializer, **problems(404)},
)

federation_rating_list = extend_schema(
    operation_id="federation_rating_list",
    summary="A page of the federation's live rating list of one family",
    description="Ranked by the rating shown; the trend against the last published list. A family "
    "the federation does not rate: 404.",
    tags=TAGS,
    parameters=[SLUG, FAMILY, PAGE, QUERY],
    responses={200: FederationLiveListSerializer, **problems(400, 404)},
)

federation_rating_list_csv = _csv_download(
    "federation_rating_list_csv", "The federation's live rating list of one family as CSV", [SLUG, FAMILY]
)

federation_published_months = extend_schema(
    operation_id="federation_published_months",
    summary="The months whose list of the family was published",
    tags=TAGS,
    parameters=[SLUG, FAMILY],
    responses={200: PublishedMonthsSerializer, **problems(404)},
)

federation_published_list = extend_schema(
    operation_id="federation_published_list",
    summary="A page of a published monthly list, as it was published",
    description="Never changes once published: If-None-Match with its ETag answers 304. An unknown "
    "month: 404.",
    tags=TAGS,
    parameters=[SLUG, FAMILY, MONTH, PAGE],
    responses={
        200: PublishedListSerializer,
        304: OpenApiResponse(description="Not modified."),
        **problems(400, 404),
    },
)

federation_published_list_csv = _csv_download(
    "federation_published_list_csv", "A published monthly list as CSV", [SLUG, FAMILY, MONTH]
)

federation_freshness = extend_schema(
    operation_id="federation_freshness",
    summary="Whether the federation's rating lists are up to date",
    description="Pages showing the lists poll this while they say 'updating…', with the ETag as "
    "If-None-Match (304 while nothing changed), and reload once pending is false.",
    tags=TAGS,
    parameters=[SLUG],
    responses={
        200: FederationFreshnessSerializer,
        304: OpenApiResponse(description="Not modified."),
        **problems(404),
    },
)

tournament_federation_report = extend_schema(
    operation_id="tournament_federation_report",
    summary="A tournament's rating report for one federation",
    description="Each register entry who played a counted table: his games, his rating in the "
    "federation's list before the first and after the last. Readable by whoever reads both the "
    "tournament and the federation.",
    tags=TAGS,
    parameters=[
        OpenApiParameter("public_id", str, OpenApiParameter.PATH, description="The tournament's id."),
        OpenApiParameter("fed_slug", str, OpenApiParameter.PATH, description="The federation's slug."),
    ],
    responses={200: FederationReportSerializer, **problems(404)},
)
