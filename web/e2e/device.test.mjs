// Trust from the first minute (Chromium): one vocabulary for a device, and enabling that says
// why it failed. The browser's PushManager is stubbed (an init script): its subscribe either
// never settles or rejects as a push service does that cannot be reached (Brave without Google's
// push, a private window, a managed browser). With permission granted and never subscribed, the
// dashboard, the header's health panel and the guide's diagnostics all say "not set up" (never
// "stopped"), in ja and en; pressing "Enable notifications" shows a spinner with words, then the
// cause and the next step within 10 s; the wizard skips what the app knows and, once enabling
// failed, shows the diagnosis, another browser and the email fallback with the person's setting.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

const SHOTS = process.env.HIBIKI_DEVICE_SHOTS ?? '/tmp/shots-device';
mkdirSync(SHOTS, { recursive: true });
const shot = (name) => `${SHOTS}/${name}.png`;

let stack;
before(async () => {
  // The full browser: the states read from its notification permission (harness.mjs).
  stack = await startStack({ fullBrowser: true });
});
after(async () => {
  await stack?.close();
});

/** PushManager stand-in: no subscription; subscribe never settles (`hang`) or rejects like an unreachable push service. */
function stubPush(mode) {
  PushManager.prototype.getSubscription = async () => null;
  PushManager.prototype.subscribe = function () {
    window.__subscribeCalls = (window.__subscribeCalls ?? 0) + 1;
    if (mode === 'hang') return new Promise(() => {});
    return Promise.reject(new DOMException('Registration failed - push service error', 'AbortError'));
  };
}

const prefix = (lang) => (lang === 'en' ? '/en' : '');

/** The device's words on the dashboard, in the header's health panel and in the guide's diagnostics. */
async function deviceWordsEverywhere(page, lang, state, name) {
  const label = tr(lang, `device:state.${state}.label`);
  const line = tr(lang, 'device:thisDevice', { state: label });
  const never = tr(lang, 'device:state.stopped.label');
  await page.goto(lang === 'en' ? '/en' : '/');
  const notice = page.getByTestId('device-setup');
  await notice.getByText(tr(lang, 'device:notice.title')).waitFor();
  await notice.getByText(line).waitFor();
  await notice.getByText(tr(lang, `device:state.${state}.summary`)).waitFor();
  assert.equal(await notice.getByText(never).count(), 0);
  await page.screenshot({ path: shot(`${name}-dashboard`), fullPage: true });

  await page.locator('.health-indicator button').click();
  const panel = page.getByRole('region', { name: tr(lang, 'health:title') });
  const row = panel.locator('li[data-check="notifications"]');
  await row.locator('.health-value', { hasText: label }).waitFor();
  await row.getByText(tr(lang, `device:state.${state}.summary`)).waitFor();
  assert.equal(await row.getAttribute('data-device-state'), state);
  await page.screenshot({ path: shot(`${name}-header`) });
  await page.keyboard.press('Escape');

  await page.goto(`${prefix(lang)}/guide#diagnostics`);
  await page.getByTestId('device-state').getByText(line).waitFor();
  const sub = page.locator('.diagnostics [data-check="subscription"]');
  await sub.locator('.health-value', { hasText: label }).waitFor();
  assert.equal(await sub.getAttribute('data-device-state'), state);
  assert.ok(!(await page.locator('main').innerText()).includes(never), 'no "stopped" in the diagnostics');
  await page.screenshot({ path: shot(`${name}-diagnostics`), fullPage: true });
}

const CASES = [
  { lang: 'ja', viewport: PHONE, scheme: 'light' },
  { lang: 'en', viewport: DESKTOP, scheme: 'dark' },
  { lang: 'ja', viewport: DESKTOP, scheme: 'dark' },
  { lang: 'en', viewport: PHONE, scheme: 'light' },
];

describe('a subscribe that never settles', () => {
  for (const { lang, viewport, scheme } of CASES) {
    it(`${lang} ${viewport.width}px ${scheme}: not set up everywhere; enabling shows words while waiting, then the timeout and the next step at 10 s`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme, permissions: ['notifications'] });
      await ctx.addInitScript(stubPush, 'hang');
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`hang-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const name = `hang-${lang}-${viewport.width}-${scheme}`;
      await deviceWordsEverywhere(page, lang, 'neverSetUp', name);

      // The page's clock is stepped, not waited on: it runs as usual until the browser has been
      // asked to subscribe (and hangs), then stands still and moves only as the test says.
      await page.clock.install();
      await page.goto(lang === 'en' ? '/en' : '/');
      const notice = page.getByTestId('device-setup');
      const enable = notice.getByRole('button', { name: tr(lang, 'notifications:enable') });
      await enable.waitFor();
      const pageNow = () => page.evaluate(() => Date.now());
      const beforeTap = await pageNow();
      await enable.click();
      await notice.getByText(tr(lang, 'notifications:enabling')).waitFor();
      assert.equal(await enable.isDisabled(), true, 'greyed while waiting, with words beside it');
      await page.waitForFunction(() => (window.__subscribeCalls ?? 0) > 0);
      const asked = await pageNow();
      await page.clock.pauseAt(asked + 500);
      await page.screenshot({ path: shot(`${name}-waiting`), fullPage: true });
      const failure = notice.getByTestId('enable-failure');
      // at most 9.5 s after the tap: still waiting
      await page.clock.fastForward(beforeTap + 9_500 - (asked + 500));
      await notice.getByText(tr(lang, 'notifications:enabling')).waitFor();
      assert.equal(await failure.count(), 0, 'no failure before 10 s');
      // at least 10 s after the tap: the timeout and the next step
      await page.clock.fastForward(asked + 10_100 - (beforeTap + 9_500));
      await failure.getByText(tr(lang, 'notifications:errors.timeout')).waitFor();
      await failure.getByText(tr(lang, 'notifications:next.pushService.chrome')).waitFor();
      assert.equal(await enable.isDisabled(), false);
      await page.screenshot({ path: shot(`${name}-timeout`), fullPage: true });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});

describe('a subscribe that rejects (push service unreachable)', () => {
  for (const { lang, viewport, scheme } of CASES) {
    it(`${lang} ${viewport.width}px ${scheme}: the cause and the next step at once; the wizard diagnoses and shows the email fallback`, { timeout: 90_000 }, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme, permissions: ['notifications'] });
      await ctx.addInitScript(stubPush, 'reject');
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`reject-${lang}`), lang);
      await apiCall(ctx, stack.server, 'PUT', '/api/settings', { email_fallback_minutes: 15 });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const name = `reject-${lang}-${viewport.width}-${scheme}`;
      // the start-up check tried to subscribe and failed: still "not set up", never "stopped"
      await deviceWordsEverywhere(page, lang, 'neverSetUp', name);

      await page.goto(lang === 'en' ? '/en' : '/');
      const notice = page.getByTestId('device-setup');
      const started = Date.now();
      await notice.getByRole('button', { name: tr(lang, 'notifications:enable') }).click();
      const failure = notice.getByTestId('enable-failure');
      await failure.getByText(tr(lang, 'notifications:errors.pushService')).waitFor({ timeout: 10_000 });
      await failure.getByText(tr(lang, 'notifications:next.pushService.chrome')).waitFor();
      assert.ok(Date.now() - started < 10_000);
      assert.ok((await page.evaluate(() => window.__subscribeCalls)) >= 1);
      await page.screenshot({ path: shot(`${name}-failed`), fullPage: true });

      // the wizard: one answer, the rest it knows; a diagnosis, another browser, the email fallback
      await page.goto(`${prefix(lang)}/guide#troubleshooting`);
      await page.getByRole('button', { name: tr(lang, 'info:guide.troubleshooting.answers.noNotifications'), exact: true }).click();
      await page.getByRole('heading', { name: tr(lang, 'info:guide.troubleshooting.fixes.enableFailed.title') }).waitFor();
      const trail = page.locator('.wizard-trail li[data-known="true"]');
      assert.ok((await trail.count()) >= 3, 'the questions the app knows are answered for the person');
      await trail.filter({ hasText: tr(lang, 'device:state.neverSetUp.label') }).waitFor();
      const step = page.locator('.wizard-step');
      await step.getByTestId('enable-failure').getByText(tr(lang, 'notifications:errors.pushService')).waitFor();
      assert.equal(await step.getByRole('button', { name: tr(lang, 'notifications:enable') }).count(), 0, 'no "press enable again"');
      const net = step.getByTestId('safety-net');
      await net.getByText(tr(lang, 'device:safetyNet.anotherBrowser')).waitFor();
      await net.getByText(tr(lang, 'device:safetyNet.emailOn', { n: 15 }), { exact: false }).waitFor();
      await page.screenshot({ path: shot(`${name}-wizard`), fullPage: true });

      // Settings: the device part says the same, and the disabled Test button says why
      await page.goto(`${prefix(lang)}/settings`);
      const devices = page.locator('section.devices');
      await devices.getByText(tr(lang, 'device:thisDevice', { state: tr(lang, 'device:state.neverSetUp.label') })).waitFor();
      await devices.getByText(tr(lang, 'notifications:test.needsSubscription')).waitFor();
      assert.equal(await devices.getByRole('button', { name: tr(lang, 'notifications:test.button') }).isDisabled(), true);
      await page.screenshot({ path: shot(`${name}-settings`), fullPage: true });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
