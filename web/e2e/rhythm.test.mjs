// Reach and rhythm (Chromium), in ja and en, at 390 and 1280 px, light and dark:
// (a) Settings: quiet hours turned on with their times, saved and still there after a reload;
//     notification channels: an ntfy topic added and listed as working, its Fallback switched,
//     a webhook added with its secret shown once, an unsafe URL refused at the URL field.
// (b) The reminder dialog: "Ring during quiet hours" and two escalation steps of repeat until
//     done saved (the API has them) and said in the details.
// (c) Snooze all: a reminder that rang seconds ago and is not done is snoozed from the dashboard.
// Each part with its own account (the quiet hours of (a) would hold the ring of (c)).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiCall, apiSignIn, comeBack, FOUR_VIEWS, homePathOf, newContext, prefixOf, screenshotPath, startStack, tr, trCount, uniqueEmail, watchPage, assertWithinWidth, show } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const secondsAhead = (s) => new Date(Math.ceil((Date.now() + s * 1000) / 1000) * 1000).toISOString();

async function signedIn(lang, viewport, scheme, tag) {
  const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
  await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(tag), lang);
  const page = await ctx.newPage();
  return { ctx, page, problems: watchPage(page) };
}

describe('settings: quiet hours and notification channels', () => {
  for (const { lang, viewport, scheme } of FOUR_VIEWS) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: quiet hours saved and kept; ntfy and a webhook added, Fallback switched, an unsafe URL refused`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const { ctx, page, problems } = await signedIn(lang, viewport, scheme, `rhythm-settings-${lang}`);
      await page.goto(`${prefixOf(lang)}/settings`);

      // --- Quiet hours: on, 23:15 until 06:45 the next morning, saved.
      const quiet = page.getByRole('group', { name: t('settings:quiet.title') });
      const quietOn = quiet.getByRole('switch', { name: t('settings:quiet.on') });
      await quietOn.waitFor();
      assert.equal(await quietOn.isChecked(), false, 'off for a new account');
      await quietOn.check();
      await quiet.getByLabel(t('settings:quiet.start'), { exact: true }).fill('23:15');
      await quiet.getByLabel(t('settings:quiet.end'), { exact: true }).fill('06:45');
      await quiet.getByText(t('settings:quiet.overnight', { start: '23:15', end: '06:45' })).waitFor();
      await page.locator('form.card').getByRole('button', { name: t('settings:save'), exact: true }).click();
      await page.locator('.toast').filter({ hasText: t('settings:saved') }).waitFor();
      assert.deepEqual((await apiCall(ctx, stack.server, 'GET', '/api/settings')).quiet_hours, { start: '23:15', end: '06:45' });
      // A reload shows them.
      await page.reload();
      await quietOn.waitFor();
      assert.equal(await quietOn.isChecked(), true, 'still on after a reload');
      assert.equal(await quiet.getByLabel(t('settings:quiet.start'), { exact: true }).inputValue(), '23:15');
      assert.equal(await quiet.getByLabel(t('settings:quiet.end'), { exact: true }).inputValue(), '06:45');
      await quiet.getByText(t('settings:quiet.overnight', { start: '23:15', end: '06:45' })).waitFor();
      await show(page, quiet);
      await assertWithinWidth(page, quiet, 'the quiet hours');
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-quiet-hours`) });

      // --- Channels: an ntfy topic.
      const channels = page.getByRole('region', { name: t('settings:channels.title') });
      await channels.getByText(t('settings:channels.none')).waitFor();
      const addOpen = channels.getByRole('button', { name: t('settings:channels.add.open'), exact: true });
      await addOpen.click();
      const form = channels.getByRole('form', { name: t('settings:channels.add.open') });
      assert.equal(await form.locator('input[type=radio][value=ntfy]').isChecked(), true, 'ntfy is the first choice');
      await form.getByLabel(t('settings:channels.add.ntfyUrl'), { exact: true }).fill('https://ntfy.example/your-topic');
      await form.getByRole('button', { name: t('settings:channels.add.submit'), exact: true }).click();
      const ntfyLabel = 'ntfy.example/your-topic';
      await page.locator('.toast').filter({ hasText: t('settings:channels.add.added', { name: ntfyLabel }) }).waitFor();
      const ntfy = channels.getByRole('group', { name: ntfyLabel });
      await ntfy.locator('.badge').filter({ hasText: t('settings:channels.status.active') }).waitFor();
      // Fallback switched: saved at once.
      const fallback = ntfy.getByRole('switch', { name: t('settings:channels.fallback') });
      const was = await fallback.isChecked();
      await fallback.click();
      await page.waitForFunction(
        ([el, want]) => el.checked === want,
        [await fallback.elementHandle(), !was],
      );
      let saved = [];
      for (let i = 0; i < 25; i++) {
        saved = await apiCall(ctx, stack.server, 'GET', '/api/channels');
        if (saved[0]?.use.fallback === !was) break;
        await page.waitForTimeout(200);
      }
      assert.equal(saved.length, 1);
      assert.equal(saved[0].kind, 'ntfy');
      assert.equal(saved[0].status, 'active');
      assert.equal(saved[0].use.fallback, !was, 'the Fallback switch is saved');
      await show(page, ntfy);
      await assertWithinWidth(page, ntfy, 'the ntfy channel');
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-channel-ntfy`) });

      // --- A webhook: its secret, once.
      await addOpen.click();
      await form.locator('input[type=radio][value=webhook]').check();
      await form.getByLabel(t('settings:channels.add.webhookUrl'), { exact: true }).fill('https://hooks.example/hibiki');
      await form.getByRole('button', { name: t('settings:channels.add.submit'), exact: true }).click();
      const hookLabel = 'hooks.example/hibiki';
      const created = channels.getByRole('region', { name: t('settings:channels.secret.title', { name: hookLabel }) });
      await created.waitFor();
      const secret = await created.getByLabel(t('settings:channels.secret.label'), { exact: true }).inputValue();
      assert.match(secret, /^whsec_[A-Za-z0-9+/=]{20,}$/);
      await created.getByText(t('settings:channels.secret.copyNow')).waitFor();
      await show(page, created);
      await assertWithinWidth(page, created, 'the webhook secret');
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-channel-webhook-secret`) });
      await created.getByRole('button', { name: t('settings:channels.secret.done'), exact: true }).click();
      await created.waitFor({ state: 'detached' });
      await channels.getByRole('group', { name: hookLabel }).waitFor();
      // Shown once: nowhere on the page any more, nor in the API's list.
      assert.equal(await page.getByText(secret).count(), 0);
      assert.equal(await page.locator(`input[value="${secret}"]`).count(), 0);
      assert.ok(!JSON.stringify(await apiCall(ctx, stack.server, 'GET', '/api/channels')).includes(secret));

      // --- An unsafe URL: refused at the URL field.
      await addOpen.click();
      await form.locator('input[type=radio][value=ntfy]').check();
      const url = form.getByLabel(t('settings:channels.add.ntfyUrl'), { exact: true });
      await url.fill('https://127.0.0.1/x');
      await form.getByRole('button', { name: t('settings:channels.add.submit'), exact: true }).click();
      const refusal = form.locator('.field-error').filter({ hasText: t('settings:channels.errors.endpointRejected') });
      await refusal.waitFor();
      assert.equal(await url.getAttribute('aria-invalid'), 'true');
      assert.ok((await url.getAttribute('aria-describedby')).split(' ').includes(await refusal.getAttribute('id')), 'the URL field is described by the refusal');
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/channels')).length, 2, 'nothing added');
      await show(page, form.locator(`label[for="${await url.getAttribute('id')}"]`));
      await assertWithinWidth(page, form, 'the add form');
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-channel-rejected`) });

      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});

describe('the reminder dialog: ring during quiet hours, escalation', () => {
  for (const { lang, viewport, scheme } of FOUR_VIEWS) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: break_through and two escalation steps saved and said in the details`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const { ctx, page, problems } = await signedIn(lang, viewport, scheme, `rhythm-dialog-${lang}`);
      const title = lang === 'ja' ? '薬を飲む' : 'Take the medicine';
      await page.goto(`${prefixOf(lang)}/reminders`);
      await page.getByRole('button', { name: t('reminders:create'), exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      await dialog.getByLabel(t('reminders:fields.title'), { exact: true }).fill(title);
      await dialog.getByRole('checkbox', { name: t('reminders:breakThrough.label') }).check();

      // Repeat until done every 5 minutes, up to 3 times; then channels after 1, email after 2.
      await dialog.getByRole('button', { name: t('reminders:alarms.disclosure') }).click();
      await dialog.getByLabel(t('reminders:alarms.repeat'), { exact: true }).selectOption({ label: t('reminders:alarms.repeatEvery', { n: 5 }) });
      const steps = dialog.getByRole('group', { name: t('reminders:escalate.label') });
      const addStep = steps.getByRole('button', { name: t('reminders:escalate.add'), exact: true });
      await addStep.click();
      const first = steps.getByRole('group', { name: t('reminders:escalate.step', { n: 1 }) });
      await first.getByLabel(t('reminders:escalate.to'), { exact: true }).selectOption({ label: t('reminders:escalate.toOption.channels') });
      await addStep.click();
      const second = steps.getByRole('group', { name: t('reminders:escalate.step', { n: 2 }) });
      assert.equal(await second.getByLabel(t('reminders:escalate.after'), { exact: true }).inputValue(), '2', 'a new step comes one repeat later');
      assert.equal(await second.getByLabel(t('reminders:escalate.to'), { exact: true }).inputValue(), 'email');
      // Not shared: no member to tell.
      assert.equal(await first.getByLabel(t('reminders:escalate.to'), { exact: true }).locator('option[value=member]').count(), 0);
      const said = [
        trCount(lang, 'reminders:alarms.nag', 3, { every: 5 }),
        trCount(lang, 'reminders:escalate.summary.channels', 1),
        trCount(lang, 'reminders:escalate.summary.email', 2),
      ].join(t('reminders:recurrence.label.separator'));
      await dialog.getByText(said, { exact: true }).waitFor();
      await show(page, steps);
      await assertWithinWidth(page, steps, 'the escalation steps');
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-dialog-escalation`) });
      await dialog.getByRole('button', { name: t('reminders:dialog.save'), exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      // The API has it.
      const all = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
      const saved = all.find((r) => r.title === title);
      assert.ok(saved, 'saved');
      assert.equal(saved.break_through, true);
      assert.deepEqual(saved.repeat_until_done, {
        every_minutes: 5,
        max_times: 3,
        escalate: [
          { after_times: 1, to: 'channels' },
          { after_times: 2, to: 'email' },
        ],
      });

      // The details say it.
      const row = page.locator(`#reminder-${saved.id}`);
      await row.getByRole('button', { name: t('reminders:details.show'), exact: true }).click();
      const summary = page.locator(`#details-${saved.id} .alarm-summary`);
      await summary.getByText(t('reminders:breakThrough.on'), { exact: false }).waitFor();
      const text = await summary.innerText();
      assert.ok(text.includes(said), `the details say ${said}: ${text}`);
      assert.ok(text.includes(t('reminders:breakThrough.on')), text);
      await show(page, row);
      await assertWithinWidth(page, summary, 'the details');
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-details`) });

      // Edited, the dialog reads them back.
      await row.getByRole('button', { name: t('reminders:editNamed', { title }), exact: true }).click();
      const edit = page.getByRole('dialog', { name: t('reminders:dialog.editTitle') });
      await edit.waitFor();
      assert.equal(await edit.getByRole('checkbox', { name: t('reminders:breakThrough.label') }).isChecked(), true);
      await edit.getByRole('button', { name: t('reminders:alarms.disclosure') }).click();
      const editSteps = edit.getByRole('group', { name: t('reminders:escalate.label') });
      assert.equal(await editSteps.getByRole('group', { name: t('reminders:escalate.step', { n: 1 }) }).getByLabel(t('reminders:escalate.to'), { exact: true }).inputValue(), 'channels');
      assert.equal(await editSteps.getByRole('group', { name: t('reminders:escalate.step', { n: 2 }) }).getByLabel(t('reminders:escalate.after'), { exact: true }).inputValue(), '2');
      await page.keyboard.press('Escape');
      await edit.waitFor({ state: 'hidden' });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});

describe('snooze all', () => {
  for (const { lang, viewport, scheme } of FOUR_VIEWS) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: a reminder that rang and is not done is snoozed from the dashboard`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const { ctx, page, problems } = await signedIn(lang, viewport, scheme, `rhythm-snooze-${lang}`);
      const title = lang === 'ja' ? '洗濯物を取り込む' : 'Bring the washing in';
      const reminder = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title, send_at: secondsAhead(3), timezone: 'Asia/Tokyo' });
      await page.goto(homePathOf(lang));
      await page.getByRole('heading', { level: 1, name: t('reminders:dashboard.title') }).waitFor();
      const item = page.locator('.dashboard .reminder-item', { hasText: title });
      await item.waitFor();

      // It rings (no device: recorded) and is overdue.
      let [logs, overdue] = [[], false];
      for (let i = 0; i < 100 && !(overdue && logs.some((l) => l.status !== 'queued')); i++) {
        await page.waitForTimeout(200);
        logs = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${reminder.id}/logs`);
        overdue = (await apiCall(ctx, stack.server, 'GET', `/api/reminders/${reminder.id}`)).overdue;
      }
      assert.ok(logs.length > 0 && overdue, 'the reminder rang and is overdue');
      const snoozeAll = page.getByRole('button', { name: t('reminders:snoozeAll.button'), exact: true });
      await comeBack(page, async () => (await item.locator('.badge.warn').filter({ hasText: t('reminders:overdue') }).count()) > 0 && (await snoozeAll.count()) > 0);
      await show(page, page.locator('.dashboard h1'));
      await assertWithinWidth(page, page.locator('.snooze-all'), 'Snooze all');
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-overdue`), fullPage: true });

      await snoozeAll.click();
      await page.locator('.toast').filter({ hasText: trCount(lang, 'reminders:snoozeAll.done', 1) }).waitFor();
      const snoozedText = t('reminders:snoozedUntil', { when: '\u0000' }).split('\u0000');
      await item.locator('.snoozed').filter({ hasText: snoozedText.find((s) => s.trim()).trim() }).waitFor();
      assert.equal(await item.locator('.badge.warn').filter({ hasText: t('reminders:overdue') }).count(), 0, 'no longer overdue');
      await snoozeAll.waitFor({ state: 'detached' });
      const after = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${reminder.id}`);
      assert.ok(after.snoozed_until && Date.parse(after.snoozed_until) > Date.now(), `snoozed: ${JSON.stringify(after)}`);
      assert.equal(after.overdue, false);
      await page.screenshot({ path: screenshotPath(`rhythm-${tag}-snoozed-all`), fullPage: true });

      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
