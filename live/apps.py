from django.apps import AppConfig


class LiveConfig(AppConfig):
    # No models and no admin: nothing of it is shown under the app's name.
    name = "live"
