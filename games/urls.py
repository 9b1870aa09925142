from django.urls import path

from . import host_views, join_views, views, watch_views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", host_views.game_new, name="game-new"),
    path("games/<int:pk>/", host_views.game_detail, name="game-detail"),
    path("games/<int:pk>/start/", host_views.game_start, name="game-start"),
    path("games/<int:pk>/act/<slug:slug>/", host_views.game_act, name="game-act"),
    path("games/<int:pk>/join-link/", host_views.shared_link, {"kind": "join"}, name="game-join-link"),
    path("games/<int:pk>/watch-link/", host_views.shared_link, {"kind": "watch"}, name="game-watch-link"),
    path("watch/<str:token>/", watch_views.watch, name="watch"),
    path("join/confirm/", join_views.join_confirm, name="join-confirm"),
    path("join/<str:token>/", join_views.join, name="join"),
    path("outbox/", views.outbox, name="outbox"),
    path("outbox/<int:pk>/", views.outbox_mail, name="outbox-mail"),
    path("outbox/<int:pk>/html/", views.outbox_html, name="outbox-html"),
    path("play/<str:token>/", views.seat, name="seat"),
    path("play/<str:token>/history/", views.seat_history, name="seat-history"),
    path("play/<str:token>/fresh-link/", views.seat_fresh_link, name="seat-fresh-link"),
    path("play/<str:token>/settings/", views.seat_settings, name="seat-settings"),
    path("play/<str:token>/undo/", views.seat_undo, name="seat-undo"),
    path("play/<str:token>/take-back/", views.seat_take_back, name="seat-take-back"),
    path("play/<str:token>/pause/", views.seat_pause_vote, name="seat-pause"),
    path("play/<str:token>/mail-works/", views.seat_mail_works, name="seat-mail-works"),
    path("play/<str:token>/vacation/", views.seat_vacation, name="seat-vacation"),
    path("play/<str:token>/plan/", views.seat_plan, name="seat-plan"),
    path("play/<str:token>/talk/", views.seat_talk, name="seat-talk"),
    path("play/<str:token>/again/", views.seat_again, name="seat-again"),
    path("play/<str:token>/accept/", views.seat_accept, name="seat-accept"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
