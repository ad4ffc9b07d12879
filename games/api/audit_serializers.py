"""The audit log, sessions and reset-link resources' shapes (games/api/audit.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework import serializers

from games.api.common import SiteLink
from games.models import AuditEntry, ResetLink, UserSession
from games.services.resets import reset_link_path


class AuditEntrySerializer(serializers.ModelSerializer[AuditEntry]):
    actor = serializers.CharField(
        source="actor_name", help_text="The user name of who did it ('' if unknown)."
    )
    description = serializers.CharField(source="get_action_display", help_text="The action in words.")

    class Meta:
        model = AuditEntry
        fields = ["id", "created_at", "action", "description", "actor", "target", "address", "data"]


@dataclass(frozen=True)
class IssuedLink:
    """A reset link as made: its row and its token, which no later read can give back."""

    link: ResetLink
    token: str

    @property
    def path(self) -> str:
        return reset_link_path(self.token)


class ResetLinkSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="link.user.username")
    url = SiteLink(source="path", help_text="The link to hand over: it is shown only in this answer.")
    expires_at = serializers.DateTimeField(source="link.expires_at")


class SessionSerializer(serializers.ModelSerializer[UserSession]):
    current = serializers.SerializerMethodField(help_text="This is the session making the request.")

    class Meta:
        model = UserSession
        fields = ["id", "user_agent", "address", "created_at", "last_seen", "current"]

    def get_current(self, row: UserSession) -> bool:
        return bool(row.session_key == self.context.get("current"))


class EndedSerializer(serializers.Serializer[Any]):
    # Reads the count itself, as the service answers it.
    ended = serializers.IntegerField(source="*", help_text="How many sessions were ended.")
