"""URLs of the evening before its first deal: everyone's (registering, an entry's private page,
self check-in at the door) and the directors' (online entries, check-in, the poster, the cash).
The same addresses as when they were the tournament's; the names are `entries:...`."""

from django.urls import path

from .views import director, public

app_name = "entries"

T = "clubs/<slug:club_slug>/<slug:slug>/"
D = "direct/<slug:club_slug>/<slug:slug>/"

urlpatterns = [
    path(T + "register/", public.register, name="register"),
    path(T + "register/<slug:key>/", public.entry, name="entry"),
    path(T + "check-in/", public.self_check_in, name="self_check_in"),
    path(D + "registrations/", director.registrations, name="director_registrations"),
    path(
        D + "registrations/switch/",
        director.registration_switch,
        name="director_registration_switch",
    ),
    path(D + "registrations/pair/", director.pair, name="director_pair"),
    path(
        D + "registrations/<int:pk>/<str:action>/",
        director.registration_action,
        name="director_registration",
    ),
    path(D + "check-in/", director.check_in_page, name="director_check_in"),
    path(D + "check-in/<int:pk>/", director.check_in_mark, name="director_check_in_mark"),
    path(
        D + "check-in/<int:pk>/withdraw/",
        director.check_in_withdraw,
        name="director_check_in_withdraw",
    ),
    path(D + "print/check-in/", director.check_in_poster, name="director_check_in_poster"),
    path(D + "cash/", director.cash, name="director_cash"),
    path(D + "export/cash.csv", director.cash_csv, name="director_export_cash"),
]
