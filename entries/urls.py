"""URLs of the evening before its first deal: everyone's (registering, an entry's private page,
self check-in at the door) and the directors' (online entries, check-in, the poster, the cash).
The same addresses as when they were the tournament's; the names are `entries:...`."""

from django.urls import path

from .views import cash, check_in, registrations

app_name = "entries"

T = "clubs/<slug:club_slug>/<slug:slug>/"
D = "direct/<slug:club_slug>/<slug:slug>/"

urlpatterns = [
    path(T + "register/", registrations.register, name="register"),
    path(T + "register/<slug:key>/", registrations.entry, name="entry"),
    path(T + "check-in/", check_in.self_check_in, name="self_check_in"),
    path(D + "registrations/", registrations.registrations, name="director_registrations"),
    path(
        D + "registrations/switch/",
        registrations.registration_switch,
        name="director_registration_switch",
    ),
    path(D + "registrations/pair/", registrations.pair, name="director_pair"),
    path(
        D + "registrations/accept-all/",
        registrations.accept_all,
        name="director_accept_all",
    ),
    path(
        D + "registrations/<int:pk>/<str:action>/",
        registrations.registration_action,
        name="director_registration",
    ),
    path(D + "check-in/", check_in.check_in_page, name="director_check_in"),
    path(D + "check-in/<int:pk>/", check_in.check_in_mark, name="director_check_in_mark"),
    path(
        D + "check-in/<int:pk>/withdraw/",
        check_in.check_in_withdraw,
        name="director_check_in_withdraw",
    ),
    path(D + "print/check-in/", check_in.check_in_poster, name="director_check_in_poster"),
    path(D + "check-in/door/", check_in.renew_door, name="director_renew_door"),
    path(D + "cash/", cash.cash, name="director_cash"),
    path(D + "export/cash.csv", cash.cash_csv, name="director_export_cash"),
]
