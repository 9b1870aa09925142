from django.urls import path

from .views import home, host, join, new_game, outbox, preferences, seat, watch

urlpatterns = [
    path("", home.home, name="home"),
    path("games/new/", new_game.game_new, name="game-new"),
    path("games/<int:pk>/", host.game_detail, name="game-detail"),
    path("games/<int:pk>/start/", host.game_start, name="game-start"),
    path("games/<int:pk>/act/<slug:slug>/", host.game_act, name="game-act"),
    path("games/<int:pk>/join-link/", host.shared_link, {"kind": "join"}, name="game-join-link"),
    path("games/<int:pk>/watch-link/", host.shared_link, {"kind": "watch"}, name="game-watch-link"),
    path("watch/<str:token>/", watch.watch, name="watch"),
    path("join/confirm/", join.join_confirm, name="join-confirm"),
    path("join/<str:token>/", join.join, name="join"),
    path("outbox/", outbox.outbox, name="outbox"),
    path("outbox/<int:pk>/", outbox.outbox_mail, name="outbox-mail"),
    path("outbox/<int:pk>/html/", outbox.outbox_html, name="outbox-html"),
    path("play/<str:token>/", seat.seat, name="seat"),
    path("play/<str:token>/history/", seat.seat_history, name="seat-history"),
    path("play/<str:token>/fresh-link/", seat.seat_fresh_link, name="seat-fresh-link"),
    path("play/<str:token>/settings/", preferences.seat_settings, name="seat-settings"),
    path("play/<str:token>/undo/", seat.seat_undo, name="seat-undo"),
    path("play/<str:token>/take-back/", seat.seat_take_back, name="seat-take-back"),
    path("play/<str:token>/pause/", seat.seat_pause_vote, name="seat-pause"),
    path("play/<str:token>/mail-works/", seat.seat_mail_works, name="seat-mail-works"),
    path("play/<str:token>/vacation/", seat.seat_vacation, name="seat-vacation"),
    path("play/<str:token>/plan/", seat.seat_plan, name="seat-plan"),
    path("play/<str:token>/talk/", seat.seat_talk, name="seat-talk"),
    path("play/<str:token>/again/", seat.seat_again, name="seat-again"),
    path("play/<str:token>/accept/", seat.seat_accept, name="seat-accept"),
    path("unsubscribe/<str:token>/", preferences.unsubscribe, name="unsubscribe"),
]
