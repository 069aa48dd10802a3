# The online registration, moved from tournaments with its table (tournaments_registration)
# and rows: the model enters this app's state only; tournaments/0020 leaves that app's. No SQL.

import django.db.models.deletion
from django.db import migrations, models

import entries.models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0019_past_rounds_not_stored'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Registration',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(default=entries.models.new_registration_key, editable=False, max_length=32, unique=True)),
                        ('status', models.CharField(choices=[('registered', 'registered'), ('waiting', 'on the waiting list'), ('accepted', 'accepted'), ('cancelled', 'cancelled')], default='registered', max_length=12, verbose_name='status')),
                        ('player', models.CharField(max_length=161, verbose_name='player')),
                        ('partner', models.CharField(blank=True, max_length=161, verbose_name='partner')),
                        ('partner_wanted', models.BooleanField(default=False, verbose_name='partner wanted')),
                        ('email', models.EmailField(blank=True, max_length=254, verbose_name='e-mail')),
                        ('phone', models.CharField(blank=True, max_length=30, verbose_name='phone')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='registered at')),
                        ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='accepted or cancelled at')),
                        ('entrant', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='tournaments.entrant', verbose_name='entrant')),
                        ('paired_with', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='entries.registration', verbose_name='paired with')),
                        ('team', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to='tournaments.team', verbose_name='team')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'online registration',
                        'verbose_name_plural': 'online registrations',
                        'ordering': ['tournament', 'created_at', 'id'],
                        'db_table': 'tournaments_registration',
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
