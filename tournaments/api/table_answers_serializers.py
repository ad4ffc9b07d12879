"""A table's answers (confirmed, disputed) as the API answers and takes them: a player's own
table, a round's tables for the organisers."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.services.table_answers import MAX_WORD


# Reads a ``selectors.table_answers.SheetSeat``.
class SheetSeatSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField()
    total = serializers.IntegerField(allow_null=True, help_text="His total at the table; null: no hand yet.")
    disputes = serializers.CharField(source="word", help_text="His dispute's word; empty: none.")


# Reads a ``table_answers.Agreement``.
class AgreementSerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(
        choices=["confirmed", "waiting", "disputed"],
        help_text="confirmed (by every player, for the sheet as it is now), waiting or disputed.",
    )
    agreed = serializers.IntegerField(help_text="Players whose confirmation counts.")
    players = serializers.IntegerField()


# Reads a ``selectors.table_answers.PlayerAnswer``.
class PlayerAnswerSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    final_stage = serializers.IntegerField()
    table = serializers.IntegerField()
    finished = serializers.BooleanField(help_text="Only a finished table's totals can be confirmed.")
    seen = serializers.CharField(
        source="tag", help_text="The sheet shown (hands and totals): send it back with the answer."
    )
    seats = SheetSeatSerializer(many=True)
    mine = serializers.ChoiceField(
        source="state",
        choices=["none", "confirmed", "disputed", "changed"],
        help_text="His answer to the sheet as it is now; changed: it was given for another sheet.",
    )
    agreement = AgreementSerializer()


class OwnSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    table_confirm = serializers.BooleanField(help_text="Whether the tournament asks the tables.")
    table = PlayerAnswerSerializer(
        allow_null=True, help_text="His table in the round being played; null: none (or not asked)."
    )


class AnswerSerializer(serializers.Serializer[Any]):
    answer = serializers.ChoiceField(choices=["confirm", "dispute"])
    seen = serializers.CharField(max_length=200, help_text="The sheet answered: the GET's table.seen.")
    word = serializers.CharField(
        max_length=MAX_WORD, required=False, default="", allow_blank=True, help_text="A dispute's word."
    )


# Reads a (``TableView``, links) pair for the organisers.
class DisputeSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    word = serializers.CharField()


class OwnLinkSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField(help_text="His own link, to confirm the table's result (a credential).")


class TableAnswersSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["confirmed", "waiting", "disputed"])
    agreed = serializers.IntegerField()
    players = serializers.IntegerField()
    disputes = DisputeSerializer(many=True)
    changed = serializers.ListField(
        child=serializers.CharField(), help_text="Who answered another sheet (changed since)."
    )
    links = OwnLinkSerializer(many=True)


class RoundAnswersSerializer(serializers.Serializer[Any]):
    table_confirm = serializers.BooleanField()
    confirmed = serializers.IntegerField(help_text="Tables confirmed by every player.")
    waiting = serializers.IntegerField()
    disputed = serializers.IntegerField()
    tables = TableAnswersSerializer(many=True)
