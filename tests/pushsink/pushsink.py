#!/usr/bin/env python3
"""pushsink: a loopback Web Push service that checks what it receives.

It plays the part of a push service (RFC 8030) for tests: it hands out
subscriptions (P-256 key pair + auth secret), and for every push it gets it
checks the VAPID authorization (RFC 8292), decrypts the aes128gcm body
(RFC 8188 / RFC 8291) and records the outcome, which tests read back through a
small JSON control API. See README.md beside this file.

Usage: python pushsink.py --port 0 [--host 127.0.0.1] [--verbose]
Prints exactly one line "READY <port>" on stdout once it listens.
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import secrets
import select
import socket
import signal
import struct
import sys
import threading
import time
import traceback
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

MAX_PUSH_BODY = 4096  # what real push services accept (RFC 8291 section 4)
MAX_READ_BODY = 1 << 20  # bodies above this are not even read
MAX_JWT_LIFETIME = 24 * 60 * 60  # RFC 8292 section 2
URGENCIES = ("very-low", "low", "normal", "high")  # RFC 8030 section 5.3
_B64URL_RE = re.compile(r"^[A-Za-z0-9_-]*$")
_TOPIC_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # RFC 8030 section 5.4
_AUTH_SCHEME_RE = re.compile(r"^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?:\s+(.*))?$", re.S)


class Reject(Exception):
    """A push that failed a check: answered with `status`, recorded with `reason`."""

    def __init__(self, status: int, reason: str, detail: str = ""):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.detail = detail or reason


class BodyError(Exception):
    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str, allow_padding: bool = False) -> bytes:
    if allow_padding:
        text = text.rstrip("=")
    if not _B64URL_RE.match(text) or len(text) % 4 == 1:
        raise ValueError("not base64url (unpadded)")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def uncompressed_point(public_key: ec.EllipticCurvePublicKey) -> bytes:
    return public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def load_p256_point(raw: bytes) -> ec.EllipticCurvePublicKey:
    if len(raw) != 65 or raw[0] != 0x04:
        raise ValueError("not a 65-byte uncompressed P-256 point")
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)


# ---------------------------------------------------------------------------
# State


class Subscription:
    def __init__(self, sub_id: str, application_server_key: bytes | None):
        self.id = sub_id
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.public_raw = uncompressed_point(self.private_key.public_key())
        self.auth = secrets.token_bytes(16)
        self.application_server_key = application_server_key
        self.behavior: dict | None = None
        self.remaining: int | None = None  # None = every future push

    def describe(self, origin: str) -> dict:
        return {
            "id": self.id,
            "endpoint": f"{origin}/push/{self.id}",
            "keys": {"p256dh": b64url_encode(self.public_raw), "auth": b64url_encode(self.auth)},
        }


class State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.subs: dict[str, Subscription] = {}
        self.gone: set[str] = set()
        self.received: list[dict] = []
        self.rejected: list[dict] = []

    def take_behavior(self, sub: Subscription) -> dict | None:
        """The behavior for one push (consumes one of its `times`)."""
        with self.lock:
            behavior = sub.behavior
            if behavior is None:
                return None
            if sub.remaining is not None:
                sub.remaining -= 1
                if sub.remaining <= 0:
                    sub.behavior, sub.remaining = None, None
            return behavior


def parse_behavior(obj) -> tuple[dict | None, int | None]:
    if not isinstance(obj, dict):
        raise ValueError("body must be a JSON object")
    unknown = set(obj) - {"status", "retry_after", "delay_ms", "times", "hang"}
    if unknown:
        raise ValueError(f"unknown fields: {sorted(unknown)}")
    status = obj.get("status")
    if status is not None and (type(status) is not int or not 200 <= status <= 599):
        raise ValueError("status must be an integer in 200..599")
    retry_after = obj.get("retry_after")
    if retry_after is not None:
        if type(retry_after) is int and retry_after >= 0:
            retry_after = str(retry_after)
        elif not isinstance(retry_after, str) or not retry_after or "\n" in retry_after or "\r" in retry_after:
            raise ValueError("retry_after must be a non-negative integer or an HTTP-date string")
    delay_ms = obj.get("delay_ms")
    if delay_ms is not None and (type(delay_ms) not in (int, float) or delay_ms < 0):
        raise ValueError("delay_ms must be a non-negative number")
    times = obj.get("times")
    if times is not None and (type(times) is not int or times < 0):
        raise ValueError("times must be a non-negative integer")
    hang = obj.get("hang", False)
    if type(hang) is not bool:
        raise ValueError("hang must be a boolean")
    behavior = {
        "status": status if status is not None else 201,
        "retry_after": retry_after,
        "delay_ms": delay_ms or 0,
        "hang": hang,
    }
    if times == 0:
        return None, None
    return behavior, times


# ---------------------------------------------------------------------------
# Checks


def check_headers(headers) -> dict:
    encodings = headers.get_all("Content-Encoding") or []
    if len(encodings) != 1 or encodings[0].strip().lower() != "aes128gcm":
        raise Reject(400, "bad content-encoding", f"Content-Encoding must be aes128gcm, got {encodings!r}")
    ttls = headers.get_all("TTL") or []
    if len(ttls) != 1 or not re.fullmatch(r"[0-9]+", ttls[0].strip()):
        raise Reject(400, "bad ttl", f"TTL must be one non-negative integer, got {ttls!r}")
    urgency = headers.get("Urgency")
    if urgency is not None:
        urgency = urgency.strip()
        if urgency not in URGENCIES:
            raise Reject(400, "bad urgency", f"Urgency must be one of {URGENCIES}, got {urgency!r}")
    topic = headers.get("Topic")
    if topic is not None:
        topic = topic.strip()
        if not _TOPIC_RE.match(topic):
            raise Reject(400, "bad topic", f"Topic must be 1..32 base64url characters, got {topic!r}")
    return {
        "ttl": int(ttls[0].strip()),
        "urgency": urgency,
        "topic": topic,
        "content_encoding": encodings[0].strip(),
    }


def check_vapid(authorization: str | None, origin: str, sub: Subscription) -> dict:
    def bad(reason: str, detail: str, status: int = 401):
        return Reject(status, "vapid: " + reason, detail)

    if authorization is None:
        raise bad("missing authorization", "no Authorization header")
    m = _AUTH_SCHEME_RE.match(authorization)
    if not m or m.group(1).lower() != "vapid":
        raise bad("malformed authorization", "Authorization scheme must be 'vapid' (RFC 8292)")
    params: dict[str, str] = {}
    for part in (m.group(2) or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        name, value = name.strip().lower(), value.strip()
        if not sep or not name or name in params:
            raise bad("malformed authorization", f"bad or repeated auth-param {part[:40]!r}")
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        params[name] = value
    if "t" not in params or "k" not in params:
        raise bad("malformed authorization", "Authorization needs both t= and k=")

    try:
        key_raw = b64url_decode(params["k"], allow_padding=True)
        key = load_p256_point(key_raw)
    except ValueError as e:
        raise bad("bad key", f"k is not a base64url uncompressed P-256 point: {e}")

    pieces = params["t"].split(".")
    if len(pieces) != 3:
        raise bad("bad jwt", "token is not three dot-separated parts")
    try:
        header = json.loads(b64url_decode(pieces[0]))
        claims = json.loads(b64url_decode(pieces[1]))
        signature = b64url_decode(pieces[2])
    except (ValueError, UnicodeDecodeError) as e:
        raise bad("bad jwt", f"token part is not base64url JSON: {e}")
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise bad("bad jwt", "token header and claims must be JSON objects")
    if header.get("alg") != "ES256":
        raise bad("bad jwt", f"alg must be ES256, got {header.get('alg')!r}")
    if "typ" in header and header["typ"] != "JWT":
        raise bad("bad jwt", f"typ must be JWT, got {header['typ']!r}")
    extra = set(header) - {"alg", "typ"}
    if extra:
        raise bad("bad jwt", f"unexpected JWT header fields {sorted(extra)}")

    if len(signature) != 64:
        raise bad("bad signature", f"ES256 signature must be 64 bytes (r||s), got {len(signature)}")
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        key.verify(der, f"{pieces[0]}.{pieces[1]}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise bad("bad signature", "ES256 signature does not verify with k")

    aud = claims.get("aud")
    if aud != origin:
        hint = ""
        if isinstance(aud, str) and origin.startswith(aud + ":"):
            hint = " (the origin includes the port; a client that builds aud from the host alone drops it)"
        raise bad("aud mismatch", f"aud must be {origin!r}, got {aud!r}{hint}")
    exp = claims.get("exp")
    if type(exp) not in (int, float):
        raise bad("bad jwt", f"exp must be a number, got {exp!r}")
    now = time.time()
    if exp <= now:
        raise bad("expired", f"exp {exp} is not in the future (now {now:.0f})")
    if exp > now + MAX_JWT_LIFETIME:
        raise bad("exp too far", f"exp {exp} is more than 24h ahead (now {now:.0f})")
    subject = claims.get("sub")
    if not isinstance(subject, str) or not (subject.startswith("mailto:") or subject.startswith("https://")):
        raise bad("bad sub", f"sub must start with mailto: or https://, got {subject!r}")

    if sub.application_server_key is not None and key_raw != sub.application_server_key:
        raise bad("key mismatch", "k is not the applicationServerKey of this subscription", 403)

    return {"sub": subject, "aud": aud, "exp": exp, "public_key": params["k"]}


def decrypt_push(body: bytes, sub: Subscription) -> tuple[bytes, int]:
    if len(body) > MAX_PUSH_BODY:
        raise Reject(413, "payload too large", f"body is {len(body)} bytes, limit {MAX_PUSH_BODY}")

    def fail(detail: str):
        return Reject(400, "decryption failed", detail)

    # aes128gcm header (RFC 8188 2.1): salt(16) rs(4) idlen(1) keyid(idlen)
    if len(body) < 21:
        raise fail(f"body too short for an aes128gcm header ({len(body)} bytes)")
    rs = struct.unpack("!I", body[16:20])[0]
    idlen = body[20]
    if idlen != 65:
        raise fail(f"keyid must be the 65-byte sender public key (RFC 8291), idlen={idlen}")
    if len(body) < 21 + idlen:
        raise fail("body truncated inside the keyid")
    try:
        load_p256_point(body[21 : 21 + idlen])
    except ValueError as e:
        raise fail(f"keyid is not a P-256 public key: {e}")
    record_len = len(body) - 21 - idlen
    if rs < 18:
        raise fail(f"record size {rs} below the minimum 18")
    if record_len < 17:
        raise fail(f"ciphertext too short for one record ({record_len} bytes)")
    if record_len >= rs:
        raise fail(f"push messages must be one record: rs={rs} must exceed the record length {record_len}")
    try:
        plaintext = http_ece.decrypt(
            body, private_key=sub.private_key, auth_secret=sub.auth, version="aes128gcm"
        )
    except http_ece.ECEException as e:
        raise fail(e.message)
    except Exception as e:  # noqa: BLE001 - anything from malformed input
        raise fail(f"{type(e).__name__}: {e}")
    return plaintext, rs


def parse_payload(plaintext: bytes):
    try:
        return json.loads(plaintext.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        try:
            return {"_text": plaintext.decode("utf-8")}
        except UnicodeDecodeError:
            return {
                "_text": plaintext.decode("utf-8", errors="replace"),
                "_base64": base64.b64encode(plaintext).decode("ascii"),
            }


# ---------------------------------------------------------------------------
# HTTP


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    server_version = "pushsink/1"

    def version_string(self) -> str:
        return self.server_version
    disable_nagle_algorithm = True
    server: "PushSinkServer"

    # -- plumbing -----------------------------------------------------------

    def log_message(self, format, *args):  # noqa: A002 - stdlib signature
        if self.server.verbose:
            sys.stderr.write("pushsink: %s %s\n" % (self.address_string(), format % args))

    def send_json(self, status: int, obj, headers: dict | None = None) -> None:
        data = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def read_body(self) -> bytes:
        te = self.headers.get("Transfer-Encoding")
        if te is not None:
            if te.strip().lower() != "chunked":
                raise BodyError(501, f"unsupported Transfer-Encoding {te!r}")
            data = bytearray()
            while True:
                line = self.rfile.readline(65537)
                try:
                    size = int(line.split(b";", 1)[0].strip(), 16)
                except ValueError:
                    raise BodyError(400, "bad chunk size line")
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(data)
                if len(data) + size > MAX_READ_BODY:
                    raise BodyError(413, "body too large")
                chunk = self.rfile.read(size)
                if len(chunk) != size:
                    raise BodyError(400, "truncated chunk")
                data += chunk
                self.rfile.readline(65537)
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        if not re.fullmatch(r"\s*[0-9]+\s*", length):
            raise BodyError(400, "bad Content-Length")
        n = int(length)
        if n > MAX_READ_BODY:
            raise BodyError(413, "body too large")
        data = self.rfile.read(n)
        if len(data) != n:
            raise BodyError(400, "truncated body")
        return data

    def dispatch(self, method: str) -> None:
        t0 = time.time()  # the request line and headers have just been read
        try:
            try:
                body = self.read_body()
            except BodyError as e:
                self.close_connection = True
                path = urlsplit(self.path).path
                if method == "POST" and path.startswith("/push/"):
                    self.record_rejected(path[len("/push/"):], e.status, "bad body", e.detail, t0)
                self.send_json(e.status, {"error": e.detail})
                return
            url = urlsplit(self.path)
            parts = [p for p in url.path.split("/") if p]
            query = parse_qs(url.query)
            if method == "POST" and len(parts) == 2 and parts[0] == "push":
                self.handle_push(parts[1], body, t0)
            else:
                self.handle_control(method, parts, query, body)
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception:  # noqa: BLE001 - keep serving, report the bug
            traceback.print_exc(file=sys.stderr)
            self.close_connection = True
            try:
                self.send_json(500, {"error": "internal error in pushsink"})
            except OSError:
                pass

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_DELETE(self):
        self.dispatch("DELETE")

    def do_PUT(self):
        self.dispatch("PUT")

    # -- control API --------------------------------------------------------

    def handle_control(self, method: str, parts: list[str], query: dict, body: bytes) -> None:
        state = self.server.state
        try:
            payload = json.loads(body) if body.strip() else None
        except ValueError:
            self.send_json(400, {"error": "body is not JSON"})
            return

        if parts == ["_health"] and method == "GET":
            self.send_json(200, {"ok": True})
        elif parts == ["_subscriptions"] and method == "POST":
            self.create_subscriptions(payload)
        elif len(parts) == 2 and parts[0] == "_subscriptions" and method == "DELETE":
            with state.lock:
                sub = state.subs.pop(parts[1], None)
                known = sub is not None or parts[1] in state.gone
                if known:
                    state.gone.add(parts[1])
            if known:
                self.send_json(200, {"deleted": parts[1]})
            else:
                self.send_json(404, {"error": "unknown subscription"})
        elif len(parts) == 3 and parts[0] == "_subscriptions" and parts[2] == "behavior" and method in ("POST", "DELETE"):
            try:
                behavior, times = parse_behavior(payload if method == "POST" and payload is not None else {"times": 0})
            except ValueError as e:
                self.send_json(400, {"error": str(e)})
                return
            with state.lock:
                sub = state.subs.get(parts[1])
                if sub is not None:
                    sub.behavior, sub.remaining = behavior, times
            if sub is None:
                self.send_json(404, {"error": "unknown subscription"})
            else:
                self.send_json(200, {"id": sub.id, "behavior": behavior, "times": times})
        elif parts in (["_received"], ["_rejected"]) and method == "GET":
            wanted = query.get("sub", [None])[-1]
            with state.lock:
                records = state.received if parts == ["_received"] else state.rejected
                items = [r for r in records if wanted is None or r["sub"] == wanted]
                answer = {parts[0][1:]: items}
            self.send_json(200, answer)  # records are never mutated once appended
        elif parts in (["_received"], ["_rejected"]) and method == "DELETE":
            with state.lock:
                state.received.clear()
                state.rejected.clear()
            self.send_json(200, {"cleared": True})
        else:
            self.send_json(404, {"error": f"no such control route: {method} {self.path}"})

    def create_subscriptions(self, payload) -> None:
        payload = payload if payload is not None else {}
        if not isinstance(payload, dict):
            self.send_json(400, {"error": "body must be a JSON object"})
            return
        count = payload.get("count")
        if count is not None and (type(count) is not int or not 1 <= count <= 10000):
            self.send_json(400, {"error": "count must be an integer in 1..10000"})
            return
        app_key = payload.get("application_server_key")
        if app_key is not None:
            try:
                app_key = b64url_decode(app_key, allow_padding=True)
                load_p256_point(app_key)
            except (ValueError, TypeError, AttributeError):
                self.send_json(400, {"error": "application_server_key must be a base64url uncompressed P-256 point"})
                return
        subs = [Subscription(uuid.uuid4().hex, app_key) for _ in range(count or 1)]
        state = self.server.state
        with state.lock:
            for sub in subs:
                state.subs[sub.id] = sub
        described = [s.describe(self.server.origin) for s in subs]
        self.send_json(201, described[0] if count is None else {"subscriptions": described})

    # -- push endpoint ------------------------------------------------------

    def record_rejected(self, sub_id: str, status: int, reason: str, detail: str, t0: float) -> None:
        with self.server.state.lock:
            self.server.state.rejected.append(
                {"sub": sub_id, "reason": reason, "detail": detail, "status": status, "received_at": t0}
            )

    def handle_push(self, sub_id: str, body: bytes, t0: float) -> None:
        state = self.server.state
        try:
            with state.lock:
                sub = state.subs.get(sub_id)
                gone = sub_id in state.gone
            if sub is None:
                if gone:
                    raise Reject(410, "gone", "subscription was deleted")
                raise Reject(404, "unknown subscription", "no such subscription")
            headers = check_headers(self.headers)
            vapid = check_vapid(self.headers.get("Authorization"), self.server.origin, sub)
            plaintext, rs = decrypt_push(body, sub)
        except Reject as r:
            self.record_rejected(sub_id, r.status, r.reason, r.detail, t0)
            self.send_json(r.status, {"code": r.status, "error": r.reason, "detail": r.detail})
            return

        behavior = state.take_behavior(sub) or {"status": 201, "retry_after": None, "delay_ms": 0, "hang": False}
        status = None if behavior["hang"] else behavior["status"]
        held = bool(behavior["delay_ms"]) and not behavior["hang"]
        record = {
            "sub": sub_id,
            "received_at": t0,
            "payload": parse_payload(plaintext),
            # A held push has no answer yet: its status is set when the answer goes out.
            "status": None if held else status,
            "pending": held,
            "headers": headers,
            "vapid": vapid,
            "body_bytes": len(body),
            "record_size": rs,
        }
        with state.lock:
            state.received.append(record)

        if behavior["hang"]:
            self.hang()
            return
        if behavior["delay_ms"] and self.server.stopping.wait(behavior["delay_ms"] / 1000.0):
            self.close_connection = True
            return
        if self.peer_closed():
            # The sender is gone (killed mid-send): it never learns that this push was
            # accepted, so the push is not; a retry of it is not a duplicate.
            with state.lock:
                record["status"] = None
                record["pending"] = False
                record["aborted"] = True
            self.close_connection = True
            return
        with state.lock:
            record["status"] = status
            record["pending"] = False
        extra = {}
        if status == 201:
            extra["Location"] = f"{self.server.origin}/message/{uuid.uuid4().hex}"
            extra["TTL"] = str(headers["ttl"])
        if behavior["retry_after"] is not None:
            extra["Retry-After"] = behavior["retry_after"]
        if 200 <= status < 300:
            answer = {}
        else:
            answer = {"code": status, "error": "configured behavior"}
        self.send_json(status, answer, extra)

    def peer_closed(self) -> bool:
        """True when the client has closed its side of the connection."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and not self.connection.recv(1, socket.MSG_PEEK)
        except (OSError, ValueError):
            return True

    def hang(self) -> None:
        """Never answer: wait until the client closes the connection (or we stop)."""
        self.close_connection = True
        sock = self.connection
        sock.settimeout(None)
        while not self.server.stopping.is_set():
            try:
                readable, _, _ = select.select([sock], [], [], 0.25)
                if readable and not sock.recv(65536):
                    return  # client gave up
            except (OSError, ValueError):
                return


class PushSinkServer(ThreadingHTTPServer):
    request_queue_size = 1024  # listen backlog (the kernel caps it at somaxconn)
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, address, verbose: bool):
        if ":" in address[0]:
            import socket

            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.verbose = verbose
        self.state = State()
        self.stopping = threading.Event()
        host = address[0]
        port = self.server_address[1]
        self.origin = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)) and not self.verbose:
            return
        super().handle_error(request, client_address)


def raise_fd_limit() -> None:
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = hard if hard != resource.RLIM_INFINITY else 65536
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Loopback Web Push service for tests.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--verbose", action="store_true", help="log requests to stderr")
    args = parser.parse_args(argv)

    raise_fd_limit()
    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    server = PushSinkServer((args.host, args.port), args.verbose)
    serving = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    serving.start()
    sys.stdout.write(f"READY {server.server_address[1]}\n")
    sys.stdout.flush()

    while not stop.wait(0.5):
        pass
    server.stopping.set()
    server.shutdown()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
