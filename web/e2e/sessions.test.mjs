// Accounts that cannot hurt each other (decisions.md), in Chromium against the real server:
// - sign-out is complete: on a subscribed device, the app's sign-out unsubscribes it on the
//   server (before the session ends) and in the browser, and ends only this session;
// - Settings → Sessions: another session is listed with its device label and ended; "Sign out
//   everywhere" ends every session, this one too;
// - the sign-in link page shows the masked address of the account it opens and, with another
//   account signed in, says so and signs that one out before using the link;
// - archived reminders come 50 at a time, with "Show more" while the server's total says so.
//
// Headless Chromium has no push service (its subscribe needs Google's), so the browser's
// PushManager is a stand-in here (an init script: a subscription with a loopback endpoint that
// records its unsubscribe); everything else is real: the app subscribes it through its own
// start-up check, the server stores and lists it. Firefox with a real push service is in
// firefox.test.mjs. The server runs with HIBIKI_DEV_LOGIN=1 so one address can hold several
// sessions without waiting out the mail cooldown (dev, test, demo, admin @example.com).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, homePathOf, newContext, pathOf, prefixOf, screenshotPath, signInDetails, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  // The full browser: it grants notifications (the headless shell denies them).
  stack = await startStack({ env: { HIBIKI_DEV_LOGIN: '1', HIBIKI_ALLOW_PRIVATE_PUSH: '1' }, fullBrowser: true });
});
after(async () => {
  await stack?.close();
});

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1';

/** A new session of `email` in `ctx` (its cookie jar), through the developer shortcut. */
async function devLogin(ctx, email) {
  const res = await ctx.request.post(`${stack.url}/api/auth/dev-login`, { data: { email } });
  if (res.status() !== 200) throw new Error(`dev-login: ${res.status()} ${await res.text()}`);
  return (await res.json()).data;
}

/** The status GET /api/auth/session answers with this session cookie value (401 once it has ended). */
async function sessionStatus(cookie) {
  const res = await fetch(`${stack.url}/api/auth/session`, { headers: { cookie: `hibiki_session=${cookie}`, accept: 'application/json' } });
  return res.status;
}

async function sessionCookie(ctx) {
  const c = (await ctx.cookies()).find((x) => x.name === 'hibiki_session');
  assert.ok(c, 'a session cookie');
  return c.value;
}

/**
 * The browser's push subscription, stood in for (see the top of the file): subscribe() makes
 * one with `endpoint`, getSubscription() returns it until its unsubscribe(); the state lives in
 * localStorage (`e2e.fakePush`) so the test can read it.
 */
function fakePush({ endpoint, p256dh, auth }) {
  const KEY = 'e2e.fakePush';
  const read = () => JSON.parse(localStorage.getItem(KEY) ?? '{"subscribed":false,"unsubscribed":0,"key":null}');
  const write = (s) => localStorage.setItem(KEY, JSON.stringify(s));
  const make = (key) => ({
    endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: key ? new Uint8Array(key).buffer : null },
    getKey: () => null,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => {
      const s = read();
      write({ ...s, subscribed: false, unsubscribed: s.unsubscribed + 1 });
      return true;
    },
  });
  PushManager.prototype.getSubscription = async function () {
    const s = read();
    return s.subscribed ? make(s.key) : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    const key = Array.from(new Uint8Array(options.applicationServerKey));
    write({ ...read(), subscribed: true, key });
    return make(key);
  };
}
const KEYS = {
  p256dh: 'BPcMbnWQL5GOYX_YlOtHzN6Nw6dfbCUhx9zyc28OLh8qB4NlsD_7O9sP2bIJ54ytZBxmP3eaW2ijw8bRRc7RfsM',
  auth: 'i3YsEIgCymwGkjv0tHKN0w',
};

async function until(what, fn, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('sign-out is complete', () => {
  for (const { lang, viewport, email } of [
    { lang: 'ja', viewport: PHONE, email: 'dev@example.com' },
    { lang: 'en', viewport: DESKTOP, email: 'test@example.com' },
  ]) {
    it(`${lang} ${viewport.width}px: signing out on a subscribed device leaves no subscription, on the server or in the browser`, async () => {
      const endpoint = `http://127.0.0.1:9/push/e2e-signout-${lang}`;
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, permissions: ['notifications'] });
      await ctx.addInitScript(fakePush, { endpoint, ...KEYS });
      await devLogin(ctx, email);
      const mine = await sessionCookie(ctx);
      // Another session of the same account, to look at the server's side afterwards.
      const other = await newContext(stack.browser, stack.url, { lang });
      await devLogin(other, email);
      const devices = async () => (await apiCall(other, stack.server, 'GET', '/api/notifications/subscriptions')).map((d) => d.endpoint);

      const page = await ctx.newPage();
      const problems = watchPage(page);
      const calls = [];
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname === '/api/notifications' || u.pathname === '/api/auth/logout') calls.push(`${r.method()} ${u.pathname}${u.search}`);
      });
      await page.goto(homePathOf(lang));
      await page.getByRole('heading', { name: tr(lang, 'reminders:dashboard.title') }).waitFor();
      // The app's start-up check subscribes this device (permission granted, no subscription yet).
      await until('the device on the server', async () => (await devices()).includes(endpoint));
      assert.equal(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint ?? null), endpoint);

      await page.locator(`summary[aria-label="${tr(lang, 'nav.menu')}"]`).click();
      await page.getByRole('button', { name: tr(lang, 'nav.signOut') }).click();
      await page.waitForURL((u) => u.pathname === homePathOf(lang));
      await page.getByRole('link', { name: tr(lang, 'nav.signIn'), exact: true }).waitFor();

      // The server was told with this device's endpoint before the session ended.
      const unsubscribe = calls.indexOf('POST /api/notifications?action=unsubscribe');
      const logout = calls.indexOf('POST /api/auth/logout');
      assert.ok(unsubscribe >= 0 && logout > unsubscribe, calls.join('\n'));
      assert.deepEqual(await devices(), [], 'no device left on the server');
      // The browser's subscription is gone too.
      const push = await page.evaluate(() => JSON.parse(localStorage.getItem('e2e.fakePush')));
      assert.equal(push.unsubscribed, 1);
      assert.equal(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription()) === null), true);
      assert.equal(await page.evaluate(() => localStorage.getItem('auth-storage')), null);
      // This session ended; the other one did not.
      assert.equal(await sessionStatus(mine), 401);
      assert.equal(await sessionStatus(await sessionCookie(other)), 200);
      assert.deepEqual(problems, []);
      await other.close();
      await ctx.close();
    });
  }
});

describe('Settings → Sessions', () => {
  it('en 390px: lists this session and another one (its device label), ends the other one', async () => {
    const email = 'demo@example.com';
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en', viewport: PHONE });
    await devLogin(ctx, email);
    const phone = await newContext(stack.browser, stack.url, { lang: 'en', userAgent: IPHONE_UA });
    await devLogin(phone, email);
    const phoneCookie = await sessionCookie(phone);
    assert.equal(await sessionStatus(phoneCookie), 200);

    const page = await ctx.newPage();
    const problems = watchPage(page);
    await page.goto('/en/settings');
    const section = page.getByRole('region', { name: tr('en', 'sessions:title') });
    const rows = section.locator('.device-item');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    await rows.first().getByText(tr('en', 'sessions:thisDevice')).waitFor();
    const other = rows.nth(1);
    const label = (await other.locator('strong').innerText()).trim();
    assert.ok(label.length > 0, 'a device label or "Unknown device"');
    assert.notEqual(label, await rows.first().locator('strong').innerText(), 'the iPhone is told apart from this browser');
    await page.screenshot({ path: screenshotPath('sessions-en-390'), fullPage: true });

    await other.getByRole('button', { name: tr('en', 'sessions:endNamed', { name: label }) }).click();
    const dialog = page.getByRole('dialog', { name: tr('en', 'sessions:endConfirm.title') });
    await dialog.getByRole('button', { name: tr('en', 'sessions:endConfirm.confirm') }).click();
    await page.getByText(tr('en', 'sessions:ended', { name: label })).waitFor();
    await until('one row left', async () => (await rows.count()) === 1);
    assert.equal(await sessionStatus(phoneCookie), 401, 'the other session ended');
    assert.equal(await sessionStatus(await sessionCookie(ctx)), 200, 'this one did not');
    assert.deepEqual(problems, []);
    await phone.close();
    await ctx.close();
  });

  it('ja 1280px: "Sign out everywhere" ends every session, this one too', async () => {
    const email = 'admin@example.com';
    const ctx = await newContext(stack.browser, stack.url, { lang: 'ja', viewport: DESKTOP });
    await devLogin(ctx, email);
    const mine = await sessionCookie(ctx);
    const phone = await newContext(stack.browser, stack.url, { lang: 'ja', userAgent: IPHONE_UA });
    await devLogin(phone, email);
    const phoneCookie = await sessionCookie(phone);

    const page = await ctx.newPage();
    const problems = watchPage(page);
    await page.goto('/settings');
    const section = page.getByRole('region', { name: tr('ja', 'sessions:title') });
    await section.locator('.device-item').nth(1).waitFor();
    await page.screenshot({ path: screenshotPath('sessions-ja-1280'), fullPage: true });
    await section.getByRole('button', { name: tr('ja', 'sessions:signOutEverywhere') }).click();
    const dialog = page.getByRole('dialog', { name: tr('ja', 'sessions:everywhereConfirm.title') });
    await dialog.getByRole('button', { name: tr('ja', 'sessions:everywhereConfirm.confirm') }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText(tr('ja', 'sessions:signedOutEverywhere')).waitFor();
    assert.equal(await sessionStatus(mine), 401);
    assert.equal(await sessionStatus(phoneCookie), 401);
    assert.equal(await page.evaluate(() => localStorage.getItem('auth-storage')), null);
    assert.deepEqual(problems, []);
    await phone.close();
    await ctx.close();
  });
});

describe('the sign-in link page shows whose account it opens', () => {
  for (const { lang, viewport } of [
    { lang: 'ja', viewport: PHONE },
    { lang: 'en', viewport: DESKTOP },
  ]) {
    it(`${lang} ${viewport.width}px: the masked address; another account signed in here is named, then signed out`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      // Someone else is signed in on this browser (dev-login: another account than the link's).
      const current = lang === 'ja' ? 'dev@example.com' : 'test@example.com';
      await devLogin(ctx, current);
      const before = await sessionCookie(ctx);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(homePathOf(lang));
      await page.getByRole('heading', { name: tr(lang, 'reminders:dashboard.title') }).waitFor();

      // The link mailed to another address.
      const email = uniqueEmail(`peek-${lang}`);
      const since = stack.smtp.messages.length;
      const otp = await fetch(`${stack.url}/api/auth/otp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, lang }) });
      assert.equal(otp.status, 202);
      const { link } = signInDetails(await stack.smtp.waitFor(email, { since }));
      const url = new URL(link);
      const verifyBodies = [];
      page.on('request', (r) => r.url().includes('/api/auth/verify-link') && verifyBodies.push(JSON.parse(r.postData() ?? '{}')));
      await page.goto(url.pathname + url.hash);

      const masked = `${email[0]}***@${email.split('@')[1]}`;
      await page.getByText(tr(lang, 'callback:signsInAs', { email: masked })).waitFor();
      await page.getByText(tr(lang, 'callback:replaces', { current })).waitFor();
      assert.equal(new URL(page.url()).hash, '');
      assert.deepEqual(verifyBodies.map((b) => b.peek === true), [true], 'only a peek on load');
      assert.equal(await sessionStatus(before), 200, 'nothing happened before the button');
      await page.screenshot({ path: screenshotPath(`callback-peek-${lang}-${viewport.width}`), fullPage: true });

      await page.getByRole('button', { name: tr(lang, 'callback:confirm') }).click();
      await page.waitForURL((u) => u.pathname === homePathOf(lang));
      await page.getByRole('heading', { name: tr(lang, 'reminders:dashboard.title') }).waitFor();
      const now = await apiCall(ctx, stack.server, 'GET', '/api/auth/session');
      assert.equal(now.user.email, email);
      assert.equal(await sessionStatus(before), 401, 'the account signed in before was signed out');
      assert.equal(pathOf(page), homePathOf(lang));
      assert.ok(prefixOf(lang) === '' || pathOf(page).startsWith(prefixOf(lang)));
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});

describe('archived reminders in pages', () => {
  it('en 1280px: 50 at a time, "Show more" for the rest, the dashboard counts them all', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en', viewport: DESKTOP });
    await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('archived'), 'en');
    // 55 one-time reminders ring a few seconds from now; each is then completed from its
    // delivery log entry (as the notification's Complete does), which archives it.
    const at = new Date(Date.now() + 6_000).toISOString();
    const made = [];
    for (let i = 1; i <= 55; i++) made.push(await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: `Done ${String(i).padStart(2, '0')}`, send_at: at }));
    for (const r of made) {
      const log = await until(`a delivery of ${r.title}`, async () => (await apiCall(ctx, stack.server, 'GET', `/api/reminders/${r.id}/logs`))[0], 30_000);
      await apiCall(ctx, stack.server, 'POST', '/api/reminders?action=handle', { reminder_id: r.id, log_id: log.id, action: 'complete' });
    }
    const head = await ctx.request.get(`${stack.url}/api/reminders?status=archived&limit=50&offset=0`);
    assert.equal(head.headers()['x-total-count'], '55');
    assert.equal((await head.json()).data.length, 50);

    const page = await ctx.newPage();
    const problems = watchPage(page);
    const queries = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/reminders') queries.push(u.search);
    });
    await page.goto('/en');
    const stats = page.getByRole('region', { name: tr('en', 'reminders:dashboard.statsLabel') });
    await stats.getByText('55', { exact: true }).waitFor();
    await page.goto('/en/reminders?tab=completed');
    const panel = page.getByRole('tabpanel');
    await panel.getByText(tr('en', 'reminders:archived.shown', { shown: 50, total: 55 })).waitFor();
    assert.equal(await panel.locator('.reminder-item').count(), 50);
    await panel.getByRole('button', { name: tr('en', 'reminders:archived.showMore') }).click();
    await panel.getByText(tr('en', 'reminders:archived.shown', { shown: 55, total: 55 })).waitFor();
    assert.equal(await panel.locator('.reminder-item').count(), 55);
    assert.equal(await panel.getByRole('button', { name: tr('en', 'reminders:archived.showMore') }).count(), 0);
    assert.ok(queries.includes('?status=archived&limit=50&offset=50'), queries.join('\n'));
    assert.ok(!queries.some((q) => q.includes('status=all')), 'nothing asks for every reminder at once');
    await page.screenshot({ path: screenshotPath('archived-en-1280'), fullPage: false });
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});
