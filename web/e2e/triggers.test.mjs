// Open to other tools (Chromium), in ja and en, at 390 and 1280 px, light and dark:
// (a) Trigger links: a reminder made by API; in its details a trigger link is created and its URL
//     read from the page (shown once, with its QR code); opened in a new page, the link's page
//     shows the title and the buttons and makes NO delivery log entry by opening; Ring now makes
//     an entry of kind trigger; Done says it is done.
// (b) The share target: /share?title=&text=&url= signed in fills quick add (and the dialog's
//     description has the link); signed out, it goes through sign-in and lands filled.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiCall, apiSignIn, FOUR_VIEWS, newContext, prefixOf, screenshotPath, signInDetails, startStack, tokyoDate, tr, uniqueEmail, watchPage, assertWithinWidth, show } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

describe('trigger links', () => {
  for (const { lang, viewport, scheme } of FOUR_VIEWS) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: created in the details, its page never acts by itself, Ring now and Done do`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`triggers-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const title = lang === 'ja' ? 'ゴミを出す' : 'Take out the trash';
      const made = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title, send_at: `${tokyoDate(1)}T08:00:00+09:00`, timezone: 'Asia/Tokyo', recurrence: { kind: 'daily' } });
      const answerLang = (await apiCall(ctx, stack.server, 'GET', '/api/settings')).language;

      await page.goto(`${prefixOf(lang)}/reminders`);
      const item = page.locator(`#reminder-${made.id}`);
      await item.getByRole('button', { name: t('reminders:details.show') }).click();
      const part = item.locator('details.trigger-links');
      await part.locator('summary').click();
      await part.getByText(t('automations:links.none')).waitFor();
      await part.getByRole('button', { name: t('automations:links.create'), exact: true }).click();
      const field = part.getByLabel(t('automations:links.urlLabel'), { exact: true });
      await field.waitFor();
      const url = await field.inputValue();
      assert.match(url, /\/t\/[^/]+$/);
      await part.getByRole('img', { name: t('automations:links.qrAlt', { title }) }).waitFor();
      await part.getByRole('list', { name: t('automations:links.listLabel') }).getByText(t('automations:links.neverUsed')).waitFor();
      await show(page, part.locator('.trigger-created'));
      await assertWithinWidth(page, part, 'the trigger links');
      await page.screenshot({ path: screenshotPath(`triggers-${tag}-details`) });

      // Its page, opened as a tag or a code would: shows, does nothing.
      const logsBefore = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${made.id}/logs`);
      const tp = await ctx.newPage();
      const tpProblems = watchPage(tp);
      const posts = [];
      tp.on('request', (req) => {
        if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method())) posts.push(`${req.method()} ${new URL(req.url()).pathname}`);
      });
      await tp.goto(new URL(url).pathname);
      const ta = (id, params) => tr(answerLang, id, params);
      await tp.getByRole('heading', { level: 1, name: title }).waitFor();
      const ring = tp.getByRole('button', { name: ta('automations:page.ring'), exact: true });
      const done = tp.getByRole('button', { name: ta('automations:page.complete'), exact: true });
      await ring.waitFor();
      await done.waitFor();
      await tp.getByRole('button', { name: ta('automations:page.snooze'), exact: true }).waitFor();
      // Everything the page asks for on opening has been asked and answered: none of it acts.
      await tp.waitForLoadState('networkidle');
      assert.deepEqual(posts, [], 'opening the page changed nothing');
      const logsOpened = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${made.id}/logs`);
      assert.equal(logsOpened.length, logsBefore.length, 'opening the page made no delivery log entry');
      await assertWithinWidth(tp, tp.locator('.trigger-page'), 'the trigger page');
      await tp.screenshot({ path: screenshotPath(`triggers-${tag}-page`) });

      // Ring now: an entry of kind trigger.
      await ring.click();
      await tp.getByText(ta('automations:page.rang')).waitFor();
      let logs = [];
      for (let i = 0; i < 25 && !logs.some((l) => l.kind === 'trigger'); i++) {
        logs = await apiCall(ctx, stack.server, 'GET', `/api/reminders/${made.id}/logs`);
        if (!logs.some((l) => l.kind === 'trigger')) await tp.waitForTimeout(200);
      }
      assert.ok(logs.some((l) => l.kind === 'trigger'), `an entry of kind trigger: ${JSON.stringify(logs.map((l) => l.kind))}`);

      // Done: said in words (done, and when next for a daily one).
      await done.click();
      await tp.locator('.trigger-result').filter({ hasText: answerLang === 'ja' ? /完了/ : /done/i }).waitFor();
      await tp.screenshot({ path: screenshotPath(`triggers-${tag}-page-done`) });

      assert.deepEqual([...problems, ...tpProblems], []);
      await ctx.close();
    });
  }
});

describe('the share target', () => {
  for (const { lang, viewport, scheme } of FOUR_VIEWS) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    const shared = `${prefixOf(lang)}/share?title=Buy%20milk&text=tomorrow%209am&url=https://example.com`;

    it(`${tag}: signed in, quick add filled and the link in the description`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`share-${lang}`), lang);
      const page = await ctx.newPage();
      await page.goto(shared);
      const box = page.getByLabel(t('reminders:quickAdd.label'), { exact: true }).first();
      await page.waitForURL((u) => u.pathname === `${prefixOf(lang)}/reminders`);
      await page.waitForFunction((el) => el.value === 'Buy milk tomorrow 9am', await box.elementHandle());
      await page.getByTestId('quick-add-link').first().getByText(/https:\/\/example\.com/).waitFor();
      await box.press('Enter');
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel(t('reminders:fields.description'), { exact: true }).inputValue(), 'https://example.com');
      await page.screenshot({ path: screenshotPath(`share-${tag}-dialog`) });
      await ctx.close();
    });

    it(`${tag}: signed out, through sign-in, then filled`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      const page = await ctx.newPage();
      await page.goto(shared);
      await page.waitForURL((u) => u.pathname === `${prefixOf(lang)}/login`);
      const email = uniqueEmail(`share-out-${lang}`);
      const since = stack.smtp.messages.length;
      await page.getByLabel(t('auth:emailLabel'), { exact: true }).fill(email);
      await page.getByRole('button', { name: t('auth:sendCode'), exact: true }).click();
      await page.locator('#login-otp').waitFor();
      const { code } = signInDetails(await stack.smtp.waitFor(email, { since }));
      await page.locator('#login-otp').pressSequentially(code, { delay: 30 });
      // (a typed code signs in by itself; the button, in case it has not yet)
      await page.getByRole('button', { name: t('auth:verify'), exact: true }).click({ timeout: 2000 }).catch(() => {});
      await page.waitForFunction((want) => location.pathname === want, `${prefixOf(lang)}/reminders`).catch(async (e) => {
        await page.screenshot({ path: screenshotPath(`share-${tag}-signed-out-failed`) });
        throw new Error(`at ${page.url()}: ${e.message}`);
      });
      const box = page.getByLabel(t('reminders:quickAdd.label'), { exact: true }).first();
      await page.waitForFunction((el) => el.value === 'Buy milk tomorrow 9am', await box.elementHandle());
      await ctx.close();
    });
  }
});
