# One image for web, worker and beat.
FROM python:3.11-slim AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

RUN useradd --create-home --uid 1000 belote

COPY pyproject.toml README.md ./
COPY config ./config
COPY scoring ./scoring
COPY club ./club
COPY tournaments ./tournaments
RUN pip install .

COPY . .
# Static files and compiled translations belong to the image, not to the repository.
RUN DJANGO_SECRET_KEY=build-only python manage.py compile_translations \
    && DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput

USER belote
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
