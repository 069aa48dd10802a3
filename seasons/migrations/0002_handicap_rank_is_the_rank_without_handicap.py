# A series without a handicap: its handicap table is the scratch table (docs/seasons.md), so
# the stored lines' `handicap_rank`, left empty by the previous release, is their `rank`.
# The arithmetic now stores it so; this brings the tables stored before it along, as a
# recompute would (their figures are otherwise unchanged, so none is asked for).

from django.db import migrations
from django.db.models import F


def rank_as_handicap_rank(apps, schema_editor):
    SeriesLine = apps.get_model("seasons", "SeriesLine")
    SeriesLine.objects.filter(series__handicap="none").update(handicap_rank=F("rank"))


class Migration(migrations.Migration):
    dependencies = [("seasons", "0001_initial")]

    operations = [migrations.RunPython(rank_as_handicap_rank, migrations.RunPython.noop)]
