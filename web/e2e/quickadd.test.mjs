// Quick add in Chromium against the real server: a phrase typed into the box on the dashboard
// or the reminders page, the live result under it, Enter (not during an IME composition), the
// create dialog filled in (title, date, time, repeat), saved, in the list, and on the server as
// parsed (a monthly 2nd Tuesday the form cannot show yet is saved unchanged). ja phone, en
// desktop; screenshots of the box in ja and en at 390 and 1280 px.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, homePathOf, newContext, pathOf, prefixOf, screenshotPath, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const tokyo = (ms) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date(ms));
const tokyoHour = () => Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
/** The first Tokyo date from today on (today only when `todayOk`) for which `ok(date, weekday 0=Sun)` holds. */
function nextDate(ok, todayOk) {
  for (let i = todayOk ? 0 : 1; i < 400; i++) {
    const d = tokyo(Date.now() + i * 86_400_000);
    const wd = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (ok(d, wd)) return d;
  }
  throw new Error('no date');
}

const CASES = [
  {
    lang: 'ja',
    viewport: PHONE,
    start: 'dashboard',
    phrases: [
      {
        text: '明日9時 薬を飲む',
        live: ['明日 9:00', '薬を飲む'],
        title: '薬を飲む',
        date: () => tokyo(Date.now() + 86_400_000),
        time: '09:00:00',
        kind: 'none',
        recurrence: { kind: 'none' },
      },
      {
        text: '毎月第2火曜 10時 資源ごみ',
        live: ['10:00', '毎月第2火曜', '資源ごみ'],
        title: '資源ごみ',
        date: () => nextDate((d, wd) => wd === 2 && Math.ceil(Number(d.slice(8)) / 7) === 2, tokyoHour() < 10),
        time: '10:00:00',
        kind: 'monthly',
        recurrence: { kind: 'monthly', week: 2, weekday: 'tue' },
      },
    ],
  },
  {
    lang: 'en',
    viewport: DESKTOP,
    start: 'reminders',
    phrases: [
      {
        text: 'every weekday at 7:30 stretch',
        live: ['7:30 AM', 'every weekday', 'stretch'],
        title: 'stretch',
        date: () => nextDate((_, wd) => wd >= 1 && wd <= 5, tokyoHour() < 7),
        time: '07:30:00',
        kind: 'weekdays',
        recurrence: { kind: 'weekdays' },
      },
      {
        text: 'every other week on Friday 6pm team dinner',
        live: ['6:00 PM', 'every other Friday', 'team dinner'],
        title: 'team dinner',
        date: () => nextDate((_, wd) => wd === 5, tokyoHour() < 18),
        time: '18:00:00',
        kind: 'weekly',
        recurrence: { kind: 'weekly', interval: 2 },
      },
    ],
  },
];

describe('quick add', () => {
  for (const { lang, viewport, start, phrases } of CASES) {
    it(`${lang} ${viewport.width}px: typed, understood live, Enter opens the dialog filled in, saved as parsed`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`qa-${lang}`), lang);
      // Quick add reads times in the account's time zone (signing in through the API leaves it UTC).
      await apiCall(ctx, stack.server, 'PUT', '/api/settings', { timezone: 'Asia/Tokyo' });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const t = (id, p) => tr(lang, id, p);
      const loaded = [];
      page.on('request', (r) => loaded.push(r.url()));

      if (start === 'dashboard') {
        await page.goto(homePathOf(lang));
        await page.getByRole('heading', { name: t('reminders:dashboard.title') }).waitFor();
      } else {
        await page.goto(`${prefixOf(lang)}/reminders`);
        await page.getByRole('heading', { name: t('reminders:title') }).waitFor();
      }
      const box = page.getByLabel(t('reminders:quickAdd.label'));
      await box.waitFor();
      // chrono-node and the grammar are not loaded until the box is used
      assert.ok(!loaded.some((u) => /\/parse-[\w-]+\.js$/.test(u)), 'parser loaded before use');

      for (const [i, p] of phrases.entries()) {
        await box.click();
        await box.pressSequentially(p.text, { delay: 10 });
        const result = page.getByTestId('quick-add-result');
        for (const part of p.live) await result.getByText(part, { exact: false }).first().waitFor();
        assert.ok(loaded.some((u) => /\/parse-[\w-]+\.js$/.test(u)), 'parser loaded on use');
        assert.equal(await result.getAttribute('aria-live'), 'polite');

        if (i === 0) {
          // Enter that confirms an IME composition does not submit.
          await box.evaluate((el) => el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, isComposing: true, bubbles: true })));
          await page.waitForTimeout(300);
          assert.equal(await page.getByRole('dialog').count(), 0);
          await page.screenshot({ path: screenshotPath(`quickadd-${lang}-${viewport.width}`) });
        }

        await box.press('Enter');
        const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
        await dialog.waitFor();
        assert.equal(pathOf(page), `${prefixOf(lang)}/reminders`);
        assert.equal(await dialog.getByLabel(t('reminders:fields.title')).inputValue(), p.title);
        const date = p.date();
        assert.equal(await dialog.getByLabel(t('reminders:fields.date')).inputValue(), date);
        assert.equal(await dialog.getByLabel(t('reminders:fields.time')).inputValue(), p.time);
        assert.equal(await dialog.getByLabel(t('reminders:fields.recurrence')).inputValue(), p.kind);
        if (i === 0) await page.screenshot({ path: screenshotPath(`quickadd-dialog-${lang}-${viewport.width}`) });
        // nothing was saved by quick add itself
        assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/reminders')).length, i);

        await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
        await page.locator('.toaster').getByText(t('reminders:toast.created')).last().waitFor();
        await dialog.waitFor({ state: 'detached' });
        await page.locator('.reminder-item').filter({ hasText: p.title }).waitFor();

        const saved = (await apiCall(ctx, stack.server, 'GET', '/api/reminders')).find((r) => r.title === p.title);
        assert.ok(saved, `${p.title} on the server`);
        assert.deepEqual(saved.recurrence, p.recurrence);
        assert.equal(saved.timezone, 'Asia/Tokyo');
        assert.equal(new Date(saved.send_at).toISOString(), new Date(`${date}T${p.time}+09:00`).toISOString());
        assert.equal(await box.inputValue(), '');
      }
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

  for (const [lang, viewport, text] of [
    ['ja', DESKTOP, '毎週月・水 19時 ジム'],
    ['en', PHONE, 'tomorrow 9am take medicine'],
  ]) {
    it(`${lang} ${viewport.width}px: the box and its live result fit the page`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`qa-shot-${lang}`), lang);
      await apiCall(ctx, stack.server, 'PUT', '/api/settings', { timezone: 'Asia/Tokyo' });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(homePathOf(lang));
      const box = page.getByLabel(tr(lang, 'reminders:quickAdd.label'));
      await box.fill(text);
      await page.getByTestId('quick-add-result').getByText(lang === 'ja' ? 'ジム' : 'take medicine').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page wider than the viewport by ${overflow}px`);
      await page.screenshot({ path: screenshotPath(`quickadd-${lang}-${viewport.width}`) });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
