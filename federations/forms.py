"""Forms of the federation organisers' pages. They read what was typed; the services check it
and raise coded errors, which ``put_error`` places at the field they name (or above the form)."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.utils.translation import gettext_lazy as _

from federations.models import Federation
from federations.services.federations import (
    MAX_INACTIVE_DAYS,
    MAX_NAME,
    MAX_PREFIX,
    MAX_PROVISIONAL_GAMES,
    Settings,
)
from games.club_forms import _Write, put_error
from games.forms import numeric
from games.models import Club
from games.text.names import MAX_NAME as MAX_PERSON_NAME
from games.web.input import read_json

__all__ = ["put_error"]
DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class _Once(forms.Form):
    """A recorded change without a version: a request id, so that a resend changes nothing twice."""

    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("request_id", uuid.uuid4())
        super().__init__(*args, **kwargs)


class FederationForm(_Once):
    name = forms.CharField(label=_("Federation name"), max_length=MAX_NAME)
    id_prefix = forms.CharField(
        label=_("Prefix of the register's ids"),
        max_length=MAX_PREFIX,
        required=False,
        help_text=_('Up to six capital letters or digits: "CZ" makes ids like CZ-00042.'),
    )


class SettingsForm(_Write):
    name = forms.CharField(label=_("Federation name"), max_length=MAX_NAME)
    slug = forms.CharField(
        label=_("Address"), max_length=50, help_text=_("The end of the federation page's address, after /f/.")
    )
    visibility = forms.ChoiceField(label=_("Who sees the federation"), choices=Federation.Visibility.choices)
    counts = forms.ChoiceField(label=_("What counts"), choices=Federation.Counts.choices)
    id_prefix = forms.CharField(
        label=_("Prefix of the register's ids"), max_length=MAX_PREFIX, required=False
    )
    provisional_games = forms.IntegerField(
        label=_("Rated games before a rating is settled"),
        min_value=0,
        max_value=MAX_PROVISIONAL_GAMES,
        widget=numeric(),
    )
    inactive_days = forms.IntegerField(
        label=_("Days without a game before a player is inactive"),
        min_value=0,
        max_value=MAX_INACTIVE_DAYS,
        widget=numeric(),
    )

    @staticmethod
    def initial_from(federation: Federation) -> dict[str, Any]:
        return {**Settings.of(federation).__dict__, "version": federation.version}

    def settings(self) -> Settings:
        data = self.cleaned_data
        return Settings(
            name=data["name"],
            slug=data["slug"],
            visibility=data["visibility"],
            counts=data["counts"],
            id_prefix=data["id_prefix"] or "",
            provisional_games=data["provisional_games"],
            inactive_days=data["inactive_days"],
        )


class OrganiserForm(_Once):
    username = forms.CharField(label=_("Account name"), max_length=150)


def club_slug(raw: str) -> str:
    """A club's slug from what an organiser pastes: the slug itself or the club page's address
    (``https://…/cs/c/<slug>/…``)."""
    text = raw.strip()
    path = urlsplit(text).path if "/" in text else text
    parts = [p for p in path.split("/") if p]
    if "c" in parts and parts.index("c") + 1 < len(parts):
        return parts[parts.index("c") + 1]
    return parts[-1] if parts else ""


class InviteForm(_Once):
    club = forms.CharField(
        label=_("The club's address"),
        max_length=300,
        help_text=_("Its page's address, or the end of it after /c/."),
    )
    counts_from = forms.DateField(
        label=_("Count its games from"),
        required=False,
        widget=DATE,
        help_text=_("Empty: from the day the club accepts."),
    )

    def clean_club(self) -> str:
        return club_slug(self.cleaned_data["club"])


class EndForm(_Write):
    membership = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)


class _PersonFields(forms.Form):
    name = forms.CharField(label=_("Full name"), max_length=MAX_PERSON_NAME)
    home_club = forms.ModelChoiceField(
        label=_("Home club"), queryset=Club.objects.none(), required=False, empty_label=_("none")
    )

    def __init__(self, *args: Any, clubs: list[Club] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["home_club"]
        assert isinstance(field, forms.ModelChoiceField)
        # The member clubs, read once by the page's selector; a club no longer a member is
        # refused by the service at the field.
        field.queryset = Club.objects.filter(pk__in=[c.pk for c in clubs or []]).order_by("name", "pk")
        field.choices = [("", _("none")), *[(c.pk, c.name) for c in clubs or []]]


class PersonAddForm(_PersonFields, _Once):
    pass


class PersonEditForm(_PersonFields, _Write):
    pass


class MergeForm(_Once):
    source = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    into = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    source_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=2**31 - 1)
    into_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=2**31 - 1)


class UndoForm(_Once):
    change = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**63 - 1)


class ImportForm(forms.Form):
    """A federation's exported records, to become a new federation. No request id: as a club's
    import, a resend makes a second one (nothing of it is kept to recognise it)."""

    document = forms.FileField(label=_("The exported file (JSON)"))

    MAX_BYTES = 20 * 1024 * 1024

    def clean_document(self) -> object:
        upload = self.cleaned_data["document"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is too big (at most 20 MB)."))
        try:
            return read_json(upload.read())
        except ValueError:
            raise forms.ValidationError(_("This is not a JSON file exported from a federation.")) from None
