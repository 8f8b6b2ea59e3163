// Done early (Chromium): before a reminder rings, the list and its details offer "Done"; a
// one-time reminder is completed and leaves the active list, a daily one says when it rings
// next and its next notifications start the day after; a weekly one names its day; in ja and
// en, at 390 and 1280 px, light and dark.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, screenshotPath, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const CASES = [
  { lang: 'ja', viewport: PHONE, scheme: 'light' },
  { lang: 'en', viewport: DESKTOP, scheme: 'dark' },
  { lang: 'ja', viewport: DESKTOP, scheme: 'dark' },
  { lang: 'en', viewport: PHONE, scheme: 'light' },
];

describe('done early', () => {
  for (const { lang, viewport, scheme } of CASES) {
    it(`${lang} ${viewport.width}px ${scheme}: from the list and from the details`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`done-${lang}`), lang);
      const inAnHour = new Date(Math.ceil((Date.now() + 3_600_000) / 1000) * 1000).toISOString();
      const once = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Pill', send_at: inAnHour, timezone: 'Asia/Tokyo' });
      const daily = await apiCall(ctx, stack.server, 'POST', '/api/reminders', {
        title: 'Walk',
        send_at: inAnHour,
        timezone: 'Asia/Tokyo',
        recurrence: { kind: 'daily' },
      });
      await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Trash', send_at: inAnHour, timezone: 'Asia/Tokyo', recurrence: { kind: 'weekly' } });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const prefix = lang === 'en' ? '/en' : '';
      await page.goto(`${prefix}/reminders`);
      const doneLabel = (title) => tr(lang, 'reminders:doneEarly.named', { title });
      // A weekly rule names its day (in Tokyo, where it rings).
      const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'Asia/Tokyo' }).format(new Date(inAnHour)).slice(0, 3).toLowerCase();
      await page.getByText(tr(lang, 'reminders:recurrence.label.weeklyOn', { day: tr(lang, `reminders:weekdaysLong.${weekday}`) })).waitFor();
      await page.screenshot({ path: screenshotPath(`doneearly-${lang}-${viewport.width}-${scheme}-list`), fullPage: true });

      // From the list: the one-time reminder is completed and leaves the active list.
      await page.getByRole('button', { name: doneLabel('Pill') }).click();
      await page.getByText(tr(lang, 'reminders:details.completedToast')).waitFor();
      await page.locator(`#reminder-${once.id}`).waitFor({ state: 'detached' });

      // From the details: the daily one moves on to tomorrow, and its next notifications say so.
      await page.goto(`${prefix}/reminders?reminder=${daily.id}`);
      const details = page.locator(`#details-${daily.id}`);
      await details.getByRole('button', { name: doneLabel('Walk') }).click();
      const movedOn = tr(lang, 'reminders:doneEarly.movedOn', { when: '\u0000' }).split('\u0000')[0];
      await page.locator('.toast').filter({ hasText: movedOn }).first().waitFor();
      const after = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${daily.id}`);
      assert.equal(after.scheduled_at, new Date(Date.parse(inAnHour) + 86_400_000).toISOString().replace('.000Z', 'Z'));
      const next = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${daily.id}/occurrences?count=5`);
      assert.ok(next.rings.every((r) => Date.parse(r.at) > Date.parse(inAnHour)), JSON.stringify(next));
      await page.screenshot({ path: screenshotPath(`doneearly-${lang}-${viewport.width}-${scheme}-details`), fullPage: true });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
