from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PadConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "pad"
    verbose_name = _("Score pad")
