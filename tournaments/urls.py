"""URLs of tournaments: public pages, the rules tab, referee entry, director pages."""

from .views import director, public, referee, rules

app_name = "tournaments"
urlpatterns = public.urlpatterns + rules.urlpatterns + referee.urlpatterns + director.urlpatterns
