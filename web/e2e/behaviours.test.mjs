// Behaviours jsdom cannot show, in Chromium against the real server:
// - IME-safe Enter: on the login address, the code, the reminder dialog's title and the
//   delete-account confirmation, an Enter that confirms an IME composition submits nothing (no
//   submit event, no request, the step or dialog still there); a plain Enter then submits once.
//   The composition is Chromium's own, driven through CDP (Input.imeSetComposition, a keyDown
//   while composing, Input.insertText), and the keyCode 229 Enter some browsers send instead.
//   Trusted key events are needed: Chromium submits a form on the keypress of a real Enter,
//   which a dispatched (untrusted) KeyboardEvent never causes.
// - The health panel's "Troubleshooting" link lands on the guide's troubleshooting section.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, pathOf, prefixOf, screenshotPath, signInDetails, startStack, tokyoDate, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

/** Counts submit events (capture phase on document, so before the app's own handler). */
function countSubmits() {
  window.__submits = 0;
  document.addEventListener('submit', () => (window.__submits += 1), true);
}
const submits = (page) => page.evaluate(() => window.__submits);

/** 'METHOD /api/path' of every API request the page makes. */
function recordApi(page) {
  const seen = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) seen.push(`${r.method()} ${u.pathname}`);
  });
  return { count: (call) => seen.filter((s) => s === call).length };
}

const ENTER = { key: 'Enter', code: 'Enter', text: '\r', unmodifiedText: '\r' };

/**
 * In the focused field: an IME composition of `composing`, the Enter that confirms it (keydown
 * while composing), the committed `committed`; then the other form of that Enter, keyCode 229.
 * Each CDP input command returns once the page has handled the event, so a submit it caused
 * has been counted by then.
 */
async function imeConfirmWithEnter(page, composing, committed) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.imeSetComposition', { text: composing, selectionStart: composing.length, selectionEnd: composing.length });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', windowsVirtualKeyCode: 13, ...ENTER });
    await cdp.send('Input.insertText', { text: committed });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', windowsVirtualKeyCode: 229, ...ENTER });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 229 });
  } finally {
    await cdp.detach();
  }
}

describe('IME-safe Enter', () => {
  it('ja 390px: the login address and the code', async () => {
    const lang = 'ja';
    const t = (id, p) => tr(lang, id, p);
    const ctx = await newContext(stack.browser, stack.url, { lang, viewport: PHONE });
    await ctx.addInitScript(countSubmits);
    const page = await ctx.newPage();
    const problems = watchPage(page);
    const api = recordApi(page);
    await page.goto('/login');

    const email = uniqueEmail('ime');
    const address = page.getByLabel(t('auth:emailLabel'));
    await address.click();
    await imeConfirmWithEnter(page, email, email);
    assert.equal(await address.inputValue(), email);
    assert.equal(await submits(page), 0, 'the IME Enter submitted the address');
    assert.equal(api.count('POST /api/auth/otp'), 0);
    assert.equal(await page.locator('#login-otp').count(), 0);

    const since = stack.smtp.messages.length;
    await address.press('Enter');
    const codeField = page.getByLabel(t('auth:codeLabel'));
    await codeField.waitFor();
    assert.equal(await submits(page), 1);
    assert.equal(api.count('POST /api/auth/otp'), 1);

    // The code: five digits typed, the sixth composed (a Japanese IME in half-width mode). A
    // full-width digit would not do: the field rewrites it to ASCII at once, which ends the
    // composition in Chromium, so the Enter after it is a plain one.
    const { code } = signInDetails(await stack.smtp.waitFor(email, { since }));
    await codeField.pressSequentially(code.slice(0, 5));
    await imeConfirmWithEnter(page, code[5], code[5]);
    assert.equal(await codeField.inputValue(), code);
    assert.equal(await submits(page), 1, 'the IME Enter submitted the code');
    assert.equal(api.count('POST /api/auth/verify'), 0);
    assert.equal(pathOf(page), '/login');

    await codeField.press('Enter');
    await page.getByRole('heading', { name: t('reminders:dashboard.title') }).waitFor();
    assert.equal(pathOf(page), '/');
    assert.equal(await submits(page), 2);
    assert.equal(api.count('POST /api/auth/verify'), 1);
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  it('en 1280px: the reminder dialog’s title', async () => {
    const lang = 'en';
    const t = (id, p) => tr(lang, id, p);
    const ctx = await newContext(stack.browser, stack.url, { lang, viewport: DESKTOP });
    await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('ime-dialog'), lang);
    await ctx.addInitScript(countSubmits);
    const page = await ctx.newPage();
    const problems = watchPage(page);
    const api = recordApi(page);
    await page.goto(`${prefixOf(lang)}/reminders`);
    await page.getByRole('heading', { name: t('reminders:title'), level: 1 }).waitFor();
    await page.getByRole('main').getByRole('button', { name: t('reminders:create'), exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
    await dialog.waitFor();
    await dialog.getByLabel(t('reminders:fields.date')).fill(tokyoDate(2));
    await dialog.getByLabel(t('reminders:fields.time')).fill('09:00:00');

    const title = dialog.getByLabel(t('reminders:fields.title'), { exact: true });
    await title.click();
    await imeConfirmWithEnter(page, 'くすりをのむ', '薬を飲む');
    assert.equal(await title.inputValue(), '薬を飲む');
    assert.equal(await submits(page), 0, 'the IME Enter submitted the dialog');
    assert.equal(api.count('POST /api/reminders'), 0);
    assert.ok(await dialog.isVisible(), 'the dialog is still open');

    await title.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await submits(page), 1);
    assert.equal(api.count('POST /api/reminders'), 1);
    const saved = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
    assert.deepEqual(saved.map((r) => r.title), ['薬を飲む']);
    assert.deepEqual(problems, []);
    await ctx.close();
  });

  it('ja 390px: the delete-account confirmation', async () => {
    const lang = 'ja';
    const t = (id, p) => tr(lang, id, p);
    const email = uniqueEmail('ime-delete');
    const ctx = await newContext(stack.browser, stack.url, { lang, viewport: PHONE });
    await apiSignIn(ctx, stack.server, stack.smtp, email, lang);
    await ctx.addInitScript(countSubmits);
    const page = await ctx.newPage();
    const problems = watchPage(page);
    const api = recordApi(page);
    await page.goto('/settings/delete-account');
    const confirm = page.getByLabel(t('settings:delete.confirmLabel', { email }));
    await confirm.fill(email.slice(0, -1));
    // The last character composed: while composing, the field already holds the whole address.
    await imeConfirmWithEnter(page, email.slice(-1), email.slice(-1));
    assert.equal(await confirm.inputValue(), email);
    assert.ok(await page.getByRole('button', { name: t('settings:delete.submit') }).isEnabled());
    assert.equal(await submits(page), 0, 'the IME Enter deleted the account');
    assert.equal(api.count('DELETE /api/account'), 0);
    assert.equal(pathOf(page), '/settings/delete-account');

    await confirm.press('Enter');
    await page.waitForURL((u) => u.pathname === '/');
    assert.equal(await submits(page), 1);
    assert.equal(api.count('DELETE /api/account'), 1);
    await assert.rejects(apiCall(ctx, stack.server, 'GET', '/api/auth/session'), /401/);
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});

describe('the health panel’s troubleshooting link', () => {
  for (const [lang, viewport] of [
    ['en', DESKTOP],
    ['ja', PHONE],
  ]) {
    it(`${lang} ${viewport.width}px: lands on the guide’s troubleshooting section`, async () => {
      const t = (id, p) => tr(lang, id, p);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`trouble-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(lang === 'en' ? '/en' : '/');
      await page.getByRole('heading', { name: t('reminders:dashboard.title') }).waitFor();
      // "System health: <status>", whatever the status is right now
      const indicatorName = new RegExp(`^${t('health:indicatorLabel', { status: '' }).trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      await page.getByRole('button', { name: indicatorName }).first().click();
      const panel = page.getByRole('region', { name: t('health:title') });
      await panel.getByRole('link', { name: t('health:troubleshooting') }).click();

      await page.waitForURL((u) => u.pathname === `${prefixOf(lang)}/guide` && u.hash === '#troubleshooting');
      const section = page.locator('#troubleshooting');
      await section.getByRole('heading', { name: t('info:guide.troubleshooting.title') }).waitFor();
      assert.ok(await section.isVisible());
      assert.equal(await page.getByRole('tab', { name: t('info:guide.tabs.troubleshooting') }).getAttribute('aria-selected'), 'true');
      await page.screenshot({ path: screenshotPath(`troubleshooting-link-${lang}-${viewport.width}`) });

      // Loaded directly, the same address opens the same section.
      await page.goto(`${prefixOf(lang)}/guide#troubleshooting`);
      await page.locator('#troubleshooting').getByRole('heading', { name: t('info:guide.troubleshooting.title') }).waitFor();
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
