// Offline: with the network cut (context.setOffline), a new reminder is queued and shown at once
// with a "waiting to sync" badge under the offline banner, which counts the queued action; back
// online, the banner says it is syncing until the queue has synced and the server has it. Then, offline again, a reload serves the app shell from the service worker and
// the list from the encrypted IndexedDB cache (no reminder title in the clear there).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiSignIn, newContext, pickZone, prefixOf, startStack, tokyoDate, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/** The server's list, read from Node with the bearer token (not through the offline browser). */
async function serverList(token) {
  const res = await fetch(`${stack.url}/api/reminders?status=all`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return (await res.json()).data;
}

async function waitFor(fn, what, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('offline create, then sync', () => {
  for (const { lang, viewport } of [
    { lang: 'en', viewport: DESKTOP },
    { lang: 'ja', viewport: PHONE },
  ]) {
    it(`${lang} ${viewport.width}px: queued + optimistic offline, on the server after reconnecting`, async () => {
      const t = (id, p) => tr(lang, id, p);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      const { access_token: token } = await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`off-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(`${prefixOf(lang)}/reminders`);
      await page.getByText(t('reminders:emptyActive')).waitFor();
      // An installed app: the service worker controls the page and the offline store is open.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
      await page.waitForFunction(async () => (await indexedDB.databases()).some((d) => d.name === 'hibiki-offline'));

      await ctx.setOffline(true);
      const banner = page.locator('.offline-banner');
      await banner.getByText(t('offline:banner')).waitFor();

      await page.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      const title = lang === 'ja' ? 'オフラインで作成' : 'Made offline';
      const date = tokyoDate(3);
      await dialog.getByLabel(t('reminders:fields.title')).fill(title);
      await pickZone(dialog, t('reminders:fields.timezone'), 'Asia/Tokyo');
      await dialog.getByLabel(t('reminders:fields.date')).fill(date);
      await dialog.getByLabel(t('reminders:fields.time')).fill('07:00:00');
      await dialog.getByLabel(t('reminders:fields.recurrence')).selectOption('daily');
      // no preview without the server, but the dialog still saves
      await dialog.getByText(t('reminders:dialog.previewUnavailable')).waitFor();
      await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
      await page.locator('.toaster').getByText(t('reminders:toast.queued')).waitFor();

      const item = page.locator('.reminder-item').filter({ hasText: title });
      await item.getByText(t('reminders:pendingSync')).waitFor();
      // the banner counts the queued action
      await banner.getByText(t('offline:pending', { count: 1 })).waitFor();
      assert.equal((await serverList(token)).length, 0, 'nothing reaches the server while offline');
      // The queued action's data is sealed in IndexedDB, never stored in the clear.
      const raw = await page.evaluate(async () => {
        const db = await new Promise((ok, fail) => {
          const r = indexedDB.open('hibiki-offline');
          r.onsuccess = () => ok(r.result);
          r.onerror = () => fail(r.error);
        });
        const all = await new Promise((ok) => {
          const r = db.transaction('pendingActions').objectStore('pendingActions').getAll();
          r.onsuccess = () => ok(r.result);
        });
        db.close();
        return JSON.stringify(all, (_k, v) => (v instanceof ArrayBuffer || ArrayBuffer.isView(v) ? '[bytes]' : v));
      });
      assert.match(raw, /"type":"create"/);
      assert.ok(!raw.includes(title), 'the queued title is encrypted');

      // From here on the item must never leave the screen (SWR refetches on reconnect, usually
      // before the queue has run: the queued create has to stay over that fresh list).
      await page.evaluate((t) => {
        window.__vanished = false;
        const check = () => {
          if (![...document.querySelectorAll('.reminder-item')].some((li) => li.textContent.includes(t))) window.__vanished = true;
        };
        new MutationObserver(check).observe(document.body, { childList: true, subtree: true, characterData: true });
      }, title);
      // Hold the queued POST back a little so the reconnect refetch surely comes first.
      await page.route('**/api/reminders', async (route) => {
        if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 800));
        await route.continue();
      });
      await ctx.setOffline(false);
      // online, the action still queued (its POST is held back): "Syncing" and the count, then no banner
      await banner.getByText(t('offline:syncing')).waitFor();
      await banner.getByText(t('offline:pending', { count: 1 })).waitFor();
      await banner.waitFor({ state: 'detached' });
      const synced = await waitFor(async () => (await serverList(token)).find((r) => r.title === title), 'the server to have it');
      assert.deepEqual(synced.recurrence, { kind: 'daily' });
      assert.equal(new Date(synced.send_at).toISOString(), new Date(`${date}T07:00:00+09:00`).toISOString());
      // the list now shows the server's copy: one item, no badge
      await item.getByText(t('reminders:pendingSync')).waitFor({ state: 'detached' });
      assert.equal(await page.locator('.reminder-item').filter({ hasText: title }).count(), 1);
      assert.equal((await serverList(token)).length, 1, 'synced exactly once');
      assert.equal(await page.evaluate(() => window.__vanished), false, 'the queued reminder stayed on screen while syncing');

      // Offline again: a reload still shows the list, from the encrypted cache.
      await ctx.setOffline(true);
      await page.reload();
      await page.locator('.offline-banner').getByText(t('offline:banner')).waitFor();
      await page.locator('.reminder-item').filter({ hasText: title }).waitFor();
      const cached = await page.evaluate(async () => {
        const db = await new Promise((ok) => {
          const r = indexedDB.open('hibiki-offline');
          r.onsuccess = () => ok(r.result);
        });
        const all = await new Promise((ok) => {
          const r = db.transaction('reminders').objectStore('reminders').getAll();
          r.onsuccess = () => ok(r.result);
        });
        db.close();
        return JSON.stringify(all, (_k, v) => (v instanceof ArrayBuffer || ArrayBuffer.isView(v) ? '[bytes]' : v));
      });
      assert.match(cached, /"sealed"/);
      assert.ok(!cached.includes(title), 'the cached title is encrypted');
      await ctx.setOffline(false);
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
