// Trust from the first minute, the smaller words (Chromium): a reminder that rang and is not
// done says "Not done yet" and how it was delivered; Skip next offers Undo; an alert whose time
// has passed is flagged in the dialog; the EN/JA switch says that emails and notifications
// follow, with Undo; a non-admin at /admin sees no admin links; offline, Settings and the
// details disable what needs the network and say why. In ja and en, 390 and 1280 px, light and
// dark, with screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FOUR_VIEWS, apiCall, apiSignIn, newContext, prefixOf, screenshotPath, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const CASES = FOUR_VIEWS;

const secondsAhead = (s) => new Date(Math.ceil((Date.now() + s * 1000) / 1000) * 1000).toISOString();
/** The part of a translated text before its placeholder. */
const before_ = (lang, id, param) => tr(lang, id, { [param]: '\u0000' }).split('\u0000')[0];
const after_ = (lang, id, param) => tr(lang, id, { [param]: '\u0000' }).split('\u0000')[1];

describe('the smaller words of trust', () => {
  for (const { lang, viewport, scheme } of CASES) {
    const tag = `${lang}-${viewport.width}-${scheme}`;

    it(`${tag}: not done yet and how it was delivered; Skip next with Undo; a past alert flagged`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`words-${lang}`), lang);
      const rang = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Pill', send_at: secondsAhead(2), timezone: 'Asia/Tokyo' });
      const daily = await apiCall(ctx, stack.server, 'POST', '/api/reminders', {
        title: 'Walk',
        send_at: secondsAhead(3600),
        timezone: 'Asia/Tokyo',
        recurrence: { kind: 'daily' },
      });
      const soon = await apiCall(ctx, stack.server, 'POST', '/api/reminders', {
        title: 'Bus',
        send_at: secondsAhead(180),
        timezone: 'Asia/Tokyo',
        alerts: [{ before_minutes: 10 }],
      });
      // The one-time reminder rings (no device here: the log says so, and the email goes) and
      // is overdue once its ring is recorded.
      let [logs, overdue] = [[], false];
      for (let i = 0; i < 100 && !(overdue && logs.some((l) => l.status !== 'queued')); i++) {
        await new Promise((r) => setTimeout(r, 200));
        logs = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${rang.id}/logs`);
        overdue = (await apiCall(ctx, stack.server, 'GET', `/api/reminders/${rang.id}`)).overdue;
      }
      assert.ok(logs.length > 0 && overdue, 'the reminder rang and is overdue');

      const page = await ctx.newPage();
      const problems = watchPage(page);
      const prefix = prefixOf(lang);
      await page.goto(`${prefix}/reminders`);
      const card = page.locator(`#reminder-${rang.id}`);
      await card.getByText(tr(lang, 'reminders:overdue'), { exact: true }).waitFor();
      // How it went: emailed (the fallback at its time) or, before the mail is recorded, no device.
      const delivered = card.locator('[data-delivery]');
      await delivered.waitFor();
      const word = await delivered.innerText();
      assert.ok(
        [tr(lang, 'reminders:delivery.emailed'), tr(lang, 'reminders:delivery.no_devices')].some((w) => word.endsWith(w)),
        `the card says how it was delivered: ${word}`,
      );
      await page.screenshot({ path: screenshotPath(`trustwords-${tag}-list`), fullPage: true });

      // Skip next, then Undo: the date is no longer skipped.
      await page.goto(`${prefix}/reminders?reminder=${daily.id}`);
      const details = page.locator(`#details-${daily.id}`);
      await details.getByRole('button', { name: tr(lang, 'reminders:details.skipNext') }).click();
      const toast = page.locator('.toast').filter({ hasText: before_(lang, 'reminders:details.skippedToast', 'date') || after_(lang, 'reminders:details.skippedToast', 'date') });
      await toast.getByRole('button', { name: tr(lang, 'reminders:details.undo') }).waitFor();
      assert.equal((await apiCall(ctx, stack.server, 'GET', `/api/reminders/${daily.id}`)).recurrence.skip.length, 1);
      await page.screenshot({ path: screenshotPath(`trustwords-${tag}-skip-undo`) });
      await toast.getByRole('button', { name: tr(lang, 'reminders:details.undo') }).click();
      await page.locator('.toast').filter({ hasText: after_(lang, 'reminders:details.skipUndoneToast', 'date') }).waitFor();
      assert.deepEqual((await apiCall(ctx, stack.server, 'GET', `/api/reminders/${daily.id}`)).recurrence.skip ?? [], []);

      // An alert 10 min before a time 3 min away has passed: the dialog flags it.
      await page.goto(`${prefix}/reminders`);
      await page.getByRole('button', { name: tr(lang, 'reminders:editNamed', { title: 'Bus' }) }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(after_(lang, 'reminders:alarms.passed', 'alert').trim(), { exact: false }).first().waitFor();
      await page.screenshot({ path: screenshotPath(`trustwords-${tag}-past-alert`) });
      assert.equal(soon.alerts[0].before_minutes, 10);
      assert.deepEqual(problems, []);
      await ctx.close();
    });

    it(`${tag}: the language switch says emails and notifications follow, with Undo`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`switch-${lang}`), lang);
      const other = lang === 'ja' ? 'en' : 'ja';
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(`${prefixOf(lang)}/settings`);
      await page.locator('h1').first().waitFor();
      await page.locator('.lang-switch').getByRole('button', { name: other.toUpperCase(), exact: true }).click();
      // The toast is in the language chosen, and the account follows.
      const changed = page.locator('.toast').filter({ hasText: tr(other, 'settings:accountLanguage.changed') });
      await changed.waitFor();
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/settings')).language, other);
      await page.screenshot({ path: screenshotPath(`trustwords-${tag}-lang-switch`) });
      await changed.getByRole('button', { name: tr(other, 'settings:accountLanguage.undo') }).click();
      await page.locator('.toast').filter({ hasText: tr(other, 'settings:accountLanguage.undone') }).waitFor();
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/settings')).language, lang);
      assert.deepEqual(problems, []);
      await ctx.close();
    });

    it(`${tag}: a non-admin at /admin sees no admin links; offline, Settings and the details say what waits`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`plain-${lang}`), lang);
      const daily = await apiCall(ctx, stack.server, 'POST', '/api/reminders', {
        title: 'Stretch',
        send_at: secondsAhead(3600),
        timezone: 'Asia/Tokyo',
        recurrence: { kind: 'daily' },
      });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const prefix = prefixOf(lang);
      await page.goto(`${prefix}/admin`);
      await page.getByText(tr(lang, 'admin:adminsOnly.title')).first().waitFor();
      assert.equal(await page.locator('a[href$="/admin/users"], a[href$="/admin/dashboard"]').count(), 0, 'no admin links');
      await page.screenshot({ path: screenshotPath(`trustwords-${tag}-admins-only`), fullPage: true });

      // The details, then the connection drops: Skip and Send now wait, and say so.
      await page.goto(`${prefix}/reminders?reminder=${daily.id}`);
      const details = page.locator(`#details-${daily.id}`);
      const skip = details.getByRole('button', { name: tr(lang, 'reminders:details.skipNext') });
      await skip.waitFor();
      await ctx.setOffline(true);
      await details.getByText(tr(lang, 'reminders:details.offlineSkipSend')).waitFor();
      assert.equal(await skip.isDisabled(), true);
      await page.screenshot({ path: screenshotPath(`trustwords-${tag}-details-offline`), fullPage: true });
      await ctx.setOffline(false);

      // Settings, then the connection drops: the calendar link waits, and says so.
      await page.goto(`${prefix}/settings`);
      const create = page.getByRole('button', { name: tr(lang, 'settings:calendar.create') });
      await create.waitFor();
      await ctx.setOffline(true);
      await page.getByText(tr(lang, 'settings:calendar.offline')).waitFor();
      assert.equal(await create.isDisabled(), true);
      await page.screenshot({ path: screenshotPath(`trustwords-${tag}-settings-offline`), fullPage: true });
      await ctx.setOffline(false);
      assert.deepEqual(
        problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|NetworkError|net::/.test(p)),
        [],
      );
      await ctx.close();
    });
  }
});
