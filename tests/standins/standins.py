#!/usr/bin/env python3
"""standins: loopback stand-ins for the services Hibiki's channels talk to, for tests.

- ntfy: `POST /` with a JSON publish (ntfy's documented JSON publishing: topic, title,
  message, priority, click, actions), checking `Authorization: Bearer <token>` when the test
  set a token for the topic (401 otherwise), answering like ntfy with the message's JSON.
- A webhook receiver: `POST /hook/<name>` verified with the Standard Webhooks reference
  library (`standardwebhooks`) against the secret the test registered; 401 when it fails.

Control API (JSON): `POST /_ntfy/<topic>/token {token}`, `POST /_hooks/<name>/secret
{secret}`, `POST /_fail/<name> {status}` (answer that status from then on; 0 clears),
`GET /_received?name=<topic or hook name>` -> {received: [...]}.

Usage: python standins.py --port 0. Prints "READY <port>" once it listens.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

LOCK = threading.Lock()
TOKENS: dict[str, str] = {}
SECRETS: dict[str, str] = {}
FAIL: dict[str, int] = {}
RECEIVED: dict[str, list] = {}


def record(name: str, item: dict) -> None:
    with LOCK:
        RECEIVED.setdefault(name, []).append(item)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def answer(self, status: int, body: dict | None = None) -> None:
        data = json.dumps(body if body is not None else {}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self) -> bytes:
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/_received":
            name = parse_qs(url.query).get("name", [""])[0]
            with LOCK:
                items = list(RECEIVED.get(name, []))
            return self.answer(200, {"received": items})
        self.answer(404, {"error": "not found"})

    def do_POST(self):
        url = urlsplit(self.path)
        raw = self.body()
        parts = [p for p in url.path.split("/") if p]
        if len(parts) == 3 and parts[0] == "_ntfy" and parts[2] == "token":
            TOKENS[parts[1]] = json.loads(raw)["token"]
            return self.answer(200)
        if len(parts) == 3 and parts[0] == "_hooks" and parts[2] == "secret":
            SECRETS[parts[1]] = json.loads(raw)["secret"]
            return self.answer(200)
        if len(parts) == 2 and parts[0] == "_fail":
            FAIL[parts[1]] = int(json.loads(raw).get("status", 0))
            return self.answer(200)
        if url.path == "/":
            return self.ntfy(raw)
        if len(parts) == 2 and parts[0] == "hook":
            return self.hook(parts[1], raw)
        self.answer(404, {"error": "not found"})

    def ntfy(self, raw: bytes):
        try:
            message = json.loads(raw)
        except ValueError:
            return self.answer(400, {"code": 40001, "error": "invalid request: body must be JSON"})
        topic = message.get("topic")
        if not isinstance(topic, str) or not topic:
            return self.answer(400, {"code": 40009, "error": "invalid request: topic missing"})
        expected = TOKENS.get(topic)
        if expected is not None and self.headers.get("Authorization") != f"Bearer {expected}":
            record(topic, {"rejected": "unauthorized"})
            return self.answer(401, {"code": 40101, "error": "unauthorized"})
        if FAIL.get(topic):
            return self.answer(FAIL[topic], {"error": "failing on purpose"})
        record(topic, {"message": message, "at": time.time()})
        self.answer(200, {"id": "m1", "time": int(time.time()), "event": "message", "topic": topic,
                          "title": message.get("title"), "message": message.get("message")})

    def hook(self, name: str, raw: bytes):
        if FAIL.get(name):
            return self.answer(FAIL[name], {"error": "failing on purpose"})
        secret = SECRETS.get(name)
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            if secret is None:
                raise WebhookVerificationError("no secret registered")
            payload = Webhook(secret).verify(raw, headers)
        except (WebhookVerificationError, ValueError) as e:
            record(name, {"rejected": str(e)})
            return self.answer(401, {"error": "bad signature"})
        record(name, {"payload": payload, "id": headers.get("webhook-id"), "at": time.time()})
        self.answer(200, {"ok": True})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"READY {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
