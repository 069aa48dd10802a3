"""Signals that keep derived state fresh when rows change outside the services (the admin)."""
