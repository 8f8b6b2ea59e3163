// The guide: its interactive tour (one step at a time, steps the app can see tick themselves),
// the troubleshooting wizard walked with the keyboard (reached from the health panel's link when
// signed in) and the diagnostics tab (permission and subscription as separate rows, the
// connection, the browser-settings checks), in ja and en.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiSignIn, newContext, prefixOf, screenshotPath, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

describe('guide', () => {
  for (const { lang, viewport, signedIn } of [
    { lang: 'ja', viewport: PHONE, signedIn: false },
    { lang: 'en', viewport: DESKTOP, signedIn: true },
  ]) {
    it(`${lang} ${viewport.width}px ${signedIn ? 'signed in' : 'signed out'}: tour and diagnostics`, async () => {
      const t = (id, p) => tr(lang, id, p);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, reducedMotion: 'reduce' });
      if (signedIn) await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('guide'), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const size = viewport === PHONE ? 'phone' : 'desktop';
      await page.goto(`${prefixOf(lang)}/guide`);
      await page.getByRole('heading', { level: 1, name: t('info:guide.title') }).waitFor();

      // progress: signing in ticks its step by itself
      const signInStep = page.locator('.guide-steps li').filter({ hasText: t('info:guide.steps.signIn.title') }).getByRole('checkbox');
      if (signedIn) await page.waitForFunction((el) => el.checked, await signInStep.elementHandle());
      else assert.equal(await signInStep.isChecked(), false);
      await page.getByText(t('info:guide.progress', { done: signedIn ? 1 : 0, total: 5 })).waitFor();

      await page.getByRole('button', { name: t('info:guide.tour.start') }).click();
      const tour = page.locator('.tour');
      // the tour starts at the first step not done yet
      await tour.getByText(t('info:guide.tour.stepOf', { n: 1, total: 5 })).waitFor();
      await tour.getByRole('heading', { name: t('info:guide.steps.install.title') }).waitFor();
      await tour.getByRole('button', { name: t('info:guide.tour.next') }).click();
      await tour.getByRole('heading', { name: new RegExp(t('info:guide.steps.signIn.title')) }).waitFor();
      if (signedIn) await tour.getByText(t('info:guide.tour.done'), { exact: true }).waitFor();
      else await tour.getByRole('link', { name: t('info:guide.steps.signIn.title') }).waitFor();
      await tour.getByRole('button', { name: t('info:guide.tour.next') }).click();
      await tour.getByRole('heading', { name: t('info:guide.steps.enable.title') }).waitFor();
      await page.screenshot({ path: screenshotPath(`guide-tour-${lang}-${size}`), fullPage: true, animations: 'disabled' });
      await tour.getByRole('button', { name: t('info:guide.tour.back') }).click();
      await tour.getByText(t('info:guide.tour.stepOf', { n: 2, total: 5 })).waitFor();
      // the install step can be ticked by hand
      await tour.getByRole('button', { name: t('info:guide.tour.back') }).click();
      await tour.getByRole('button', { name: t('info:guide.tour.markDone') }).click();
      await page.getByText(t('info:guide.progress', { done: signedIn ? 2 : 1, total: 5 })).waitFor();
      for (let n = 1; n < 5; n++) await tour.getByRole('button', { name: t('info:guide.tour.next') }).click();
      await tour.getByRole('button', { name: t('info:guide.tour.finish') }).click();
      await tour.waitFor({ state: 'detached' });
      // progress is kept
      await page.reload();
      await page.getByText(t('info:guide.progress', { done: signedIn ? 2 : 1, total: 5 })).waitFor();

      // diagnostics: the health checks plus the browser settings
      await page.getByRole('tab', { name: t('info:guide.tabs.diagnostics') }).click();
      await page.getByRole('heading', { name: t('info:guide.browser.title') }).waitFor();
      const rows = page.locator('.browser-checks li');
      await rows.nth(4).waitFor();
      const row = (k) => rows.filter({ hasText: t(`info:guide.browser.checks.${k}`) });
      for (const k of ['support', 'cookies', 'storage', 'privacyBrowser']) {
        await row(k).getByText(tr(lang, 'health:status.healthy')).waitFor();
      }
      const diag = page.locator('.diagnostics');
      await diag.locator('[data-check="connection"] .health-value', { hasText: t('info:guide.diagnostics.values.connected') }).waitFor();
      const rowNames = await diag.locator('.health-name').allInnerTexts();
      assert.deepEqual(rowNames, ['permission', 'subscription', 'serviceWorker', 'connection'].map((k) => t(`info:guide.diagnostics.rows.${k}`)));
      await page.screenshot({ path: screenshotPath(`guide-diagnostics-${lang}-${size}`), fullPage: true, animations: 'disabled' });

      // troubleshooting: from the health panel's link (signed in) or the #troubleshooting anchor
      if (signedIn) {
        await page.locator('.health-indicator > button').click();
        await page.getByRole('link', { name: tr(lang, 'health:troubleshooting') }).click();
        assert.equal(new URL(page.url()).hash, '#troubleshooting');
      } else {
        await page.goto(`${prefixOf(lang)}/guide#troubleshooting`);
      }
      const panel = page.locator('#troubleshooting');
      const w = (k) => t(`info:guide.troubleshooting.${k}`);
      await panel.getByRole('heading', { name: w('questions.symptom') }).waitFor();
      // keyboard only: Enter on an answer; the focus lands on the next step's heading. The wizard
      // does not ask what this device already says (not an iPhone; headless Chromium blocks
      // notifications): it goes straight to the fix, and its trail shows those answers as known.
      const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
      await panel.getByRole('button', { name: w('answers.noNotifications') }).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((text) => document.activeElement?.textContent === text, w('fixes.unblock.title'));
      assert.equal(await focused(), w('fixes.unblock.title'));
      await panel.locator('.wizard-trail li[data-known="true"]', { hasText: w('known') }).first().waitFor();
      assert.ok((await panel.locator('.wizard-fix-steps li').count()) >= 1);
      await page.screenshot({ path: screenshotPath(`guide-wizard-${lang}-${size}`), fullPage: true, animations: 'disabled' });
      await panel.getByRole('button', { name: w('restart') }).click();
      await page.waitForFunction((text) => document.activeElement?.textContent === text, w('questions.symptom'));
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
