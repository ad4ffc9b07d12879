"""Starting a game (its seats' players, in a club or not) and ending the evening."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from games.engine.errors import EngineError
from games.engine.rules import OPTIONS, rule_set
from games.models import Club, Game, Seat
from games.names import name_key
from games.sheet import Sheet, build_sheet, game_rules
from scoring.game import start

from .errors import ServiceError
from .players import check_name, seat_players
from .results import rebuild, score, store_derived


def game_start(
    *,
    family: str,
    options: Mapping[str, object],
    players: Sequence[str],
    owner: User | AnonymousUser | None,
    first_dealer: int = 0,
    club: Club | None = None,
) -> Game:
    """Create a game: a club's (counted on its pages) or a private one. Each seat gets the
    roster's player of that name, or a new one. Raises EngineError for an unknown family or
    option, a bad player list or name."""
    names: list[str] = []
    for raw in players:
        if not raw.strip():
            continue
        try:
            names.append(check_name(raw))
        except ServiceError as error:
            error.params = {**error.params, "seat": len(names) + 1}
            raise
    seen: dict[str, str] = {}
    for name in names:
        if name_key(name) in seen:
            raise EngineError("duplicate_player", f"player {name!r} appears twice", player=name)
        seen[name_key(name)] = name
    options = dict(options)
    if "decks" in OPTIONS.get(family, {}):  # type: ignore[call-overload]
        # Carousel: two players use one deck with one joker, more players two (docs/RULES.md).
        options["decks"] = 1 if len(names) == 2 else 2
    rules = rule_set(family, options)
    start(rules=rules, players=names)  # checks the count for the family and duplicates
    if not 0 <= first_dealer < len(names):
        first_dealer = 0
    stored = {name: value for name, value in rules.options.items()}
    with transaction.atomic():
        game = Game.objects.create(
            family=family,
            options=stored,
            owner=owner if owner is not None and owner.is_authenticated else None,
            first_dealer=first_dealer,
            club=club,
        )
        people = seat_players(club=club, owner=owner, names=names)
        # A known player sits under his own name ("tomáš " typed is Tomáš on the sheet).
        seats = Seat.objects.bulk_create(
            Seat(game=game, position=i, name=player.name, player=player) for i, player in enumerate(people)
        )
        store_derived(game, seats, [], score(game, seats, []))
    return game


def game_end(*, game: Game, ended: bool) -> Sheet | None:
    """Declare the evening over (or reopen it): an open game is then finished after its last
    hand, and its results say so. Returns the sheet as it now stands."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        locked.ended = ended
        locked.save(update_fields=["ended", "updated_at"])
        game.ended = ended
        built = rebuild(locked)
    if built is None:
        return None
    state, seats, hands = built
    return build_sheet(
        game=game, rules=game_rules(game=game), players=[s.name for s in seats], hands=hands, state=state
    )
