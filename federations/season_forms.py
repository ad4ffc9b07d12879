"""The form of a federation season's settings (new and edit): what was typed, read; the service
checks it and its coded errors are put at the field they name (``put_error``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.rules import FAMILIES
from federations.models import FederationSeason
from federations.services.seasons import GrandPrixSettings, current_settings
from games.club_forms import _Write
from games.families import family_choices
from games.forms import numeric
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, LEAGUE_TIEBREAKS
from tournaments.forms import LEAGUE_TIEBREAK_LABELS
from tournaments.services.common import MAX_CUSTOM_POINTS, MAX_EVENTS, MAX_QUALIFY

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
# A Grand Prix counts tournaments only: "games played" would be the tournaments played.
TIEBREAKS = [k for k in LEAGUE_TIEBREAKS if k not in ("points", "games")]


class GrandPrixForm(_Write):
    name = forms.CharField(label=_("Name"), max_length=80)
    starts = forms.DateField(label=_("First day"), widget=DATE)
    ends = forms.DateField(label=_("Last day"), widget=DATE)
    families = forms.MultipleChoiceField(
        label=_("Games that count"), choices=family_choices, widget=forms.CheckboxSelectMultiple
    )
    tournament_points = forms.ChoiceField(
        label=_("Points per tournament"), choices=FederationSeason.TournamentPoints.choices
    )
    custom_points = forms.CharField(
        label=_("Custom points by place"),
        help_text=_("e.g. 10 8 6 5 4 3 2 1"),
        required=False,
        max_length=MAX_CUSTOM_POINTS,
    )
    best_events = forms.IntegerField(
        label=_("Count only the best tournaments"),
        help_text=_("0: all of them."),
        min_value=0,
        max_value=MAX_EVENTS,
        initial=0,
        widget=numeric(),
    )
    drop_worst = forms.IntegerField(
        label=_("Drop the worst tournaments"), min_value=0, max_value=MAX_EVENTS, initial=0, widget=numeric()
    )
    min_events = forms.IntegerField(
        label=_("Tournaments needed to be ranked"),
        help_text=_("People with fewer are listed below the line."),
        min_value=0,
        max_value=MAX_EVENTS,
        initial=0,
        widget=numeric(),
    )
    qualify = forms.IntegerField(
        label=_("The top players who qualify"),
        help_text=_("The standings draw a line below them. 0: no line."),
        required=False,
        min_value=0,
        max_value=MAX_QUALIFY,
        initial=0,
        widget=numeric(),
    )

    GENERAL = (
        "name",
        "starts",
        "ends",
        "tournament_points",
        "custom_points",
        "best_events",
        "drop_worst",
        "min_events",
        "qualify",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        self.fields["starts"].initial = today.replace(month=1, day=1)
        self.fields["ends"].initial = today.replace(month=12, day=31)
        self.fields["families"].initial = list(FAMILIES)
        defaults = [k for k in DEFAULT_LEAGUE_TIEBREAKS if k != "points"]
        for i in range(1, len(TIEBREAKS) + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": i},
                choices=[("", _("(none)")), *((k, LEAGUE_TIEBREAK_LABELS[k]) for k in TIEBREAKS)],
                required=False,
                initial=defaults[i - 1] if i <= len(defaults) else "",
            )

    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.GENERAL]

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("tiebreak_")]

    @staticmethod
    def initial_from(season: FederationSeason) -> dict[str, object]:
        initial: dict[str, object] = {**current_settings(season), "version": season.version}
        chosen = [k for k in (season.tiebreaks or DEFAULT_LEAGUE_TIEBREAKS) if k != "points"]
        for i in range(1, len(TIEBREAKS) + 1):
            initial[f"tiebreak_{i}"] = chosen[i - 1] if i <= len(chosen) else ""
        return initial

    def settings(self) -> GrandPrixSettings:
        data = self.cleaned_data
        tiebreaks = ["points"]
        for name in self.fields:
            key = data.get(name) if name.startswith("tiebreak_") else None
            if key and key not in tiebreaks:
                tiebreaks.append(key)
        return GrandPrixSettings.from_mapping({**data, "tiebreaks": tiebreaks})


class DeleteForm(_Write):
    pass
