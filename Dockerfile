# The Tuque Discord bot. Build: docker build -t tuque-bot .
# Run:   docker run --env-file .env -v tuque-data:/data tuque-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/tuque.db

RUN useradd --create-home --uid 10001 tuque \
    && mkdir /data && chown tuque:tuque /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY migrations ./migrations
# Editable install: the migration runner finds migrations/ beside the bot package.
RUN pip install -e .

USER tuque
VOLUME ["/data"]
ENTRYPOINT ["tuque-bot"]
