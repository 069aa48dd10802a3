"""Director forms: a tournament with its house rules (`tournament`), the prize table editor's
words (`prize_words`), pasted lists of players and teams, a team, members and referees
(`people`)."""

from .people import (
    MembersForm,
    PasteForm,
    RefereesForm,
    TeamForm,
    players_form,
    referee_choices,
    referees_form,
    teams_form,
)
from .prize_words import prize_editor_words, prize_path_words
from .tournament import TournamentForm, TournamentFormPart, add_tournament_form_part

__all__ = [
    "MembersForm",
    "PasteForm",
    "RefereesForm",
    "TeamForm",
    "TournamentForm",
    "TournamentFormPart",
    "add_tournament_form_part",
    "players_form",
    "prize_editor_words",
    "prize_path_words",
    "referee_choices",
    "referees_form",
    "teams_form",
]
