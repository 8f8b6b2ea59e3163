// Real Web Push into a real Firefox: Debian's firefox-esr (HIBIKI_FIREFOX, default
// /usr/bin/firefox-esr) driven headless by puppeteer-core over WebDriver BiDi, with its push
// service (`dom.push.serverURL`) pointed at e2e/mozpush.mjs, a loopback server speaking
// Mozilla's push protocol. Nothing in the browser is stubbed: the app subscribes through its own
// button (after Firefox's own permission prompt is answered "Allow"), Hibiki encrypts and POSTs
// with VAPID to the endpoint Firefox got, mozpush checks the request and forwards it over the
// WebSocket, Firefox decrypts it and wakes the app's service worker, which shows the
// notification (Firefox's own alert window).
//
// Snooze: Firefox's Linux alert windows (the non-system backend used headless) show no action
// buttons, so the test presses "Snooze" the way an OS notification backend reports a button
// press to Firefox: it calls the alert's listener with `alertclickcallback` and an
// nsIAlertAction whose action is "snooze" (privileged JS in the parent process, allowed by
// --remote-allow-system-access). From there it is Firefox's own path: the notificationclick
// event reaches the app's service worker with event.action === 'snooze', and the worker calls
// POST /api/reminders?action=handle with the push's action_token.
//
// The snooze delay is at least 5 minutes (settings presets) and the API does not show a pending
// snooze, so the test reads the fire the server scheduled from its SQLite file. The ja case then
// brings that fire forward (as the Rust delivery test does) and waits for the scheduler's
// periodic reload (every 60 s) to pick it up; HIBIKI_E2E_REAL_SNOOZE=1 waits the real 5 minutes
// instead and touches nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import puppeteer from 'puppeteer-core';
import { DESKTOP, PHONE, screenshotPath, signInDetails, startHibiki, startSmtp, tr, uniqueEmail } from './harness.mjs';
import { startMozPush } from './mozpush.mjs';

export const FIREFOX = process.env.HIBIKI_FIREFOX ?? '/usr/bin/firefox-esr';
const REAL_SNOOZE = process.env.HIBIKI_E2E_REAL_SNOOZE === '1';
const SNOOZE_MINUTES = 5;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let smtp;
let server;
let push;
before(async () => {
  if (!existsSync(FIREFOX)) throw new Error(`Firefox not found at ${FIREFOX} (apt-get install firefox-esr, or set HIBIKI_FIREFOX)`);
  push = await startMozPush({ log: process.env.HIBIKI_E2E_MOZPUSH_LOG === '1' });
  smtp = await startSmtp();
  server = await startHibiki({ smtpPort: smtp.port, env: { HIBIKI_ALLOW_PRIVATE_PUSH: '1' } });
});
after(async () => {
  await server?.stop().catch(() => {});
  await smtp?.close().catch(() => {});
  await push?.close().catch(() => {});
});

// ---------------------------------------------------------------------------------------------
// Firefox

async function launchFirefox(lang) {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    // chrome-scope browsing contexts over BiDi: the permission prompt and the alert windows
    args: ['--remote-allow-system-access'],
    env: { ...process.env, TZ: 'Asia/Tokyo' },
    protocolTimeout: 60_000,
    // The one testing switch is the ws:// push service; permission comes from Firefox's own
    // prompt, and service workers run because 127.0.0.1 is a secure context.
    extraPrefsFirefox: {
      'dom.push.enabled': true,
      'dom.push.connection.enabled': true,
      'dom.push.serverURL': push.serverURL,
      'dom.push.testing.allowInsecureServerURL': true, // ws:// on loopback
      'dom.push.requestTimeout': 30_000,
      'dom.push.loglevel': process.env.HIBIKI_E2E_FIREFOX_LOG === '1' ? 'debug' : 'error',
      'dom.serviceWorkers.enabled': true,
      'dom.webnotifications.enabled': true,
      'dom.webnotifications.serviceworker.enabled': true,
      // Firefox's own alert windows (there is no notification daemon here)
      'alerts.useSystemBackend': false,
      'intl.accept_languages': lang === 'ja' ? 'ja-JP, ja, en-US, en' : 'en-US, en',
    },
  });
  try {
    const [page] = await browser.pages();
    page.setDefaultTimeout(15_000);
    return { browser, page, chrome: await chromeScope(browser) };
  } catch (e) {
    await browser.close().catch(() => {});
    throw e;
  }
}

/**
 * Runs privileged JS in Firefox's parent process (the browser window's chrome context).
 * `call(fn, arg)`: fn is an async function's source taking one JSON-able argument; it returns
 * something JSON-able.
 */
async function chromeScope(browser) {
  const connection = browser.connection;
  const tree = await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
  const top = tree.result.contexts.find((c) => c.url === 'chrome://browser/content/browser.xhtml');
  if (!top) throw new Error(`no chrome browser window in ${JSON.stringify(tree.result)}`);
  return {
    async call(fn, arg = null) {
      const r = await connection.send('script.callFunction', {
        functionDeclaration: `async (json) => JSON.stringify(await (${fn})(JSON.parse(json)) ?? null)`,
        arguments: [{ type: 'string', value: JSON.stringify(arg) }],
        target: { context: top.context },
        awaitPromise: true,
      });
      if (r.result.type === 'exception') throw new Error(`chrome: ${r.result.exceptionDetails.text}`);
      return JSON.parse(r.result.result.value);
    },
  };
}

/** Answers Firefox's notification permission prompt for `origin` with its "Allow" button. */
async function allowNotificationPrompt(chrome, page, origin) {
  const end = Date.now() + 15_000;
  for (;;) {
    const state = await chrome.call(
      `async (origin) => {
        const win = Services.wm.getMostRecentWindow('navigator:browser');
        const browser = win.gBrowser.browsers.find((b) => b.currentURI.spec.startsWith(origin));
        const n = browser && win.PopupNotifications.getNotification('web-notifications', browser);
        if (!n) return { prompt: false };
        const el = win.document.getElementById('web-notifications-notification');
        if (!el?.button || el.button.disabled) return { prompt: true, ready: false };
        el.button.click();
        return { prompt: true, ready: true, label: el.button.label };
      }`,
      origin,
    );
    if (state.ready) {
      const granted = await page
        .waitForFunction(() => Notification.permission === 'granted', { timeout: 2000 })
        .then(() => true, () => false);
      if (granted) return state.label;
    }
    if (Date.now() > end) throw new Error(`the notification prompt was not answered: ${JSON.stringify(state)}`);
    await sleep(200);
  }
}

/** Firefox's open alert windows (its own notification UI): title, text, origin line. */
function alertWindows(chrome) {
  return chrome.call(`async () => {
    const out = [];
    for (const w of Services.wm.getEnumerator('alert:alert')) {
      out.push({
        title: w.document.getElementById('alertTitleLabel')?.value ?? null,
        text: w.document.getElementById('alertTextLabel')?.textContent ?? null,
        origin: w.document.getElementById('alertSourceLabel')?.value ?? null,
      });
    }
    return out;
  }`);
}

/**
 * Presses a notification action on the alert titled `title`: the alert's listener gets
 * `alertclickcallback` with an nsIAlertAction, as from an OS backend's action button.
 */
function pressAlertAction(chrome, title, action, actionTitle) {
  return chrome.call(
    `async ({ title, action, actionTitle }) => {
      for (const w of Services.wm.getEnumerator('alert:alert')) {
        if (w.document.getElementById('alertTitleLabel')?.value !== title) continue;
        const pressed = {
          action,
          title: actionTitle,
          iconURL: '',
          windowsSystemActivationType: false,
          opaqueRelaunchData: '',
          QueryInterface: ChromeUtils.generateQI(['nsIAlertAction']),
        };
        w.gAlertListener.observe(pressed, 'alertclickcallback', w.gAlertCookie);
        return true;
      }
      return false;
    }`,
    { title, action, actionTitle },
  );
}

/** A PNG of the alert window titled `title`, drawn by Firefox itself. */
async function alertScreenshot(chrome, title) {
  const dataUrl = await chrome.call(
    `async (title) => {
      for (const w of Services.wm.getEnumerator('alert:alert')) {
        if (w.document.getElementById('alertTitleLabel')?.value !== title) continue;
        const doc = Services.wm.getMostRecentWindow('navigator:browser').document;
        const canvas = doc.createElementNS('http://www.w3.org/1999/xhtml', 'canvas');
        canvas.width = w.innerWidth;
        canvas.height = w.innerHeight;
        canvas.getContext('2d').drawWindow(w, 0, 0, w.innerWidth, w.innerHeight, 'white');
        return canvas.toDataURL('image/png');
      }
      return null;
    }`,
    title,
  );
  return dataUrl ? Buffer.from(dataUrl.split(',')[1], 'base64') : null;
}

/** What the app's service worker registration shows (the Notifications API view). */
function notifications(page, tag) {
  return page.evaluate(async (t) => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications(t ? { tag: t } : undefined)).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      lang: n.lang,
      requireInteraction: n.requireInteraction,
      actions: (n.actions ?? []).map((a) => ({ action: a.action, title: a.title })),
      data: n.data,
    }));
  }, tag);
}

async function until(what, fn, timeoutMs = 15_000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Clicks the enabled <button> whose text is `text` (a real, trusted click). */
async function clickButton(page, text) {
  const handle = await page.waitForFunction(
    (t) => [...document.querySelectorAll('button, summary')].find((b) => b.textContent.trim() === t && !b.disabled && b.offsetParent !== null),
    {},
    text,
  );
  await handle.asElement().click();
  await handle.dispose();
}

/** Clicks the enabled button whose text is `text` inside the first `container` (the header's
 * menu holds buttons of the same names). */
async function clickButtonIn(page, container, text) {
  const handle = await page.waitForFunction(
    (sel, t) => [...(document.querySelector(sel)?.querySelectorAll('button') ?? [])].find((b) => b.textContent.trim() === t && !b.disabled),
    {},
    container,
    text,
  );
  await handle.asElement().click();
  await handle.dispose();
}

/** Closes every toast with its × (they sit over the header's controls). */
async function closeToasts(page) {
  for (;;) {
    const close = await page.$('.toaster .toast-close');
    if (!close) return;
    await close.click();
    await close.dispose();
    await sleep(100);
  }
}

async function waitForText(page, text) {
  try {
    await page.waitForFunction((t) => document.body.innerText.includes(t), {}, text);
  } catch (e) {
    const shown = await page.evaluate(() => document.body.innerText).catch(() => '(unreadable)');
    throw new Error(`"${text}" never appeared; the page says:\n${shown}`, { cause: e });
  }
}

// ---------------------------------------------------------------------------------------------
// The server

/**
 * The API with the session cookie the UI sign-in gave Firefox (read from Firefox once, then
 * kept here, so the test can take it away from Firefox and still call the API).
 */
function apiFor(browser) {
  let session = null;
  return async (method, path, body) => {
    if (!session) {
      const cookies = await browser.cookies();
      session = cookies.find((c) => c.name === 'hibiki_session')?.value;
      if (!session) throw new Error(`no hibiki_session cookie in Firefox: ${JSON.stringify(cookies.map((c) => c.name))}`);
    }
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        cookie: `hibiki_session=${session}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : null;
  };
}

/** One SQL statement on the server's SQLite file (python3's sqlite3: Node 20 has none). */
function sqlite(sql, params = []) {
  const script = [
    'import json, sqlite3, sys',
    'con = sqlite3.connect(sys.argv[1], timeout=10)',
    'cur = con.execute(sys.argv[2], json.loads(sys.argv[3]))',
    'rows = [dict(zip([d[0] for d in cur.description], r)) for r in cur.fetchall()] if cur.description else []',
    'con.commit()',
    'print(json.dumps({"rows": rows, "changes": con.total_changes}))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script, join(server.dataDir, 'hibiki.sqlite'), sql, JSON.stringify(params)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout);
}

const pushesTo = (endpoint) => push.pushes.filter((p) => p.endpoint === endpoint);

/** Asserts one push as mozpush saw it: accepted, VAPID valid, Firefox decrypted and acked it. */
function assertGoodPush(p, vapidKey) {
  assert.equal(p.status, 201, `mozpush answered ${p.status} ${p.reason}`);
  assert.deepEqual(p.verdicts, { vapid: 'ok', encoding: 'ok', ttl: 'ok', size: 'ok' });
  assert.equal(p.headers.authorization.split('k=')[1].replace(/=+$/, ''), vapidKey, 'signed with the server key the app subscribed with');
  assert.equal(p.claims.aud, push.origin);
  assert.match(p.claims.sub, /^(mailto:|https:)/);
  assert.equal(p.forwarded, true, 'forwarded to Firefox over the WebSocket');
  assert.deepEqual(p.ack && { type: p.ack.type, code: p.ack.code }, { type: 'ack', code: 100 }, 'Firefox acked it as delivered (100), not a decryption error (101)');
}

// ---------------------------------------------------------------------------------------------

const CASES = [
  { lang: 'ja', viewport: PHONE, title: 'お薬を飲む', body: '食後に1錠', refire: true },
  { lang: 'en', viewport: DESKTOP, title: 'Water the plants', body: 'The balcony ones', refire: REAL_SNOOZE },
];

describe('real Web Push into Firefox', () => {
  for (const c of CASES) {
    const timeout = c.refire ? (REAL_SNOOZE ? 9 : 4) * 60_000 : 3 * 60_000;
    it(`${c.lang}: subscribe with the app's button, the reminder's push arrives on its second and shows, Snooze reschedules${c.refire ? ' and it fires again' : ''}`, { timeout }, async (t) => {
      const steps = [];
      let stepStart = Date.now();
      const step = (name) => {
        steps.push(`${name} ${((Date.now() - stepStart) / 1000).toFixed(1)} s`);
        stepStart = Date.now();
      };
      const { browser, page, chrome } = await launchFirefox(c.lang);
      step('launch');
      try {
        await page.setViewport({ width: c.viewport.width, height: c.viewport.height });
        const prefix = c.lang === 'en' ? '/en' : '';
        const api = apiFor(browser);

        // Sign in through the UI with the mailed code.
        await page.goto(`${server.url}${prefix}/login`);
        assert.equal(await page.evaluate(() => document.documentElement.lang), c.lang);
        const email = uniqueEmail(`firefox-${c.lang}`);
        const since = smtp.messages.length;
        await page.locator('#login-email').fill(email);
        await clickButton(page, tr(c.lang, 'auth:sendCode'));
        await page.waitForSelector('#login-otp');
        const { code } = signInDetails(await smtp.waitFor(email, { since }));
        assert.ok(code, 'a code in the mail');
        await page.type('#login-otp', code, { delay: 20 });
        await clickButton(page, tr(c.lang, 'auth:verify'));
        await page.waitForFunction((t) => [...document.querySelectorAll('h1, h2')].some((h) => h.textContent.trim() === t), {}, tr(c.lang, 'reminders:dashboard.title'));
        await api('PUT', '/api/settings', { default_snooze_minutes: SNOOZE_MINUTES });

        step('sign-in');

        // Enable notifications with the app's own button: Firefox asks, the test answers
        // "Allow" in Firefox's prompt, and the app subscribes through Firefox's push service.
        await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated');
        assert.equal(await page.evaluate(() => Notification.permission), 'default');
        await closeToasts(page);
        await page.locator(`summary[aria-label="${tr(c.lang, 'nav.menu')}"]`).click();
        await page.waitForSelector('details.menu[open]');
        await clickButton(page, tr(c.lang, 'notifications:enable'));
        const allowLabel = await allowNotificationPrompt(chrome, page, server.url);
        assert.ok(allowLabel, 'the prompt had an Allow button');
        await waitForText(page, tr(c.lang, 'notifications:enabled'));
        await page.waitForFunction((t) => [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === t && b.disabled), {}, tr(c.lang, 'notifications:on'));

        const endpoint = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint ?? null);
        assert.ok(endpoint?.startsWith(`${push.origin}/wpush/`), `Firefox's endpoint is on mozpush: ${endpoint}`);
        const vapidKey = (await (await fetch(`${server.url}/api/notifications/vapid-public-key`)).json()).data.public_key;
        const registration = [...push.registrations.values()].find((r) => r.endpoint === endpoint);
        assert.ok(registration, 'Firefox registered the channel with mozpush');
        assert.equal(registration.key?.toString('base64url'), vapidKey, 'Firefox registered with the server VAPID key');
        const devices = await api('GET', '/api/notifications/subscriptions');
        const listed = devices.map((d) => d.endpoint ?? d.subscription?.endpoint);
        assert.ok(listed.includes(endpoint), `the server lists the subscription: ${JSON.stringify(devices)}`);

        step('subscribe');

        // A reminder for a whole second about 5 s ahead.
        const due = Math.ceil((Date.now() + 5000) / 1000) * 1000;
        const reminder = await api('POST', '/api/reminders', { title: c.title, description: c.body, send_at: new Date(due).toISOString(), timezone: 'Asia/Tokyo' });
        assert.equal(Date.parse(reminder.scheduled_at), due);

        const [first] = await push.waitFor((p) => p.endpoint === endpoint && p.ack, { timeoutMs: due - Date.now() + 15_000, what: 'the reminder push' });
        assertGoodPush(first, vapidKey);
        const lateness = first.at - due;
        assert.ok(lateness >= 0, `not before its second (${lateness} ms)`);
        assert.ok(lateness < 1000, `within one second of its second (${lateness} ms late)`);
        t.diagnostic(`push received ${lateness} ms after its second; Firefox acked it (shown) ${first.ack.at - due} ms after`);
        assert.ok(first.claims.exp > first.at / 1000 && first.claims.exp <= first.at / 1000 + 24 * 3600, 'exp within 24 h');

        step('reminder due');

        // Firefox decrypted it and the app's worker showed it.
        const shown = await until('the notification', async () => (await notifications(page, reminder.id)).find((n) => n.title === c.title));
        assert.equal(shown.tag, reminder.id);
        assert.equal(shown.body, c.body);
        assert.equal(shown.lang, c.lang);
        assert.equal(shown.requireInteraction, true);
        assert.equal(shown.data.reminder_id, reminder.id);
        assert.deepEqual(shown.actions, [
          { action: 'complete', title: c.lang === 'ja' ? '完了' : 'Complete' },
          { action: 'snooze', title: c.lang === 'ja' ? 'スヌーズ' : 'Snooze' },
        ]);
        const alert = await until('Firefox alert window', async () => (await alertWindows(chrome)).find((a) => a.title === c.title));
        assert.equal(alert.text, c.body);
        await sleep(1000); // nothing else comes for this occurrence
        assert.equal(pushesTo(endpoint).length, 1, 'exactly one push for the reminder');
        assert.equal((await notifications(page, reminder.id)).length, 1);

        const [log] = await api('GET', `/api/reminders/${reminder.id}/logs`);
        assert.equal(log.id, shown.data.log_id, 'the push carried its delivery log entry');
        assert.equal(Date.parse(log.occurrence_at), due);

        writeFileSync(screenshotPath(`firefox-${c.lang}-notification`), await alertScreenshot(chrome, c.title));
        await page.screenshot({ path: screenshotPath(`firefox-${c.lang}-app`) });

        step('notification checks');

        // Snooze, pressed on the notification: the worker's notificationclick handles it. Firefox
        // loses its session cookie first, so only the push's action_token can authorize it.
        assert.match(shown.data.action_token ?? '', /\S/, 'the push carries an action token');
        await browser.deleteCookie(...(await browser.cookies()).filter((k) => k.name === 'hibiki_session'));
        assert.ok(!(await browser.cookies()).some((k) => k.name === 'hibiki_session'), 'Firefox has no session now');
        assert.equal(await pressAlertAction(chrome, c.title, 'snooze', shown.actions[1].title), true);
        const snoozed = await until('the snooze in the delivery log', async () => {
          const logs = await api('GET', `/api/reminders/${reminder.id}/logs`);
          return logs.find((l) => l.id === log.id && l.action === 'snooze');
        });
        const actionAt = Date.parse(snoozed.action_at);
        assert.ok(actionAt >= first.at, 'acted after the push');
        // the worker closed the notification, and Firefox its alert window
        await until('the notification to close', async () => (await notifications(page, reminder.id)).length === 0);
        await until('the alert window to close', async () => !(await alertWindows(chrome)).some((a) => a.title === c.title));
        // the server scheduled the snoozed occurrence SNOOZE_MINUTES after the press
        const fire = sqlite("SELECT fire_at FROM fires WHERE reminder_id = ? AND kind = 'snooze'", [reminder.id]).rows[0];
        assert.ok(fire, 'a snooze fire is scheduled');
        assert.equal(fire.fire_at, actionAt + SNOOZE_MINUTES * 60_000, `fires ${SNOOZE_MINUTES} min after the press`);
        const after = await api('GET', `/api/reminders/${reminder.id}`);
        assert.equal(after.status, 'pending', 'a snoozed one-time reminder stays pending');

        step('snooze');
        if (!c.refire) return;

        // It fires again: the real delay, or (default) the fire brought forward in the database
        // to a whole second beyond the scheduler's next periodic reload (every 60 s).
        let refireAt = fire.fire_at;
        if (!REAL_SNOOZE) {
          refireAt = Math.ceil((Date.now() + 70_000) / 1000) * 1000;
          const moved = sqlite("UPDATE fires SET fire_at = ?, occurrence_at = ? WHERE reminder_id = ? AND kind = 'snooze'", [refireAt, refireAt, reminder.id]);
          assert.equal(moved.changes, 1);
        }
        const dueSecond = Math.ceil(refireAt / 1000) * 1000;
        const [, second] = await push.waitFor((p) => p.endpoint === endpoint && p.ack, { count: 2, timeoutMs: dueSecond - Date.now() + 20_000, what: 'the snoozed push' });
        assertGoodPush(second, vapidKey);
        const late2 = second.at - dueSecond;
        assert.ok(second.at >= refireAt && late2 < 1000, `the snooze fired on its second (${late2} ms after it)`);
        t.diagnostic(`snoozed push received ${second.at - refireAt} ms after the snooze fire (${new Date(refireAt).toISOString()}); acked ${second.ack.at - refireAt} ms after`);
        const again = await until('the notification again', async () => (await notifications(page, reminder.id)).find((n) => n.title === c.title));
        assert.notEqual(again.data.log_id, log.id, 'a new delivery log entry');
        assert.equal(again.data.reminder_id, reminder.id);
        await until('Firefox alert window again', async () => (await alertWindows(chrome)).some((a) => a.title === c.title));
        const logs = await api('GET', `/api/reminders/${reminder.id}/logs`);
        assert.equal(logs.length, 2);
        assert.equal(logs[0].id, again.data.log_id);
        assert.equal(Date.parse(logs[0].occurrence_at), refireAt);
        assert.equal(logs[1].action, 'snooze');
        await sleep(1000);
        assert.equal(pushesTo(endpoint).length, 2, 'exactly one more push');
        writeFileSync(screenshotPath(`firefox-${c.lang}-notification-again`), await alertScreenshot(chrome, c.title));
        step('refire');
      } finally {
        t.diagnostic(`steps: ${steps.join(', ')}`);
        await browser.close().catch(() => {});
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
// It rings, or it tells you: this device first, a test that says what happened, devices.

describe('this device, the test notification and the device list in Firefox', () => {
  for (const c of [
    { lang: 'en', viewport: DESKTOP },
    { lang: 'ja', viewport: PHONE },
  ]) {
    it(`${c.lang} ${c.viewport.width}px: the notice until subscribed, enable from it, the test is shown, this device listed, off and on, removed`, { timeout: 3 * 60_000 }, async () => {
      const { browser, page, chrome } = await launchFirefox(c.lang);
      try {
        await page.setViewport({ width: c.viewport.width, height: c.viewport.height });
        const prefix = c.lang === 'en' ? '/en' : '';
        const api = apiFor(browser);
        await page.goto(`${server.url}${prefix}/login`);
        const email = uniqueEmail(`ff-device-${c.lang}`);
        const since = smtp.messages.length;
        await page.locator('#login-email').fill(email);
        await clickButton(page, tr(c.lang, 'auth:sendCode'));
        await page.waitForSelector('#login-otp');
        const { code } = signInDetails(await smtp.waitFor(email, { since }));
        await page.type('#login-otp', code, { delay: 20 });
        await clickButton(page, tr(c.lang, 'auth:verify'));
        await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated');

        // Never subscribed: the dashboard says this device will not ring, and how to fix it.
        await page.waitForSelector('[data-testid="device-setup"]');
        await waitForText(page, tr(c.lang, 'device:notice.title'));
        await waitForText(page, tr(c.lang, 'device:fix.ask'));
        await closeToasts(page);
        await page.screenshot({ path: screenshotPath(`firefox-${c.lang}-device-notice`) });

        // Enable from the notice itself; Firefox's prompt answered "Allow".
        const notice = await page.waitForSelector('[data-testid="device-setup"] button');
        await notice.click();
        assert.ok(await allowNotificationPrompt(chrome, page, server.url), 'the prompt had an Allow button');
        await waitForText(page, tr(c.lang, 'device:notice.enabledTry'));
        await page.waitForFunction(() => !document.querySelector('[data-testid="device-setup"]'));

        // The test notification: the button waits for this device to show it.
        await closeToasts(page);
        await clickButtonIn(page, '.notice', tr(c.lang, 'notifications:test.button'));
        await waitForText(page, tr(c.lang, 'notifications:test.shown'));
        await page.screenshot({ path: screenshotPath(`firefox-${c.lang}-test-shown`) });

        // Settings: this device is listed and marked, with a readable label.
        await page.goto(`${server.url}${prefix}/settings`);
        await waitForText(page, tr(c.lang, 'notifications:devices.thisDevice'));
        await waitForText(page, 'Linux · Firefox');
        await page.screenshot({ path: screenshotPath(`firefox-${c.lang}-devices`), fullPage: true });
        assert.equal((await api('GET', '/api/notifications/subscriptions')).length, 1);

        // Off on this device: gone from the server; on again: back.
        await clickButtonIn(page, 'section.devices', tr(c.lang, 'notifications:devices.turnOff'));
        await until('the device to go', async () => (await api('GET', '/api/notifications/subscriptions')).length === 0);
        await waitForText(page, tr(c.lang, 'notifications:devices.none'));
        await clickButtonIn(page, 'section.devices', tr(c.lang, 'notifications:enable'));
        await until('the device to come back', async () => (await api('GET', '/api/notifications/subscriptions')).length === 1);
        await waitForText(page, tr(c.lang, 'notifications:devices.thisDevice'));

        // Removed from the list: no push reaches it any more, and send-now says so.
        await clickButtonIn(page, 'section.devices', tr(c.lang, 'notifications:devices.remove'));
        await until('the device to be removed', async () => (await api('GET', '/api/notifications/subscriptions')).length === 0);
        const reminder = await api('POST', '/api/reminders', { title: 'After removal', send_at: new Date(Date.now() + 3_600_000).toISOString() });
        await api('PUT', '/api/settings', { email_fallback_minutes: null });
        const sent = await api('POST', `/api/reminders/${reminder.id}/send`);
        assert.deepEqual({ devices: sent.devices, email: sent.email }, { devices: 0, email: false });
        await page.goto(`${server.url}${prefix}/`);
        await page.waitForSelector('[data-testid="device-setup"]');
      } finally {
        await browser.close().catch(() => {});
      }
    });
  }
});
