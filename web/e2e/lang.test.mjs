// The EN/JA switch rewrites the path and keeps the page; the saved preference wins over the
// browser language on the next visit to a root path; without one, the browser language decides.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, pathOf, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const switchTo = (page, code) => page.getByRole('group', { name: /Display language|表示言語/ }).getByRole('button', { name: code, exact: true });
const htmlLang = (page) => page.evaluate(() => document.documentElement.lang);
const saved = (page) => page.evaluate(() => localStorage.getItem('hibiki.lang'));

describe('language', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`${viewport.width}px signed out: EN/JA keeps the page, query and hash; the choice is saved`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang: 'ja', viewport });
      const page = await ctx.newPage();
      const problems = watchPage(page);

      await page.goto('/faq?from=test#recurrence');
      await page.getByRole('heading', { level: 1, name: tr('ja', 'info:faq.title') }).waitFor();
      assert.equal(await htmlLang(page), 'ja');
      assert.equal(await saved(page), null);

      await switchTo(page, 'EN').click();
      await page.getByRole('heading', { level: 1, name: tr('en', 'info:faq.title') }).waitFor();
      const u = new URL(page.url());
      assert.equal(u.pathname + u.search + u.hash, '/en/faq?from=test#recurrence');
      assert.equal(await htmlLang(page), 'en');
      assert.equal(await saved(page), 'en');
      assert.equal(await switchTo(page, 'EN').getAttribute('aria-pressed'), 'true');
      // the page is English all over: header and footer too
      await page.getByRole('link', { name: tr('en', 'footer.privacy') }).waitFor();

      // The next visit to a root path follows the saved preference, not the (ja) browser.
      const next = await ctx.newPage();
      await next.goto('/');
      await next.waitForURL((x) => x.pathname === '/en');
      assert.equal(await htmlLang(next), 'en');
      await next.goto('/guide');
      await next.waitForURL((x) => x.pathname === '/en/guide');
      await next.getByRole('heading', { level: 1, name: tr('en', 'info:guide.title') }).waitFor();

      // JA: back to the root path, saved too.
      await switchTo(next, 'JA').click();
      await next.getByRole('heading', { level: 1, name: tr('ja', 'info:guide.title') }).waitFor();
      assert.equal(pathOf(next), '/guide');
      assert.equal(await saved(next), 'ja');
      await next.goto('/');
      await next.getByRole('heading', { level: 1, name: tr('ja', 'home:tagline') }).waitFor();
      assert.equal(pathOf(next), '/');
      // A path under /en is always honoured, whatever the preference.
      await next.goto('/en/privacy');
      await next.getByRole('heading', { level: 1, name: tr('en', 'info:privacy.title') }).waitFor();
      assert.equal(pathOf(next), '/en/privacy');
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

  it('no saved preference: the browser language decides (en-US goes to /en, ja-JP stays)', async () => {
    const en = await newContext(stack.browser, stack.url, { lang: 'en' });
    const p1 = await en.newPage();
    await p1.goto('/terms');
    await p1.waitForURL((x) => x.pathname === '/en/terms');
    await p1.getByRole('heading', { level: 1, name: tr('en', 'info:terms.title') }).waitFor();
    await en.close();

    const ja = await newContext(stack.browser, stack.url, { lang: 'ja' });
    const p2 = await ja.newPage();
    await p2.goto('/terms');
    await p2.getByRole('heading', { level: 1, name: tr('ja', 'info:terms.title') }).waitFor();
    assert.equal(pathOf(p2), '/terms');
    await ja.close();
  });

  it('saved ja beats an English browser on a root path', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en' });
    const page = await ctx.newPage();
    await page.goto('/en/faq');
    await switchTo(page, 'JA').click();
    await page.waitForURL((x) => x.pathname === '/faq');
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: tr('ja', 'home:tagline') }).waitFor();
    assert.equal(pathOf(page), '/');
    await ctx.close();
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`${viewport.width}px signed in: switching on /en/reminders and /settings stays on the page`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang: 'en', viewport });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail('lang'), 'en');
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto('/en/reminders');
      await page.getByRole('heading', { level: 1, name: tr('en', 'reminders:title') }).waitFor();
      await switchTo(page, 'JA').click();
      await page.getByRole('heading', { level: 1, name: tr('ja', 'reminders:title') }).waitFor();
      assert.equal(pathOf(page), '/reminders');
      await page.getByText(tr('ja', 'reminders:emptyActive')).waitFor();
      // The account's language follows, so email and push come in the language read here.
      for (let i = 0; i < 50 && (await apiCall(ctx, stack.server, 'GET', '/api/settings')).language !== 'ja'; i++) await page.waitForTimeout(100);
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/settings')).language, 'ja');

      await page.goto('/settings');
      await page.getByRole('heading', { level: 1, name: tr('ja', 'settings:title') }).waitFor();
      await switchTo(page, 'EN').click();
      await page.getByRole('heading', { level: 1, name: tr('en', 'settings:title') }).waitFor();
      assert.equal(pathOf(page), '/en/settings');
      await page.getByText(tr('en', 'settings:timezone'), { exact: true }).waitFor();
      for (let i = 0; i < 50 && (await apiCall(ctx, stack.server, 'GET', '/api/settings')).language !== 'en'; i++) await page.waitForTimeout(100);
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/settings')).language, 'en');
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
