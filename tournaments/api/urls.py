"""The routes of the tournaments app's API: every resource's, in one table."""

from __future__ import annotations

from django.urls import path

from tournaments.api.door import Door, SelfCheckIn
from tournaments.api.entries import ENTRY_ACTIONS, Apart, Entries, EntryPin, entry_action_view
from tournaments.api.exchange import ClubExportView, ClubImportView, OwnExportView
from tournaments.api.home import MyHome
from tournaments.api.league import LeagueCard, LeagueCardCsv, RatingList, RatingListCsv, SeasonCsv
from tournaments.api.penalties import Penalties, PenaltyUndo
from tournaments.api.ratings import ClubFreshness, GameChances, PlayerRatings, Versus
from tournaments.api.rounds import (
    FinalSeat,
    FinalUndo,
    RoundDetail,
    RoundMove,
    RoundPublish,
    Rounds,
    RoundSeat,
    round_step_view,
)
from tournaments.api.seasons import ClubSeasons, SeasonDetail
from tournaments.api.standings import FindSeat, History, PlayerRounds, Standings, StandingsReveal
from tournaments.api.table_answers import OwnTable, RoundAnswers
from tournaments.api.tournaments import ClubTournaments, TournamentDetail

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", ClubTournaments.as_view(), name="club-tournaments"),
    path("tournaments/<str:public_id>/", TournamentDetail.as_view(), name="tournament-detail"),
    path("tournaments/<str:public_id>/entries/", Entries.as_view(), name="tournament-entries"),
    *[
        path(
            f"tournaments/<str:public_id>/entries/<int:entry_id>/{action}/",
            entry_action_view(action).as_view(),
            name=f"tournament-entry-{action}",
        )
        for action in ENTRY_ACTIONS
    ],
    path(
        "tournaments/<str:public_id>/entries/<int:entry_id>/pin/",
        EntryPin.as_view(),
        name="tournament-entry-pin",
    ),
    path("tournaments/<str:public_id>/apart/", Apart.as_view(), name="tournament-apart"),
    path("tournaments/<str:public_id>/rounds/", Rounds.as_view(), name="tournament-rounds"),
    path("tournaments/<str:public_id>/rounds/<int:number>/", RoundDetail.as_view(), name="tournament-round"),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/seat/",
        RoundSeat.as_view(),
        name="tournament-round-seat",
    ),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/move/",
        RoundMove.as_view(),
        name="tournament-round-move",
    ),
    *[
        path(
            f"tournaments/<str:public_id>/rounds/<int:number>/{step}/",
            round_step_view(step).as_view(),
            name=f"tournament-round-{step}",
        )
        for step in ("start", "confirm")
    ],
    path("tournaments/<str:public_id>/final/", FinalSeat.as_view(), name="tournament-final-seat"),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/final-undo/",
        FinalUndo.as_view(),
        name="tournament-final-undo",
    ),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/publish/",
        RoundPublish.as_view(),
        name="tournament-round-publish",
    ),
    path("tournaments/<str:public_id>/standings/", Standings.as_view(), name="tournament-standings"),
    path(
        "tournaments/<str:public_id>/standings/reveal/",
        StandingsReveal.as_view(),
        name="tournament-standings-reveal",
    ),
    path("tournaments/<str:public_id>/seat/", FindSeat.as_view(), name="tournament-find-seat"),
    path("tournaments/<str:public_id>/door/", Door.as_view(), name="tournament-door"),
    path("tournaments/<str:public_id>/penalties/", Penalties.as_view(), name="tournament-penalties"),
    path(
        "tournaments/<str:public_id>/penalties/<int:penalty>/undo/",
        PenaltyUndo.as_view(),
        name="tournament-penalty-undo",
    ),
    path(
        "tournaments/<str:public_id>/check-in/<str:key>/",
        SelfCheckIn.as_view(),
        name="tournament-self-check-in",
    ),
    path(
        "tournaments/<str:public_id>/players/<int:entry>/", PlayerRounds.as_view(), name="tournament-player"
    ),
    path("tournaments/<str:public_id>/history/", History.as_view(), name="tournament-history"),
    path(
        "tournaments/<str:public_id>/own/<int:entry>/<str:key>/",
        OwnTable.as_view(),
        name="tournament-own-table",
    ),
    path(
        "tournaments/<str:public_id>/rounds/<int:number>/answers/",
        RoundAnswers.as_view(),
        name="tournament-round-answers",
    ),
    path("games/<str:public_id>/chances/", GameChances.as_view(), name="game-chances"),
    path("clubs/<slug:slug>/derived/", ClubFreshness.as_view(), name="club-derived"),
    path("clubs/<slug:slug>/seasons/", ClubSeasons.as_view(), name="club-seasons"),
    path("seasons/<str:public_id>/", SeasonDetail.as_view(), name="season-detail"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/ratings/", PlayerRatings.as_view(), name="player-ratings"
    ),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/versus/<int:other_id>/",
        Versus.as_view(),
        name="player-versus",
    ),
    path("clubs/<slug:slug>/ratings/csv/", RatingListCsv.as_view(), name="club-rating-list-csv"),
    path("seasons/<str:public_id>/csv/", SeasonCsv.as_view(), name="season-standings-csv"),
    path(
        "seasons/<str:public_id>/players/<int:player_id>/csv/",
        LeagueCardCsv.as_view(),
        name="season-league-card-csv",
    ),
    path("clubs/<slug:slug>/ratings/", RatingList.as_view(), name="club-rating-list"),
    path("seasons/<str:public_id>/players/<int:player_id>/", LeagueCard.as_view(), name="season-league-card"),
    path("clubs/import/", ClubImportView.as_view(), name="club-import"),
    path("clubs/<slug:slug>/export/", ClubExportView.as_view(), name="club-export"),
    path("me/export/", OwnExportView.as_view(), name="own-export"),
    path("me/home/", MyHome.as_view(), name="api-me-home"),
]
