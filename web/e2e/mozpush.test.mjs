// The loopback push service of firefox.test.mjs on its own: a WebSocket client stands in for
// the browser (hello, register, ack, unregister as Firefox sends them) and the HTTP side is fed
// good and bad VAPID requests, so every check the Firefox test relies on is known to reject
// what it should. No browser, no server: quick.
import assert from 'node:assert/strict';
import { createECDH, sign } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { startMozPush, verifyVapidJwt } from './mozpush.mjs';

function vapidKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const pub = ecdh.getPublicKey();
  const jwk = { kty: 'EC', crv: 'P-256', x: pub.subarray(1, 33).toString('base64url'), y: pub.subarray(33).toString('base64url'), d: ecdh.getPrivateKey().toString('base64url') };
  return { pub, priv: { key: jwk, format: 'jwk' } };
}

function jwt(keys, claims, { alg = 'ES256' } = {}) {
  const h = Buffer.from(JSON.stringify({ typ: 'JWT', alg })).toString('base64url');
  const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const s = sign('sha256', Buffer.from(`${h}.${p}`), { ...keys.priv, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `${h}.${p}.${s}`;
}

/** A browser stand-in speaking the WebSocket protocol the way Firefox does. */
async function agent(push, uaid) {
  const ws = new WebSocket(push.serverURL, 'push-notification');
  const inbox = [];
  let waiting = null;
  ws.on('message', (m) => {
    inbox.push(m.toString());
    waiting?.();
  });
  await new Promise((ok, fail) => {
    ws.once('open', ok);
    ws.once('error', fail);
  });
  const next = async () => {
    const end = Date.now() + 5000;
    while (inbox.length === 0) {
      if (Date.now() > end) throw new Error('no frame from mozpush');
      await new Promise((r) => {
        waiting = r;
        setTimeout(r, 100);
      });
    }
    return inbox.shift();
  };
  const sendJson = (msg) => ws.send(JSON.stringify(msg));
  assert.equal(ws.protocol, 'push-notification');
  sendJson({ messageType: 'hello', broadcasts: {}, use_webpush: true, ...(uaid ? { uaid } : {}) });
  const hello = JSON.parse(await next());
  return { ws, hello, next: async () => JSON.parse(await next()), nextRaw: next, send: sendJson, inbox };
}

let push;
const app = vapidKeys();
const other = vapidKeys();
before(async () => {
  push = await startMozPush();
});
after(async () => {
  await push?.close();
});

describe('mozpush, the loopback push service', () => {
  let ua;
  let endpoint;
  const channelID = '4c6c4a9e-8a0e-4a59-9d0f-6f1d0a2b3c4d';
  const claims = () => ({ aud: push.origin, exp: Math.floor(Date.now() / 1000) + 3600, sub: 'mailto:ops@example.com' });
  const post = (url, { token = jwt(app, claims()), k = app.pub.toString('base64url'), encoding = 'aes128gcm', ttl = '60', auth, body = Buffer.alloc(100, 7) } = {}) =>
    fetch(url, {
      method: 'POST',
      headers: {
        ...(auth !== null ? { authorization: auth ?? `vapid t=${token}, k=${k}` } : {}),
        ...(encoding ? { 'content-encoding': encoding } : {}),
        ...(ttl ? { ttl } : {}),
      },
      body,
    });

  it('hello assigns a UAID with use_webpush; register answers an endpoint on itself; ping is answered', async () => {
    ua = await agent(push);
    assert.equal(ua.hello.messageType, 'hello');
    assert.equal(ua.hello.status, 200);
    assert.equal(ua.hello.use_webpush, true);
    assert.match(ua.hello.uaid, /^[0-9a-f]{32}$/);
    // Firefox sends the key padded
    ua.send({ channelID, messageType: 'register', key: app.pub.toString('base64').replace(/\+/g, '-').replace(/\//g, '_') });
    const reg = await ua.next();
    assert.equal(reg.status, 200);
    assert.equal(reg.channelID, channelID);
    assert.match(reg.pushEndpoint, new RegExp(`^${push.origin}/wpush/[A-Za-z0-9_-]+$`));
    endpoint = reg.pushEndpoint;
    ua.ws.send('{}');
    assert.equal(await ua.nextRaw(), '{}');
  });

  it('a good push: 201, forwarded as a notification with the body and encoding, the ack recorded', async () => {
    const body = Buffer.from('an encrypted body, as far as mozpush knows');
    const res = await post(endpoint, { body });
    assert.equal(res.status, 201);
    assert.ok(res.headers.get('location'));
    const note = await ua.next();
    assert.equal(note.messageType, 'notification');
    assert.equal(note.channelID, channelID);
    assert.deepEqual(note.headers, { encoding: 'aes128gcm' });
    assert.deepEqual(Buffer.from(note.data, 'base64url'), body);
    ua.send({ messageType: 'ack', updates: [{ channelID, version: note.version, code: 100 }] });
    const [p] = await push.waitFor((x) => x.version === note.version && x.ack);
    assert.deepEqual(p.verdicts, { vapid: 'ok', encoding: 'ok', ttl: 'ok', size: 'ok' });
    assert.equal(p.claims.sub, 'mailto:ops@example.com');
    assert.equal(p.size, body.length);
    assert.deepEqual({ type: p.ack.type, code: p.ack.code }, { type: 'ack', code: 100 });
  });

  const now = () => Math.floor(Date.now() / 1000);
  const good = () => ({ aud: push.origin, exp: now() + 60, sub: 'mailto:a@b' });
  // [name, () => request options (built when the port is known), status, reason]
  const BAD = [
    ['no Authorization', () => ({ auth: null }), 401, /no "vapid/],
    ['the old WebPush scheme', () => ({ auth: `WebPush ${jwt(app, good())}` }), 401, /no "vapid/],
    ['aud of another origin', () => ({ token: jwt(app, { ...good(), aud: 'https://push.example' }) }), 401, /aud/],
    ['aud with a path', () => ({ token: jwt(app, { ...good(), aud: `${push.origin}/wpush` }) }), 401, /aud/],
    ['expired', () => ({ token: jwt(app, { ...good(), exp: now() - 1 }) }), 401, /exp/],
    ['exp beyond 24 h', () => ({ token: jwt(app, { ...good(), exp: now() + 24 * 3600 + 60 }) }), 401, /24 h/],
    ['sub not mailto:/https:', () => ({ token: jwt(app, { ...good(), sub: 'http://example.com' }) }), 401, /sub/],
    ['no sub', () => ({ token: jwt(app, { aud: push.origin, exp: now() + 60 }) }), 401, /sub/],
    ['another key than the registered one', () => ({ token: jwt(other, good()), k: other.pub.toString('base64url') }), 401, /registered/],
    ['a signature not by k', () => ({ token: jwt(other, good()) }), 401, /signature/],
    ['alg HS256', () => ({ token: jwt(app, good(), { alg: 'HS256' }) }), 401, /alg/],
    ['aesgcm encoding', () => ({ encoding: 'aesgcm' }), 400, /aes128gcm/],
    ['no Content-Encoding', () => ({ encoding: '' }), 400, /aes128gcm/],
    ['no TTL', () => ({ ttl: '' }), 400, /TTL/],
    ['a body over 4096 bytes', () => ({ body: Buffer.alloc(4097) }), 413, /bytes/],
  ];
  for (const [name, options, status, reason] of BAD) {
    it(`refuses ${name} (${status}) and forwards nothing`, async () => {
      const before = push.pushes.length;
      const res = await post(endpoint, options());
      assert.equal(res.status, status);
      const p = push.pushes[before];
      assert.match(p.reason, reason);
      assert.equal(p.forwarded, false);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(ua.inbox.length, 0, 'nothing reached the browser');
    });
  }

  it('unknown endpoints answer 404', async () => {
    assert.equal((await post(`${push.origin}/wpush/nope`)).status, 404);
    assert.equal((await fetch(`${push.origin}/elsewhere`, { method: 'POST' })).status, 404);
  });

  it('holds pushes while the browser is away and delivers them after its hello with the same UAID', async () => {
    const uaid = ua.hello.uaid;
    ua.ws.close();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(push.connected(), false);
    assert.equal((await post(endpoint)).status, 201);
    const held = push.pushes.at(-1);
    assert.equal(held.forwarded, false);
    ua = await agent(push, uaid);
    assert.equal(ua.hello.uaid, uaid, 'a known UAID is kept');
    const note = await ua.next();
    assert.equal(note.version, held.version);
    assert.equal(held.forwarded, true);
  });

  it('unregister: the endpoint then answers 410', async () => {
    ua.send({ messageType: 'unregister', channelID, code: 200 });
    const reply = await ua.next();
    assert.deepEqual(reply, { messageType: 'unregister', channelID, status: 200 });
    assert.equal((await post(endpoint)).status, 410);
    ua.ws.close();
  });

  it('verifyVapidJwt rejects junk', () => {
    assert.equal(verifyVapidJwt('a.b', app.pub).ok, false);
    assert.equal(verifyVapidJwt('x.y.z', app.pub).ok, false);
    assert.equal(verifyVapidJwt(jwt(app, claims()), Buffer.alloc(65)).ok, false);
    assert.equal(verifyVapidJwt(jwt(app, claims()), app.pub).ok, true);
  });
});
