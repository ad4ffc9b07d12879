"""Forms of the club pages: a new club, its settings, invites, roles, renames and merges.

Each form only reads what was typed; the services check it and raise coded errors, which
``put_error`` places at the field they name (or above the form).
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from engine.errors import EngineError
from games.forms import ASCII_NUMBER
from games.models import ApiToken, Club, Membership, Player
from games.services.clubs import INVITE_DAYS, MAX_CLUB_NAME, MAX_INACTIVE_DAYS, MAX_PROVISIONAL_GAMES
from games.services.errors import ServiceError
from games.services.players import check_name
from games.text.collation import by_name
from games.text.errors import error_message
from games.text.names import MAX_NAME


def put_error(form: forms.Form, error: EngineError) -> None:
    """A service's error at the field it names, else above the form."""
    field = error.params.get("field")
    form.add_error(field if isinstance(field, str) and field in form.fields else None, error_message(error))


class _Write(forms.Form):
    """A recorded change: a request id (resends are answered once) and the version shown."""

    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    # Required, as for hand corrections: without it two organisers' changes would both land.
    version = forms.CharField(max_length=9, validators=[ASCII_NUMBER], widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("request_id", uuid.uuid4())
        super().__init__(*args, **kwargs)

    def clean_version(self) -> int:
        return int(self.cleaned_data["version"])

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if self["request_id"].errors or self["version"].errors:
            self.add_error(None, error_message(ServiceError("form_damaged", "a hidden field is malformed")))
        return cleaned


class ClubForm(forms.Form):
    name = forms.CharField(
        label=_("Club name"),
        max_length=MAX_CLUB_NAME,
        error_messages={"max_length": _("At most %(limit_value)d characters (this has %(show_value)d).")},
    )


class ClubSettingsForm(ClubForm):
    slug = forms.CharField(
        label=_("Address"),
        max_length=50,
        help_text=_("Part of the club page's link: letters, digits and hyphens."),
    )
    visibility = forms.ChoiceField(label=_("Who sees the club"), choices=Club.Visibility.choices)
    provisional_games = forms.IntegerField(
        label=_("Provisional rating under this many rated games"),
        min_value=0,
        max_value=MAX_PROVISIONAL_GAMES,
        required=False,  # left out: kept as it is
        help_text=_("The rating list marks such a rating provisional (0: never)."),
    )
    inactive_days = forms.IntegerField(
        label=_("Inactive after this many days without a game"),
        min_value=0,
        max_value=MAX_INACTIVE_DAYS,
        required=False,
        help_text=_("The rating list marks such a player inactive (0: never)."),
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)


class InviteForm(forms.Form):
    days = forms.TypedChoiceField(
        label=_("The link expires"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[
            ("", _("when revoked")),
            # The number names the key, so the label is translated when shown, not at import.
            *(
                (str(d), ngettext_lazy("after %(days)d day", "after %(days)d days", "days") % {"days": d})
                for d in INVITE_DAYS
            ),
        ],
    )


class RoleForm(_Write):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)


class RenameForm(_Write):
    name = forms.CharField(
        label=_("New name"),
        max_length=MAX_NAME,
        error_messages={
            "max_length": _(
                "A name can have at most %(limit_value)d characters (this one has %(show_value)d)."
            )
        },
    )


class MergeForm(_Write):
    """Merge the player shown (``drop``) into another of the club's players (``keep``)."""

    keep = forms.ModelChoiceField(label=_("Merge into"), queryset=Player.objects.none())

    def __init__(self, *args: Any, drop: Player, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep = self.fields["keep"]
        assert isinstance(keep, forms.ModelChoiceField)
        keep.queryset = (
            Player.objects.filter(club=drop.club_id, merged_into=None).exclude(pk=drop.pk).order_by("key")
        )
        keep.empty_label = _("Choose the player to keep")
        # Listed by name in the reader's language; the queryset still checks the choice.
        players = sorted(keep.queryset, key=lambda p: by_name(p.name))
        keep.choices = [("", keep.empty_label), *((p.pk, keep.label_from_instance(p)) for p in players)]


class AccountForm(forms.Form):
    """The name a user is shown under to the people he plays with (blank: his user name)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=MAX_NAME,
        required=False,
        help_text=_("Shown in the history of the games you record, to those who may edit them."),
    )

    # Shown only when the site sends e-mail (settings.EMAIL_ENABLED): where a reset link goes.
    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("Only for a forgotten password: the link to set a new one is sent here."),
    )

    def clean_display_name(self) -> str:
        value = self.cleaned_data.get("display_name") or ""
        if not value.strip():
            return ""
        try:
            return check_name(value)
        except EngineError as error:
            raise forms.ValidationError(error_message(error)) from None


class LoginForm(AuthenticationForm):
    """Django's login form, which shows the username's length limit but never checks it (it is
    set after the field is made): a longer name is a field error, not an attempt to log in."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(getattr(field, "max_length", None) or 150))


class SignupForm(UserCreationForm[User]):
    """A new account: a user name and a password (an invite link needs an account)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)


class TokenForm(forms.Form):
    """A new API token: a name to tell it apart, and what it may do."""

    name = forms.CharField(label=_("Name of the token"), max_length=60, help_text=_("e.g. club scoreboard"))
    scope = forms.ChoiceField(label=_("It may"), choices=ApiToken.Scope.choices, initial=ApiToken.Scope.READ)
