// Alerts before the time, repeat until done, and the calendar feed, through the app (Chromium):
// a reminder with alerts 1 day and 30 min before that repeats every 5 min up to 3 times, made
// in the dialog and checked through the API and in its details; an edit that turns the repeat
// off; Settings → Calendar feed: create, copy, fetch (iCalendar with VALARM), turn off (404).
// Photographs the dialog with the alerts open and the settings section, ja and en, 390 and 1280 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, pickZone, prefixOf, screenshotPath, startStack, tokyoDate, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const TEXT = {
  en: { day: '1 day before', min30: '30 min before', alerts: '1 day and 30 min before', nag: 'Repeats every 5 min, up to 3 times', times: '3 times' },
  ja: { day: '1日前', min30: '30分前', alerts: '1日前・30分前に通知', nag: '完了まで5分ごとに最大3回', times: '3回' },
};

const CASES = [
  { lang: 'ja', viewport: PHONE },
  { lang: 'en', viewport: DESKTOP },
  { lang: 'en', viewport: PHONE },
  { lang: 'ja', viewport: DESKTOP },
];

/** The feed URL as this test server serves it (the answer names the configured public host). */
const local = (url) => new URL(new URL(url).pathname, stack.server.url).href;

/** Closes the toasts (on a phone they cover the top of the page) before a screenshot. */
async function clearToasts(page) {
  const close = page.locator('.toaster button');
  while ((await close.count()) > 0) await close.first().click();
}

describe('alarms and calendar feed', () => {
  for (const { lang, viewport } of CASES) {
    it(`${lang} ${viewport.width}px: alerts and repeat until done in the dialog; calendar feed in Settings`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, permissions: ['clipboard-read', 'clipboard-write'] });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`alarms-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const t = (id, p) => tr(lang, id, p);
      const x = TEXT[lang];
      const shot = (name) => screenshotPath(`alarms-${lang}-${viewport.width}-${name}`);

      await page.goto(`${prefixOf(lang)}/reminders`);
      await page.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      const title = lang === 'ja' ? `歯医者の予約 ${viewport.width}` : `Dentist appointment ${viewport.width}`;
      await dialog.getByLabel(t('reminders:fields.title')).fill(title);
      await pickZone(dialog, t('reminders:fields.timezone'), 'Asia/Tokyo');
      await dialog.getByLabel(t('reminders:fields.date')).fill(tokyoDate(3));
      await dialog.getByLabel(t('reminders:fields.time')).fill('10:00:00');

      // Folded away until asked for; one-time reminders have it too.
      const alarms = dialog.getByRole('button', { name: t('reminders:alarms.disclosure') });
      assert.equal(await alarms.getAttribute('aria-expanded'), 'false');
      await alarms.click();
      assert.equal(await alarms.getAttribute('aria-expanded'), 'true');
      await dialog.getByText(t('reminders:alarms.noAlerts')).waitFor();
      const add = dialog.getByLabel(t('reminders:alarms.addAlert'), { exact: true });
      await add.selectOption({ label: x.day });
      await dialog.getByRole('button', { name: t('reminders:alarms.add'), exact: true }).click();
      await add.selectOption({ label: x.min30 });
      await dialog.getByRole('button', { name: t('reminders:alarms.add'), exact: true }).click();
      const chips = dialog.locator('.chips li');
      assert.deepEqual(await chips.allInnerTexts().then((l) => l.map((s) => s.replace(/\s*×\s*$/, ''))), [x.day, x.min30]);
      // A chip removes, and the preset is offered again.
      await dialog.getByRole('button', { name: t('reminders:alarms.remove', { alert: x.min30 }) }).click();
      assert.equal(await chips.count(), 1);
      await add.selectOption({ label: x.min30 });
      await dialog.getByRole('button', { name: t('reminders:alarms.add'), exact: true }).click();
      await dialog.getByLabel(t('reminders:alarms.repeat'), { exact: true }).selectOption('5');
      await dialog.getByLabel(t('reminders:alarms.repeatTimes'), { exact: true }).selectOption({ label: x.times });
      await dialog.locator('.more-options .hint').getByText(`${x.alerts}${t('reminders:recurrence.label.separator')}${x.nag}`, { exact: true }).waitFor();
      await dialog.locator('.preview ol li').first().waitFor();
      await dialog.locator('.alarm-options').scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot('dialog-alarms') });

      await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
      await page.locator('.toaster').getByText(t('reminders:toast.created')).waitFor();
      await dialog.waitFor({ state: 'detached' });

      const [saved] = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
      assert.deepEqual(saved.alerts, [{ before_minutes: 1440 }, { before_minutes: 30 }, { before_minutes: 0 }]);
      assert.deepEqual(saved.repeat_until_done, { every_minutes: 5, max_times: 3 });

      // The list and the details say it in words.
      const item = page.locator(`#reminder-${saved.id}`);
      await item.locator('.badge', { hasText: x.alerts }).waitFor();
      await item.locator('.badge', { hasText: x.nag }).waitFor();
      await item.getByRole('button', { name: t('reminders:details.show') }).click();
      const summary = item.locator('.alarm-summary');
      await summary.waitFor();
      const text = await summary.innerText();
      assert.ok(text.includes(x.alerts) && text.includes(x.nag), text);

      if (viewport === DESKTOP && lang === 'en') {
        // Editing opens with them; turning the repeat off sends null, the alerts stay.
        await page.getByRole('button', { name: t('reminders:editNamed', { title }) }).click();
        const edit = page.getByRole('dialog', { name: t('reminders:dialog.editTitle') });
        await edit.getByRole('button', { name: t('reminders:alarms.disclosure') }).click();
        assert.equal(await edit.locator('.chips li').count(), 2);
        await edit.getByLabel(t('reminders:alarms.repeat'), { exact: true }).selectOption('0');
        await edit.getByRole('button', { name: t('reminders:dialog.save') }).click();
        await page.locator('.toaster').getByText(t('reminders:toast.updated')).waitFor();
        const edited = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${saved.id}`);
        assert.equal(edited.repeat_until_done ?? null, null);
        assert.deepEqual(edited.alerts, saved.alerts);
      }

      // Settings → Calendar feed.
      await page.goto(`${prefixOf(lang)}/settings`);
      const feed = page.locator('section.calendar-feed');
      await feed.getByRole('heading', { name: t('settings:calendar.title') }).waitFor();
      await feed.getByText(t('settings:calendar.hideContent')).waitFor();
      await feed.getByRole('button', { name: t('settings:calendar.create'), exact: true }).click();
      const input = feed.getByLabel(t('settings:calendar.urlLabel'));
      await input.waitFor();
      const url = await input.inputValue();
      assert.match(url, /^https?:\/\/[^/]+\/api\/calendar\/[^/]+\.ics$/);
      assert.equal(await feed.getByRole('link', { name: t('settings:calendar.open') }).getAttribute('href'), url.replace(/^https?:/, 'webcal:'));
      await feed.getByRole('button', { name: t('settings:calendar.copy'), exact: true }).click();
      await page.locator('.toaster').getByText(t('settings:calendar.copied')).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
      await clearToasts(page);
      await feed.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot('settings-calendar') });

      const ics = await fetch(local(url));
      assert.equal(ics.status, 200);
      assert.match(ics.headers.get('content-type') ?? '', /^text\/calendar/);
      const body = await ics.text();
      assert.ok(body.includes('BEGIN:VCALENDAR') && body.includes('BEGIN:VALARM'), body);
      assert.ok(body.includes(title.replace(/,/g, '\\,')), body);

      // A new link stops the old one.
      await feed.getByRole('button', { name: t('settings:calendar.rotate'), exact: true }).click();
      const confirm = page.getByRole('dialog', { name: t('settings:calendar.rotateTitle') });
      await confirm.getByText(t('settings:calendar.rotateText')).waitFor();
      await confirm.getByRole('button', { name: t('settings:calendar.rotate'), exact: true }).click();
      await page.locator('.toaster').getByText(t('settings:calendar.rotated')).waitFor();
      await page.waitForFunction((old) => document.querySelector('section.calendar-feed input')?.value !== old, url);
      const url2 = await input.inputValue();
      assert.equal((await fetch(local(url))).status, 404);
      assert.equal((await fetch(local(url2))).status, 200);

      // Turned off, it answers 404.
      await feed.getByRole('button', { name: t('settings:calendar.turnOff'), exact: true }).click();
      const off = page.getByRole('dialog', { name: t('settings:calendar.turnOffTitle') });
      await off.getByRole('button', { name: t('settings:calendar.turnOff'), exact: true }).click();
      await page.locator('.toaster').getByText(t('settings:calendar.turnedOff')).waitFor();
      await feed.getByRole('button', { name: t('settings:calendar.create'), exact: true }).waitFor();
      assert.equal((await fetch(local(url2))).status, 404);
      await clearToasts(page);
      await feed.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot('settings-calendar-off') });

      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
