// Reminders through the UI against the real server: create (with a recurrence and the preview of
// the next occurrences), edit, delete; the list and the home dashboard counts follow. ja and en,
// phone and desktop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, homePathOf, newContext, pathOf, pickZone, prefixOf, startStack, tokyoDate, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/** 月…日 for a YYYY-MM-DD. */
const weekdayJa = (date) => new Intl.DateTimeFormat('ja-JP', { timeZone: 'UTC', weekday: 'short' }).format(Date.parse(`${date}T00:00:00Z`));

async function counts(page, lang) {
  const read = async (key) =>
    Number(await page.locator('.stat').filter({ hasText: tr(lang, `reminders:dashboard.${key}`) }).locator('.stat-value').textContent());
  return { active: await read('active'), completed: await read('completed'), dueSoon: await read('dueSoon') };
}

async function goHome(page, lang) {
  await page.getByRole('link', { name: tr(lang, 'nav.homeLabel') }).click();
  await page.getByRole('heading', { name: tr(lang, 'reminders:dashboard.title') }).waitFor();
  assert.equal(pathOf(page), homePathOf(lang));
}

const CASES = [
  {
    lang: 'ja',
    viewport: PHONE,
    // Mon, Wed and Fri at 09:30:15 Tokyo time
    recurrence: { kind: 'custom', days: ['mon', 'wed', 'fri'] },
    edited: { kind: 'weekly' },
  },
  {
    lang: 'en',
    viewport: DESKTOP,
    recurrence: { kind: 'hourly', interval_hours: 6 },
    edited: { kind: 'daily' },
  },
];

describe('reminders', () => {
  for (const { lang, viewport, recurrence, edited } of CASES) {
    it(`${lang} ${viewport.width}px: create with ${recurrence.kind} + preview, edit, delete; list and dashboard follow`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`rem-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const t = (id, p) => tr(lang, id, p);

      await page.goto(homePathOf(lang));
      await page.getByRole('heading', { name: t('reminders:dashboard.title') }).waitFor();
      await page.getByText(t('reminders:dashboard.empty')).waitFor();
      assert.deepEqual(await counts(page, lang), { active: 0, completed: 0, dueSoon: 0 });

      // The dashboard's create button goes to /reminders and opens the dialog.
      await page.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      assert.equal(pathOf(page), `${prefixOf(lang)}/reminders`);

      const title = lang === 'ja' ? '薬を飲む' : 'Take medicine';
      await dialog.getByLabel(t('reminders:fields.title')).fill(title);
      await dialog.getByLabel(t('reminders:fields.description')).fill(lang === 'ja' ? '食後に' : 'after lunch');

      // A time in the past is refused in the form.
      await pickZone(dialog, t('reminders:fields.timezone'), 'Asia/Tokyo');
      await dialog.getByLabel(t('reminders:fields.date')).fill(tokyoDate(-1));
      await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
      await dialog.getByText(t('reminders:errors.mustBeFuture')).waitFor();

      const date = tokyoDate(2);
      await dialog.getByLabel(t('reminders:fields.date')).fill(date);
      await dialog.getByLabel(t('reminders:fields.time')).fill('09:30:15');
      await dialog.getByLabel(t('reminders:fields.recurrence')).selectOption(recurrence.kind);
      if (recurrence.kind === 'custom') {
        for (const d of recurrence.days) await dialog.getByLabel(t(`reminders:weekdays.${d}`), { exact: true }).check();
      }
      if (recurrence.kind === 'hourly') {
        await dialog.getByLabel(t('reminders:fields.intervalHours')).fill(String(recurrence.interval_hours));
      }

      // The preview of the next five occurrences comes from POST /api/reminders/preview.
      const preview = dialog.locator('.preview ol li');
      await preview.nth(4).waitFor();
      const previewTexts = await preview.allTextContents();
      assert.equal(previewTexts.length, 5);
      // The account's zone is still the server's UTC, so the reminder's zone is named (JST, GMT+9).
      if (recurrence.kind === 'hourly') {
        // every 6 hours from 9:30:15 (en-US shows a 12-hour clock): "Tomorrow, 9:30:15 AM GMT+9"
        for (const s of previewTexts) assert.match(s, /^(Tomorrow|[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}(, \d{4})?), \d{1,2}:30:15 [AP]M GMT\+9$/);
        const times = previewTexts.map((s) => /\d{1,2}:30:15 [AP]M/.exec(s)?.[0]);
        assert.deepEqual(times, ['9:30:15 AM', '3:30:15 PM', '9:30:15 PM', '3:30:15 AM', '9:30:15 AM'], previewTexts.join(' | '));
      } else {
        // custom days: every preview day falls on 月, 水 or 金 ("明日" when tomorrow is one): "11月25日(水) 9:30:15 JST"
        const tomorrowIs = weekdayJa(tokyoDate(1));
        for (const s of previewTexts) {
          const m = /^(?:明日|(?:\d{4}年)?\d{1,2}月\d{1,2}日\((.)\)) 9:30:15 JST$/.exec(s);
          assert.ok(m, s);
          assert.match(m[1] ?? tomorrowIs, /^[月水金]$/, s);
        }
      }

      await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
      await page.locator('.toaster').getByText(t('reminders:toast.created')).waitFor();
      await dialog.waitFor({ state: 'detached' });
      const item = page.locator('.reminder-item').filter({ hasText: title });
      await item.waitFor();
      assert.ok(!(await item.textContent()).includes(t('reminders:pendingSync')));

      // The server has it, as entered.
      let list = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
      assert.equal(list.length, 1);
      assert.equal(list[0].title, title);
      assert.equal(list[0].timezone, 'Asia/Tokyo');
      assert.deepEqual(list[0].recurrence, recurrence);
      assert.equal(new Date(list[0].send_at).toISOString(), new Date(`${date}T09:30:15+09:00`).toISOString());
      const id = list[0].id;

      // The dashboard counts it (due soon: it is one of the next 5 active reminders).
      await goHome(page, lang);
      assert.deepEqual(await counts(page, lang), { active: 1, completed: 0, dueSoon: 1 });
      await page.locator('.dashboard .reminder-item').filter({ hasText: title }).waitFor();

      // Edit: new title and recurrence.
      await page.getByRole('link', { name: t('reminders:dashboard.viewAll') }).click();
      await page.getByRole('button', { name: t('reminders:editNamed', { title }) }).click();
      const editDialog = page.getByRole('dialog', { name: t('reminders:dialog.editTitle') });
      await editDialog.waitFor();
      assert.equal(await editDialog.getByLabel(t('reminders:fields.title')).inputValue(), title);
      assert.equal(await editDialog.getByLabel(t('reminders:fields.time')).inputValue(), '09:30:15');
      const newTitle = `${title} 2`;
      await editDialog.getByLabel(t('reminders:fields.title')).fill(newTitle);
      await editDialog.getByLabel(t('reminders:fields.recurrence')).selectOption(edited.kind);
      await editDialog.locator('.preview ol li').nth(4).waitFor();
      await editDialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
      await page.locator('.toaster').getByText(t('reminders:toast.updated')).waitFor();
      await page.locator('.reminder-item').filter({ hasText: newTitle }).waitFor();
      await page
        .locator('.reminder-item')
        .filter({ hasText: newTitle })
        .getByText(t(`reminders:recurrence.${edited.kind}`))
        .waitFor();
      const saved = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${id}`);
      assert.equal(saved.title, newTitle);
      assert.deepEqual(saved.recurrence, edited);

      // Details: the next occurrences from the server and the (still empty) delivery history.
      const edItem = page.locator('.reminder-item').filter({ hasText: newTitle });
      await edItem.getByRole('button', { name: t('reminders:details.show') }).click();
      await edItem.locator('.occurrences li').nth(4).waitFor();
      for (const s of await edItem.locator('.occurrences li').allTextContents()) assert.match(s, /(^|\D)9:30:15( [AP]M)? (JST|GMT\+9)$/);
      await edItem.getByText(t('reminders:details.noHistory')).waitFor();
      await edItem.getByText(t('reminders:details.handleHint')).waitFor();
      await edItem.getByRole('button', { name: t('reminders:details.hide') }).click();
      await edItem.locator('.occurrences').waitFor({ state: 'detached' });

      // Opened from a notification (`?reminder=<id>`): highlighted, details open.
      await page.goto(`${prefixOf(lang)}/reminders?reminder=${id}`);
      const focused = page.locator(`#reminder-${id}.highlight`);
      await focused.getByText(t('reminders:details.openedFromNotification')).waitFor();
      await focused.locator('.occurrences li').first().waitFor();

      // Delete, with its confirmation.
      await page.getByRole('button', { name: t('reminders:deleteNamed', { title: newTitle }) }).click();
      const confirm = page.getByRole('dialog', { name: t('reminders:deleteConfirm.title') });
      await confirm.getByRole('button', { name: t('reminders:delete') }).click();
      await page.locator('.toaster').getByText(t('reminders:toast.deleted')).waitFor();
      await page.getByText(t('reminders:emptyActive')).waitFor();
      list = await apiCall(ctx, stack.server, 'GET', '/api/reminders?status=all');
      assert.equal(list.length, 0);

      await goHome(page, lang);
      assert.deepEqual(await counts(page, lang), { active: 0, completed: 0, dueSoon: 0 });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

  it('complete and snooze from the app (en, phone)', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en', viewport: PHONE });
    await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('handle'), 'en');
    // two one-time reminders due in 2 s; complete and snooze act on their delivery log entries
    const soon = new Date(Date.now() + 2000).toISOString();
    const a = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Complete me', send_at: soon, recurrence: { kind: 'none' } });
    const b = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Snooze me', send_at: soon, recurrence: { kind: 'none' } });
    const deadline = Date.now() + 20_000;
    let delivered = false;
    while (Date.now() < deadline && !delivered) {
      await new Promise((r) => setTimeout(r, 500));
      const [la, lb] = await Promise.all([a, b].map((r) => apiCall(ctx, stack.server, 'GET', `/api/reminders/${r.id}/logs`)));
      delivered = la.length > 0 && lb.length > 0;
    }
    // No entry within 20 s is what a broken scheduler looks like: that fails, never skips.
    assert.ok(delivered, 'the scheduler made a delivery log entry for each reminder within 20 s');
    const page = await ctx.newPage();
    await page.goto(`/en/reminders?reminder=${a.id}`);
    const itemA = page.locator(`#reminder-${a.id}`);
    await itemA.getByRole('button', { name: tr('en', 'reminders:details.complete'), exact: true }).click();
    await page.locator('.toaster').getByText(tr('en', 'reminders:details.completedToast')).waitFor();
    const doneA = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${a.id}`);
    assert.equal(doneA.is_archived, true, 'a completed one-time reminder is archived');

    await page.goto(`/en/reminders?reminder=${b.id}`);
    const itemB = page.locator(`#reminder-${b.id}`);
    await itemB.getByRole('button', { name: tr('en', 'reminders:details.snooze', { n: 10 }), exact: true }).click();
    // The toast says when it rings again (the server's snoozed_until), in the reminder's zone.
    await page.locator('.toaster').getByText(/^Snoozed until /).waitFor();
    const logsB = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${b.id}/logs`);
    assert.ok(logsB.some((l) => l.action === 'snooze'), JSON.stringify(logsB));
    await ctx.close();
  });
});
