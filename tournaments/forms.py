"""Forms of the organiser's tournament pages. They read what was typed; the services check it
and raise coded errors, which ``put_error`` places at the field they name."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from engine.errors import EngineError
from engine.rules import OPTIONS
from games.club_forms import _Write
from games.families import family_choices
from games.forms import did_you_mean, numeric, option_field
from games.services.clubs import MAX_CLUB_NAME
from games.text.errors import error_message
from games.text.names import loose_key
from games.web.input import read_json
from scoring.families import family_info
from scoring.league import DEFAULT_LEAGUE_TIEBREAKS, LEAGUE_TIEBREAKS
from scoring.standings import DEFAULT_TIEBREAKS, TIEBREAKS, place_points
from tournaments.models import Season, Tournament
from tournaments.services.common import MAX_CUSTOM_POINTS, MAX_EVENTS, MAX_MIN_GAMES, MAX_QUALIFY
from tournaments.services.penalties import (
    MAX_REASON as PENALTY_REASON_MAX,
)
from tournaments.services.seasons import SeasonSettings, current_season_settings
from tournaments.services.tournament_settings import (
    MAX_HANDS,
    MAX_MINUTES,
    MAX_ROUNDS,
    Settings,
    current_settings,
)

TIEBREAK_LABELS = {
    "points": _("tournament points"),
    "game_score": _("game score"),
    "game_score_average": _("game score per table"),
    "average_place": _("average place"),
    "firsts": _("first places"),
    "opponents_points": _("opponents' points"),
    "head_to_head": _("head-to-head"),
}


class TournamentForm(forms.Form):
    """A tournament's settings for one rule family (its house rules as for a game)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    # ISO in every language: a browser date input reads nothing else (30.11.2026 shows empty).
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    rounds = forms.IntegerField(
        label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=3, widget=numeric()
    )
    round_hands = forms.IntegerField(
        label=_("Hands per round"),
        help_text=_("0: each table plays to the game's own end (elimination, target or agreed hands)."),
        min_value=0,
        max_value=MAX_HANDS,
        initial=0,
        widget=numeric(),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round"),
        help_text=_(
            "A clock on the screen and the tables' phones; when it runs out, the hand being played "
            "is the last. 0: no clock."
        ),
        min_value=0,
        max_value=MAX_MINUTES,
        initial=0,
        required=False,  # a form without it (an older page) keeps no clock
        widget=numeric(),
    )
    table_confirm = forms.BooleanField(
        label=_("Players confirm their table's result"),
        help_text=_(
            "Each player confirms his table's final totals on his own phone, or disputes them. "
            "Confirming a round asks first about the tables that have not all confirmed."
        ),
        required=False,
        initial=False,
    )
    table_min = forms.IntegerField(label=_("Smallest table"), min_value=1, widget=numeric())
    table_preferred = forms.IntegerField(label=_("Preferred table size"), min_value=1, widget=numeric())
    table_max = forms.IntegerField(label=_("Largest table"), min_value=1, widget=numeric())
    byes_allowed = forms.BooleanField(
        label=_("Give a bye when the players do not fit the tables"), required=False, initial=True
    )
    seating = forms.ChoiceField(label=_("Seating"), choices=Tournament.Seating.choices)
    seed_by_rating = forms.BooleanField(
        label=_("Round 1 seeded by the club's rating list"),
        help_text=_(
            "The best rated go to different tables (1, 2, 3, 3, 2, 1, …), unrated players after them; "
            "later rounds as the seating says."
        ),
        required=False,
    )
    seat_order = forms.ChoiceField(
        label=_("Who deals first at a table"), choices=Tournament.SeatOrder.choices
    )
    # Radios, not a select: a closed select cuts the long choices on a phone.
    # One checked from the start, as the select had: a required radio group with none checked
    # stops the browser from sending the form at all.
    points = forms.ChoiceField(
        label=_("Table points"),
        choices=Tournament.Points.choices,
        widget=forms.RadioSelect,
        initial=Tournament.Points.TABLE,
    )
    custom_points = forms.CharField(
        label=_("Custom points per table size"),
        help_text=_("Points by place for each table size, e.g. 4: 5 3 2 0; 3: 4 2 0; 2: 3 0"),
        required=False,
        max_length=MAX_CUSTOM_POINTS,
    )

    final = forms.ChoiceField(
        label=_("Final after the rounds"),
        choices=Tournament.Final.choices,
        widget=forms.RadioSelect,
        initial=Tournament.Final.NONE,
        required=False,  # a form without the final's fields (an older page) keeps none
    )
    final_size = forms.IntegerField(
        label=_("Players in the final"),
        help_text=_("0: the game's usual table size; a knockout has 4 or 8."),
        min_value=0,
        max_value=8,
        initial=0,
        required=False,
        widget=numeric(),
    )
    final_counts = forms.ChoiceField(
        label=_("What the final does"),
        choices=Tournament.FinalCounts.choices,
        widget=forms.RadioSelect,
        initial=Tournament.FinalCounts.DECIDES,
        required=False,
    )
    final_season = forms.TypedChoiceField(
        label=_("Who plays the final"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[],
    )

    # What the players see, and when (a form without these, an older page, keeps none).
    hide_seating = forms.BooleanField(
        label=_("Publish each round's seating myself"),
        help_text=_(
            'A new round\'s tables are hidden from the players (pages, "where do I sit", the '
            "screen) until you publish them on the round's page. Starting a round publishes it."
        ),
        required=False,
    )
    freeze_rounds = forms.IntegerField(
        label=_("Freeze the standings for the last rounds"),
        help_text=_(
            "How many of the last rounds the players' standings leave out, until you reveal them. 0: none."
        ),
        min_value=0,
        max_value=MAX_ROUNDS,
        initial=0,
        required=False,
        widget=numeric(),
    )
    freeze_final = forms.BooleanField(label=_("Freeze the standings before the final"), required=False)
    frozen_shows = forms.ChoiceField(
        label=_("While the standings are frozen, players see"),
        choices=Tournament.FrozenShows.choices,
        widget=forms.RadioSelect,
        initial=Tournament.FrozenShows.STOOD,
        required=False,
    )

    def __init__(
        self, *args: Any, family: str, seasons: Sequence[tuple[int, str]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.family = family
        info = family_info(family)
        season_field = self.fields["final_season"]
        assert isinstance(season_field, forms.TypedChoiceField)
        season_field.choices = [
            ("", _("The top of this tournament's standings")),
            *((pk, _("The qualifiers of the season %(name)s") % {"name": name}) for pk, name in seasons),
        ]
        if info.max_players != 2:
            final_field = self.fields["final"]
            assert isinstance(final_field, forms.ChoiceField)
            final_field.choices = [c for c in Tournament.Final.choices if c[0] != Tournament.Final.KNOCKOUT]
        for name, size in (
            ("table_min", info.min_players),
            ("table_preferred", info.table_preferred),
            ("table_max", info.max_players),
        ):
            field = self.fields[name]
            assert isinstance(field, forms.IntegerField)
            field.min_value, field.max_value = info.min_players, info.max_players
            field.widget.attrs.update(min=info.min_players, max=info.max_players)
            field.initial = size
        self.fields["date"].initial = timezone.localdate()
        self.fields["points"].help_text = table_points_text(info.min_players, info.max_players)
        for name, option in OPTIONS[family].items():
            if not option.derived:
                self.fields[f"opt_{name}"] = option_field(option)
        for i in range(1, len(TIEBREAKS)):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": i},
                choices=[("", _("(none)")), *((k, TIEBREAK_LABELS[k]) for k in TIEBREAKS[1:])],
                required=False,
                initial=DEFAULT_TIEBREAKS[i] if i < len(DEFAULT_TIEBREAKS) else "",
            )

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict[str, object]:
        initial: dict[str, object] = dict(current_settings(tournament))
        initial["final_season"] = tournament.final_season_id or ""
        for name, value in tournament.options.items():
            initial[f"opt_{name}"] = str(value) if not isinstance(value, bool | int) else value
        chosen = [k for k in (tournament.tiebreaks or DEFAULT_TIEBREAKS) if k != "points"]
        for i in range(1, len(TIEBREAKS)):
            initial[f"tiebreak_{i}"] = chosen[i - 1] if i <= len(chosen) else ""
        return initial

    GENERAL = (
        "name",
        "date",
        "rounds",
        "round_hands",
        "round_minutes",
        "table_confirm",
        "seating",
        "seed_by_rating",
        "seat_order",
        "points",
        "custom_points",
    )

    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.GENERAL]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("tiebreak_")]

    def final_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("final", "final_size", "final_counts", "final_season")]

    def release_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("hide_seating", "freeze_rounds", "freeze_final", "frozen_shows")]

    def table_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("table_min", "table_preferred", "table_max", "byes_allowed")]

    def settings(self) -> Settings:
        data = self.cleaned_data
        tiebreaks = ["points"]
        for i in range(1, len(TIEBREAKS)):
            key = data.get(f"tiebreak_{i}")
            if key and key not in tiebreaks:
                tiebreaks.append(key)
        options = {name[4:]: value for name, value in data.items() if name.startswith("opt_")}
        chosen = {"family": self.family, "options": options, "tiebreaks": tiebreaks}
        return Settings.from_mapping({**data, **chosen})

    def add_engine_error(self, error: EngineError) -> None:
        option = error.params.get("option")
        field: str | None = f"opt_{option}" if option is not None and f"opt_{option}" in self.fields else None
        if error.code.startswith("points_custom") or error.code.startswith("points_"):
            field = "custom_points"
        field = _named_field(self, error) or field
        self.add_error(field, error_message(error))


def _named_field(form: forms.Form, error: EngineError) -> str | None:
    """The form's field the error names (its ``field`` parameter), if the form has it."""
    named = error.params.get("field")
    return named if isinstance(named, str) and named in form.fields else None


def _plain_number(value: Fraction) -> str:
    """7, 5.5, 4.67: at most two decimals, in the language's format."""
    rounded = round(float(value), 2)
    return formats.localize(int(rounded) if rounded.is_integer() else rounded)


def table_points_text(smallest: int, largest: int) -> str:
    """The table points by place for each table size the game allows, largest first."""
    sizes = [
        _("%(size)s players: %(points)s")
        % {
            "size": size,
            "points": " · ".join(_plain_number(p) for p in place_points(size, scheme="table")),
        }
        for size in range(largest, max(smallest, 2) - 1, -1)
    ]
    return _("Table points by place: %(sizes)s.") % {"sizes": "; ".join(sizes)}


class VersionedForm(_Write):
    """A write with the version the organiser saw and a request id (see games.club_forms)."""


class StartForm(_Write):
    """Start a round, with its own clock if the organiser wants one other than the settings'."""

    minutes = forms.IntegerField(
        label=_("Minutes on the clock"),
        help_text=_("0: no clock."),
        min_value=0,
        max_value=MAX_MINUTES,
        required=False,  # empty: the tournament's minutes per round
        widget=numeric(),
    )


class DoorForm(_Write):
    """Open or close the self check-in at the door."""

    action = forms.ChoiceField(choices=[("open", "open"), ("close", "close")])


class SelfCheckInForm(forms.Form):
    """A player's tap on his own name at the door (no account, so no version: checking in twice
    is checking in once)."""

    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    entry = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class TableAnswerForm(forms.Form):
    """A player's answer to his table's result from his own link (no account, so no version:
    ``seen``, the sheet he was shown, is what a stale answer is refused by)."""

    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    seen = forms.CharField(max_length=200, widget=forms.HiddenInput)
    answer = forms.ChoiceField(choices=[("confirm", "confirm"), ("dispute", "dispute")])
    word = forms.CharField(
        label=_("What is wrong (a word is enough)"),
        max_length=80,
        required=False,
    )


class EntryActionForm(_Write):
    ACTIONS = ("check_in", "check_out", "drop", "rejoin", "pin")
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    table = forms.IntegerField(required=False, min_value=0, max_value=999)


class AddPlayersForm(forms.Form):
    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    players = forms.MultipleChoiceField(
        label=_("The club's players"), required=False, widget=forms.CheckboxSelectMultiple
    )
    names = forms.CharField(
        label=_("New players"),
        help_text=_("One name per line."),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
    )
    checked_in = forms.BooleanField(label=_("They are here (check them in)"), required=False, initial=True)
    # The new names "did you mean" was asked about (their loose keys): registering again with
    # them unchanged adds them as new players.
    confirmed = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("request_id", uuid.uuid4())
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = choices

    def new_names(self) -> list[str]:
        return [line.strip() for line in (self.cleaned_data.get("names") or "").splitlines() if line.strip()]

    def ask_did_you_mean(self, alike: Mapping[str, Sequence[str]]) -> bool:
        """Ask once, under the new names, about each that reads like a club player's ("Tomas"
        for Tomáš); returns whether anything was asked (then nothing is registered yet)."""
        # Browsers send a hidden field's line breaks back as CR LF: split on any line break.
        asked = {key.strip() for key in (self.cleaned_data.get("confirmed") or "").splitlines()}
        fresh = {name: known for name, known in alike.items() if loose_key(name) not in asked}
        for name, known in fresh.items():
            self.add_error("names", did_you_mean(name, known))
        if fresh:
            # A copy that keeps every ticked player (a QueryDict holds lists).
            data = self.data.copy() if isinstance(self.data, QueryDict) else dict(self.data)
            data["confirmed"] = "\n".join(sorted(asked | {loose_key(n) for n in alike}))
            self.data = data
        return bool(fresh)


class MoveForm(_Write):
    entry = forms.IntegerField(label=_("Player"), min_value=1)
    to_table = forms.IntegerField(label=_("To table"), min_value=0, max_value=999, widget=numeric())


class SeasonForm(forms.Form):
    """A season's settings: which games count and how league points are earned."""

    name = forms.CharField(label=_("Name"), max_length=80)
    starts = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    ends = forms.DateField(
        label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    families = forms.MultipleChoiceField(
        label=_("Games that count"), choices=family_choices, widget=forms.CheckboxSelectMultiple
    )
    counts = forms.ChoiceField(label=_("What counts"), choices=Season.Counts.choices)
    game_points = forms.ChoiceField(label=_("League points per game"), choices=Season.GamePoints.choices)
    tournament_points = forms.ChoiceField(
        label=_("League points per tournament"), choices=Season.TournamentPoints.choices
    )
    custom_points = forms.CharField(
        label=_("Custom points by final place"),
        help_text=_("e.g. 10 8 6 5 4 3 2 1"),
        required=False,
        max_length=MAX_CUSTOM_POINTS,
    )
    best_events = forms.IntegerField(
        label=_("Count only the best events"),
        help_text=_("0: all of them."),
        min_value=0,
        max_value=MAX_EVENTS,
        initial=0,
        widget=numeric(),
    )
    drop_worst = forms.IntegerField(
        label=_("Drop the worst events"), min_value=0, max_value=MAX_EVENTS, initial=0, widget=numeric()
    )
    min_games = forms.IntegerField(
        label=_("Games needed to be ranked"),
        help_text=_("Players with fewer games are listed below the line."),
        min_value=0,
        max_value=MAX_MIN_GAMES,
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        self.fields["starts"].initial = today.replace(month=1, day=1)
        self.fields["ends"].initial = today.replace(month=12, day=31)
        # A menu for every tie-break there is: fewer would drop what the API set.
        keys = [k for k in DEFAULT_LEAGUE_TIEBREAKS if k != "points"]
        for i in range(1, len(LEAGUE_TIEBREAKS)):
            key = keys[i - 1] if i <= len(keys) else ""
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": i},
                choices=[
                    ("", _("(none)")),
                    *((k, LEAGUE_TIEBREAK_LABELS[k]) for k in LEAGUE_TIEBREAKS if k != "points"),
                ],
                required=False,
                initial=key,
            )

    GENERAL = (
        "name",
        "starts",
        "ends",
        "counts",
        "game_points",
        "tournament_points",
        "custom_points",
        "best_events",
        "drop_worst",
        "min_games",
        "qualify",
    )

    def general_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.GENERAL]

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("tiebreak_")]

    @staticmethod
    def initial_from(season: Season) -> dict[str, object]:
        initial: dict[str, object] = dict(current_season_settings(season))
        chosen = [k for k in (season.tiebreaks or DEFAULT_LEAGUE_TIEBREAKS) if k != "points"]
        for i in range(1, len(LEAGUE_TIEBREAKS)):
            initial[f"tiebreak_{i}"] = chosen[i - 1] if i <= len(chosen) else ""
        return initial

    def settings(self) -> SeasonSettings:
        data = self.cleaned_data
        tiebreaks = ["points"]
        for name in self.fields:
            key = data.get(name) if name.startswith("tiebreak_") else None
            if key and key not in tiebreaks:
                tiebreaks.append(key)
        return SeasonSettings.from_mapping({**data, "tiebreaks": tiebreaks})

    def add_engine_error(self, error: EngineError) -> None:
        field = _named_field(self, error)
        if field is None and error.code.startswith("place_points"):
            field = "custom_points"
        self.add_error(field, error_message(error))


LEAGUE_TIEBREAK_LABELS = {
    "points": _("league points"),
    "wins": _("wins"),
    "average_place": _("average place"),
    "games": _("games played"),
    "head_to_head": _("head-to-head"),
}


class ImportForm(forms.Form):
    """A club's exported data, to become a new club."""

    name = forms.CharField(label=_("Name of the new club"), max_length=MAX_CLUB_NAME)
    document = forms.FileField(label=_("The exported file (JSON)"))

    MAX_BYTES = 20 * 1024 * 1024

    def clean_document(self) -> object:
        upload = self.cleaned_data["document"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is too big (at most 20 MB)."))
        try:
            return read_json(upload.read())
        except ValueError:
            raise forms.ValidationError(_("This is not a JSON file exported from a club.")) from None


class PenaltyForm(_Write):
    """A warning or a point penalty for one player, with a reason, off a round's points or the
    tournament's total. The ranges are the service's, so its message stands at the field."""

    entry = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(
        label=_("What"),
        choices=[("warning", _("A warning (no points)")), ("points", _("A point penalty"))],
        widget=forms.RadioSelect,
        initial="warning",
    )
    points = forms.DecimalField(
        label=_("Points taken off"),
        help_text=_("For a point penalty only."),
        required=False,
        max_digits=9,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "any"}),
    )
    round = forms.TypedChoiceField(label=_("Applies to"), coerce=int, required=False, empty_value=None)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=PENALTY_REASON_MAX,
        required=False,  # the service says why it is needed, at the field
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(
        self, *args: Any, players: Sequence[tuple[int, str]], rounds: Sequence[int], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "—"), *players]  # type: ignore[attr-defined]
        self.fields["round"].choices = [  # type: ignore[attr-defined]
            ("", _("The tournament's total")),
            *((n, _("Round %(number)s") % {"number": n}) for n in rounds),
        ]

    def add_engine_error(self, error: EngineError) -> None:
        self.add_error(_named_field(self, error), error_message(error))


class PenaltyUndoForm(_Write):
    penalty = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class ApartForm(_Write):
    """Keep two players at different tables (``keep``) or let them meet again (``end``)."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("Must not sit with"), coerce=int)
    action = forms.ChoiceField(
        choices=[("keep", "keep"), ("end", "end")], initial="keep", widget=forms.HiddenInput
    )

    def __init__(self, *args: Any, choices: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = [("", "—"), *choices]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("first") is not None and cleaned.get("first") == cleaned.get("second"):
            self.add_error("second", _("Choose two different players."))
        return cleaned
