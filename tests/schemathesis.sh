#!/usr/bin/env bash
# A bounded schema-driven fuzz of the published OpenAPI document: the real `hibiki` on
# PostgreSQL (the backend that refuses NUL in text) with Redis queues, a bearer token from
# the developer shortcut, and schemathesis checking that no answer is a 5xx and every answer
# matches the document (status code, content type, schema). Also validates the document
# against OpenAPI 3.1.
#
# Needs: HIBIKI_BIN (the built binary), HIBIKI_TEST_PYTHON (a Python with schemathesis and
# openapi-spec-validator), PostgreSQL and Redis as for the other tests.
set -euo pipefail
bin="${HIBIKI_BIN:?set HIBIKI_BIN}"
py="${HIBIKI_TEST_PYTHON:?set HIBIKI_TEST_PYTHON}"
pg_admin="${HIBIKI_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
redis="${HIBIKI_TEST_REDIS_URL:-redis://127.0.0.1:6379}"
dir=$(mktemp -d)
db="hibiki_schema_$(date +%s)_$$"
port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
psql "$pg_admin" -qc "CREATE DATABASE $db" >/dev/null
HIBIKI_DATA_DIR="$dir/data" HIBIKI_LISTEN="127.0.0.1:$port" HIBIKI_PUBLIC_URL="http://127.0.0.1:$port" \
  HIBIKI_DATABASE_URL="${pg_admin%/*}/$db" HIBIKI_REDIS_URL="$redis" HIBIKI_QUEUE_NAMESPACE="schema-$$" \
  HIBIKI_METRICS_LISTEN=off HIBIKI_DEV_LOGIN=1 HIBIKI_ADMIN_EMAILS=dev@example.com \
  HIBIKI_AUTH_RATE_PER_MINUTE=100000 HIBIKI_API_RATE_PER_MINUTE=100000 \
  "$bin" >"$dir/hibiki.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  curl -fsI "http://127.0.0.1:$port/api/health" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fs "http://127.0.0.1:$port/api/openapi.json" >"$dir/openapi.json"
"$py" - "$dir/openapi.json" <<'PY'
import json, sys
from openapi_spec_validator import validate
validate(json.load(open(sys.argv[1])))
print("openapi.json: a valid OpenAPI 3.1 document")
PY
token=$(curl -fs -X POST "http://127.0.0.1:$port/api/auth/dev-login" -H 'content-type: application/json' \
  -d '{"email":"dev@example.com"}' | "$py" -c 'import json, sys; print(json.load(sys.stdin)["data"]["access_token"])')
# Account deletion and sign-out would end the token the rest of the run needs.
"$(dirname "$py")/schemathesis" run "http://127.0.0.1:$port/api/openapi.json" \
  -H "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing --max-examples "${HIBIKI_SCHEMATHESIS_EXAMPLES:-25}" \
  --exclude-path /api/account --exclude-path /api/auth/logout \
  --seed 1 --workers 2 --no-color 2>&1 | tail -n 25
