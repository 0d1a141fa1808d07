# The Tuque Discord bot. Build: docker build -t tuque-bot .
# Run:   docker run --env-file .env -v tuque-data:/data tuque-bot

# Build stage: the full image has the C compiler and the Python headers, so the wheel
# carries the compiled rules core (setup.py). TUQUE_COMPILE=1: no silent fallback here.
FROM python:3.11 AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 TUQUE_COMPILE=1
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY bot ./bot
COPY migrations ./migrations
# The project's wheel and every dependency's, so the run stage installs offline.
RUN pip wheel --wheel-dir /wheels .

# Run stage: no compiler, no sources; the same Python as the build stage (the compiled
# modules are built for its ABI).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/tuque.db

RUN useradd --create-home --uid 10001 tuque \
    && mkdir /data && chown tuque:tuque /data

# A plain install from the wheels: the migrations ship inside the package, and the bot
# runs from site-packages only. Its start-up line names the compiled modules.
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-index --find-links /wheels tuque \
    && python -c "import engine, sys; sys.exit(not engine.compiled_modules())"

WORKDIR /home/tuque
USER tuque
VOLUME ["/data"]
# With METRICS_PORT set: healthy while /metrics answers and every shard is connected to
# Discord; unset, the check passes and says there is nothing to ask (bot/healthcheck.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.healthcheck"]
ENTRYPOINT ["tuque-bot"]
