# syntax=docker/dockerfile:1
#
# The one `hibiki` image: every process of a deployment (api, scheduler, worker, migrate, or the
# embedded `all`) runs from it, chosen by the command (`docker run IMAGE api`).
#
#   docker build -t hibiki:local .
#   docker run --rm -p 8080:8080 -v hibiki-data:/var/lib/hibiki hibiki:local   # embedded `all`
#
# Needs BuildKit (the default builder of current Docker): the cache mounts keep the cargo
# registry and target directory between builds.

############################ 1. the server (Rust) ############################
# Base images by version: a rebuild gets the same toolchains (bump them on purpose).
FROM rust:1.94-bookworm AS server
WORKDIR /src
# Only what the build reads (tests/ is left out: a test edit does not rebuild the image);
# .dockerignore keeps target/, node_modules/, data/ and .env out of the context.
COPY Cargo.toml Cargo.lock ./
COPY .cargo/ .cargo/
COPY src/ src/
COPY common/ common/
COPY api/ api/
COPY scheduler/ scheduler/
COPY worker/ worker/
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,target=/src/target,sharing=locked \
    cargo build --release --locked --bin hibiki \
 && install -D -m 0755 target/release/hibiki /out/hibiki

############################ 2. the web app (Vite) ###########################
FROM node:22.21-bookworm-slim AS web
WORKDIR /web
COPY web/package.json web/package-lock.json ./
# Exactly what the lock file says.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund --loglevel=error
COPY web/ ./
RUN npm run build

############################ 3. the runtime ##################################
FROM debian:12.12-slim AS runtime
# tzdata: reminders recur in their IANA time zone (jiff reads /usr/share/zoneinfo).
# ca-certificates: TLS to SMTP servers, PostgreSQL and push services.
# Unpinned on purpose: these two should be the current ones of bookworm at every build.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 hibiki \
 && useradd --system --uid 10001 --gid hibiki --home-dir /var/lib/hibiki --shell /usr/sbin/nologin hibiki \
 && install -d -o hibiki -g hibiki -m 0750 /var/lib/hibiki

# A dependency-free health probe (bash's /dev/tcp; no curl in the image):
#   hibiki-healthcheck PORT PATH [METHOD]  -> exit 0 on an HTTP 2xx answer.
# api:                 hibiki-healthcheck 8080 /api/health HEAD
# scheduler / worker:  hibiki-healthcheck 9464 /metrics GET
COPY --chmod=0755 <<'EOF' /usr/local/bin/hibiki-healthcheck
#!/bin/bash
set -eu
port="${1:-8080}" path="${2:-/api/health}" method="${3:-HEAD}"
exec 3<>"/dev/tcp/127.0.0.1/${port}"
printf '%s %s HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n' "$method" "$path" >&3
IFS= read -r -t 5 status <&3
case "$status" in
  "HTTP/1."?" 2"*) exit 0 ;;
  *) echo "unhealthy: ${status:-no answer}" >&2; exit 1 ;;
esac
EOF

COPY --from=server /out/hibiki /usr/local/bin/hibiki
COPY --from=web /web/dist /usr/share/hibiki/web

# Container defaults: listen on every interface of the container (HIBIKI_DEV_LOGIN is then
# refused, as it must be), the web app where the image put it, data under /var/lib/hibiki
# (mount a volume there for the embedded `all` mode), JSON logs.
ENV HIBIKI_LISTEN=0.0.0.0:8080 \
    HIBIKI_METRICS_LISTEN=0.0.0.0:9464 \
    HIBIKI_WEB_DIR=/usr/share/hibiki/web \
    HIBIKI_DATA_DIR=/var/lib/hibiki \
    HIBIKI_LOG_FORMAT=json

WORKDIR /var/lib/hibiki
USER 10001:10001
EXPOSE 8080 9464
STOPSIGNAL SIGTERM
ENTRYPOINT ["hibiki"]
CMD ["all"]
