"""The games resources' shapes (games/api/games.py): each once, over the selectors' GameLine,
GameView, SheetRow and ChangeLine, and the bodies the writes take."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import serializers

from engine.rules import FAMILIES
from games.api.common import SiteLink
from games.services.games import CLOCK_SLACK
from scoring.families import every_word

# Not an enum in the schema: other resources name the same choices differently.
FAMILY_HELP = "The rule family: " + ", ".join(FAMILIES) + "."


class GameResultSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(source="seat.name", help_text="The seat's name, as the outcomes use it.")
    total = serializers.IntegerField()
    place = serializers.IntegerField(help_text="1 is best; ties share a place.")
    winner = serializers.BooleanField()


class GameItemSerializer(serializers.Serializer[Any]):
    public_id = serializers.CharField(source="game.public_id", help_text="The id in the game's address.")
    family = serializers.CharField(source="game.family", help_text=FAMILY_HELP)
    club = serializers.CharField(allow_null=True, help_text="The club's slug; null for a private game.")
    played_at = serializers.DateTimeField(
        source="game.played_at",
        help_text="When the game was played: what ratings, seasons and lists order games by.",
    )
    created_at = serializers.DateTimeField(source="game.created_at")
    updated_at = serializers.DateTimeField(source="game.updated_at")
    ended = serializers.BooleanField(source="game.ended", help_text="The evening was declared over.")
    finished = serializers.BooleanField()
    hands = serializers.IntegerField(help_text="How many hands were recorded.")
    players = GameResultSerializer(many=True, source="results", help_text="In seat order.")


class GameSeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    name = serializers.CharField()
    player_id = serializers.IntegerField()


class GameHandSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(
        source="hand.number", help_text="The hand's id within the game (never reused)."
    )
    ordinal = serializers.IntegerField(allow_null=True, help_text="Its row on the score sheet (1-based).")
    version = serializers.IntegerField(
        source="hand.version", help_text="Changes with every correction (see ETag)."
    )
    outcome = serializers.JSONField(source="hand.outcome", help_text="The scoring outcome, as recorded.")
    dealer = serializers.CharField(allow_null=True)
    points = serializers.DictField(
        source="points_by_player", child=serializers.IntegerField(), help_text="Points per player."
    )
    totals = serializers.DictField(
        source="totals_by_player", child=serializers.IntegerField(), help_text="Running totals after it."
    )
    missing = serializers.ListField(
        source="missing_players", child=serializers.CharField(), help_text="Players whose count is missing."
    )
    kind = serializers.CharField(
        source="kind.kind",
        allow_null=True,
        help_text=f"How the hand ended: {', '.join(kind.name for kind in every_word().kinds)}.",
    )
    ended_by = serializers.CharField(allow_null=True, help_text="Who closed, knocked or went out, if anyone.")
    created_at = serializers.DateTimeField(source="hand.created_at")
    updated_at = serializers.DateTimeField(source="hand.updated_at")


class GameEliminationSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    hand = serializers.IntegerField(help_text="The sheet's hand after which the player dropped out.")
    total = serializers.IntegerField()


class GameBonusSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    kind = serializers.CharField(help_text="game | hands_won")
    points = serializers.IntegerField()
    hands = serializers.IntegerField(required=False)

    def to_representation(self, instance: Any) -> Any:
        # Read as scoring states it: ``hands`` only for a bonus for hands won.
        return super().to_representation(instance.as_dict())


class GamePaymentSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # "from" is a keyword: built here.
        return {
            "from": serializers.CharField(source="payer"),
            "to": serializers.CharField(source="payee"),
            "crowns": serializers.IntegerField(),
        }


class GameSettlementSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # "style" would shadow Field.style: built here.
        return {"style": serializers.CharField(help_text="pairs | winner"), **super().get_fields()}

    totals = serializers.DictField(child=serializers.IntegerField(), help_text="Penalty points.")
    crowns = serializers.DictField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.CharField())
    debts = GamePaymentSerializer(many=True)
    net = serializers.DictField(child=serializers.IntegerField(), help_text="+ receives, - pays.")
    transfers = GamePaymentSerializer(many=True, help_text="The fewest payments realising net.")


class GameMissingSerializer(serializers.Serializer[Any]):
    hand = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())


class GameChartLineSerializer(serializers.Serializer[Any]):
    option = serializers.CharField(help_text="The house rule the line comes from: elimination | target.")
    value = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=["limit", "target"], help_text="limit: stay under it; target: reach it."
    )


class GameSerializer(GameItemSerializer):
    options = serializers.DictField(source="game.options", help_text="The house rules, as stored.")
    first_dealer = serializers.IntegerField(source="game.first_dealer")
    hand_limit = serializers.IntegerField(source="game.hand_limit")
    seats = GameSeatSerializer(many=True)
    rows = GameHandSerializer(many=True, source="sheet.rows", help_text="The score sheet's hands, in order.")
    totals = serializers.DictField(
        source="sheet.scored.totals", child=serializers.IntegerField(), help_text="With end bonuses."
    )
    eliminated = GameEliminationSerializer(many=True, source="sheet.scored.eliminated")
    finish_reason = serializers.CharField(
        source="sheet.scored.finish_reason",
        allow_null=True,
        help_text="target | last_player | hands | ended",
    )
    leaders = serializers.ListField(source="sheet.scored.leaders", child=serializers.CharField())
    winners = serializers.ListField(source="sheet.scored.winners", child=serializers.CharField())
    bonuses = GameBonusSerializer(many=True, source="sheet.scored.bonuses")
    incomplete = serializers.BooleanField(
        source="sheet.incomplete", help_text="Some count is missing: totals are provisional."
    )
    missing = GameMissingSerializer(many=True, source="sheet.scored.missing")
    next_dealer = serializers.CharField(source="sheet.next_dealer", allow_null=True)
    next_hand_number = serializers.IntegerField(
        source="game.next_hand_number",
        help_text="The number the next hand will be stored under: send it as the new hand's `for_hand`.",
    )
    settlement = GameSettlementSerializer(
        source="sheet.scored.settlement",
        allow_null=True,
        help_text="Žolíky only, once no count is missing.",
    )
    share_url = SiteLink(
        source="share_path",
        help_text="The link to watch the score sheet, at the address other phones reach (the page's "
        "QR code).",
    )
    chart_line = GameChartLineSerializer(
        allow_null=True,
        help_text="The line the running totals head for on the chart of the evening (Žolíky's elimination "
        "limit, the gin and Carousel target); null when the family or an open evening has none.",
    )


class GameCreatedSerializer(GameSerializer):
    edit_url = serializers.CharField(help_text="The path of the game's edit link (keep it secret).")


class GameCreateSerializer(serializers.Serializer[Any]):
    family = serializers.CharField(help_text=FAMILY_HELP)
    options = serializers.DictField(required=False, default=dict, help_text="House rules (see /engine/).")
    players = serializers.ListField(child=serializers.CharField(max_length=40), min_length=1, max_length=20)
    first_dealer = serializers.IntegerField(required=False, default=0, min_value=0)
    club = serializers.SlugField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A club's slug: needs scorekeeper or organiser.",
    )
    played_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="When the game was played (a score sheet typed in later); default now, never in the "
        "future.",
    )

    def validate_played_at(self, value: Any) -> Any:
        return _not_future(value)

    def validate_family(self, value: str) -> str:
        if value not in FAMILIES:
            raise serializers.ValidationError(_("Unknown rule family."))
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["first_dealer"] >= len(attrs["players"]):
            raise serializers.ValidationError(
                {"first_dealer": [_("The first dealer must be one of the players.")]}
            )
        return attrs


def _not_future(value: Any) -> Any:
    if value is not None and value > timezone.now() + CLOCK_SLACK:
        raise serializers.ValidationError(
            _("A game cannot be played in the future: choose a time before now.")
        )
    return value


class GameDateSerializer(serializers.Serializer[Any]):
    played_at = serializers.DateTimeField(help_text="When the game was played; never in the future.")
    shown = serializers.DateTimeField(
        help_text="The game's `played_at` as you read it: if it changed since, nothing changes and the "
        "answer is 400 `date_changed_since`."
    )

    def validate_played_at(self, value: Any) -> Any:
        return _not_future(value)


class GameChangeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="change.pk")
    action = serializers.CharField(
        source="change.action",
        help_text="added | edited | deleted (a hand) | ended | reopened | new_link | transfer (another "
        "starter; `before` and `after` hold `owner`, a user id) | removed | restored (the game deleted, "
        "brought back) | dated (the date of play changed; `before` and `after` hold `played_at`)",
    )
    hand_number = serializers.IntegerField(source="change.hand_number", allow_null=True)
    hand = serializers.IntegerField(
        allow_null=True, help_text="The hand's row on the sheet, as the sheet shows it."
    )
    before = serializers.JSONField(source="change.before", allow_null=True)
    after = serializers.JSONField(source="change.after", allow_null=True)
    created_at = serializers.DateTimeField(source="change.created_at")
    undoes = serializers.IntegerField(
        source="change.undoes_id", allow_null=True, help_text="The change this one undid."
    )
    undone = serializers.BooleanField()
    undoable = serializers.BooleanField()


class GameTransferSerializer(serializers.Serializer[Any]):
    to = serializers.CharField(
        max_length=150, help_text="The username of a scorekeeper or organiser of the game's club."
    )
