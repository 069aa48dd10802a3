import secrets

from django.db import migrations, models

import tournaments.models.tournament


def give_each_its_own(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for pk in Tournament.objects.values_list("pk", flat=True):
        Tournament.objects.filter(pk=pk).update(door_key=secrets.token_urlsafe(12))


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0021_registration_moves_to_entries"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="door_key",
            field=models.CharField(default="", editable=False, max_length=32, verbose_name="door code"),
            preserve_default=False,
        ),
        migrations.RunPython(give_each_its_own, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="door_key",
            field=models.CharField(
                default=tournaments.models.tournament.new_door_key,
                editable=False,
                max_length=32,
                verbose_name="door code",
            ),
        ),
    ]
