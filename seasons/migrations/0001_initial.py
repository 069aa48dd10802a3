# Season, Series and SeriesLine taken over from club/ (club 0004 lets go of them) and the
# tournaments' link to their series (tournaments 0020): in the state only, on the tables club/
# and tournaments/ created, so no row moves (docs/architecture.md, "How a model moves between
# apps").

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('club', '0004_seasons_and_series_move_to_seasons'),
        ('tournaments', '0020_series_evenings_declared_by_the_series'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('starts_on', models.DateField(verbose_name='starts on')),
                        ('ends_on', models.DateField(verbose_name='ends on')),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='club.club')),
                    ],
                    options={
                        'verbose_name': 'season',
                        'verbose_name_plural': 'seasons',
                        'ordering': ['club', '-starts_on'],
                        'db_table': 'club_season',
                    },
                ),
                migrations.CreateModel(
                    name='Series',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('points', models.CharField(choices=[('score', 'game points'), ('match_points', 'match points'), ('place', 'points per place')], default='place', max_length=12, verbose_name='points')),
                        ('place_points', models.JSONField(blank=True, default=list, verbose_name='points per place')),
                        ('participation_points', models.IntegerField(default=0, verbose_name='participation points')),
                        ('best_of', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='best of')),
                        ('absent_points', models.IntegerField(default=0, verbose_name='points for a missed evening')),
                        ('min_evenings', models.PositiveSmallIntegerField(default=0, verbose_name='minimum evenings')),
                        ('handicap', models.CharField(choices=[('none', 'none'), ('rating', 'by club rating')], default='none', max_length=8, verbose_name='handicap')),
                        ('computed_from', models.CharField(blank=True, editable=False, max_length=64)),
                        ('computed_at', models.DateTimeField(blank=True, null=True, verbose_name='computed at')),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='series', to='seasons.season')),
                        ('tournaments', models.ManyToManyField(blank=True, db_table='tournaments_tournament_series', related_name='series', to='tournaments.tournament', verbose_name='tournaments')),
                    ],
                    options={
                        'verbose_name': 'series',
                        'verbose_name_plural': 'series',
                        'ordering': ['season', 'name', 'pk'],
                        'db_table': 'club_series',
                    },
                ),
                migrations.CreateModel(
                    name='SeriesLine',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('position', models.PositiveIntegerField(verbose_name='position')),
                        ('rank', models.PositiveIntegerField(null=True, verbose_name='rank')),
                        ('shared_rank', models.BooleanField(default=False, verbose_name='shared rank')),
                        ('played', models.PositiveIntegerField(default=0, verbose_name='evenings played')),
                        ('total', models.IntegerField(default=0, verbose_name='total')),
                        ('handicap_total', models.IntegerField(default=0, verbose_name='handicap total')),
                        ('handicap_rank', models.PositiveIntegerField(null=True, verbose_name='handicap rank')),
                        ('needs', models.IntegerField(null=True, verbose_name='needs')),
                        ('evenings', models.JSONField(default=list, verbose_name='evenings')),
                        ('ranks', models.JSONField(default=list, verbose_name='ranks after each evening')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='series_lines', to='club.player')),
                        ('series', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lines', to='seasons.series')),
                    ],
                    options={
                        'verbose_name': 'series line',
                        'verbose_name_plural': 'series lines',
                        'ordering': ['series', 'position'],
                        'db_table': 'club_seriesline',
                    },
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.CheckConstraint(condition=models.Q(('ends_on__gte', models.F('starts_on'))), name='season_ends_after_it_starts'),
                ),
                migrations.AddConstraint(
                    model_name='seriesline',
                    constraint=models.UniqueConstraint(fields=('series', 'player'), name='series_line_once_per_player'),
                ),
            ],
            database_operations=[],
        ),
    ]
