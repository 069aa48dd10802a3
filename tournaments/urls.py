"""URLs of tournaments: public pages, referee entry, director pages."""

from .views import director, public, referee

app_name = "tournaments"
urlpatterns = public.urlpatterns + referee.urlpatterns + director.urlpatterns
