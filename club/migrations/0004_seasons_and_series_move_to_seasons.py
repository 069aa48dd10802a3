# Season, Series and SeriesLine now belong to seasons/ (seasons 0001 takes them over in its
# state); their tables and rows stay where they are: state only, no SQL.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0003_seasons_and_series'),
        # The tournaments' link to club.Series leaves the state first.
        ('tournaments', '0020_series_evenings_declared_by_the_series'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='SeriesLine'),
                migrations.DeleteModel(name='Series'),
                migrations.DeleteModel(name='Season'),
            ],
            database_operations=[],
        ),
    ]
