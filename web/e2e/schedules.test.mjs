// Schedules people actually have, through the app (Chromium): a monthly "2nd Tuesday, skip
// holidays, 5 times" reminder made in the dialog (mostly by keyboard), its label, Skip next
// and its toast; morning/evening times in Settings and a snooze until tomorrow morning. The
// dialog is photographed folded and with More options open, ja and en, 390 and 1280 px.
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

const LABEL = {
  en: 'Monthly on the 2nd Tuesday · 5 times · skips holidays',
  ja: '毎月第2火曜日、5回、祝日を除く',
};

const CASES = [
  { lang: 'ja', viewport: PHONE },
  { lang: 'en', viewport: DESKTOP },
  { lang: 'en', viewport: PHONE },
  { lang: 'ja', viewport: DESKTOP },
];

describe('schedules', () => {
  for (const { lang, viewport } of CASES) {
    it(`${lang} ${viewport.width}px: monthly on the 2nd Tuesday, skip holidays, 5 times; label; Skip next`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`sched-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const t = (id, p) => tr(lang, id, p);
      const shot = (name) => screenshotPath(`schedules-${lang}-${viewport.width}-${name}`);

      await page.goto(`${prefixOf(lang)}/reminders`);
      await page.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      const title = lang === 'ja' ? '町内会の集まり' : 'Residents’ meeting';
      // (The dialog's own initial focus does not reliably land on the title yet: focus it.)
      await dialog.getByLabel(t('reminders:fields.title')).focus();
      await page.keyboard.type(title);
      await pickZone(dialog, t('reminders:fields.timezone'), 'Asia/Tokyo');
      await dialog.getByLabel(t('reminders:fields.date')).fill(tokyoDate(3));
      await dialog.getByLabel(t('reminders:fields.time')).fill('19:00:00');
      await dialog.getByLabel(t('reminders:fields.recurrence')).selectOption('monthly');

      // Folded: only the common choices and a "More options" button.
      const more = dialog.getByRole('button', { name: t('reminders:fields.moreOptions') });
      assert.equal(await more.getAttribute('aria-expanded'), 'false');
      assert.equal(await dialog.getByLabel(t('reminders:fields.holidays')).count(), 0);
      await dialog.locator('.preview ol li').nth(4).waitFor();
      await more.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot('dialog-simple') });

      await more.focus();
      await page.keyboard.press('Space');
      assert.equal(await more.getAttribute('aria-expanded'), 'true');
      await dialog.getByLabel(t('reminders:fields.monthlyBy')).selectOption('weekday');
      await dialog.getByLabel(t('reminders:fields.week'), { exact: true }).selectOption('2');
      await dialog.getByLabel(t('reminders:fields.weekday'), { exact: true }).selectOption('tue');
      await dialog.getByLabel(t('reminders:fields.end')).selectOption('count');
      const count = dialog.getByLabel(t('reminders:fields.count'));
      await count.focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('5');
      await dialog.getByLabel(t('reminders:fields.holidays')).selectOption('skip');
      await dialog.getByText(t('reminders:fields.holidaysHint')).waitFor();
      // Beside the button, the rule in words, as the list will say it.
      await dialog.locator('.more-options .hint').getByText(LABEL[lang], { exact: true }).waitFor();
      await dialog.locator('.preview ol li').first().waitFor();
      await dialog.locator('.repeat-options').scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot('dialog-expanded') });

      const save = dialog.getByRole('button', { name: t('reminders:dialog.save') });
      await save.focus();
      await page.keyboard.press('Enter');
      await page.locator('.toaster').getByText(t('reminders:toast.created')).waitFor();
      await dialog.waitFor({ state: 'detached' });

      const [saved] = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
      assert.deepEqual(saved.recurrence, { kind: 'monthly', week: 2, weekday: 'tue', count: 5, holidays: 'skip' });
      // Its first occurrence is a 2nd Tuesday at 19:00 in Tokyo.
      const first = new Date(Date.parse(saved.scheduled_at) + 9 * 3_600_000);
      assert.equal(first.getUTCDay(), 2);
      assert.ok(first.getUTCDate() >= 8 && first.getUTCDate() <= 14, saved.scheduled_at);
      assert.equal(first.getUTCHours(), 19);

      const item = page.locator('.reminder-item').filter({ hasText: title });
      await item.locator('.badge', { hasText: LABEL[lang] }).waitFor();

      // Skip next: the toast names the date that was skipped.
      await item.getByRole('button', { name: t('reminders:details.show') }).click();
      await item.locator('.occurrences li').first().waitFor();
      await item.getByRole('button', { name: t('reminders:details.skipNext') }).click();
      const skippedDate = first.toISOString().slice(0, 10);
      // The day with its weekday, the year only when it is not this one (the account's zone is UTC).
      const shown = await page.evaluate(
        ([d, locale]) =>
          new Intl.DateTimeFormat(locale, {
            timeZone: 'UTC',
            ...(d.slice(0, 4) === String(new Date().getUTCFullYear()) ? {} : { year: 'numeric' }),
            month: 'short',
            day: 'numeric',
            weekday: 'short',
          }).format(Date.parse(`${d}T00:00:00Z`)),
        [skippedDate, lang === 'ja' ? 'ja-JP' : 'en-US'],
      );
      await page.locator('.toaster').getByText(t('reminders:details.skippedToast', { date: shown })).waitFor();
      const afterSkip = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${saved.id}`);
      assert.deepEqual(afterSkip.recurrence.skip, [skippedDate]);
      assert.ok(Date.parse(afterSkip.scheduled_at) > Date.parse(saved.scheduled_at));
      await page.screenshot({ path: shot('skipped'), fullPage: true });

      // The edit dialog lists the skipped date, removable (the rule in words says the rest).
      await page.getByRole('button', { name: t('reminders:editNamed', { title }) }).click();
      const edit = page.getByRole('dialog', { name: t('reminders:dialog.editTitle') });
      await edit.getByRole('button', { name: t('reminders:fields.unskip', { date: shown }) }).waitFor();
      await edit.locator('.more-options .hint').getByText(LABEL[lang], { exact: true }).waitFor();
      await edit.locator('.preview ol li').first().waitFor();
      await edit.locator('.skipped').scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot('dialog-edit-skipped') });
      await page.keyboard.press('Escape');
      await edit.waitFor({ state: 'detached' });

      // One-time reminders have no Skip next.
      const once = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Once', send_at: new Date(Date.now() + 3_600_000).toISOString() });
      await page.goto(`${prefixOf(lang)}/reminders?reminder=${once.id}`);
      const onceItem = page.locator(`#reminder-${once.id}`);
      await onceItem.getByRole('button', { name: t('reminders:details.sendNow') }).waitFor();
      assert.equal(await onceItem.getByRole('button', { name: t('reminders:details.skipNext') }).count(), 0);

      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

  it('en phone: morning and evening times in Settings; snooze until tomorrow morning', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en', viewport: PHONE });
    await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('snooze-until'), 'en');
    const page = await ctx.newPage();
    const problems = watchPage(page);
    const t = (id, p) => tr('en', id, p);

    await page.goto('/en/settings');
    await pickZone(page, t('settings:timezone'), 'Asia/Tokyo');
    await page.getByLabel(t('settings:morningTime')).fill('07:30');
    await page.getByLabel(t('settings:eveningTime')).fill('21:15');
    await page.getByRole('button', { name: t('settings:save'), exact: true }).click();
    await page.locator('.toaster').getByText(t('settings:saved')).waitFor();
    const settings = await apiCall(ctx, stack.server, 'GET', '/api/settings');
    assert.equal(settings.morning_time, '07:30');
    assert.equal(settings.evening_time, '21:15');
    await page.screenshot({ path: screenshotPath('schedules-en-390-settings-times'), fullPage: true });

    // A delivered occurrence to snooze: Send now makes one (emailed: no device here).
    const r = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Water the plants', send_at: new Date(Date.now() + 3_600_000).toISOString() });
    await apiCall(ctx, stack.server, 'POST', `/api/reminders/${r.id}/send`);
    await page.goto(`/en/reminders?reminder=${r.id}`);
    const item = page.locator(`#reminder-${r.id}`);
    const menu = item.getByLabel(t('reminders:details.snoozeFor'), { exact: true });
    await menu.waitFor();
    await menu.selectOption({ label: t('reminders:details.snoozeMorning', { time: '07:30' }) });
    await item.getByRole('button', { name: t('reminders:details.snoozeSubmit'), exact: true }).click();
    await page.locator('.toaster').getByText(/^Snoozed until /).waitFor();

    // Tomorrow 07:30 in Tokyo (the settings' zone).
    const tomorrow = tokyoDate(1);
    const saved = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${r.id}`);
    assert.equal(new Date(saved.snoozed_until).toISOString(), new Date(`${tomorrow}T07:30:00+09:00`).toISOString());

    // A picked time beyond 7 days is refused in the app.
    await page.reload();
    await menu.selectOption('pick');
    await item.getByLabel(t('reminders:details.snoozePickLabel')).fill(`${tokyoDate(9)}T10:00`);
    await item.getByRole('button', { name: t('reminders:details.snoozeSubmit'), exact: true }).click();
    await item.getByText(t('reminders:errors.snoozeTooFar')).waitFor();
    await page.screenshot({ path: screenshotPath('schedules-en-390-snooze-pick') });
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});
