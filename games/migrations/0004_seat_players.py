"""Every existing seat gets a player, and every game its results. No game or hand changes.

Games with an owner: one player per (owner, normalised name), in that user's own roster.
Games started without an account: players of their own, never shared with another game.
Results are derived from the stored hands by the scoring package, as every later save does.
"""

from django.db import migrations

from engine.errors import EngineError
from engine.rules import rule_set
from games.text.names import clean_name, loose_key, name_key
from scoring.game import score_game
from scoring.ranking import seat_results


def _player(Player, *, owner_id, name, taken):
    """The owner's player of this name; a second seat of one game whose name reads the same
    (recorded before names were normalised) gets a player of its own, numbered."""
    shown = clean_name(name) or name
    if owner_id is not None:
        key = name_key(shown)
        player = Player.objects.filter(owner_id=owner_id, club=None, key=key).first()
        if player is not None and player.pk not in taken:
            return player
        suffix = 2
        while player is not None:
            shown = f"{clean_name(name)} ({suffix})"
            key = name_key(shown)
            player = Player.objects.filter(owner_id=owner_id, club=None, key=key).first()
            if player is not None and player.pk not in taken:
                return player
            suffix += 1
    return Player.objects.create(
        owner_id=owner_id, club=None, name=shown[:40], key=name_key(shown)[:40], loose_key=loose_key(shown)[:40]
    )


def forwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Player = apps.get_model("games", "Player")
    Result = apps.get_model("games", "Result")
    for game in Game.objects.order_by("created_at", "id").iterator():
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        taken: set[int] = set()
        for seat in seats:
            player = _player(Player, owner_id=game.owner_id, name=seat.name, taken=taken)
            taken.add(player.pk)
            Seat.objects.filter(pk=seat.pk).update(player=player)
            seat.player_id = player.pk
        hands = [h.outcome for h in game.hands.order_by("number")]
        names = [seat.name for seat in seats]
        try:
            state = score_game(
                rules=rule_set(game.family, game.options), players=names, hands=hands, ended=game.ended
            )
        except EngineError:
            continue  # stored hands that no longer score: the next save shows the error
        results = seat_results(state)
        Result.objects.bulk_create(
            Result(
                game=game,
                seat=seat,
                player_id=seat.player_id,
                total=results[seat.name].total,
                place=results[seat.name].place,
                winner=results[seat.name].winner,
                finished=results[seat.name].finished,
                eliminated_in=results[seat.name].eliminated_in,
                hands=results[seat.name].hands,
            )
            for seat in seats
        )


def backwards(apps, schema_editor):
    apps.get_model("games", "Result").objects.all().delete()
    apps.get_model("games", "Seat").objects.update(player=None)
    apps.get_model("games", "Player").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0003_clubs_players")]
    operations = [migrations.RunPython(forwards, backwards)]
