# The Tuque Discord bot. Build: docker build -t tuque-bot .
# Run:   docker run --env-file .env -v tuque-data:/data tuque-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/tuque.db

RUN useradd --create-home --uid 10001 tuque \
    && mkdir /data && chown tuque:tuque /data

# A plain (non-editable) install: the migrations ship inside the package. The sources
# are removed afterwards, so the bot runs from site-packages only.
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY migrations ./migrations
RUN pip install . && rm -rf /src

WORKDIR /home/tuque
USER tuque
VOLUME ["/data"]
# With METRICS_PORT set: healthy while /metrics answers and every shard is connected to
# Discord; unset, the check passes and says there is nothing to ask (bot/healthcheck.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck"]
ENTRYPOINT ["tuque-bot"]
