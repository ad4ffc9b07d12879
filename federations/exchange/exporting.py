"""A federation's own records as the export document."""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone

from federations.exchange.schema import FORMAT, VERSION
from federations.models import (
    Federation,
    FederationClub,
    FederationOpen,
    FederationSeason,
    Person,
    PersonLink,
    PublishedLine,
    PublishedList,
    RatedTournament,
)
from federations.services.seasons import current_settings

LINE_FIELDS = (
    "number",
    "name",
    "home_club",
    "rank",
    "rating",
    "uncertainty",
    "mu",
    "sigma",
    "games",
    "last_played",
    "provisional",
    "inactive",
    "previous_rating",
    "previous_rank",
)


def _when(value: datetime.datetime | None) -> str | None:
    """A moment as ISO 8601 in UTC (stable, whatever the site's time zone)."""
    return None if value is None else value.astimezone(datetime.UTC).isoformat()


def _day(value: datetime.date | None) -> str | None:
    return None if value is None else value.isoformat()


def _season(season: FederationSeason) -> dict[str, Any]:
    """A season's settings (its standings are derived: the import derives them again)."""
    settings = current_settings(season)
    return {
        **settings,
        "starts": _day(season.starts),
        "ends": _day(season.ends),
        # As stored, place by place (the settings' text form joins them).
        "custom_points": list(season.custom_points),
    }


def export_federation(federation: Federation) -> dict[str, Any]:
    """The federation's records as one JSON-ready document (format version 1). Lists come in
    a stable order (numbers, clubs' addresses, names, months), so two exports of the same
    records are the same document apart from ``exported_at``."""
    register = list(
        Person.objects.filter(federation=federation)
        .select_related("home_club", "merged_into")
        .order_by("number")
    )
    periods = (
        FederationClub.objects.filter(federation=federation)
        .select_related("club")
        .order_by("club__slug", "invited_at", "pk")
    )
    links = (
        PersonLink.objects.filter(federation=federation)
        .select_related("club", "player", "person")
        .order_by("club__slug", "player__name", "pk")
    )
    rated = (
        RatedTournament.objects.filter(federation=federation)
        .select_related("tournament__club")
        .order_by("tournament__club__slug", "tournament__date", "tournament__name", "tournament__pk")
    )
    lists = list(
        PublishedList.objects.filter(federation=federation)
        .select_related("previous")
        .order_by("family", "month")
    )
    opens = (
        FederationOpen.objects.filter(federation=federation)
        .select_related("tournament__club")
        .order_by("tournament__club__slug", "tournament__date", "tournament__name", "tournament__pk")
    )
    seasons = FederationSeason.objects.filter(federation=federation).order_by("starts", "name", "pk")
    lines: dict[int, list[dict[str, Any]]] = {}
    for row in (
        PublishedLine.objects.filter(published__federation=federation)
        .order_by("published_id", "rank", "number")
        .values("published_id", *LINE_FIELDS)
    ):
        line = {key: row[key] for key in LINE_FIELDS}
        line["last_played"] = _when(row["last_played"])
        lines.setdefault(row["published_id"], []).append(line)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _when(timezone.now()),
        "federation": {
            "name": federation.name,
            "slug": federation.slug,
            "visibility": federation.visibility,
            "counts": federation.counts,
            "id_prefix": federation.id_prefix,
            "provisional_games": federation.provisional_games,
            "inactive_days": federation.inactive_days,
            "next_number": federation.next_number,
        },
        "register": [
            {
                "number": p.number,
                "name": p.name,
                "home_club": p.home_club.slug if p.home_club else None,
                "merged_into": p.merged_into.number if p.merged_into else None,
            }
            for p in register
        ],
        "clubs": [
            {
                "club": m.club.slug,
                "state": m.state,
                "counts_from": _day(m.counts_from),
                "invited_at": _when(m.invited_at),
                "joined_at": _when(m.joined_at),
                "ended_at": _when(m.ended_at),
            }
            for m in periods
        ],
        "links": [
            {
                "club": link.club.slug,
                "player": link.player.name,
                "person": link.person.number,
                "state": link.state,
            }
            for link in links
        ],
        "rated_tournaments": [
            {"club": r.tournament.club.slug, "name": r.tournament.name, "date": _day(r.tournament.date)}
            for r in rated
        ],
        "opens": [
            {
                "club": o.tournament.club.slug,
                "name": o.tournament.name,
                "date": _day(o.tournament.date),
                "self_entry": o.self_entry,
                "entries_close": _when(o.entries_close),
            }
            for o in opens
        ],
        "seasons": [_season(season) for season in seasons],
        "published": [
            {
                "family": p.family,
                "month": _day(p.month),
                "cutoff": _when(p.cutoff),
                "published_at": _when(p.published_at),
                "previous": _day(p.previous.month) if p.previous else None,
                "lines": lines.get(p.pk, []),
            }
            for p in lists
        ],
    }
