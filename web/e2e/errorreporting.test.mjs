// Optional error reporting (decisions.md "As good as a native app": HIBIKI_ERROR_REPORTING_DSN;
// product spec §8 and §9): off by default, nothing is loaded and nothing sent; when on, the
// reporter's chunk loads after the first paint and what reaches a loopback ingest endpoint (a
// stand-in for a Sentry-compatible server) follows the scrubbing rules: chunk-load and network
// errors dropped, no cookies or authorization header, the user's email masked to its domain.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, apiSignIn, newContext, startStack, uniqueEmail } from './harness.mjs';

const REPORTER_CHUNK = /\/assets\/reporter-[\w-]+\.js$/;

/** A loopback ingest: keeps every envelope posted to /api/<project>/envelope/. */
async function startIngest() {
  const received = [];
  const waiters = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/json' });
      res.end('{}');
      if (req.method !== 'POST') return;
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ url: req.url, headers: req.headers, body, items: parseEnvelope(body) });
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: server.address().port,
    received,
    /** Waits until an envelope matches `pred`. */
    async waitFor(pred, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = received.find(pred);
        if (hit) return hit;
        if (Date.now() > deadline) throw new Error(`no envelope with ${what}; got ${received.length}: ${received.map((r) => r.body.slice(0, 200)).join('\n')}`);
        await new Promise((r) => {
          waiters.push(r);
          setTimeout(r, 1000);
        });
      }
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Envelope: a header line, then (item header, item payload) line pairs. */
function parseEnvelope(body) {
  const lines = body.split('\n');
  const items = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    try {
      items.push({ header: JSON.parse(lines[i]), payload: JSON.parse(lines[i + 1]) });
    } catch {
      /* a binary replay segment: not an event */
    }
  }
  return items;
}

const eventsOf = (envelope) => envelope.items.filter((i) => i.header.type === 'event').map((i) => i.payload);
const exceptionText = (event) => (event.exception?.values ?? []).map((v) => `${v.type}: ${v.value}`).join(' | ');

describe('error reporting, off by default', () => {
  let stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.close();
  });

  it('loads no reporter and sends nothing anywhere', async () => {
    const context = await newContext(stack.browser, stack.url, { lang: 'en', viewport: DESKTOP });
    const page = await context.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    const site = page.waitForResponse((r) => r.url().endsWith('/api/site'));
    await page.goto(`${stack.url}/en`);
    const answer = await (await site).json();
    assert.equal(answer.data.error_reporting, null);
    await page.evaluate(() => setTimeout(() => {
      throw new Error('an uncaught error nobody should hear of');
    }));
    await page.waitForLoadState('networkidle');
    assert.deepEqual(requests.filter((u) => REPORTER_CHUNK.test(new URL(u).pathname)), []);
    assert.deepEqual(requests.filter((u) => !u.startsWith(stack.url)), [], 'a request left the app origin');
    assert.equal(await page.evaluate(() => typeof globalThis.__SENTRY__), 'undefined');
    await context.close();
  });
});

describe('error reporting, on', () => {
  let stack;
  let ingest;
  before(async () => {
    ingest = await startIngest();
    stack = await startStack({ env: { HIBIKI_ERROR_REPORTING_DSN: `http://publickey@127.0.0.1:${ingest.port}/7` } });
  });
  after(async () => {
    await stack?.close();
    await ingest?.close();
  });

  it('drops chunk-load and network errors, strips cookies and masks the email', async () => {
    const email = uniqueEmail('reported');
    const domain = email.split('@')[1];
    const context = await newContext(stack.browser, stack.url, { lang: 'ja', viewport: DESKTOP });
    await apiSignIn(context, stack.server, stack.smtp, email);
    const page = await context.newPage();
    const reporter = page.waitForResponse((r) => REPORTER_CHUNK.test(new URL(r.url()).pathname));
    await page.goto(`${stack.url}/`);
    await reporter;
    await page.waitForFunction(() => globalThis.__SENTRY__ !== undefined);

    // Two errors the spec says to drop, then one to keep (sent after them, in this order).
    await page.evaluate((who) => {
      document.cookie = 'visible_cookie=do-not-send; path=/';
      void Promise.reject(new TypeError('Failed to fetch'));
      setTimeout(() => {
        throw new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/gone-abc123.js');
      });
      setTimeout(() => {
        throw new Error(`reminder list broke for ${who} (marker)`);
      }, 50);
    }, email);

    const hit = await ingest.waitFor((r) => eventsOf(r).some((e) => exceptionText(e).includes('(marker)')), 'the marker error');
    const event = eventsOf(hit).find((e) => exceptionText(e).includes('(marker)'));
    assert.match(exceptionText(event), new RegExp(`\\*\\*\\*@${domain.replace(/\./g, '\\.')}`));
    assert.equal(event.user?.email, `***@${domain}`);
    assert.equal(hit.url.startsWith('/api/7/envelope/'), true, hit.url);
    assert.equal(hit.headers.cookie, undefined);
    assert.equal(hit.headers.authorization, undefined);

    const everything = ingest.received.map((r) => r.body).join('\n');
    assert.equal(everything.includes(email), false, 'the full email was sent');
    assert.equal(everything.includes('do-not-send'), false, 'a cookie was sent');
    assert.equal(everything.includes('hibiki_session'), false, 'the session cookie was sent');
    const dropped = ingest.received.flatMap(eventsOf).map(exceptionText).filter((t) => /Failed to fetch/.test(t));
    assert.deepEqual(dropped, [], 'a network or chunk-load error was reported');
    await context.close();
  });
});
