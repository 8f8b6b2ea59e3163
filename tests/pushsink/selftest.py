#!/usr/bin/env python3
"""Self-test for pushsink.py.

Starts pushsink.py as a subprocess and talks to it with pywebpush (py_vapid +
http_ece), an implementation independent of the sink's checks, plus hand-built
bad requests. Prints one line per check and, last, "N passed, M failed".
Exits non-zero when anything failed.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback

import http_ece
import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from py_vapid import Vapid02
from pywebpush import WebPusher, webpush

HERE = os.path.dirname(os.path.abspath(__file__))
SINK = os.path.join(HERE, "pushsink.py")
CONTACT = "mailto:selftest@example.com"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def raw_public(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def make_jwt(signing_key, claims: dict, header: dict | None = None) -> str:
    """A hand-rolled ES256 JWT, so the tests can produce bad ones on purpose."""
    head = b64url(json.dumps(header or {"typ": "JWT", "alg": "ES256"}, separators=(",", ":")).encode())
    body = b64url(json.dumps(claims, separators=(",", ":")).encode())
    der = signing_key.sign(f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    return f"{head}.{body}.{b64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


class Sink:
    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, SINK, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=sys.stderr,
            text=True,
        )
        line = self.proc.stdout.readline()
        if not line.startswith("READY "):
            self.proc.kill()
            raise RuntimeError(f"pushsink did not print READY, got {line!r}")
        self.port = int(line.split()[1])
        self.origin = f"http://127.0.0.1:{self.port}"
        self.http = requests.Session()
        self.stdout_rest = None

    def api(self, method: str, path: str, body=None) -> requests.Response:
        return self.http.request(method, self.origin + path, json=body, timeout=10)

    def new_sub(self, **extra) -> dict:
        r = self.api("POST", "/_subscriptions", extra or None)
        assert r.status_code == 201, r.text
        return r.json()

    def received(self, sub: str | None = None) -> list:
        return self.api("GET", "/_received" + (f"?sub={sub}" if sub else "")).json()["received"]

    def rejected(self, sub: str | None = None) -> list:
        return self.api("GET", "/_rejected" + (f"?sub={sub}" if sub else "")).json()["rejected"]

    def behavior(self, sub_id: str, **behavior) -> None:
        r = self.api("POST", f"/_subscriptions/{sub_id}/behavior", behavior)
        assert r.status_code == 200, r.text

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return -999
        self.stdout_rest = self.proc.stdout.read()
        return rc


class Sender:
    """Builds pushes with pywebpush's encoder and signs them by hand or with py_vapid."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.vapid = Vapid02()
        self.vapid.generate_keys()
        self.k = b64url(raw_public(self.vapid.private_key))

    def encrypt(self, sub: dict, data: bytes) -> bytes:
        return WebPusher(sub).encode(data, "aes128gcm")["body"]

    def claims(self, **over) -> dict:
        claims = {"aud": self.sink.origin, "exp": int(time.time()) + 3600, "sub": CONTACT}
        claims.update(over)
        return {k: v for k, v in claims.items() if v is not None}

    def auth(self, token: str | None = None, k: str | None = None, **claims) -> str:
        token = token or make_jwt(self.vapid.private_key, self.claims(**claims))
        return f"vapid t={token}, k={k or self.k}"

    def post(self, sub: dict, body: bytes, headers: dict | None = None, auth: str | None = "", timeout=10):
        h = {"Content-Encoding": "aes128gcm", "TTL": "60"}
        if auth is not None:
            h["Authorization"] = auth or self.auth()
        for name, value in (headers or {}).items():
            if value is None:
                h.pop(name, None)
            else:
                h[name] = value
        return requests.post(sub["endpoint"], data=body, headers=h, timeout=timeout)


RESULTS: list[tuple[str, bool, str]] = []


def check(name: str, fn, *args) -> None:
    try:
        fn(*args)
        RESULTS.append((name, True, ""))
        print(f"PASS {name}", flush=True)
    except Exception as e:  # noqa: BLE001
        detail = "".join(traceback.format_exception_only(type(e), e)).strip()
        RESULTS.append((name, False, detail))
        print(f"FAIL {name}: {detail}", flush=True)
        traceback.print_exc(file=sys.stderr)


def expect_rejected(sink: Sink, resp, sub: dict, status: int, reason: str) -> None:
    assert resp.status_code == status, f"status {resp.status_code} != {status}: {resp.text}"
    rej = sink.rejected(sub["id"])
    assert rej and rej[-1]["reason"] == reason, f"last rejection {rej[-1:]} is not {reason!r}"
    assert rej[-1]["status"] == status
    assert not sink.received(sub["id"]), "a rejected push was recorded as received"


# ---------------------------------------------------------------------------


def t_health(sink: Sink) -> None:
    assert sink.api("GET", "/_health").status_code == 200


def t_create(sink: Sink) -> None:
    one = sink.new_sub()
    assert set(one) == {"id", "endpoint", "keys"}, one
    assert one["endpoint"] == f"{sink.origin}/push/{one['id']}"
    p256 = base64.urlsafe_b64decode(one["keys"]["p256dh"] + "==")
    auth = base64.urlsafe_b64decode(one["keys"]["auth"] + "==")
    assert "=" not in one["keys"]["p256dh"] + one["keys"]["auth"]
    assert len(p256) == 65 and p256[0] == 4 and len(auth) == 16
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256)
    many = sink.api("POST", "/_subscriptions", {"count": 3}).json()["subscriptions"]
    assert len(many) == 3 and len({s["id"] for s in many}) == 3
    assert len({s["keys"]["p256dh"] for s in many}) == 3


def t_pywebpush(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    message = {"title": "Reminder", "body": "Water the plants \u2614", "n": 1}
    t_before = time.time()
    resp = webpush(
        sub,
        data=json.dumps(message),
        vapid_private_key=sender.vapid,
        vapid_claims={"sub": CONTACT},
        ttl=120,
        headers={"Urgency": "high", "Topic": "plants"},
        timeout=10,
    )
    assert resp.status_code == 201, resp.status_code
    assert resp.headers.get("Location", "").startswith(sink.origin + "/message/")
    recs = sink.received(sub["id"])
    assert len(recs) == 1, recs
    rec = recs[0]
    assert rec["payload"] == message, rec["payload"]
    assert rec["status"] == 201
    assert rec["headers"] == {"ttl": 120, "urgency": "high", "topic": "plants", "content_encoding": "aes128gcm"}
    assert rec["vapid"]["sub"] == CONTACT and rec["vapid"]["aud"] == sink.origin
    assert rec["vapid"]["public_key"] == sender.k
    assert t_before + 3600 * 11 < rec["vapid"]["exp"] <= time.time() + 3600 * 12 + 1
    assert rec["record_size"] == 4096 and rec["body_bytes"] > 86
    assert t_before - 0.01 <= rec["received_at"] <= time.time()


def t_text_payload(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    resp = sender.post(sub, sender.encrypt(sub, b"not json"), headers={"TTL": "0"})
    assert resp.status_code == 201, resp.text
    rec = sink.received(sub["id"])[0]
    assert rec["payload"] == {"_text": "not json"} and rec["headers"]["ttl"] == 0
    assert rec["headers"]["urgency"] is None and rec["headers"]["topic"] is None


def t_wrong_signature(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    other = ec.generate_private_key(ec.SECP256R1())
    token = make_jwt(other, sender.claims())  # signed by another key, k of ours
    resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(token=token))
    expect_rejected(sink, resp, sub, 401, "vapid: bad signature")


def t_der_signature(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    head = b64url(b'{"typ":"JWT","alg":"ES256"}')
    body = b64url(json.dumps(sender.claims()).encode())
    der = sender.vapid.private_key.sign(f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
    resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(token=f"{head}.{body}.{b64url(der)}"))
    expect_rejected(sink, resp, sub, 401, "vapid: bad signature")


def t_expired(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(exp=int(time.time()) - 5))
    expect_rejected(sink, resp, sub, 401, "vapid: expired")


def t_exp_too_far(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(exp=int(time.time()) + 86400 + 120))
    expect_rejected(sink, resp, sub, 401, "vapid: exp too far")
    resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(exp=int(time.time()) + 86400 - 60))
    assert resp.status_code == 201, resp.text


def t_wrong_aud(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    for aud in (f"http://127.0.0.1:{sink.port + 1}", f"https://127.0.0.1:{sink.port}", sink.origin + "/", None):
        resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(aud=aud))
        expect_rejected(sink, resp, sub, 401, "vapid: aud mismatch")


def t_bad_sub_claim(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    for subject in ("selftest@example.com", "http://example.com", None):
        resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(sub=subject))
        expect_rejected(sink, resp, sub, 401, "vapid: bad sub")
    resp = sender.post(sub, sender.encrypt(sub, b"{}"), auth=sender.auth(sub="https://hibiki.example"))
    assert resp.status_code == 201, resp.text


def t_bad_authorization(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    body = sender.encrypt(sub, b"{}")
    token = make_jwt(sender.vapid.private_key, sender.claims())
    cases = [
        (None, "vapid: missing authorization"),
        (f"WebPush {token}", "vapid: malformed authorization"),
        (f"vapid t={token}", "vapid: malformed authorization"),
        (f"vapid t={token}, k=AAAA", "vapid: bad key"),
        (f"vapid t=abc.def, k={sender.k}", "vapid: bad jwt"),
        (sender.auth(token=make_jwt(sender.vapid.private_key, sender.claims(), {"typ": "JWT", "alg": "HS256"})),
         "vapid: bad jwt"),
    ]
    for auth, reason in cases:
        resp = sender.post(sub, body, auth=auth)
        expect_rejected(sink, resp, sub, 401, reason)
    # no space after the comma and typ absent are both fine
    token = make_jwt(sender.vapid.private_key, sender.claims(), {"alg": "ES256"})
    resp = sender.post(sub, body, auth=f"vapid t={token},k={sender.k}")
    assert resp.status_code == 201, resp.text


def t_application_server_key(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub(application_server_key=sender.k)
    assert sender.post(sub, sender.encrypt(sub, b"{}")).status_code == 201
    other = Sender(sink)
    resp = other.post(sub, other.encrypt(sub, b"{}"))
    assert resp.status_code == 403, resp.text
    assert sink.rejected(sub["id"])[-1]["reason"] == "vapid: key mismatch"


def t_tampered(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    body = bytearray(sender.encrypt(sub, b'{"a":1}'))
    body[-20] ^= 0x01
    resp = sender.post(sub, bytes(body))
    expect_rejected(sink, resp, sub, 400, "decryption failed")


def t_wrong_keys(sink: Sink, sender: Sender) -> None:
    sub, other = sink.new_sub(), sink.new_sub()
    resp = sender.post(sub, sender.encrypt(other, b'{"a":1}'))
    expect_rejected(sink, resp, sub, 400, "decryption failed")
    wrong_auth = dict(sub, keys=dict(sub["keys"], auth=b64url(os.urandom(16))))
    resp = sender.post(sub, sender.encrypt(wrong_auth, b'{"a":1}'))
    expect_rejected(sink, resp, sub, 400, "decryption failed")
    resp = sender.post(sub, b"")
    expect_rejected(sink, resp, sub, 400, "decryption failed")
    good = sender.encrypt(sub, b'{"a":1}')
    resp = sender.post(sub, good[:86])  # header only, no record
    expect_rejected(sink, resp, sub, 400, "decryption failed")


def t_multi_record(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    receiver = base64.urlsafe_b64decode(sub["keys"]["p256dh"] + "==")
    auth = base64.urlsafe_b64decode(sub["keys"]["auth"] + "==")

    def body(rs: int) -> bytes:
        return http_ece.encrypt(b"y" * 100, private_key=ec.generate_private_key(ec.SECP256R1()),
                                dh=receiver, auth_secret=auth, rs=rs, version="aes128gcm")

    assert sender.post(sub, body(200)).status_code == 201  # one record, rs > record length
    resp = sender.post(sub, body(50))  # several records: RFC 8291 wants exactly one
    assert resp.status_code == 400 and sink.rejected(sub["id"])[-1]["reason"] == "decryption failed"


def t_bad_headers(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    body = sender.encrypt(sub, b"{}")
    for headers, reason in [
        ({"TTL": None}, "bad ttl"),
        ({"TTL": "-1"}, "bad ttl"),
        ({"TTL": "soon"}, "bad ttl"),
        ({"Content-Encoding": None}, "bad content-encoding"),
        ({"Content-Encoding": "aesgcm"}, "bad content-encoding"),
        ({"Urgency": "urgent"}, "bad urgency"),
        ({"Topic": "has spaces"}, "bad topic"),
        ({"Topic": "x" * 33}, "bad topic"),
    ]:
        resp = sender.post(sub, body, headers=headers)
        expect_rejected(sink, resp, sub, 400, reason)


def t_too_large(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    body = sender.encrypt(sub, b"x" * 4000)
    assert len(body) > 4096
    resp = sender.post(sub, body)
    expect_rejected(sink, resp, sub, 413, "payload too large")
    body = sender.encrypt(sub, b"x" * (4096 - 86 - 17))
    assert len(body) == 4096
    # 86-byte header + 3993 plaintext + 1 delimiter + 16 tag = 4096 exactly (rs=4096 > 4010)
    assert sender.post(sub, body).status_code == 201


def t_unknown(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    ghost = dict(sub, id="nosuchsub", endpoint=f"{sink.origin}/push/nosuchsub")
    resp = sender.post(ghost, sender.encrypt(sub, b"{}"))
    assert resp.status_code == 404, resp.text
    assert sink.rejected("nosuchsub")[-1]["reason"] == "unknown subscription"


def t_behavior_410(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    sink.behavior(sub["id"], status=410, times=1)
    assert sender.post(sub, sender.encrypt(sub, b'{"i":1}')).status_code == 410
    assert sender.post(sub, sender.encrypt(sub, b'{"i":2}')).status_code == 201
    recs = sink.received(sub["id"])
    assert [(r["payload"]["i"], r["status"]) for r in recs] == [(1, 410), (2, 201)], recs


def t_behavior_429(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    sink.behavior(sub["id"], status=429, retry_after=2, times=2)
    for _ in range(2):
        resp = sender.post(sub, sender.encrypt(sub, b"{}"))
        assert resp.status_code == 429 and resp.headers.get("Retry-After") == "2", (resp.status_code, resp.headers)
    resp = sender.post(sub, sender.encrypt(sub, b"{}"))
    assert resp.status_code == 201 and "Retry-After" not in resp.headers
    assert [r["status"] for r in sink.received(sub["id"])] == [429, 429, 201]


def t_behavior_forever_and_clear(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    sink.behavior(sub["id"], status=503)
    for _ in range(3):
        assert sender.post(sub, sender.encrypt(sub, b"{}")).status_code == 503
    assert sink.api("DELETE", "/_received").status_code == 200
    assert sink.received() == [] and sink.rejected() == []
    assert sender.post(sub, sender.encrypt(sub, b"{}")).status_code == 503, "behavior lost by DELETE /_received"
    assert sink.api("DELETE", f"/_subscriptions/{sub['id']}/behavior").status_code == 200
    assert sender.post(sub, sender.encrypt(sub, b"{}")).status_code == 201
    assert sink.api("POST", f"/_subscriptions/{sub['id']}/behavior", {"status": "x"}).status_code == 400


def t_behavior_delay(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    sink.behavior(sub["id"], delay_ms=500, times=1)
    body = sender.encrypt(sub, b"{}")
    t0 = time.monotonic()
    resp = sender.post(sub, body)
    elapsed = time.monotonic() - t0
    assert resp.status_code == 201 and elapsed >= 0.5, (resp.status_code, elapsed)
    rec = sink.received(sub["id"])[-1]
    assert time.time() - rec["received_at"] >= 0.5, "received_at not taken at arrival"
    t0 = time.monotonic()
    assert sender.post(sub, sender.encrypt(sub, b"{}")).status_code == 201
    assert time.monotonic() - t0 < 0.4


def t_behavior_hang(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    sink.behavior(sub["id"], hang=True, times=1)
    try:
        sender.post(sub, sender.encrypt(sub, b'{"hung":true}'), timeout=1.0)
        raise AssertionError("a hanging push got an answer")
    except requests.exceptions.ReadTimeout:
        pass
    assert sender.post(sub, sender.encrypt(sub, b"{}")).status_code == 201
    recs = sink.received(sub["id"])
    assert [r["status"] for r in recs] == [None, 201], recs


def t_delete_subscription(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    assert sender.post(sub, sender.encrypt(sub, b"{}")).status_code == 201
    assert sink.api("DELETE", f"/_subscriptions/{sub['id']}").status_code == 200
    for _ in range(2):
        resp = sender.post(sub, sender.encrypt(sub, b"{}"))
        assert resp.status_code == 410, resp.text
    rej = sink.rejected(sub["id"])
    assert [r["reason"] for r in rej] == ["gone", "gone"], rej
    assert len(sink.received(sub["id"])) == 1
    assert sink.api("DELETE", "/_subscriptions/never-existed").status_code == 404


def t_keep_alive_and_chunked(sink: Sink, sender: Sender) -> None:
    sub = sink.new_sub()
    conn = http.client.HTTPConnection("127.0.0.1", sink.port, timeout=10)
    conn.connect()
    first_sock = conn.sock
    for i in range(20):
        body = sender.encrypt(sub, json.dumps({"i": i}).encode())
        conn.request("POST", f"/push/{sub['id']}", body=body,
                     headers={"Content-Encoding": "aes128gcm", "TTL": "5", "Authorization": sender.auth()})
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 201 and not resp.will_close, (resp.status, resp.will_close)
        assert conn.sock is first_sock, "connection was not kept alive"
    conn.close()
    body = sender.encrypt(sub, b'{"chunked":true}')
    resp = sender.post(sub, iter([body[:10], body[10:]]))  # generator -> chunked transfer coding
    assert resp.status_code == 201, resp.text
    assert [r["payload"].get("i") for r in sink.received(sub["id"])] == list(range(20)) + [None]


def t_concurrency(sink: Sink, sender: Sender) -> None:
    n = 300
    subs = sink.api("POST", "/_subscriptions", {"count": 10}).json()["subscriptions"]
    jobs = []
    for i in range(n):
        sub = subs[i % len(subs)]
        body = sender.encrypt(sub, json.dumps({"i": i}).encode())
        jobs.append((sub, body, sender.auth()))
    barrier = threading.Barrier(n)
    statuses: list = [None] * n

    def run(i: int) -> None:
        sub, body, auth = jobs[i]
        head = (f"POST /push/{sub['id']} HTTP/1.1\r\nHost: 127.0.0.1:{sink.port}\r\n"
                f"Content-Encoding: aes128gcm\r\nTTL: 30\r\nAuthorization: {auth}\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        try:
            with socket.create_connection(("127.0.0.1", sink.port), timeout=30) as s:
                barrier.wait(timeout=30)  # all n connections are open at once
                s.sendall(head + body)
                reply = b""
                while chunk := s.recv(65536):
                    reply += chunk
            statuses[i] = int(reply.split(b" ", 2)[1])
        except Exception as e:  # noqa: BLE001
            statuses[i] = repr(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    started = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    ended = time.time()
    assert statuses == [201] * n, {repr(s) for s in statuses if s != 201}
    got = sorted(r["payload"]["i"] for s in subs for r in sink.received(s["id"]))
    assert got == list(range(n))
    # Each push is stamped when it arrived, within the burst. (Records are kept in the order
    # their handling finished, which under load is not the order of arrival: an order check
    # with a tolerance failed on a busy machine.)
    times = [r["received_at"] for s in subs for r in sink.received(s["id"])]
    assert all(started <= t <= ended for t in times), (started, min(times), max(times), ended)


def t_received_filter(sink: Sink, sender: Sender) -> None:
    a, b = sink.new_sub(), sink.new_sub()
    sender.post(a, sender.encrypt(a, b'"a"'))
    sender.post(b, sender.encrypt(b, b'"b"'))
    assert [r["payload"] for r in sink.received(a["id"])] == ["a"]
    assert [r["sub"] for r in sink.received()][-2:] == [a["id"], b["id"]]


def main() -> int:
    sink = Sink()
    try:
        sender = Sender(sink)
        check("health", t_health, sink)
        check("create subscriptions", t_create, sink)
        check("pywebpush push is received and decrypted", t_pywebpush, sink, sender)
        check("non-JSON payload is kept as _text", t_text_payload, sink, sender)
        check("VAPID token signed by another key is rejected", t_wrong_signature, sink, sender)
        check("VAPID DER signature is rejected", t_der_signature, sink, sender)
        check("VAPID expired exp is rejected", t_expired, sink, sender)
        check("VAPID exp beyond 24h is rejected", t_exp_too_far, sink, sender)
        check("VAPID wrong aud is rejected", t_wrong_aud, sink, sender)
        check("VAPID bad sub claim is rejected", t_bad_sub_claim, sink, sender)
        check("malformed Authorization is rejected", t_bad_authorization, sink, sender)
        check("applicationServerKey mismatch gives 403", t_application_server_key, sink, sender)
        check("tampered ciphertext is rejected", t_tampered, sink, sender)
        check("wrong keys / empty body are rejected", t_wrong_keys, sink, sender)
        check("multi-record body is rejected", t_multi_record, sink, sender)
        check("TTL / Content-Encoding / Urgency / Topic checks", t_bad_headers, sink, sender)
        check("body over 4096 bytes gives 413", t_too_large, sink, sender)
        check("unknown subscription gives 404", t_unknown, sink, sender)
        check("behavior 410 times=1", t_behavior_410, sink, sender)
        check("behavior 429 + Retry-After times=2", t_behavior_429, sink, sender)
        check("behavior without times, kept across DELETE /_received", t_behavior_forever_and_clear, sink, sender)
        check("behavior delay_ms", t_behavior_delay, sink, sender)
        check("behavior hang", t_behavior_hang, sink, sender)
        check("DELETE /_subscriptions/<id> gives 410", t_delete_subscription, sink, sender)
        check("keep-alive and chunked bodies", t_keep_alive_and_chunked, sink, sender)
        check("received ?sub= filter and order", t_received_filter, sink, sender)
        check("300 concurrent connections", t_concurrency, sink, sender)
    finally:
        rc = sink.stop()
    def t_clean_exit() -> None:
        assert rc == 0 and sink.stdout_rest == "", f"rc={rc} stdout={sink.stdout_rest!r}"

    check("SIGTERM exits cleanly with 0 and nothing more on stdout", t_clean_exit)
    passed = sum(1 for _, ok, _ in RESULTS if ok)
    failed = len(RESULTS) - passed
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
