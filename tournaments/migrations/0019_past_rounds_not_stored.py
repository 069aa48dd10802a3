"""Only the latest round's standings and the live table are stored now: a past round's table
is computed when asked and kept in the cache under its digest. The past rounds' rows go."""

from django.db import migrations
from django.db.models import OuterRef, Subquery

LIVE_ROUND = 0  # standings.names.LIVE_ROUND, as this migration found it


def drop_past_rounds(apps, schema_editor):
    Standing = apps.get_model("tournaments", "Standing")
    latest = (
        Standing.objects.filter(tournament_id=OuterRef("tournament_id"))
        .exclude(round_number=LIVE_ROUND)
        .order_by("-round_number")
        .values("round_number")[:1]
    )
    Standing.objects.exclude(round_number=LIVE_ROUND).filter(
        round_number__lt=Subquery(latest)
    ).delete()


def store_every_round_again(apps, schema_editor):
    # The code before this stored every round and ranked those whose digest moved: with no
    # digest stored and the standings behind, the next recompute (the beat's reconcile
    # sends it) writes them all.
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.update(standings_digests=[], standings_computed_at=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_standing_fillfactor"),
    ]

    operations = [migrations.RunPython(drop_past_rounds, store_every_round_again)]
