# One image for web, worker and beat.

# Pyodide for the engine on the phone (docs/offline.md), at the version package-lock.json pins.
FROM node:20-slim AS pyodide
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

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
COPY --from=pyodide /app/node_modules/pyodide ./node_modules/pyodide
# Static files, the engine for the phone and compiled translations belong to the image, not to
# the repository.
RUN DJANGO_SECRET_KEY=build-only python manage.py compile_translations \
    && DJANGO_SECRET_KEY=build-only python manage.py build_engine_bundle \
    && DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput

USER belote
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
