"""A valid document written into a new or an empty club in one transaction, the derived rows
(results, ratings, season standings) rebuilt inside it."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse

from engine.rules import rule_set
from games.models import Club, Game, Hand, Player, Seat
from games.services.clubs import club_create, club_update
from games.services.players import check_name
from games.services.results import rebuild
from games.text.names import loose_key, name_key
from tournaments import derived
from tournaments.exchange.validation import (
    Checker,
    ImportInvalid,
    check_target,
    season_settings_of,
    tournament_settings_of,
    validate,
)
from tournaments.models import Bye, Entry, Round, Season, Table, TableSeat, Tournament, TournamentChange
from tournaments.services.seasons import checked_season
from tournaments.services.tournament_settings import checked_settings


@dataclass(frozen=True)
class Imported:
    club: Club
    players: int
    games: int
    hands: int
    tournaments: int
    seasons: int


def import_club(
    doc: object, *, user: User, name: str | None = None, slug: str | None = None, club: Club | None = None
) -> Imported:
    """Import ``doc`` into a new club named ``name`` (address ``slug``, else made from the name)
    with ``user`` as its organiser, or into ``club``, which must be empty. Validates everything
    first: ``ImportInvalid`` with every problem, nothing written. Then one transaction writes
    the recorded rows and rebuilds the derived ones (results, ratings, season standings)."""
    check = Checker()
    clean_name, wanted_slug = check_target(check, name=name, slug=slug, club=club)
    problems = [*check.problems, *validate(doc)]
    if problems:
        raise ImportInvalid(problems)
    assert isinstance(doc, Mapping)
    with transaction.atomic():
        if club is None:
            club = club_create(name=clean_name, user=user)
        club = club_update(
            club=club,
            name=club.name,
            slug=wanted_slug or club.slug,
            visibility=(doc["club"] or {}).get("visibility", Club.Visibility.PUBLIC),
            version=None,
            # Absent from older documents: the defaults are kept.
            provisional_games=(doc["club"] or {}).get("provisional_games"),
            inactive_days=(doc["club"] or {}).get("inactive_days"),
        )
        players = _write_players(club, doc["players"])
        games, hands = _write_games(club, doc["games"], players)
        tournaments = [_write_tournament(club, t, players, games, user) for t in doc["tournaments"]]
        seasons: dict[str, Season] = {}
        for s in doc["seasons"]:
            starts, ends = datetime.date.fromisoformat(s["starts"]), datetime.date.fromisoformat(s["ends"])
            season = Season.objects.create(
                club=club, created_by=user, **checked_season(season_settings_of(s, starts, ends))
            )
            Season.objects.filter(pk=season.pk).update(
                created_at=datetime.datetime.fromisoformat(s["created_at"])
            )
            if "ref" in s:
                seasons[s["ref"]] = season
        for made, t in zip(tournaments, doc["tournaments"], strict=True):
            if t.get("final_season") in seasons:
                Tournament.objects.filter(pk=made.pk).update(final_season=seasons[t["final_season"]])
        for game in games.values():
            rebuild(game)
        derived.club_changed(club)
    return Imported(club, len(players), len(games), hands, len(doc["tournaments"]), len(doc["seasons"]))


def _write_players(club: Club, docs: Sequence[Mapping[str, Any]]) -> dict[str, Player]:
    made: dict[str, Player] = {}
    # In document order, so the export of the import lists them alike (and ties in standings
    # fall alike); a merged player is written once the player he was merged into exists.
    waiting = list(docs)
    while waiting:
        later = []
        for p in waiting:
            target = p["merged_into"]
            if target is not None and target not in made:
                later.append(p)
                continue
            name = check_name(p["name"])
            made[p["ref"]] = Player.objects.create(
                club=club,
                name=name,
                key=name_key(name),
                loose_key=loose_key(name),
                merged_into=made[target] if target is not None else None,
            )
        if len(later) == len(waiting):  # validated: cannot happen
            raise RuntimeError("unresolvable merges")
        waiting = later
    return made


def _write_games(
    club: Club, docs: Sequence[Mapping[str, Any]], players: Mapping[str, Player]
) -> tuple[dict[str, Game], int]:
    games: dict[str, Game] = {}
    count = 0
    for g in docs:
        rules = rule_set(g["family"], g["options"])
        game = Game.objects.create(
            family=g["family"],
            options=dict(rules.options),
            owner=None,
            club=club,
            first_dealer=g["first_dealer"],
            ended=g["ended"],
            hand_limit=g["hand_limit"],
            event_name=g["event_name"],
            event_round=g["event_round"],
            event_table=g["event_table"],
            event_path=g["event_path"],
            event_ends=_moment(g.get("event_ends")),
            next_hand_number=g["next_hand_number"],
        )
        created = datetime.datetime.fromisoformat(g["created_at"])
        # A document from before games had their own date: the game was played when started.
        played = datetime.datetime.fromisoformat(g.get("played_at") or g["created_at"])
        Game.objects.filter(pk=game.pk).update(created_at=created, played_at=played)
        game.created_at, game.played_at = created, played
        Seat.objects.bulk_create(
            Seat(game=game, position=s["position"], name=check_name(s["name"]), player=players[s["player"]])
            for s in g["seats"]
        )
        made = Hand.objects.bulk_create(
            Hand(game=game, number=h["number"], outcome=h["outcome"]) for h in g["hands"]
        )
        # auto_now_add stamped them now: the recorded moments go back in one statement.
        for hand, h in zip(made, g["hands"], strict=True):
            hand.created_at = datetime.datetime.fromisoformat(h["created_at"])
        Hand.objects.bulk_update(made, ["created_at"], batch_size=500)
        count += len(made)
        games[g["ref"]] = game
    for g in docs:  # the links between games, once every game is made
        links = {link: games[g[link]] for link in ("rematch_of", "evening") if g.get(link)}
        if links:
            Game.objects.filter(pk=games[g["ref"]].pk).update(**links)
    return games, count


def _moment(value: str | None) -> datetime.datetime | None:
    return None if value is None else datetime.datetime.fromisoformat(value)


def _write_tournament(
    club: Club, t: Mapping[str, Any], players: Mapping[str, Player], games: Mapping[str, Game], user: User
) -> Tournament:
    fields = checked_settings(tournament_settings_of(t, datetime.date.fromisoformat(t["date"])))
    tournament = Tournament.objects.create(
        club=club,
        created_by=user,
        seed=t["seed"],
        standings_revealed=t.get("standings_revealed", False),
        **fields,
    )
    Tournament.objects.filter(pk=tournament.pk).update(created_at=_moment(t["created_at"]))
    TournamentChange.objects.create(
        tournament=tournament,
        action=TournamentChange.Action.CREATED,
        user=user,
        data={"name": tournament.name, "imported": True},
    )
    path = reverse("tournaments:detail", kwargs={"public_id": tournament.public_id})
    entries = {
        e["player"]: Entry.objects.create(
            tournament=tournament,
            player=players[e["player"]],
            checked_in=e["checked_in"],
            from_round=e["from_round"],
            dropped_after=e["dropped_after"],
            pinned_table=e["pinned_table"],
        )
        for e in t["entries"]
    }
    pairs = [sorted([entries[a].pk, entries[b].pk]) for a, b in t.get("apart", [])]
    if pairs:
        tournament.apart = sorted(pairs)
        tournament.save(update_fields=["apart"])
    for r in t["seated_rounds"]:
        played = Round.objects.create(
            tournament=tournament,
            number=r["number"],
            final_stage=r.get("final_stage", 0),
            status=r["status"],
            seed=r["seed"],
            started_at=_moment(r["started_at"]),
            ends_at=_moment(r.get("ends_at")),
            confirmed_at=_moment(r["confirmed_at"]),
            published=r.get("published", True),
        )
        for table in r["tables"]:
            game = games[table["game"]] if table["game"] is not None else None
            made = Table.objects.create(round=played, number=table["number"], game=game)
            if game is not None:
                Game.objects.filter(pk=game.pk).update(event_path=path)
            TableSeat.objects.bulk_create(
                TableSeat(table=made, entry=entries[ref], position=position)
                for position, ref in enumerate(table["seats"])
            )
        Bye.objects.bulk_create(Bye(round=played, entry=entries[ref]) for ref in r["byes"])
    given = [
        {
            "id": number,
            "entry": entries[p["player"]].pk,
            "player": players[p["player"]].name,
            "kind": p["kind"],
            "points": str(Fraction(p["points"])),
            "round": p["round"],
            "reason": p["reason"],
            "undone": p["undone"],
        }
        for number, p in enumerate(t.get("penalties", []), start=1)
    ]
    if given:
        Tournament.objects.filter(pk=tournament.pk).update(penalties=given)
    return tournament
