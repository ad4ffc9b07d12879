"""The federation's rating lists as the API answers them: the families, the live list a page at
a time, the published months and a published list, the freshness and a tournament's report."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from federations.models import PublishedList
from federations.selectors.ratings import Freshness
from federations.services.register import person_label
from games.api.common import etag

MAX_PAGE = 100_000
MAX_QUERY = 40


class MonthField(serializers.CharField):
    """A month as ``yyyy-mm``."""

    def to_representation(self, value: Any) -> str:
        return f"{value:%Y-%m}"


class FreshFields(serializers.Serializer[Any]):
    pending = serializers.BooleanField(
        source="fresh.pending", help_text="A change is not yet in the federation's lists: they are updating."
    )
    as_of = serializers.DateTimeField(
        source="fresh.as_of", allow_null=True, help_text="When the federation's lists were last complete."
    )


class FederationFamiliesSerializer(FreshFields):
    # Reads a ``RatingPage`` (its family list and freshness).
    federation = serializers.CharField(source="federation.slug", help_text="The federation's slug.")
    families = serializers.ListField(child=serializers.CharField(), help_text="The families rated.")


class FederationListRowSerializer(serializers.Serializer[Any]):
    # Reads a ``ListRow``.
    rank = serializers.IntegerField(help_text="Competition rank in the whole list (a search keeps it).")
    person_id = serializers.IntegerField(source="person")
    number = serializers.IntegerField(help_text="The register number.")
    id = serializers.CharField(source="label", help_text='The federation id ("CZ-00042").')
    name = serializers.CharField()
    home_club = serializers.CharField(allow_blank=True)
    rating = serializers.IntegerField(help_text="As displayed.")
    uncertainty = serializers.IntegerField(help_text="σ on the rating's scale, shown as ±.")
    games = serializers.IntegerField(help_text="Rated games of the family.")
    last_played = serializers.DateTimeField()
    provisional = serializers.BooleanField(help_text="Fewer rated games than provisional_games.")
    inactive = serializers.BooleanField(help_text="No game for more than inactive_days.")
    trend = serializers.IntegerField(
        allow_null=True, help_text="The change since the last published list (null: not on it, or none)."
    )
    new = serializers.BooleanField(help_text="Not on the last published list (when there is one).")


class FederationLiveListSerializer(FreshFields):
    # Reads a ``RatingPage``.
    federation = serializers.CharField(source="federation.slug", help_text="The federation's slug.")
    family = serializers.CharField()
    families = serializers.ListField(child=serializers.CharField(), help_text="The families rated.")
    provisional_games = serializers.IntegerField(source="federation.provisional_games")
    inactive_days = serializers.IntegerField(source="federation.inactive_days")
    query = serializers.CharField(allow_blank=True, help_text="The search (`?q=`) as applied.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    total = serializers.IntegerField(help_text="Rows of the list (of the search's results).")
    last_published = MonthField(
        source="last_list.month", allow_null=True, help_text="The month of the last published list (yyyy-mm)."
    )
    rows = FederationListRowSerializer(many=True)


class PublishedMonthsSerializer(serializers.Serializer[Any]):
    federation = serializers.CharField(help_text="The federation's slug.")
    family = serializers.CharField()
    months = serializers.ListField(child=MonthField(), help_text="Newest first (yyyy-mm).")


class PublishedLineSerializer(serializers.Serializer[Any]):
    # Reads a ``PublishedLine``.
    rank = serializers.IntegerField()
    person_id = serializers.IntegerField(allow_null=True, help_text="Null: the entry was since merged away.")
    number = serializers.IntegerField()
    id = serializers.SerializerMethodField(help_text='The federation id ("CZ-00042").')
    name = serializers.CharField(help_text="As it was when published.")
    home_club = serializers.CharField(allow_blank=True, help_text="As it was when published.")
    rating = serializers.IntegerField()
    uncertainty = serializers.IntegerField()
    games = serializers.IntegerField()
    last_played = serializers.DateTimeField()
    provisional = serializers.BooleanField()
    inactive = serializers.BooleanField()
    previous_rating = serializers.IntegerField(
        allow_null=True, help_text="On the previous list (null: not on it)."
    )
    previous_rank = serializers.IntegerField(allow_null=True)
    change = serializers.SerializerMethodField(
        help_text="rating − previous_rating (null: not on the previous list)."
    )

    def get_id(self, line: Any) -> str:
        return person_label(self.context["federation"], line.number)

    def get_change(self, line: Any) -> int | None:
        return None if line.previous_rating is None else line.rating - line.previous_rating


class PublishedListSerializer(serializers.Serializer[Any]):
    # Reads a ``PublishedPage``.
    federation = serializers.CharField(source="federation.slug", help_text="The federation's slug.")
    family = serializers.CharField(source="published.family")
    month = MonthField(source="published.month", help_text="yyyy-mm.")
    cutoff = serializers.DateTimeField(
        source="published.cutoff", help_text="The games played before this count."
    )
    published_at = serializers.DateTimeField(source="published.published_at")
    previous = MonthField(
        source="published.previous.month", allow_null=True, help_text="The list before (yyyy-mm)."
    )
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    total = serializers.IntegerField()
    lines = PublishedLineSerializer(many=True)


def published_etag(published: PublishedList, page: int) -> str:
    # A published list never changes: its id and the page name the answer.
    return etag("published", published.pk, page)


class FederationFreshnessSerializer(serializers.Serializer[Any]):
    # Reads a ``Freshness``.
    pending = serializers.BooleanField(
        help_text="A recorded change is not yet in the federation's lists: they are updating."
    )
    as_of = serializers.DateTimeField(
        allow_null=True, help_text="When the federation's lists were last complete (null: never)."
    )


def freshness_etag(fresh: Freshness) -> str:
    return etag("federation-derived", int(fresh.pending), fresh.as_of.isoformat() if fresh.as_of else "none")


class FederationReportRowSerializer(serializers.Serializer[Any]):
    # Reads a ``ReportRow``.
    person_id = serializers.IntegerField(source="person")
    number = serializers.IntegerField()
    id = serializers.CharField(source="label", help_text='The federation id ("CZ-00042").')
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="The tournament's games that count for the federation.")
    before = serializers.IntegerField(help_text="The rating before the tournament's first table.")
    after = serializers.IntegerField(help_text="The rating after its last.")
    change = serializers.IntegerField()


class FederationReportSerializer(FreshFields):
    tournament = serializers.CharField(source="tournament.public_id", help_text="The tournament's public id.")
    federation = serializers.CharField(source="federation.slug", help_text="The federation's slug.")
    rows = FederationReportRowSerializer(many=True, help_text="Biggest gain first.")
