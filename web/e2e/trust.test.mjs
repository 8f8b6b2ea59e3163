// It rings, or it tells you (Chromium): a device that was never subscribed sees that it will
// not ring, on the dashboard and in the reminder dialog, in ja and en; send-now with no device
// says what happened (emailed, with the fallback on); the delivery history is translated, no
// raw code reaches the page; devices are listed and removed in Settings. Firefox covers the
// real push path (firefox.test.mjs).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, screenshotPath, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  // The full browser: it grants notifications (the headless shell denies them).
  stack = await startStack({ env: { HIBIKI_ALLOW_PRIVATE_PUSH: '1' }, fullBrowser: true });
});
after(async () => {
  await stack?.close();
});

// Headless Chromium answers "denied" unless notifications are granted: one step is how to
// unblock them in Chrome; granted but never subscribed, the step is to enable. (Firefox, whose
// permission starts as "default", shows the "ask" step: firefox.test.mjs.)
const CASES = [
  { lang: 'ja', viewport: PHONE, scheme: 'light', permissions: [], step: 'fix.unblock.chrome', button: false },
  { lang: 'en', viewport: DESKTOP, scheme: 'dark', permissions: [], step: 'fix.unblock.chrome', button: false },
  { lang: 'ja', viewport: DESKTOP, scheme: 'dark', permissions: ['notifications'], step: 'fix.subscribe', button: true },
  { lang: 'en', viewport: PHONE, scheme: 'light', permissions: ['notifications'], step: 'fix.subscribe', button: true },
];

describe('this device first', () => {
  for (const { lang, viewport, scheme, permissions, step, button } of CASES) {
    it(`${lang} ${viewport.width}px ${scheme} (${step}): a never-subscribed device sees the notice on the dashboard and in the dialog`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme, permissions });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`notice-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(lang === 'en' ? '/en' : '/');
      const notice = page.getByTestId('device-setup');
      await notice.getByText(tr(lang, 'device:notice.title')).waitFor();
      // "tap" on a touch screen (the phone's emulated touch), "click" elsewhere
      const touch = step.startsWith('fix.unblock.') && (await page.evaluate(() => matchMedia('(pointer: coarse)').matches));
      await notice.getByText(tr(lang, `device:${step}${touch ? '_touch' : ''}`)).waitFor();
      // granted or not, a device that was never set up is never told it stopped
      await notice.getByText(tr(lang, 'device:thisDevice', { state: tr(lang, `device:state.${permissions.length ? 'neverSetUp' : 'blocked'}.label`) })).waitFor();
      assert.equal(await notice.getByText(tr(lang, 'device:state.stopped.label')).count(), 0);
      assert.equal(await notice.getByRole('button', { name: tr(lang, 'notifications:enable') }).count(), button ? 1 : 0);
      await page.screenshot({ path: screenshotPath(`trust-${lang}-${viewport.width}-${scheme}-dashboard`), fullPage: true });
      await page.getByRole('button', { name: tr(lang, 'reminders:create') }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('device-setup').getByText(tr(lang, 'device:notice.title')).waitFor();
      await page.screenshot({ path: screenshotPath(`trust-${lang}-${viewport.width}-${scheme}-dialog`) });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // Settings: the Test button is disabled until this device is subscribed.
      await page.goto(lang === 'en' ? '/en/settings' : '/settings');
      const test = page.getByRole('button', { name: tr(lang, 'notifications:test.button') });
      await test.waitFor();
      assert.equal(await test.isDisabled(), true);
      // and says why, in words
      await page.locator('section.devices').getByText(tr(lang, 'notifications:test.needsSubscription')).waitFor();
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});

describe('honest answers', () => {
  for (const lang of ['ja', 'en']) {
    it(`${lang}: send-now with no device says it went by email; the history is translated; a device is listed and removed`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport: DESKTOP });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`honest-${lang}`), lang);
      const reminder = await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'Honest', send_at: new Date(Date.now() + 3_600_000).toISOString() });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const prefix = lang === 'en' ? '/en' : '';
      await page.goto(`${prefix}/reminders?reminder=${reminder.id}`);
      await page.getByRole('button', { name: tr(lang, 'reminders:details.sendNow') }).click();
      await page.getByText(tr(lang, 'reminders:details.sentByEmail')).first().waitFor();
      await page.locator('.delivery-entry').getByText(tr(lang, 'reminders:details.state.no_devices')).waitFor();
      await page.locator('.delivery-entry').getByText(tr(lang, 'reminders:details.kind.send_now')).waitFor();
      await page.locator('.delivery-entry').getByText(tr(lang, 'reminders:details.state.emailed')).first().waitFor();
      const text = await page.locator('main').innerText();
      for (const raw of ['no_devices', 'send_now', 'queued', 'occurrence']) assert.ok(!text.includes(raw), `no raw "${raw}" on the page`);
      await page.screenshot({ path: screenshotPath(`trust-${lang}-history`), fullPage: true });

      // A device (a push endpoint on loopback, allowed for this server) in Settings: listed
      // with a readable label, then removed.
      await apiCall(ctx, stack.server, 'POST', '/api/notifications?action=subscribe', {
        subscription: { endpoint: 'http://127.0.0.1:9/push/e2e', keys: { p256dh: 'BPcMbnWQL5GOYX_YlOtHzN6Nw6dfbCUhx9zyc28OLh8qB4NlsD_7O9sP2bIJ54ytZBxmP3eaW2ijw8bRRc7RfsM', auth: 'i3YsEIgCymwGkjv0tHKN0w' } },
        device_info: { user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1', platform: 'iPhone', language: lang, timezone: 'Asia/Tokyo' },
      });
      await page.goto(`${prefix}/settings`);
      const item = page.locator('.device-item', { hasText: 'iPhone · Safari' });
      await item.getByText(tr(lang, 'notifications:devices.neverShown')).waitFor();
      await page.screenshot({ path: screenshotPath(`trust-${lang}-settings-devices`), fullPage: true });
      await item.getByRole('button', { name: tr(lang, 'notifications:devices.removeNamed', { name: 'iPhone · Safari' }) }).click();
      await page.getByText(tr(lang, 'notifications:devices.none')).waitFor();
      assert.deepEqual(await apiCall(ctx, stack.server, 'GET', '/api/notifications/subscriptions'), []);
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
