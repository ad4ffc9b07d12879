"""Forms: starting a game (house rules, players) and recording a hand, per rule family.

A hand form turns what the scorer typed or tapped into the scoring package's outcome dict,
and puts each engine or scoring error back at the field that caused it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.core.validators import RegexValidator
from django.http import QueryDict
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.errors import EngineError
from engine.notation import Notation, in_codes, in_notation, notation_for
from engine.rules import OPTIONS, Option, RuleSet, rule_set
from games.families import said, words
from games.models import Club
from games.services.errors import ServiceError
from games.services.games import CLOCK_SLACK
from games.services.players import check_name
from games.text.errors import error_message
from games.text.names import MAX_NAME, loose_key
from games.web.input import read_json
from scoring.families import family_info
from scoring.roles import unstated_roles

GIN_HAND = 10  # cards in a gin hand: two such hands are scored with layoffs by the engine
ASCII_NUMBER = RegexValidator(r"\A[0-9]+\Z", _("Not a plain number."))


class AnswerRadios(forms.RadioSelect):
    """Radios that check nothing until a choice is made: an unanswered field (None) does not
    check the "Nobody" choice, whose value is the empty text (as RadioSelect would)."""

    def format_value(self, value: Any) -> list[str]:
        return [] if value is None else super().format_value(value)


def numeric(**attrs: object) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*", **attrs})


def option_label(option: Option) -> Any:
    """What a player calls the house rule (marked where the option is declared), translated
    when shown; its name when it has no label."""
    return said(option.label) if option.label else option.name


def choice_label(option: Option, value: object) -> Any:
    """A choice of the house rule as shown, translated when shown; its value without a label."""
    label = option.choice_label(value)
    return said(label) if label is not None else str(value)


def option_field(option: Option) -> forms.Field:
    label = option_label(option)
    # data-default: the rule's default, which static/js/seats.js compares with the value to
    # keep the house rules' one-line summary of what differs up to date.
    if isinstance(option.default, bool):
        default = "1" if option.default else "0"
        return forms.BooleanField(
            label=label,
            required=False,
            initial=option.default,
            widget=forms.CheckboxInput(attrs={"data-default": default}),
        )
    if option.choices:
        choices = [(str(c), choice_label(option, c)) for c in option.choices]
        return forms.ChoiceField(
            label=label,
            choices=choices,
            initial=str(option.default),
            widget=forms.Select(attrs={"data-default": str(option.default)}),
        )
    return forms.IntegerField(
        label=label,
        initial=option.default,
        min_value=option.minimum,
        max_value=option.maximum,
        widget=numeric(**{"data-default": str(option.default)}),
    )


def option_shown(field: forms.BoundField) -> str | None:
    """How a house rule reads in the one-line summary when it differs from its default
    ("Gin bonus: 20"); None when it is the default. Values as typed (a form shown again)."""
    default = field.field.widget.attrs.get("data-default")
    value = field.value()
    if isinstance(field.field, forms.BooleanField):
        on = bool(value)
        if ("1" if on else "0") == default:
            return None
        return f"{field.label}: {gettext('yes') if on else gettext('no')}"
    text = "" if value is None else str(value).strip()
    if text == default:
        return None
    if isinstance(field.field, forms.ChoiceField):
        text = str(dict(field.field.choices).get(text, text))  # type: ignore[arg-type]
    return f"{field.label}: {text}"


def did_you_mean(name: str, known: Sequence[str]) -> str:
    """The question asked once before ``name`` becomes a new player when the roster has names
    that read alike (``known``)."""
    return ngettext(
        "Did you mean %(known)s? Choose that name, or save again to add %(name)s as a new player.",
        "Did you mean one of %(known)s? Choose one, or save again to add %(name)s as a new player.",
        len(known),
    ) % {"known": ", ".join(known), "name": name}


DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


def played_at_field(*, required: bool) -> forms.DateTimeField:
    """When a game was played, to the minute, in the site's time zone (never in the future)."""
    return forms.DateTimeField(
        label=_("Played on"),
        required=required,
        input_formats=[DATETIME_LOCAL, "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(
            format=DATETIME_LOCAL,
            attrs={"type": "datetime-local"},
        ),
        help_text=_("Leave it for a game played now; a score sheet typed in later takes its evening's date."),
    )


def check_played_at(value: Any) -> Any:
    """The form's date of play, refused at the field when it is in the future."""
    if value is not None and value > timezone.now() + CLOCK_SLACK:
        raise forms.ValidationError(_("A game cannot be played in the future: choose a time before now."))
    return value


class GameDateForm(forms.Form):
    """Change when a game was played; ``shown`` is the date the form was drawn with (another
    phone's change meanwhile is then noticed)."""

    played_at = played_at_field(required=True)
    shown = forms.CharField(widget=forms.HiddenInput)
    request_id = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["played_at"].help_text = ""
        self.fields["played_at"].widget.attrs["max"] = timezone.localtime().strftime(DATETIME_LOCAL)

    def clean_played_at(self) -> Any:
        return check_played_at(self.cleaned_data.get("played_at"))


class NewGameForm(forms.Form):
    """House rules of one family (defaults from RULES.md) and the players in seat order."""

    club = forms.ChoiceField(
        label=_("Where does this game count?"),
        required=False,
        error_messages={
            "invalid_choice": _(
                "You cannot start games for this club (any more). Choose another club, or your own game."
            )
        },
    )
    # The new names the "did you mean" question was asked about (their loose keys): saving
    # again with them unchanged creates the new players.
    confirmed = forms.CharField(required=False, widget=forms.HiddenInput)
    played_at = played_at_field(required=False)

    def __init__(self, *args: Any, family: str, clubs: Sequence[Club] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["played_at"].widget.attrs["max"] = timezone.localtime().strftime(DATETIME_LOCAL)
        self.family = family
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ChoiceField)
        club_field.choices = [("", _("My own game (no club)")), *((c.slug, c.name) for c in clubs)]
        if not clubs:
            self.fields["club"].widget = forms.HiddenInput()
        for name, option in OPTIONS[family].items():
            if not option.derived:  # set from something else (Carousel's decks: the players)
                self.fields[f"opt_{name}"] = option_field(option)
        self.seats = rule_set(family).max_players
        for i in range(1, self.seats + 1):
            self.fields[f"player_{i}"] = forms.CharField(
                label=_("Seat %(number)s") % {"number": i},
                required=False,
                max_length=MAX_NAME,
                widget=forms.TextInput(attrs={"list": "recent-players", "autocomplete": "off"}),
                error_messages={
                    "max_length": _(
                        "A name can have at most %(limit_value)d characters (this one has %(show_value)d)."
                    )
                },
            )
        # Each seat by the name typed there (a form shown again; seats.js relabels as names
        # are typed), an empty seat by its number.
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("First dealer"),
            coerce=int,
            choices=[(i, self._seat_name(i + 1)) for i in range(self.seats)],
            initial=0,
            widget=forms.Select(attrs={"data-seat-label": _("Seat %(number)s") % {"number": "%s"}}),
        )

    def _seat_name(self, seat: int) -> str:
        typed = self.data.get(f"player_{seat}") if self.is_bound else None
        name = " ".join(typed.split()) if isinstance(typed, str) else ""
        return name[:MAX_NAME] or str(_("Seat %(number)s") % {"number": seat})

    def house_rules_changed(self) -> list[str]:
        """The house rules that differ from the defaults, as the summary lists them."""
        return [shown for field in self.option_fields() if (shown := option_shown(field)) is not None]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def player_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("player_")]

    def options(self) -> dict[str, object]:
        return {name[4:]: value for name, value in self.cleaned_data.items() if name.startswith("opt_")}

    def _filled(self) -> list[int]:
        """The seats (1-based) with a name, in seating order."""
        return [i for i in range(1, self.seats + 1) if (self.cleaned_data.get(f"player_{i}") or "").strip()]

    def players(self) -> list[str]:
        """The names in seating order; empty seats are closed up (tapping a name off the roster
        can leave a gap)."""
        return [self.cleaned_data[f"player_{i}"] for i in self._filled()]

    def first_dealer(self) -> int:
        """The dealer's index among :meth:`players`: the chosen seat's player, or the next
        seated player after an empty chosen seat."""
        filled = self._filled()
        chosen = int(self.cleaned_data.get("first_dealer") or 0) + 1
        later = [index for index, seat in enumerate(filled) if seat >= chosen]
        return later[0] if later else 0

    def clean_played_at(self) -> Any:
        return check_played_at(self.cleaned_data.get("played_at"))

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        for i in range(1, self.seats + 1):
            value = self.cleaned_data.get(f"player_{i}") or ""
            if f"player_{i}" not in self.errors and value.strip():
                try:
                    self.cleaned_data[f"player_{i}"] = check_name(value)
                except EngineError as error:
                    self.add_error(f"player_{i}", error_message(error))
        return cleaned

    def ask_did_you_mean(self, alike: Mapping[str, Sequence[str]]) -> bool:
        """Put "did you mean" at each seat whose new name reads like a known player's, unless
        it was asked already for this very name. Returns whether anything was asked."""
        asked = set(self.cleaned_data.get("confirmed", "").split("\n"))
        fresh = {name: names for name, names in alike.items() if loose_key(name) not in asked}
        if not fresh:
            return False
        for i in range(1, self.seats + 1):
            name = self.cleaned_data.get(f"player_{i}") or ""
            if name in fresh:
                self.add_error(f"player_{i}", did_you_mean(name, fresh[name]))
        data = dict(self.data.items())
        data["confirmed"] = "\n".join(sorted(asked | {loose_key(n) for n in alike}))
        self.data = data
        return True

    def add_engine_error(self, error: EngineError) -> None:
        option = error.params.get("option")
        named = error.params.get("field")
        field = f"opt_{option}" if option is not None and f"opt_{option}" in self.fields else None
        if isinstance(named, str) and named in self.fields:
            field = named
        self.add_error(field, error_message(error))


def _shown_players(value: object) -> list[str] | None:
    """The player list a form was shown with (its hidden ``dealt_in`` field), if readable."""
    try:
        names = read_json(value) if isinstance(value, str) and value else None
    except ValueError:
        return None
    if isinstance(names, list) and all(isinstance(name, str) for name in names):
        return names
    return None


class HandForm(forms.Form):
    """One hand of one family. ``players`` are the players dealt in (eliminated ones are not);
    ``seating`` is every seat of the game, in order.

    Per-player fields are numbered by seat, which never changes, so a count always stays with
    its player. The form also carries the list of players it was shown with: if that changed
    before it was sent (another phone saved a hand that put someone out), it is refused once
    with a message and shown again for the players now dealt in.

    ``missing``: players whose count the corrected hand misses (recorded while they were out);
    their count may stay empty, and stays missing then. Every other count is required."""

    hint_missing = True  # say at a missing count's field that it may stay empty
    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    # A plain ASCII number (not "١٢" or "+3", which int() would take): the hand's version.
    version = forms.CharField(
        required=False, max_length=9, validators=[ASCII_NUMBER], widget=forms.HiddenInput
    )
    dealt_in = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        data: QueryDict | dict[str, Any] | None = None,
        *args: Any,
        rules: RuleSet,
        players: Sequence[str],
        seating: Sequence[str],
        missing: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        self.rules = rules
        self.players = list(players)
        self.seat = {name: seating.index(name) for name in self.players}
        self.may_miss = [name for name in self.players if name in missing]
        self.shown_with: list[str] | None = None
        if data is not None:
            key = f"{kwargs['prefix']}-dealt_in" if kwargs.get("prefix") else "dealt_in"
            shown = _shown_players(data.get(key))
            if shown is not None and shown != self.players:
                self.shown_with = shown
            data = data.copy()
            data[key] = json.dumps(self.players)  # shown again, the form is current
        super().__init__(data, *args, **kwargs)
        self.fields["dealt_in"].initial = json.dumps(self.players)
        info = family_info(rules.family)
        self.info = info
        people = [(name, name) for name in self.players]
        for role in info.words.roles:
            # No choice is made for the scorer, "Nobody" included: a forgotten choice must not
            # score (the rule is checked in clean()).
            nobody = [] if info.role_required else [("", said(role.nobody) if role.nobody else _("Nobody"))]
            self.fields[role.name] = self._role(
                said(role.question), [*nobody, *people], required=info.role_required
            )
        for flag in info.words.flags:
            if flag.option is not None and not rules.opt_bool(flag.option):
                continue  # offered only under its house rule
            self.fields[flag.name] = forms.BooleanField(label=said(flag.label), required=False)
            if flag.empties:  # static/js/hand_form.js: the player whose count may then stay empty
                self.fields[flag.name].widget.attrs["data-empties"] = info.emptied_role
        for name, i in self.seat.items():
            self.fields[f"points_{i}"] = forms.IntegerField(
                label=_("%(name)s: points") % {"name": name}, required=False, min_value=0, widget=numeric()
            )
            self.fields[f"cards_{i}"] = forms.CharField(
                label=_("%(name)s: tiles left") % {"name": name}
                if rules.tiles
                else _("%(name)s: cards left") % {"name": name},
                required=False,
                max_length=300,
                widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
            )
            if rules.options.get("credit_laid_down") is True:
                self.fields[f"laid_{i}"] = forms.CharField(
                    label=_("%(name)s: laid down (points or melds)") % {"name": name},
                    required=False,
                    max_length=300,
                )
        if info.declares_melds:
            self.fields["melds"] = forms.CharField(
                label=_("Knocker's melds (with cards)"),
                required=False,
                max_length=300,
                help_text=_(
                    "Only with both whole hands (10 cards each) tapped in above; otherwise leave it "
                    "empty. Melds separated by |, e.g. 7H 8H 9H | KS KD KC"
                ),
            )

    def clean_version(self) -> int | None:
        value = self.cleaned_data.get("version") or ""
        return int(value) if value else None

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        hidden = ("request_id", "version", "dealt_in", "for_hand")
        if any(self[name].errors for name in hidden if name in self.fields):
            # Hidden fields are not shown, so their errors would go unseen: say it above the form.
            self.add_error(None, error_message(ServiceError("form_damaged", "a hidden field is malformed")))
        for name in self.unanswered_roles():
            role = self.info.words.role(name)
            self.add_error(name, said(role.unanswered) if role and role.unanswered else _("Choose one."))
        if self.shown_with is not None:
            raise forms.ValidationError(
                _(
                    "The players of this hand changed since the form was shown (a hand saved meanwhile "
                    "put someone out, or brought someone back). Check the counts and save again."
                )
            )
        return cleaned

    def unanswered_roles(self) -> list[str]:
        """The roles with a "Nobody" choice that were left unanswered while none of the roles
        names a player (then they are all answered: one player knocked or went out)."""
        if self.info.role_required or not all(role in self.fields for role in self.info.roles):
            return []  # a required role is checked by its field; a form without roles asks none
        given = {role: self[role].data for role in self.info.roles}
        return unstated_roles(self.info, {role: value for role, value in given.items() if value is not None})

    @staticmethod
    def _role(label: Any, choices: list[tuple[str, Any]], *, required: bool = True) -> forms.ChoiceField:
        return forms.ChoiceField(label=label, choices=choices, widget=AnswerRadios, required=required)

    def flag_rows(self) -> list[tuple[forms.BoundField, object]]:
        """Each flag's field with what is said under it (or None): the form's role and count
        fields follow from it."""
        return [(field, self._hint(field.name)) for field in self.flag_fields()]

    def _hint(self, name: str) -> object:
        flag = self.info.words.flag(name)
        return said(flag.hint) if flag is not None and flag.hint else None

    # ---------------------------------------------------------------- layout helpers

    def role_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.info.roles]

    def flag_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.info.flags if n in self.fields]

    def player_rows(
        self,
    ) -> list[tuple[int, str, forms.BoundField, forms.BoundField, forms.BoundField | None]]:
        return [
            (
                i,
                name,
                self[f"points_{i}"],
                self[f"cards_{i}"],
                self[f"laid_{i}"] if f"laid_{i}" in self.fields else None,
            )
            for name, i in self.seat.items()
        ]

    # ---------------------------------------------------------------- outcome <-> form

    @property
    def notation(self) -> Notation:
        """The letters the cards fields read: the page's language's (docs/design/notation.md)."""
        return notation_for(get_language())

    def _in_codes(self, field: str, text: str) -> str:
        """``text`` typed in the page's letters, in the canonical codes the record keeps; a
        token that reads as no card is refused at ``field`` (outcome() then returns None)."""
        try:
            return in_codes(text, self.rules, self.notation)
        except EngineError as error:
            self.add_error(field, error_message(error))
            return text

    def _count(self, i: int) -> int | str | None:
        cards = (self.cleaned_data.get(f"cards_{i}") or "").strip()
        if cards:
            return self._in_codes(f"cards_{i}", cards)
        points: int | None = self.cleaned_data.get(f"points_{i}")
        return points

    def outcome(self) -> dict[str, object] | None:
        """The outcome dict for scoring, or None (with field errors added) when a count is missing."""
        data = self.cleaned_data
        info = self.info
        emptied = data.get(info.emptied_role) or None  # the player whose hand is empty by definition
        emptied_by_flag = any(data.get(flag.name) for flag in info.words.flags if flag.empties)
        counts: dict[str, int | str] = {}
        missing: list[str] = []
        for name, i in self.seat.items():
            count = self._count(i)
            if count is None and name == emptied and emptied_by_flag:
                count = 0  # gin: the knocker has no deadwood, nothing to type
            if count is None:
                if name == emptied and not info.declares_melds:
                    continue
                if name in self.may_miss:
                    missing.append(name)
                    continue
                self.add_error(f"points_{i}", _("Enter the points, or tap the cards left."))
            else:
                counts[name] = count
        if self.errors:
            return None
        outcome: dict[str, object] = {role: data.get(role) or None for role in info.roles}
        if missing:
            outcome["missing"] = missing
        for flag in info.words.flags:
            if flag.name in self.fields and (data.get(flag.name) or flag.option is None):
                outcome[flag.name] = bool(data.get(flag.name))
        if info.declares_melds:
            melds = self._in_codes("melds", (data.get("melds") or "").strip())
            if self.errors:
                return None
            if all(
                isinstance(c, str) and len(c.replace(",", " ").split()) == GIN_HAND for c in counts.values()
            ):
                # Both whole hands: the engine finds the deadwood and the layoffs.
                outcome["hands"] = counts
                if melds:
                    outcome["melds"] = melds
            else:
                # Points, or just the unmatched cards, which the engine values.
                outcome["deadwood"] = counts
                if melds:
                    self.add_error(
                        "melds", _("Melds are checked only when both whole hands (10 cards) are given.")
                    )
                    return None
        else:
            outcome["left"] = counts
            laid = {
                name: self._in_codes(f"laid_{i}", (data.get(f"laid_{i}") or "").strip())
                for name, i in self.seat.items()
            }
            if self.errors:
                return None
            if any(laid.values()):
                outcome["laid"] = {name: value for name, value in laid.items() if value}
        return outcome

    @staticmethod
    def initial_from(
        outcome: Mapping[str, Any], seating: Sequence[str], rules: RuleSet | None = None
    ) -> dict[str, object]:
        """Form values that reproduce a stored outcome (for corrections); ``seating`` is every
        seat of the game, in order. With ``rules``, cards are written in the page's letters,
        as the fields read them."""
        notation = notation_for(get_language()) if rules is not None else None

        def typed(text: str) -> str:
            return in_notation(text, rules, notation) if rules is not None else text

        initial: dict[str, object] = {}
        vocabulary = words(rules.family if rules is not None else None)
        for role in vocabulary.roles:
            if role.name in outcome:
                initial[role.name] = outcome[role.name] or ""
        for flag in vocabulary.flags:
            if flag.name in outcome:
                initial[flag.name] = bool(outcome[flag.name])
        if outcome.get("melds"):
            initial["melds"] = typed(str(outcome["melds"]))
        counts: Mapping[str, Any] = (
            outcome.get("left") or outcome.get("deadwood") or outcome.get("hands") or {}
        )
        laid: Mapping[str, Any] = outcome.get("laid") or {}
        for i, name in enumerate(seating):
            value = counts.get(name)
            if isinstance(value, str):
                initial[f"cards_{i}"] = typed(value)
            elif value is not None:
                initial[f"points_{i}"] = value
            if name in laid:
                initial[f"laid_{i}"] = typed(laid[name]) if isinstance(laid[name], str) else laid[name]
        return initial

    def add_engine_error(self, error: EngineError) -> None:
        """Put an engine or scoring error at the field that caused it."""
        message = error_message(error)
        player = error.params.get("player")
        field = error.params.get("field")
        target: str | None = None
        if isinstance(player, str) and player in self.seat:
            i = self.seat[player]
            if field == "laid" and f"laid_{i}" in self.fields:
                target = f"laid_{i}"
            elif field == "melds":
                target = "melds"
            else:
                target = (
                    f"cards_{i}" if (self.cleaned_data.get(f"cards_{i}") or "").strip() else f"points_{i}"
                )
        elif isinstance(field, str) and field in self.fields:
            target = field
        self.add_error(target, message)


class NewHandForm(HandForm):
    """A hand to record: a :class:`HandForm` that also carries ``for_hand``, the game's
    ``next_hand_number`` when the form was drawn, so that a hand another phone recorded
    meanwhile is noticed instead of this one silently becoming the hand after it."""

    for_hand = forms.CharField(
        required=False, max_length=9, validators=[ASCII_NUMBER], widget=forms.HiddenInput
    )

    def clean_for_hand(self) -> int | None:
        value = self.cleaned_data.get("for_hand") or ""
        return int(value) if value else None


class MissingCountsForm(HandForm):
    """The counts one hand misses: a :class:`HandForm` with only the fields of the players
    whose count is missing (a correction brought them back into a hand recorded without them).
    Used once per hand on the page that fills them in, prefixed ``h<hand number>``; a field
    left empty stays missing."""

    hint_missing = False  # the page says it once for every field

    def __init__(self, data: QueryDict | dict[str, Any] | None = None, *, number: int, **kwargs: Any) -> None:
        players = kwargs["players"]
        super().__init__(data, prefix=f"h{number}", missing=players, **kwargs)
        self.number = number
        for name in [*self.info.roles, *self.info.flags, "melds"]:
            self.fields.pop(name, None)

    def role_fields(self) -> list[forms.BoundField]:
        return []

    def flag_fields(self) -> list[forms.BoundField]:
        return []

    def filled(self) -> tuple[dict[str, int | str], dict[str, str]]:
        """The counts typed (player -> points or cards) and what they laid down, if asked."""
        left: dict[str, int | str] = {}
        laid: dict[str, str] = {}
        for name, i in self.seat.items():
            count = self._count(i)
            if count is not None:
                left[name] = count
                value = (self.cleaned_data.get(f"laid_{i}") or "").strip()
                if value:
                    laid[name] = value
        return left, laid

    @staticmethod
    def shown(data: QueryDict, number: int) -> list[str] | None:
        """The players the form of hand ``number`` was shown with, as posted (None if unreadable)."""
        return _shown_players(data.get(f"h{number}-dealt_in"))


class EveningForm(forms.Form):
    """Put a game in this game's evening, or take one out (games.services.evening)."""

    action = forms.ChoiceField(choices=[("join", "join"), ("part", "part")])
    game = forms.CharField(max_length=16)
    request_id = forms.UUIDField(required=False)
