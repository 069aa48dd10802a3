# A calendar year's ranking line is not a season (seasons/ holds those): SeasonEntry becomes
# YearRanking and its `season` its `year`. Renames only: the rows stay.

from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0004_seasons_and_series_move_to_seasons'),
    ]

    operations = [
        migrations.RemoveConstraint(model_name='seasonentry', name='season_entry_once_per_player'),
        migrations.RenameModel(old_name='SeasonEntry', new_name='YearRanking'),
        migrations.RenameField(model_name='yearranking', old_name='season', new_name='year'),
        migrations.AlterModelOptions(
            name='yearranking',
            options={'ordering': ['club', '-year', 'average_place', 'player'], 'verbose_name': 'year ranking line', 'verbose_name_plural': 'year ranking lines'},
        ),
        migrations.AlterField(
            model_name='yearranking',
            name='year',
            field=models.PositiveSmallIntegerField(verbose_name='year'),
        ),
        migrations.AlterField(
            model_name='yearranking',
            name='club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='year_rankings', to='club.club'),
        ),
        migrations.AlterField(
            model_name='yearranking',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='year_rankings', to='club.player'),
        ),
        migrations.AddConstraint(
            model_name='yearranking',
            constraint=models.UniqueConstraint(fields=('club', 'year', 'player'), name='year_ranking_once_per_player'),
        ),
    ]
