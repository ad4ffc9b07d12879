"""Starting a game, its score sheet, ending the evening, recent players."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from games.engine.errors import EngineError
from games.engine.rules import RuleSet, rule_set
from games.models import Game, Hand, Seat
from scoring.game import GameState, score_game, start

MAX_NAME = 40


def game_rules(*, game: Game) -> RuleSet:
    return rule_set(game.family, game.options)


def game_start(
    *,
    family: str,
    options: Mapping[str, object],
    players: Sequence[str],
    owner: User | AnonymousUser | None,
    first_dealer: int = 0,
) -> Game:
    """Create a game. Raises EngineError for an unknown family or option, a bad player list."""
    names = [" ".join(name.split()) for name in players]
    names = [name for name in names if name]
    options = dict(options)
    if family == "carousel":
        # Two players use one deck with one joker, more players two decks (RULES.md §3).
        options["decks"] = 1 if len(names) == 2 else 2
    rules = rule_set(family, options)
    start(rules=rules, players=names)  # checks the count for the family and duplicates
    too_long = [name for name in names if len(name) > MAX_NAME]
    if too_long:
        raise EngineError(
            "name_too_long", f"name {too_long[0]!r} is too long", player=too_long[0], maximum=MAX_NAME
        )
    if not 0 <= first_dealer < len(names):
        first_dealer = 0
    stored = {name: value for name, value in rules.options.items()}
    with transaction.atomic():
        game = Game.objects.create(
            family=family,
            options=stored,
            owner=owner if owner is not None and owner.is_authenticated else None,
            first_dealer=first_dealer,
        )
        Seat.objects.bulk_create(Seat(game=game, position=i, name=name) for i, name in enumerate(names))
    return game


@dataclass(frozen=True)
class SheetRow:
    hand: Hand
    ordinal: int  # 1-based place on the score sheet
    dealer: str
    points: tuple[int, ...]  # in seat order; 0 for a player who was out
    totals: tuple[int, ...]  # running totals after this hand, in seat order


@dataclass(frozen=True)
class Sheet:
    """Everything the score sheet shows, in seat order."""

    game: Game
    rules: RuleSet
    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    state: GameState | None
    error: EngineError | None  # the stored hands no longer score (should not happen)
    next_dealer: str | None

    @property
    def eliminated_in(self) -> dict[str, int]:
        """Player -> the score-sheet ordinal of the hand after which he dropped out."""
        if self.state is None:
            return {}
        return {e.player: e.hand for e in self.state.eliminated}


def dealers(*, players: Sequence[str], first: int, hands: int, out_after: Mapping[str, int]) -> list[str]:
    """Dealer of each of ``hands`` + 1 hands (the last one is the next to deal): the deal
    passes to the next player in seat order who is still in the game."""
    result: list[str] = []
    index = first % len(players) if players else 0
    for hand in range(1, hands + 2):
        for _ in range(len(players)):
            out = out_after.get(players[index])
            if out is None or out >= hand:
                break
            index = (index + 1) % len(players)
        result.append(players[index])
        index = (index + 1) % len(players)
    return result


def game_sheet(*, game: Game) -> Sheet:
    rules = game_rules(game=game)
    players = tuple(seat.name for seat in game.seats.all())
    hands = list(game.hands.all())
    state: GameState | None
    error: EngineError | None = None
    try:
        state = score_game(rules=rules, players=players, hands=[h.outcome for h in hands], ended=game.ended)
    except EngineError as exc:
        state, error = None, exc
    out_after = {e.player: e.hand for e in state.eliminated} if state is not None else {}
    dealt = dealers(players=players, first=game.first_dealer, hands=len(hands), out_after=out_after)
    rows: list[SheetRow] = []
    if state is not None:
        for i, (hand, result, totals) in enumerate(
            zip(hands, state.hands, state.after_each_hand, strict=True)
        ):
            rows.append(
                SheetRow(
                    hand=hand,
                    ordinal=i + 1,
                    dealer=dealt[i],
                    points=tuple(result.points.get(p, 0) for p in players),
                    totals=tuple(totals[p] for p in players),
                )
            )
    finished = state is not None and state.finished
    return Sheet(
        game=game,
        rules=rules,
        players=players,
        rows=tuple(rows),
        state=state,
        error=error,
        next_dealer=None if finished else dealt[len(hands)],
    )


def game_end(*, game: Game, ended: bool) -> Game:
    """Declare the evening over (or reopen it): an open game is then finished after its last hand."""
    game.ended = ended
    game.save(update_fields=["ended", "updated_at"])
    return game


def recent_players(*, user: User | AnonymousUser, game_ids: Sequence[str], limit: int = 20) -> list[str]:
    """Names from this user's (or this browser's) most recent games, most recent first."""
    games = Game.objects.none()
    if user.is_authenticated:
        games = Game.objects.filter(owner_id=user.pk)
    if game_ids:
        games = games | Game.objects.filter(public_id__in=list(game_ids))
    names: list[str] = []
    for name in (
        Seat.objects.filter(game__in=games.order_by("-updated_at")[:30])
        .order_by("-game__updated_at", "position")
        .values_list("name", flat=True)
    ):
        if name not in names:
            names.append(name)
        if len(names) >= limit:
            break
    return names
