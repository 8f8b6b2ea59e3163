// End-to-end harness: a real SMTP sink (the `smtp-server` package), the real `hibiki` binary
// (HIBIKI_BIN, default ../target/debug/hibiki relative to web/) serving web/dist, and Debian's
// Chromium driven by playwright-core. One server per test file; every file is a separate
// process under `node --test`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { SMTPServer } from 'smtp-server';

export const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = join(WEB_DIR, 'dist');
export const SCREENSHOT_DIR = join(WEB_DIR, 'e2e', 'screenshots');
// Debian's Chromium headless shell where it is installed (scripts/test installs it): the same
// Blink and V8 as the browser, without its UI process work (the accessibility walk took 79
// CPU-seconds against 88 with the full browser, a reminders file 15 against 19).
export const CHROMIUM =
  process.env.HIBIKI_CHROMIUM ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** True when dist/ is missing or older than anything it is built from. */
export function distIsStale() {
  const built = join(DIST_DIR, 'index.html');
  const sources = Math.max(
    newestMtime(join(WEB_DIR, 'src')),
    newestMtime(join(WEB_DIR, 'public')),
    ...['index.html', 'vite.config.ts', 'package-lock.json'].map((f) => statSync(join(WEB_DIR, f)).mtimeMs),
  );
  return !existsSync(built) || statSync(built).mtimeMs < sources;
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * The four views a screen is walked in: each language at 390 and 1280 px, light and dark, each
 * once. HIBIKI_E2E_VIEWS (`ja-390-dark,en-1280-light`) walks those views instead, to look at the
 * other combinations' screenshots.
 */
export const FOUR_VIEWS = viewsFromEnv(process.env.HIBIKI_E2E_VIEWS) ?? [
  { lang: 'ja', viewport: PHONE, scheme: 'light' },
  { lang: 'en', viewport: DESKTOP, scheme: 'dark' },
  { lang: 'en', viewport: PHONE, scheme: 'dark' },
  { lang: 'ja', viewport: DESKTOP, scheme: 'light' },
];

function viewsFromEnv(spec) {
  if (!spec) return null;
  return spec.split(',').map((v) => {
    const m = /^(ja|en)-(390|1280)-(light|dark)$/.exec(v.trim());
    if (!m) throw new Error(`HIBIKI_E2E_VIEWS: "${v}" is not like ja-390-dark`);
    return { lang: m[1], viewport: m[2] === '390' ? PHONE : DESKTOP, scheme: m[3] };
  });
}

/** A port the OS says is free right now. */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.unref();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// SMTP sink

function decodeQuotedPrintable(text) {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i];
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeEncodedWords(value) {
  return value.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, _charset, enc, data) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function splitPart(raw) {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers, body) {
  const enc = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** The text/plain body of a (possibly multipart) message, decoded. */
export function parseMail(raw) {
  const { headers, body } = splitPart(raw);
  const type = headers['content-type'] ?? 'text/plain';
  let text = '';
  let contentType = type;
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const chunk of body.split('--' + boundary)) {
      const part = splitPart(chunk.replace(/^\r?\n/, ''));
      if (/^text\/plain/i.test(part.headers['content-type'] ?? '')) {
        text = decodeBody(part.headers, part.body);
        contentType = part.headers['content-type'];
        break;
      }
    }
  } else text = decodeBody(headers, body);
  return {
    to: headers.to ?? '',
    from: headers.from ?? '',
    subject: decodeEncodedWords(headers.subject ?? ''),
    contentType,
    text,
    headers,
    raw,
  };
}

/** The 6-digit code (a line of its own) and the sign-in link token of a sign-in email. */
export function signInDetails(mail) {
  const code = /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1] ?? null;
  const link = /(https?:\/\/\S+\/auth\/callback#token=[^\s>]+)/.exec(mail.text)?.[1] ?? null;
  const token = link ? decodeURIComponent(link.split('#token=')[1]) : null;
  return { code, link, token };
}

export async function startSmtp() {
  const messages = [];
  let waiters = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    banner: 'hibiki-e2e sink',
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'));
        mail.envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        messages.push(mail);
        const still = [];
        for (const w of waiters) if (!w.check(mail)) still.push(w);
        waiters = still;
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', ok);
  });
  server.on('error', (e) => console.error('SMTP sink error', e));
  return {
    port,
    messages,
    /** Resolves with the first message (already received or arriving) to `address` after `since` messages. */
    waitFor(address, { since = 0, timeoutMs = 15_000 } = {}) {
      const want = address.toLowerCase();
      const match = (m) => m.envelopeTo.includes(want);
      const seen = messages.slice(since).find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          fail(new Error(`no mail to ${address} within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        const waiter = {
          check(m) {
            if (!match(m)) return false;
            clearTimeout(timer);
            ok(m);
            return true;
          },
        };
        waiters.push(waiter);
      });
    },
    count: (address) => messages.filter((m) => m.envelopeTo.includes(address.toLowerCase())).length,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

// ---------------------------------------------------------------------------------------------
// The server

export function hibikiBin() {
  return resolve(WEB_DIR, process.env.HIBIKI_BIN ?? '../target/debug/hibiki');
}

export async function startHibiki({ smtpPort, env = {} } = {}) {
  const bin = hibikiBin();
  if (!existsSync(bin)) throw new Error(`hibiki binary not found at ${bin} (set HIBIKI_BIN)`);
  if (!existsSync(join(DIST_DIR, 'index.html'))) throw new Error(`${DIST_DIR} has no build: run npm run build`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'hibiki-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const logs = [];
  const child = spawn(bin, [], {
    cwd: dataDir,
    env: {
      ...process.env,
      HIBIKI_LISTEN: `127.0.0.1:${port}`,
      HIBIKI_PUBLIC_URL: url,
      HIBIKI_DATA_DIR: dataDir,
      HIBIKI_WEB_DIR: DIST_DIR,
      HIBIKI_METRICS_LISTEN: 'off',
      HIBIKI_AUTH_RATE_PER_MINUTE: '10000',
      HIBIKI_API_RATE_PER_MINUTE: '100000',
      // Send-now twice in a row on one account (the 10 s limit has its own Rust test).
      HIBIKI_SEND_NOW_INTERVAL_MS: '0',
      ...(smtpPort ? { HIBIKI_SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d) => {
    logs.push(d.toString());
    if (logs.length > 400) logs.splice(0, logs.length - 400);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exitPromise = new Promise((r) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      r();
    }),
  );

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`hibiki exited (${JSON.stringify(exited)}) before answering:\n${logs.join('')}`);
    try {
      const res = await fetch(`${url}/api/health`, { method: 'HEAD' });
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`hibiki did not answer HEAD /api/health within 60 s:\n${logs.join('')}`);
    }
    await sleep(100);
  }

  return {
    url,
    port,
    dataDir,
    logs,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exitPromise;
        clearTimeout(t);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The browser

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium for a file. `full`: the whole browser rather than the headless shell, for a file
 * that grants notifications: the shell denies them whatever a context grants, so no
 * notification shows and the app rightly says the device cannot ring.
 */
export function launchBrowser({ full = false } = {}) {
  const executablePath = full ? (process.env.HIBIKI_CHROMIUM_FULL ?? '/usr/bin/chromium') : CHROMIUM;
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS }).then((browser) => {
    shellBrowsers.set(browser, !full && executablePath.includes('headless-shell'));
    return browser;
  });
}

/** Which launched browsers are the headless shell (a context there cannot have notifications). */
const shellBrowsers = new WeakMap();

/**
 * A fresh context (its own cookies, storage, service workers). `lang` sets the browser's
 * language list (ja-JP or en-US); the time zone is Asia/Tokyo so dates are stable.
 */
export async function newContext(browser, baseURL, { lang = 'ja', viewport = DESKTOP, permissions = [], ...rest } = {}) {
  if (permissions.includes('notifications') && shellBrowsers.get(browser)) {
    throw new Error('this file grants notifications: start it with startStack({ fullBrowser: true }) (the headless shell denies them)');
  }
  const context = await browser.newContext({
    baseURL,
    viewport,
    locale: lang === 'ja' ? 'ja-JP' : 'en-US',
    timezoneId: 'Asia/Tokyo',
    permissions,
    serviceWorkers: 'allow',
    ...(viewport.width < 600 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    ...rest,
  });
  context.setDefaultTimeout(10_000);
  // (the event comes before newPage() answers, so every page of the context is covered)
  if (!SCREENSHOTS) context.on('page', withoutScreenshots);
  return context;
}

/**
 * Whether pages take the screenshots the tests ask for (to be looked at; nothing compares
 * them). HIBIKI_E2E_SCREENSHOTS=0 leaves them out: scripts/test does, as each costs the
 * browser about a quarter of a CPU-second.
 */
export const SCREENSHOTS = process.env.HIBIKI_E2E_SCREENSHOTS !== '0';

function withoutScreenshots(page) {
  page.screenshot = async () => Buffer.alloc(0);
}

/** Collects page errors and CSP violations so a test can assert the page ran cleanly. */
export function watchPage(page) {
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    const text = m.text();
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(text)) problems.push(`csp: ${text}`);
  });
  return problems;
}

let counter = 0;
/** A unique address per call (OTP mail is limited to 3 per address per hour). */
export function uniqueEmail(tag = 'user') {
  counter += 1;
  return `${tag}-${process.pid}-${Date.now().toString(36)}-${counter}@e2e.test`;
}

/**
 * Signs a browser context in through the API (the session cookie lands in the context's jar):
 * request a code, read it from the SMTP sink, verify. Returns the verify answer's data.
 */
export async function apiSignIn(context, server, smtp, email, lang = 'ja') {
  const since = smtp.messages.length;
  const otp = await context.request.post(`${server.url}/api/auth/otp`, { data: { email, lang } });
  if (otp.status() !== 202) throw new Error(`otp: ${otp.status()} ${await otp.text()}`);
  const mail = await smtp.waitFor(email, { since });
  const { code } = signInDetails(mail);
  if (!code) throw new Error(`no code in mail:\n${mail.text}`);
  const res = await context.request.post(`${server.url}/api/auth/verify`, { data: { email, code } });
  if (res.status() !== 200) throw new Error(`verify: ${res.status()} ${await res.text()}`);
  return (await res.json()).data;
}

/** GET/POST… on the API with the context's cookie; returns `data` of the envelope. */
export async function apiCall(context, server, method, path, data) {
  const res = await context.request.fetch(`${server.url}${path}`, { method, ...(data !== undefined ? { data } : {}) });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${text}`);
  return body?.data ?? body;
}

export function screenshotPath(name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}

/** Everything one test file needs: SMTP sink, server, browser; `close()` stops all three. */
export async function startStack({ env, fullBrowser = false } = {}) {
  const smtp = await startSmtp();
  let server;
  try {
    server = await startHibiki({ smtpPort: smtp.port, env });
  } catch (e) {
    await smtp.close();
    throw e;
  }
  const browser = await launchBrowser({ full: fullBrowser });
  return {
    smtp,
    server,
    browser,
    url: server.url,
    async close() {
      await browser.close().catch(() => {});
      await server.stop().catch(() => {});
      await smtp.close().catch(() => {});
    },
  };
}

/** The path part of a page's URL ('/en/login'). */
export function pathOf(page) {
  return new URL(page.url()).pathname;
}

// ---------------------------------------------------------------------------------------------
// The app's own texts (src/locales), so tests find elements by what a person reads.

const localeCache = new Map();
function namespace(lang, ns) {
  const key = `${lang}/${ns}`;
  if (!localeCache.has(key)) {
    localeCache.set(key, JSON.parse(readFileSync(join(WEB_DIR, 'src', 'locales', lang, `${ns}.json`), 'utf8')));
  }
  return localeCache.get(key);
}

/** `tr('en', 'reminders:dialog.save')` -> 'Save'; `{{name}}` placeholders are filled from params. */
export function tr(lang, id, params = {}) {
  const [ns, path] = id.includes(':') ? id.split(':') : ['common', id];
  let value = namespace(lang, ns);
  for (const part of path.split('.')) value = value?.[part];
  if (typeof value !== 'string') throw new Error(`no text ${lang}:${id}`);
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k) => String(params[k] ?? ''));
}

/** A counted text (`…_one` / `…_other`, as i18next picks them for ja and en) with `{{count}}` filled in. */
export const trCount = (lang, id, count, params = {}) => tr(lang, `${id}_${count === 1 ? 'one' : 'other'}`, { count, ...params });

export const prefixOf = (lang) => (lang === 'en' ? '/en' : '');
export const homePathOf = (lang) => (lang === 'en' ? '/en' : '/');

/** YYYY-MM-DD of the day `days` after today in Asia/Tokyo. */
export function tokyoDate(days) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date(Date.now() + days * 86_400_000));
}

/**
 * Picks a zone in the time zone combobox labelled `label` (TimeZoneSelect) inside `scope` (a
 * page or a dialog): types `query` (an id such as 'Asia/Tokyo', or a city), Enter on the match.
 */
export async function pickZone(scope, label, query) {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await box.click();
  await box.fill(query);
  await scope.getByRole('option').first().waitFor();
  await box.press('Enter');
  await scope.locator(`[role=combobox][aria-expanded=false]`).first().waitFor();
}

// Keyboard-only walks: where focus is, and Tab until it gets somewhere.

export const isFocused = (locator) => locator.evaluate((el) => el === document.activeElement);

/** What has focus, for assertion messages. */
export const focusedDescription = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '<body>';
    return `<${el.tagName.toLowerCase()}> ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60)}`;
  });

/** Presses Tab (Shift+Tab with `back`) until `target` has focus; fails after `max` presses. */
export async function tabTo(page, target, { back = false, max = 80 } = {}) {
  await target.waitFor();
  for (let i = 0; i <= max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  assert.fail(`Tab did not reach the element in ${max} presses (focus is on ${await focusedDescription(page)})`);
}

/** Waits up to 5 s for `target` to have focus, then asserts it (saying what has it instead). */
export async function assertFocused(page, target, what) {
  await page.waitForFunction((el) => el === document.activeElement, await target.elementHandle(), { timeout: 5000 }).catch(() => {});
  assert.ok(await isFocused(target), `${what}: focus is on ${await focusedDescription(page)}`);
}

/**
 * The page comes back to the front, as when its person switches back to it: the page says it is
 * visible and focused again (what SWR revalidates on) until `done()` holds. SWR revalidates on
 * focus at most every 5 s, hence the repeats.
 */
export async function comeBack(page, done, { timeoutMs = 20_000 } = {}) {
  await page.bringToFront();
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    await page.evaluate(() => {
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    if (await done()) return;
    await page.waitForTimeout(500);
  }
  assert.fail('the page did not update after coming back to the front');
}

/** Nothing of `locator` sticks out of the page sideways (cut off at 390 px). */
export async function assertWithinWidth(page, locator, what) {
  const [box, width] = await Promise.all([locator.boundingBox(), page.evaluate(() => document.documentElement.clientWidth)]);
  assert.ok(box, `${what} is on the page`);
  assert.ok(box.x >= 0 && box.x + box.width <= width + 1, `${what} fits the page: ${Math.round(box.x)}..${Math.round(box.x + box.width)} of ${width} px`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true, 'the page does not scroll sideways');
}

/**
 * Before a screenshot: `locator`'s top just under the sticky header (not its bottom at the
 * screen's edge, as scrollIntoViewIfNeeded leaves a tall one), and the toasts closed so they
 * cover nothing (each was waited for already).
 */
export async function show(page, locator) {
  for (const close of await page.locator('.toast .toast-close').all()) await close.click().catch(() => {});
  await page.locator('.toast').first().waitFor({ state: 'detached' }).catch(() => {});
  await locator.evaluate((el) => {
    const header = document.querySelector('.site-header')?.getBoundingClientRect().height ?? 0;
    el.scrollIntoView({ block: 'start' });
    // a page scrolls under the header; a dialog's own body does not
    if (!el.closest('[role=dialog]')) window.scrollBy(0, -(header + 12));
  });
}
