"""URLs of tournaments, split by who uses them: everyone, the table's referee, the club's directors."""

from django.urls import path

from .views import (
    accounts,
    corrections,
    dashboard,
    director,
    director_print,
    director_teams,
    draws,
    entrants,
    evening_changes,
    live,
    my_tables,
    offline,
    public,
    referees,
    rules,
    table,
    tournament_actions,
)

app_name = "tournaments"

T = "clubs/<slug:club_slug>/<slug:slug>/"
public_urls = [
    path(T, public.tournament_detail, name="detail"),
    path(T + "schedule/", public.schedule, name="schedule"),
    path(T + "standings/", public.standings, name="standings"),
    path(T + "teams/<int:pk>/", public.team_detail, name="team"),
    path(T + "rules/", rules.tournament_rules, name="rules"),
    path(T + "final/", public.bracket, name="bracket"),
    path(T + "screen/", live.screen, name="screen"),
    path(T + "find/", live.find_player, name="find_player"),
    path(T + "players/<int:pk>/", live.player_table, name="player_table"),
    # The fragments the pages above poll (views/live.py).
    path(T + "standings/live/", live.standings_live, name="standings_live"),
    path(T + "schedule/live/", live.schedule_live, name="schedule_live"),
    path(T + "teams/<int:pk>/live/", live.team_live, name="team_live"),
    path(T + "matches/<int:pk>/live/", live.match_live, name="match_live"),
    path(T + "screen/live/", live.screen_live, name="screen_live"),
    path(T + "players/<int:pk>/live/", live.player_live, name="player_live"),
    path("matches/<int:pk>/", public.match_detail, name="match"),
    path("players/<int:pk>/", public.player_detail, name="player"),
]

referee_urls = [
    path("referee/", my_tables.my_tables, name="my_tables"),
    path("signed-in/", accounts.signed_in, name="signed_in"),
    path("matches/<int:pk>/table/", table.table, name="table"),
    path("matches/<int:pk>/table/deals/<int:number>/", corrections.correct, name="correct_deal"),
    path("matches/<int:pk>/table/remove-last/", corrections.remove_last, name="remove_last_deal"),
    path(
        "matches/<int:pk>/table/deals/<int:number>/remove/",
        corrections.remove_deal,
        name="remove_deal",
    ),
    path("matches/<int:pk>/table/close/", corrections.close, name="close_match"),
    path("matches/<int:pk>/table/reopen/", corrections.reopen, name="reopen_match"),
    path("matches/<int:pk>/table/confirm/", table.confirm, name="confirm_sheet"),
    path("matches/<int:pk>/table/call/", evening_changes.call, name="call_director"),
    # The table as an installable app: served from the root, the worker's scope is every page.
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    # A referee's private link (the secret is URL-safe base64).
    path("t/<slug:secret>/", referees.link_sign_in, name="referee_link"),
]

D = "direct/<slug:club_slug>/<slug:slug>/"
director_urls = [
    path("direct/", director.director_index, name="director_index"),
    path("direct/<slug:club_slug>/", director.club_home, name="director_club"),
    path("direct/<slug:club_slug>/new/", director.tournament_new, name="director_new"),
    path(D, dashboard.dashboard, name="director"),
    path(D + "edit/", director.tournament_edit, name="director_edit"),
    path(D + "tables/", dashboard.tables_live, name="director_tables"),
    path(D + "schedule/", tournament_actions.generate, name="director_generate"),
    path(D + "status/", tournament_actions.set_status, name="director_status"),
    path(D + "publish/", tournament_actions.publish, name="director_publish"),
    path(D + "finish/", tournament_actions.finish, name="director_finish"),
    path(D + "reopen/", tournament_actions.reopen_results, name="director_reopen"),
    path(D + "teams/", director_teams.teams, name="director_teams"),
    path(D + "teams/<int:pk>/", director_teams.team_edit, name="director_team"),
    path(D + "teams/<int:pk>/delete/", director_teams.team_delete, name="director_team_delete"),
    path(D + "teams/<int:pk>/withdraw/", evening_changes.withdraw, name="director_withdraw"),
    path(D + "teams/<int:pk>/reinstate/", evening_changes.reinstate, name="director_reinstate"),
    path(D + "teams/<int:pk>/substitute/", evening_changes.substitute, name="director_substitute"),
    path(
        D + "teams/<int:pk>/substitutes/<int:sub>/remove/",
        evening_changes.remove_substitute,
        name="director_substitute_remove",
    ),
    path(D + "players/", entrants.entrants, name="director_entrants"),
    path(
        D + "players/<int:pk>/withdraw/",
        evening_changes.entrant_withdraw,
        name="director_entrant_withdraw",
    ),
    path(D + "players/<int:pk>/delete/", entrants.entrant_delete, name="director_entrant_delete"),
    path(D + "referees/", referees.referees, name="director_referees"),
    path(D + "referees/add/", referees.add_referees, name="director_add_referees"),
    path(D + "referees/<int:user_id>/link/", referees.make_link, name="director_make_link"),
    path(D + "referees/links/<int:pk>/revoke/", referees.revoke_link, name="director_revoke_link"),
    path(D + "rounds/draw/", draws.draw_round, name="director_draw"),
    path(D + "rounds/<int:number>/draw/", evening_changes.round_edit, name="director_round_edit"),
    path(
        D + "rounds/<int:number>/<str:action>/",
        tournament_actions.round_action,
        name="director_round",
    ),
    path(D + "calls/<int:pk>/answer/", evening_changes.answer, name="director_answer_call"),
    path(D + "final/", draws.start_final, name="director_final"),
    path(
        D + "matches/<int:pk>/<str:action>/", tournament_actions.match_action, name="director_match"
    ),
    path(D + "print/sheets/", director_print.print_sheets, name="director_print_sheets"),
    path(D + "print/standings/", director_print.print_standings, name="director_print_standings"),
    path(
        D + "export/standings.csv",
        director_print.export_standings,
        name="director_export_standings",
    ),
    path(D + "export/results.csv", director_print.export_results, name="director_export_results"),
]

urlpatterns = public_urls + referee_urls + director_urls
