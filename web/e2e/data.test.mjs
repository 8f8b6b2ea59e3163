// Open to other tools (Chromium), in ja and en, at 390 and 1280 px, light and dark:
// (a) Settings → API tokens: a read-only token made in the page and read from it (shown once,
//     with its curl example); from Node it reads /api/reminders (200) and may not make one
//     (403 INSUFFICIENT_SCOPE).
// (b) Settings → Export and import: an .ics file (a weekly event ahead, a FREQ=MINUTELY one and
//     one long past) is checked first (what would be imported, what is skipped and why; nothing
//     saved), then imported (the API has it); the export downloads a JSON file holding it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiCall, apiSignIn, FOUR_VIEWS, newContext, prefixOf, screenshotPath, startStack, tr, trCount, uniqueEmail, watchPage, assertWithinWidth, show } from './harness.mjs';

let stack;
let dir;
before(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'hibiki-e2e-data-'));
});
after(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** 20300107T010000Z: an instant `days` from now, on the hour, as iCalendar writes UTC. */
function icsUtc(days) {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCMinutes(0, 0, 0);
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function calendar(tag) {
  const weekly = `Team meeting ${tag}`;
  const minutely = `Drink water ${tag}`;
  const past = `Old party ${tag}`;
  const stamp = icsUtc(0);
  const event = (uid, summary, start, rule) =>
    ['BEGIN:VEVENT', `UID:${uid}-${tag}@e2e.test`, `DTSTAMP:${stamp}`, `DTSTART:${start}`, `SUMMARY:${summary}`, ...(rule ? [`RRULE:${rule}`] : []), 'END:VEVENT'];
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hibiki e2e//EN',
    ...event('weekly', weekly, icsUtc(3), 'FREQ=WEEKLY'),
    ...event('minutely', minutely, icsUtc(2), 'FREQ=MINUTELY;INTERVAL=30'),
    ...event('past', past, '20200105T010000Z'),
    'END:VCALENDAR',
  ];
  return { text: `${lines.join('\r\n')}\r\n`, weekly, minutely, past };
}

describe('settings: API tokens, export and import', () => {
  for (const { lang, viewport, scheme } of FOUR_VIEWS) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: a read-only token works from Node within its scope; an .ics file checked, then imported; the export holds it`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme, acceptDownloads: true });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`data-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(`${prefixOf(lang)}/settings`);

      // --- (a) A token that may only read reminders (the form's first choice).
      const tokens = page.getByRole('region', { name: t('data:tokens.title') });
      await tokens.getByText(t('data:tokens.none')).waitFor();
      await tokens.getByRole('button', { name: t('data:tokens.add.open'), exact: true }).click();
      const form = tokens.getByRole('form', { name: t('data:tokens.add.title') });
      await form.getByLabel(t('data:tokens.add.name'), { exact: true }).fill(`Script ${tag}`);
      assert.equal(await form.getByRole('checkbox', { name: t('data:tokens.scope.remindersRead') }).isChecked(), true);
      for (const other of ['remindersWrite', 'listsRead', 'listsWrite']) {
        assert.equal(await form.getByRole('checkbox', { name: t(`data:tokens.scope.${other}`) }).isChecked(), false);
      }
      await form.getByLabel(t('data:tokens.add.expiry'), { exact: true }).selectOption('30');
      await show(page, form);
      await page.screenshot({ path: screenshotPath(`data-${tag}-token-form`) });
      await form.getByRole('button', { name: t('data:tokens.add.create'), exact: true }).click();

      const made = tokens.getByRole('region', { name: t('data:tokens.made.title', { name: `Script ${tag}` }) });
      const secret = await made.getByLabel(t('data:tokens.made.label'), { exact: true }).inputValue();
      assert.match(secret, /^hbk_[A-Za-z0-9_-]{20,}$/, 'the token, read from the page');
      await made.getByText(t('data:tokens.made.once')).waitFor();
      await made.getByText(t('data:tokens.made.readReminders')).waitFor();
      const curl = await made.locator('code').textContent();
      assert.equal(curl, `curl -H "Authorization: Bearer ${secret}" ${stack.url}/api/reminders`);
      await show(page, made);
      await assertWithinWidth(page, made, 'the new token');
      await page.screenshot({ path: screenshotPath(`data-${tag}-token-made`) });

      // From Node, as a script would: it reads, and may not write.
      const bearer = { Authorization: `Bearer ${secret}` };
      const read = await fetch(`${stack.url}/api/reminders`, { headers: bearer });
      assert.equal(read.status, 200);
      assert.equal((await read.json()).success, true);
      const write = await fetch(`${stack.url}/api/reminders`, {
        method: 'POST',
        headers: { ...bearer, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'nope', send_at: new Date(Date.now() + 86_400_000).toISOString() }),
      });
      assert.equal(write.status, 403);
      assert.equal((await write.json()).error.code, 'INSUFFICIENT_SCOPE');

      // Done: the token is not on the page any more; the list names it with its scope and expiry.
      await made.getByRole('button', { name: t('data:tokens.made.done'), exact: true }).click();
      assert.equal(await page.getByText(secret).count(), 0, 'shown once only');
      const item = tokens.getByRole('listitem', { name: `Script ${tag}` });
      await item.getByText(t('data:tokens.scope.remindersRead')).waitFor();
      assert.equal(await item.getByText(t('data:tokens.noExpiry')).count(), 0, 'it has an expiry');

      // --- (b) Import: the dry run first, nothing saved.
      const transfer = page.getByRole('region', { name: t('data:transfer.title') });
      const cal = calendar(tag);
      const file = join(dir, `calendar-${tag}.ics`);
      writeFileSync(file, cal.text);
      await transfer.getByLabel(t('data:transfer.importLabel'), { exact: true }).setInputFiles(file);
      const preview = transfer.getByRole('region', { name: t('data:transfer.previewTitle', { name: `calendar-${tag}.ics` }) });
      await preview.getByRole('heading', { name: t('data:transfer.willImport', { count: 1 }) }).waitFor();
      await preview.getByRole('heading', { name: t('data:transfer.skippedTitle', { count: 2 }) }).waitFor();
      const [willList, skippedList] = await preview.getByRole('list').all();
      const weekly = willList.getByRole('listitem').filter({ hasText: cal.weekly });
      await weekly.getByText(t('data:transfer.repeats'), { exact: true }).waitFor();
      await weekly.getByText(new RegExp(t('data:transfer.next', { when: '' }).trim())).waitFor();
      await skippedList.getByRole('listitem').filter({ hasText: cal.minutely }).getByText(t('data:transfer.reason.unsupported_rule')).waitFor();
      await skippedList.getByRole('listitem').filter({ hasText: cal.past }).getByText(t('data:transfer.reason.past')).waitFor();
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/reminders')).length, 0, 'nothing saved by the dry run');
      await show(page, preview);
      await assertWithinWidth(page, preview, 'the import preview');
      await page.screenshot({ path: screenshotPath(`data-${tag}-import-preview`) });

      // Import saves.
      await preview.getByRole('button', { name: trCount(lang, 'data:transfer.import', 1), exact: true }).click();
      const done = transfer.getByRole('region', { name: t('data:transfer.doneTitle', { name: `calendar-${tag}.ics` }) });
      await done.getByText(trCount(lang, 'data:transfer.imported', 1)).waitFor();
      const saved = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
      assert.deepEqual(saved.map((r) => r.title), [cal.weekly]);
      assert.equal(saved[0].recurrence?.kind, 'weekly');
      await show(page, done);
      await page.screenshot({ path: screenshotPath(`data-${tag}-import-done`) });

      // --- Export: a JSON file holding the imported reminder.
      const [download] = await Promise.all([page.waitForEvent('download'), transfer.getByRole('button', { name: t('data:transfer.export'), exact: true }).click()]);
      assert.match(download.suggestedFilename(), /^hibiki-export-\d{4}-\d{2}-\d{2}\.json$/);
      const doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
      assert.equal(doc.version, 1);
      assert.ok(doc.reminders.some((r) => r.title === cal.weekly), 'the export holds the imported reminder');
      await page.locator('.toast').filter({ hasText: t('data:transfer.exported', { file: download.suggestedFilename() }) }).waitFor();

      await show(page, tokens);
      await assertWithinWidth(page, tokens, 'the tokens');
      await page.screenshot({ path: screenshotPath(`data-${tag}-tokens`) });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
