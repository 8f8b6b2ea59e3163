#!/usr/bin/env python3
"""standins: loopback stand-ins for the services Hibiki's channels talk to, for tests.

- ntfy: `POST /` with a JSON publish (ntfy's documented JSON publishing: topic, title,
  message, priority, click, actions), checking `Authorization: Bearer <token>` when the test
  set a token for the topic (401 otherwise), answering like ntfy with the message's JSON.
- A webhook receiver: `POST /hook/<name>` verified with the Standard Webhooks reference
  library (`standardwebhooks`) against the secret the test registered; 401 when it fails.
- The Telegram Bot API: `POST /bot<token>/<method>` (getMe, sendMessage with inline keyboards,
  answerCallbackQuery, setWebhook, getUpdates with long polling), 401 for another token;
  updates a person would cause are queued by the test (`POST /_telegram/updates`) or
  delivered to a webhook with the secret-token header (`POST /_telegram/deliver`).
- The LINE Messaging API: `GET /v2/bot/info`, `POST /v2/bot/message/push` and `/reply`,
  each checking `Authorization: Bearer <channel access token>` (401 otherwise) and the
  message shapes; webhook events are delivered signed as LINE signs them (base64
  HMAC-SHA256 of the body with the channel secret) by `POST /_line/deliver`.

Control API (JSON): `POST /_ntfy/<topic>/token {token}`, `POST /_hooks/<name>/secret
{secret}`, `POST /_fail/<name> {status}` (answer that status from then on; 0 clears),
`GET /_received?name=<topic or hook name>` -> {received: [...]}.

Usage: python standins.py --port 0. Prints "READY <port>" once it listens.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import urllib.error
import urllib.request
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
TELEGRAM = {"token": None, "username": "hibiki_test_bot", "updates": [], "next_id": 1}
LINE = {"token": None, "basic_id": "@hibiki-test"}
UPDATES = threading.Condition(LOCK)


def post_json(url: str, body: bytes, headers: dict) -> int:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


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
        if url.path == "/v2/bot/info":
            if not self.line_authorized():
                return
            return self.answer(200, {"userId": "Ubot0000", "basicId": LINE["basic_id"], "displayName": "Hibiki"})
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
        if parts[:1] == ["_telegram"]:
            return self.telegram_control(parts[1:], json.loads(raw or b"{}"))
        if parts[:1] == ["_line"]:
            return self.line_control(parts[1:], json.loads(raw or b"{}"))
        if len(parts) == 2 and parts[0].startswith("bot"):
            return self.telegram(parts[0][3:], parts[1], json.loads(raw or b"{}"))
        if url.path in ("/v2/bot/message/push", "/v2/bot/message/reply"):
            return self.line(url.path.rsplit("/", 1)[1], json.loads(raw or b"{}"))
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


    # Telegram -------------------------------------------------------------------------
    def telegram_control(self, parts, body):
        if parts == ["setup"]:
            TELEGRAM["token"] = body["token"]
            TELEGRAM["username"] = body.get("username", TELEGRAM["username"])
            return self.answer(200)
        if parts == ["updates"]:
            with UPDATES:
                update = dict(body, update_id=TELEGRAM["next_id"])
                TELEGRAM["next_id"] += 1
                TELEGRAM["updates"].append(update)
                UPDATES.notify_all()
            return self.answer(200, {"update_id": update["update_id"]})
        if parts == ["deliver"]:
            status = post_json(body["url"], json.dumps(body["update"]).encode(),
                               {"X-Telegram-Bot-Api-Secret-Token": body.get("secret", "")})
            return self.answer(200, {"status": status})
        self.answer(404)

    def telegram(self, token, method, body):
        if token != TELEGRAM["token"]:
            return self.answer(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        if method == "getMe":
            return self.answer(200, {"ok": True, "result": {"id": 1, "is_bot": True, "first_name": "Hibiki", "username": TELEGRAM["username"]}})
        if method == "sendMessage":
            chat_id, text = body.get("chat_id"), body.get("text")
            if not isinstance(chat_id, int) or not isinstance(text, str) or not text or len(text) > 4096:
                return self.answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: chat_id and text"})
            for row in (body.get("reply_markup") or {}).get("inline_keyboard", []):
                for button in row:
                    if len(button.get("callback_data", "").encode()) > 64:
                        return self.answer(400, {"ok": False, "error_code": 400, "description": "Bad Request: BUTTON_DATA_INVALID"})
            record(f"telegram:{chat_id}", {"message": body, "at": time.time()})
            return self.answer(200, {"ok": True, "result": {"message_id": 1, "chat": {"id": chat_id}, "text": text}})
        if method == "answerCallbackQuery":
            record("telegram-answers", body)
            return self.answer(200, {"ok": True, "result": True})
        if method == "setWebhook":
            record("telegram-webhook", body)
            return self.answer(200, {"ok": True, "result": True})
        if method == "getUpdates":
            offset = int(body.get("offset") or 0)
            deadline = time.time() + min(float(body.get("timeout") or 0), 1.0)
            with UPDATES:
                while True:
                    ready = [u for u in TELEGRAM["updates"] if u["update_id"] >= offset]
                    left = deadline - time.time()
                    if ready or left <= 0:
                        break
                    UPDATES.wait(left)
            return self.answer(200, {"ok": True, "result": ready})
        self.answer(404, {"ok": False, "error_code": 404, "description": "Not Found"})

    # LINE -----------------------------------------------------------------------------
    def line_authorized(self) -> bool:
        if self.headers.get("Authorization") != f"Bearer {LINE['token']}":
            self.answer(401, {"message": "Authentication failed. Confirm that the access token in the authorization header is valid."})
            return False
        return True

    def line_control(self, parts, body):
        if parts == ["setup"]:
            LINE["token"] = body["token"]
            LINE["basic_id"] = body.get("basic_id", LINE["basic_id"])
            return self.answer(200)
        if parts == ["deliver"]:
            raw = json.dumps({"destination": "Ubot0000", "events": body["events"]}).encode()
            key = body["secret"].encode()
            signature = base64.b64encode(hmac.new(key, raw, hashlib.sha256).digest()).decode()
            status = post_json(body["url"], raw, {"X-Line-Signature": signature})
            return self.answer(200, {"status": status})
        self.answer(404)

    def line(self, kind, body):
        if not self.line_authorized():
            return
        messages = body.get("messages")
        if not isinstance(messages, list) or not 1 <= len(messages) <= 5:
            return self.answer(400, {"message": "The request body has 1 error(s)", "details": [{"property": "messages"}]})
        for m in messages:
            template = m.get("template")
            if m.get("type") == "template" and (len(template.get("text", "")) > 160 or len(m.get("altText", "")) > 400):
                return self.answer(400, {"message": "The request body has 1 error(s)", "details": [{"property": "template.text"}]})
        if kind == "push":
            if not isinstance(body.get("to"), str):
                return self.answer(400, {"message": "The property, 'to', in the request body is invalid"})
            record(f"line:{body['to']}", {"messages": messages, "at": time.time()})
            return self.answer(200, {"sentMessages": [{"id": "1", "quoteToken": "q"}]})
        record("line-replies", body)
        self.answer(200, {})


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
