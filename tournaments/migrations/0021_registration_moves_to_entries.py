# The online registration moved to the entries app with its table and rows: here it leaves
# this app's state only (entries/migrations/0001 takes it into its own); no SQL runs.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0020_series_evenings_declared_by_the_series'),
        ('entries', '0001_registration_from_tournaments'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='Registration')],
            database_operations=[],
        ),
    ]
