// A loopback push service that speaks Mozilla's push protocol, so a real Firefox can be pointed
// at it (`dom.push.serverURL`) and receive real Web Push from Hibiki.
//
// Two faces on one port:
// - WebSocket (subprotocol `push-notification`), the protocol of Firefox's
//   PushServiceWebSocket.sys.mjs and Mozilla's autopush: `hello` (assign or keep the UAID,
//   `use_webpush: true`), `register` (channelID + optional `key`, the applicationServerKey;
//   answered with a `pushEndpoint` on this server), `unregister`, `ack`/`nack` and the `{}`
//   ping; pushes go down as `notification` messages with the encrypted body base64url-encoded
//   in `data` and `headers: {encoding: "aes128gcm"}`.
// - HTTP, the RFC 8030 side an application server talks to: `POST /wpush/<id>` checks the
//   VAPID `Authorization: vapid t=<jwt>, k=<key>` (RFC 8292: ES256 signature, `aud` is this
//   origin, `exp` in the future and at most 24 h away, `sub` a mailto: or https: URI, `k` the
//   key the browser registered with), `Content-Encoding: aes128gcm` and a `TTL` header, then
//   answers 201 and forwards the body to the browser (held until it connects when it is not
//   connected). Unknown endpoints answer 404, unregistered ones 410.
//
// Every POST is recorded (arrival time, headers, size, verdicts, JWT claims, the browser's ack)
// for tests to inspect.
import { createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

const b64url = (buf) => Buffer.from(buf).toString('base64url');
/** base64 or base64url, padded or not (Firefox sends the key padded) -> bytes. */
const fromB64 = (s) => Buffer.from(String(s).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');

/** The claims of an RFC 8292 JWT if its ES256 signature verifies under `key` (65-byte point). */
export function verifyVapidJwt(jwt, key) {
  const parts = String(jwt).split('.');
  if (parts.length !== 3) return { ok: false, reason: 'JWT is not three dot-separated parts' };
  let header;
  let claims;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'JWT header or claims are not base64url JSON' };
  }
  if (header.alg !== 'ES256') return { ok: false, reason: `alg is ${header.alg}, not ES256`, header, claims };
  if (key.length !== 65 || key[0] !== 4) return { ok: false, reason: 'k is not an uncompressed P-256 point', header, claims };
  let publicKey;
  try {
    publicKey = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64url(key.subarray(1, 33)), y: b64url(key.subarray(33, 65)) },
      format: 'jwk',
    });
  } catch (e) {
    return { ok: false, reason: `k is not a P-256 public key: ${e.message}`, header, claims };
  }
  const signature = Buffer.from(parts[2], 'base64url');
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  const good = signature.length === 64 && verify('sha256', signed, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  if (!good) return { ok: false, reason: 'ES256 signature does not verify under k', header, claims };
  return { ok: true, header, claims };
}

/** Splits `vapid t=<jwt>, k=<key>` (RFC 8292 section 3). */
function parseVapidAuthorization(value) {
  const m = /^vapid\s+(.*)$/i.exec(value ?? '');
  if (!m) return null;
  const params = {};
  for (const part of m[1].split(',')) {
    const i = part.indexOf('=');
    if (i > 0) params[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  return params.t && params.k ? { t: params.t, k: params.k } : null;
}

/**
 * Starts the service on a free loopback port. `log` prints every WebSocket frame and POST.
 * Returns { port, origin, serverURL, registrations, pushes, frames, waitForPush, close }.
 */
export async function startMozPush({ log = false } = {}) {
  const say = (...a) => log && console.log('[mozpush]', ...a);
  /** endpoint id -> { id, uaid, channelID, key (Buffer|null), endpoint, registeredAt, unregisteredAt } */
  const registrations = new Map();
  /** uaid -> { ws (or null), pending: [{ channelID, version, data }] } */
  const agents = new Map();
  /** every POST to /wpush/…, in arrival order */
  const pushes = [];
  /** every WebSocket frame, both ways: { at, dir: 'in'|'out', msg } */
  const frames = [];
  let waiters = [];
  let origin = '';

  const notifyWaiters = () => {
    waiters = waiters.filter((w) => !w.check());
  };

  function send(ws, msg) {
    frames.push({ at: Date.now(), dir: 'out', msg });
    say('->', JSON.stringify(msg));
    ws.send(JSON.stringify(msg));
  }

  function deliver(uaid, note) {
    const agent = agents.get(uaid);
    if (agent?.ws && agent.ready) {
      send(agent.ws, { messageType: 'notification', ...note });
      return true;
    }
    if (agent) agent.pending.push(note);
    return false;
  }

  const http = createServer((req, res) => {
    const url = new URL(req.url, origin);
    const m = /^\/wpush\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !m) {
      res.writeHead(req.method === 'POST' ? 404 : 405, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: req.method === 'POST' ? 404 : 405, errno: 102, error: 'Not Found' }));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record = {
        at: Date.now(),
        id: m[1],
        endpoint: `${origin}${url.pathname}`,
        headers: { ...req.headers },
        size: body.length,
        verdicts: {},
        claims: null,
        status: 0,
        reason: '',
        channelID: null,
        version: null,
        forwarded: false,
        ack: null,
      };
      pushes.push(record);
      const answer = (status, reason = '', extra = {}) => {
        record.status = status;
        record.reason = reason;
        say(`POST ${url.pathname} ${body.length} B -> ${status} ${reason}`);
        res.writeHead(status, { 'content-type': 'application/json', ...extra });
        res.end(status === 201 ? '' : JSON.stringify({ code: status, error: reason }));
        notifyWaiters();
      };

      const reg = registrations.get(m[1]);
      if (!reg) return answer(404, 'unknown endpoint');
      record.channelID = reg.channelID;
      if (reg.unregisteredAt) return answer(410, 'unsubscribed');

      // VAPID (RFC 8292)
      const auth = parseVapidAuthorization(req.headers.authorization);
      const now = Math.floor(Date.now() / 1000);
      const v = record.verdicts;
      if (!auth) {
        v.vapid = 'no "vapid t=…, k=…" Authorization header';
      } else {
        const k = fromB64(auth.k);
        const checked = verifyVapidJwt(auth.t, k);
        record.claims = checked.claims ?? null;
        record.jwtHeader = checked.header ?? null;
        const c = checked.claims ?? {};
        if (!checked.ok) v.vapid = checked.reason;
        else if (c.aud !== origin) v.vapid = `aud ${JSON.stringify(c.aud)} is not ${origin}`;
        else if (typeof c.exp !== 'number' || c.exp <= now) v.vapid = `exp ${c.exp} is not in the future`;
        else if (c.exp > now + 24 * 3600) v.vapid = `exp ${c.exp} is more than 24 h away`;
        else if (typeof c.sub !== 'string' || !/^(mailto:|https:)/.test(c.sub)) v.vapid = `sub ${JSON.stringify(c.sub)} is not mailto: or https:`;
        else if (reg.key && !reg.key.equals(k)) v.vapid = 'k is not the applicationServerKey the browser registered with';
        else v.vapid = 'ok';
      }
      const encoding = (req.headers['content-encoding'] ?? '').toLowerCase();
      v.encoding = encoding === 'aes128gcm' ? 'ok' : `Content-Encoding is ${JSON.stringify(encoding)}, not aes128gcm`;
      v.ttl = /^\d+$/.test(req.headers.ttl ?? '') ? 'ok' : 'no TTL header';
      v.size = body.length > 0 && body.length <= 4096 ? 'ok' : `body is ${body.length} bytes`;
      if (v.vapid !== 'ok') return answer(401, v.vapid);
      if (v.encoding !== 'ok' || v.ttl !== 'ok') return answer(400, v.encoding !== 'ok' ? v.encoding : v.ttl);
      if (v.size !== 'ok') return answer(413, v.size);

      const version = randomUUID();
      record.version = version;
      record.forwarded = deliver(reg.uaid, {
        channelID: reg.channelID,
        version,
        data: b64url(body),
        headers: { encoding: 'aes128gcm' },
      });
      answer(201, '', { location: `${origin}/m/${version}`, ttl: req.headers.ttl });
    });
  });

  const wss = new WebSocketServer({
    server: http,
    handleProtocols: (protocols) => (protocols.has('push-notification') ? 'push-notification' : false),
  });
  wss.on('connection', (ws) => {
    let uaid = null;
    ws.on('message', (raw) => {
      const text = raw.toString();
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        say('<- (not JSON)', text);
        return;
      }
      frames.push({ at: Date.now(), dir: 'in', msg });
      say('<-', text);
      const type = msg.messageType;
      if (type === undefined || type === 'ping' || text === '{}') {
        ws.send('{}');
        return;
      }
      switch (type) {
        case 'hello': {
          uaid = typeof msg.uaid === 'string' && agents.has(msg.uaid) ? msg.uaid : randomUUID().replace(/-/g, '');
          const previous = agents.get(uaid);
          if (previous?.ws && previous.ws !== ws) previous.ws.close();
          const agent = previous ?? { ws: null, ready: false, pending: [] };
          agent.ws = ws;
          agent.ready = true;
          agents.set(uaid, agent);
          send(ws, { messageType: 'hello', status: 200, uaid, use_webpush: true, broadcasts: {} });
          for (const note of agent.pending.splice(0)) {
            send(ws, { messageType: 'notification', ...note });
            const p = pushes.find((x) => x.version === note.version);
            if (p) p.forwarded = true;
          }
          break;
        }
        case 'register': {
          if (!uaid) return send(ws, { messageType: 'register', channelID: msg.channelID, status: 401 });
          const id = randomBytes(16).toString('base64url');
          const endpoint = `${origin}/wpush/${id}`;
          registrations.set(id, {
            id,
            uaid,
            channelID: msg.channelID,
            key: msg.key ? fromB64(msg.key) : null,
            endpoint,
            registeredAt: Date.now(),
            unregisteredAt: null,
          });
          send(ws, { messageType: 'register', channelID: msg.channelID, status: 200, pushEndpoint: endpoint });
          notifyWaiters();
          break;
        }
        case 'unregister': {
          for (const reg of registrations.values()) {
            if (reg.uaid === uaid && reg.channelID === msg.channelID && !reg.unregisteredAt) reg.unregisteredAt = Date.now();
          }
          send(ws, { messageType: 'unregister', channelID: msg.channelID, status: 200 });
          break;
        }
        case 'ack':
        case 'nack': {
          const updates = type === 'ack' ? (msg.updates ?? []) : [{ version: msg.version, code: msg.code }];
          for (const u of updates) {
            const p = pushes.find((x) => x.version === u.version);
            if (p) p.ack = { type, code: u.code, at: Date.now() };
          }
          notifyWaiters();
          break;
        }
        default:
          // broadcast_subscribe and anything newer: nothing to do here
          break;
      }
    });
    ws.on('close', () => {
      const agent = uaid && agents.get(uaid);
      if (agent && agent.ws === ws) {
        agent.ws = null;
        agent.ready = false;
      }
    });
  });

  await new Promise((ok, fail) => {
    http.once('error', fail);
    http.listen(0, '127.0.0.1', ok);
  });
  const { port } = http.address();
  origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    /** the value for Firefox's dom.push.serverURL */
    serverURL: `ws://127.0.0.1:${port}/`,
    registrations,
    pushes,
    frames,
    /** Is some browser connected and past hello? */
    connected: () => [...agents.values()].some((a) => a.ws && a.ready),
    /** Resolves with pushes.filter(predicate) once `predicate(state)` holds for `count` of them. */
    waitFor(predicate, { count = 1, timeoutMs = 15_000, what = 'pushes' } = {}) {
      return new Promise((ok, fail) => {
        const waiter = {
          check() {
            const hits = pushes.filter(predicate);
            if (hits.length < count) return false;
            clearTimeout(timer);
            ok(hits);
            return true;
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          fail(new Error(`mozpush: ${what}: ${pushes.filter(predicate).length} of ${count} within ${timeoutMs} ms; all: ${JSON.stringify(pushes.map(({ headers: _headers, ...p }) => p))}`));
        }, timeoutMs);
        if (!waiter.check()) waiters.push(waiter);
      });
    },
    /** Resolves once `predicate(registration)` holds for one (e.g. Firefox registered). */
    waitForRegistration(predicate = () => true, timeoutMs = 15_000) {
      return new Promise((ok, fail) => {
        const find = () => [...registrations.values()].find(predicate);
        const waiter = {
          check() {
            const hit = find();
            if (!hit) return false;
            clearTimeout(timer);
            ok(hit);
            return true;
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          fail(new Error(`mozpush: no registration within ${timeoutMs} ms; frames: ${JSON.stringify(frames)}`));
        }, timeoutMs);
        if (!waiter.check()) waiters.push(waiter);
      });
    },
    async close() {
      for (const w of waiters) w.check();
      for (const client of wss.clients) client.terminate();
      await new Promise((ok) => wss.close(() => ok()));
      http.closeAllConnections?.();
      await new Promise((ok) => http.close(() => ok()));
    },
  };
}
