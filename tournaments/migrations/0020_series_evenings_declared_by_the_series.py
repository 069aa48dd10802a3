# The link between a tournament and its series is declared by the series now
# (seasons.Series.tournaments, the same table): state only, no SQL.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0019_past_rounds_not_stored'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name='tournament', name='series'),
            ],
            database_operations=[],
        ),
    ]
