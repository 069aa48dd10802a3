"""The REST API of tournaments: serializers, viewsets, permissions, filters, errors and ETags."""
