// The service worker's push handling, driven through the DevTools protocol: the app's SW is
// registered, ServiceWorker.deliverPushMessage hands it a payload shaped as api.md's "Push
// payload", and the page reads back the notification it showed (title, body, tag, actions,
// data) in ja and en. The shown notification is acknowledged to the server with the action
// token, and an open app chimes and speaks the title when the user enabled it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, homePathOf, newContext, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  // The full browser: the headless shell denies notifications whatever a context grants.
  stack = await startStack({ fullBrowser: true });
});
after(async () => {
  await stack?.close();
});

/** Records chimes and speech instead of making sound (headless has no audio or voices anyway). */
function recordAlerts() {
  window.__alerts = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__alerts.push({ chime: this.frequency.value });
    return start.apply(this, args);
  };
  if (window.speechSynthesis) {
    window.speechSynthesis.speak = (u) => window.__alerts.push({ speak: u.text, lang: u.lang });
  }
}

/** Per page: the service worker's versions as CDP reported them, and each push handed over. */
const swLog = new WeakMap();

/** Opens the app, waits for its service worker, and returns a deliver(payload) function. */
async function openWithServiceWorker(page) {
  await page.waitForFunction(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return reg?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
  }, null, { timeout: 15_000 });
  const cdp = await page.context().newCDPSession(page);
  const registrations = new Map();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) registrations.set(r.registrationId, r);
  });
  // What Chromium says of the worker, for the message of a push that never shows.
  const seen = [];
  swLog.set(page, seen);
  cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
    for (const v of e.versions) seen.push({ at: Date.now(), version: v.versionId, running: v.runningStatus, status: v.status });
  });
  await cdp.send('ServiceWorker.enable');
  const origin = new URL(page.url()).origin;
  const deadline = Date.now() + 5000;
  let reg;
  while (!(reg = [...registrations.values()].find((r) => !r.isDeleted && r.scopeURL === `${origin}/`))) {
    if (Date.now() > deadline) throw new Error(`no SW registration for ${origin}/ in ${JSON.stringify([...registrations.values()])}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const deliver = async (payload) => {
    seen.push({ at: Date.now(), delivered: typeof payload === 'string' ? payload : (payload.notification?.tag ?? payload.tag) });
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: reg.registrationId,
      data: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  };
  // Pushes delivered in the first second or so after ServiceWorker.enable are dropped: warm up
  // until one shows, then clear it (and what it recorded) so the test starts clean.
  const warmUntil = Date.now() + 10_000;
  for (;;) {
    await deliver({ type: 'test', title: 'warm-up', body: 'warm-up', url: '/', tag: 'e2e-warm-up', lang: 'en' });
    await new Promise((r) => setTimeout(r, 250));
    if ((await notifications(page, 'e2e-warm-up')).length > 0) break;
    if (Date.now() > warmUntil) throw new Error('the service worker never showed a pushed notification');
  }
  await page.evaluate(async () => {
    for (const n of await (await navigator.serviceWorker.ready).getNotifications()) n.close();
    await new Promise((r) => setTimeout(r, 300)); // let the warm-up's in-app alert land
    window.__alerts = [];
  });
  return deliver;
}

/**
 * A push as the server sends it (api.md "Push payload", worker/src/payload.rs): the
 * Declarative Web Push shape, with the deep links' action tokens.
 */
function reminderPush({ lang, title, body, reminderId, logId, token, late = false, actions }) {
  const base = `${stack.url}${lang === 'en' ? '/en' : ''}/reminders?reminder=${reminderId}`;
  return {
    web_push: 8030,
    notification: {
      title,
      body,
      navigate: base,
      tag: reminderId,
      lang,
      silent: false,
      require_interaction: true,
      data: { type: 'reminder', reminder_id: reminderId, log_id: logId, action_token: token, kind: 'occurrence', ...(late ? { late: true } : {}) },
      actions: actions.map((a) => ({ ...a, navigate: `${base}&log=${logId}&do=${a.action}&t=${token}` })),
    },
    app_badge: 1,
    mutable: true,
  };
}

/** The notifications the registration shows, optionally with one tag. */
function notifications(page, tag) {
  return page.evaluate(async (t) => {
    const reg = await navigator.serviceWorker.ready;
    const list = await reg.getNotifications(t ? { tag: t } : undefined);
    return list.map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      lang: n.lang,
      requireInteraction: n.requireInteraction,
      silent: n.silent,
      actions: n.actions.map((a) => ({ action: a.action, title: a.title })),
      data: n.data,
    }));
  }, tag);
}

async function waitForNotification(page, tag, predicate = () => true, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const list = await notifications(page, tag);
    const hit = list.find(predicate);
    if (hit) return { hit, list };
    if (Date.now() > end) throw new Error(`no notification with tag ${tag}: ${JSON.stringify(list)}; the worker: ${JSON.stringify((swLog.get(page) ?? []).slice(-12))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const CASES = [
  {
    lang: 'ja',
    viewport: PHONE,
    title: 'お薬の時間',
    body: '食後に1錠',
    actions: [
      { action: 'complete', title: '完了' },
      { action: 'snooze', title: 'スヌーズ' },
    ],
    late: '（遅延）',
  },
  {
    lang: 'en',
    viewport: DESKTOP,
    title: 'Time for medicine',
    body: 'One after lunch',
    actions: [
      { action: 'complete', title: 'Complete' },
      { action: 'snooze', title: 'Snooze' },
    ],
    late: ' (late)',
  },
];

describe('service worker push', () => {
  for (const c of CASES) {
    it(`${c.lang}: a reminder push shows a notification with actions, acks, and replaces by tag`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang: c.lang, viewport: c.viewport, permissions: ['notifications'] });
      await ctx.addInitScript(recordAlerts);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const acks = [];
      ctx.on('request', (r) => {
        if (r.url().includes('/api/notifications?action=ack')) acks.push({ fromWorker: !!r.serviceWorker(), body: r.postDataJSON() });
      });
      await page.goto(homePathOf(c.lang));
      assert.equal(await page.evaluate(() => Notification.permission), 'granted');
      const deliver = await openWithServiceWorker(page);

      const reminderId = `rem-${c.lang}-${Date.now()}`;
      const first = { lang: c.lang, title: c.title, body: c.body, reminderId, logId: `log-${c.lang}-1`, token: `token-${c.lang}-1`, actions: c.actions };
      const payload = reminderPush(first);
      await deliver(payload);
      const { hit } = await waitForNotification(page, reminderId);
      assert.equal(hit.title, c.title);
      assert.equal(hit.body, c.body);
      assert.equal(hit.tag, reminderId);
      assert.equal(hit.lang, c.lang);
      assert.equal(hit.requireInteraction, true, 'stays until acted on');
      assert.equal(hit.silent, false, 'audible');
      assert.deepEqual(hit.actions, c.actions);
      // What the action handlers need rides along, read from the declarative payload.
      assert.equal(hit.data.reminder_id, reminderId);
      assert.equal(hit.data.log_id, first.logId);
      assert.equal(hit.data.action_token, first.token);
      assert.equal(hit.data.kind, 'occurrence');
      assert.equal(hit.data.url, payload.notification.navigate);

      // the service worker acknowledges the shown notification with the action token
      const end = Date.now() + 5000;
      while (acks.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      assert.equal(acks.length, 1, 'one ack');
      assert.equal(acks[0].fromWorker, true);
      assert.equal(acks[0].body.log_id, first.logId);
      assert.equal(acks[0].body.action_token, first.token);

      // A late re-send of the same occurrence replaces it (same tag) and says it is late.
      // The server puts the late mark in the title itself.
      await deliver(reminderPush({ ...first, title: `${c.title}${c.late}`, logId: `log-${c.lang}-2`, late: true }));
      await waitForNotification(page, reminderId, (n) => n.title === `${c.title}${c.late}`);
      assert.equal((await notifications(page, reminderId)).length, 1, 'one notification per tag');

      // A test push: no actions, does not stay.
      await deliver({
        web_push: 8030,
        notification: { title: 'Test notification', body: 'ok', navigate: `${stack.url}/`, tag: 'hibiki-test', lang: c.lang, silent: false, require_interaction: true, data: { type: 'test' } },
        mutable: true,
      });
      const test = (await waitForNotification(page, 'hibiki-test')).hit;
      assert.deepEqual(test.actions, []);
      assert.equal(test.requireInteraction, false);

      // Junk still shows a (generic) notification, as iOS requires of every push.
      await deliver('not json at all');
      await waitForNotification(page, 'hibiki', (n) => n.body === 'not json at all');

      // A tap on a notification focuses the app and posts NAVIGATE_FROM_NOTIFICATION: the app
      // follows same-origin urls only.
      const sw = ctx.serviceWorkers().find((w) => w.url().endsWith('/sw.js'));
      assert.ok(sw, 'the service worker is visible to the test');
      const post = (url) =>
        sw.evaluate(async (u) => {
          for (const c of await self.clients.matchAll({ type: 'window' })) c.postMessage({ type: 'NAVIGATE_FROM_NOTIFICATION', url: u });
        }, url);
      await post('https://elsewhere.example/phish');
      await post(`${stack.url}${c.lang === 'en' ? '/en' : ''}/faq?reminder=${reminderId}`);
      await page.waitForURL((u) => u.pathname === `${c.lang === 'en' ? '/en' : ''}/faq`);
      assert.equal(new URL(page.url()).searchParams.get('reminder'), reminderId);

      // Signed out, the open app chimes but speaks nothing.
      const alerts = await page.evaluate(() => window.__alerts);
      assert.ok(alerts.some((a) => a.chime), `a chime: ${JSON.stringify(alerts)}`);
      assert.ok(!alerts.some((a) => a.speak), 'no speech when signed out');
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

  it('ja signed in with speak_titles: the open app chimes, toasts and speaks the title in Japanese', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'ja', viewport: DESKTOP, permissions: ['notifications'] });
    await ctx.addInitScript(recordAlerts);
    await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('speak'), 'ja');
    await apiCall(ctx, stack.server, 'PUT', '/api/settings', { speak_titles: true });
    const page = await ctx.newPage();
    await page.goto('/');
    const deliver = await openWithServiceWorker(page);
    await deliver({ type: 'reminder', reminder_id: 'r-speak', log_id: 'l-speak', action_token: 't', title: '水を飲む', body: '', url: '/reminders', tag: 'r-speak', lang: 'ja' });
    await page.waitForFunction(() => window.__alerts.some((a) => a.speak), null, { timeout: 10_000 });
    const alerts = await page.evaluate(() => window.__alerts);
    assert.deepEqual(alerts.filter((a) => a.speak), [{ speak: '水を飲む', lang: 'ja-JP' }]);
    assert.ok(alerts.some((a) => a.chime));
    await page.locator('.toaster').getByText('水を飲む').waitFor();
    await ctx.close();
  });

  it('en signed in, permission granted: the start-up subscription check runs and the indicator reports it', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en', viewport: DESKTOP, permissions: ['notifications'] });
    await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('subhealth'), 'en');
    const calls = [];
    ctx.on('requestfinished', async (r) => {
      if (r.url().includes('/api/notifications')) calls.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search} ${(await r.response())?.status()}`);
    });
    const page = await ctx.newPage();
    await page.goto('/en');
    await page.getByRole('heading', { name: tr('en', 'reminders:dashboard.title') }).waitFor();
    // the check compares with the server's VAPID key (and its device list, when it has one)
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/api/notifications/vapid-public-key')));
    // then either this device is subscribed and registered, or the indicator says it is not set up
    // (never "stopped": it never received here)
    await page.locator('.health-indicator button').click();
    const panel = page.getByRole('region', { name: tr('en', 'health:title') });
    const lost = panel.locator('li[data-check="notifications"] .health-value', { hasText: tr('en', 'device:state.neverSetUp.label') });
    const healthy = panel.locator('li').filter({ hasText: tr('en', 'health:checks.notifications') }).getByText(tr('en', 'health:status.healthy'));
    await lost.or(healthy).waitFor();
    const subscribed = calls.some((c) => c.startsWith('POST /api/notifications?action=subscribe 201'));
    assert.equal(await healthy.isVisible(), subscribed, calls.join('\n'));
    await ctx.close();
  });
});
