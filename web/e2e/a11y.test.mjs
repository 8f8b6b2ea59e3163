// Every page, as a person meets it, in ja and en, at 390 px and 1280 px, in light and dark:
// axe-core finds no serious or critical violation (decisions.md "As good as a native app"), and a
// screenshot of each lands in e2e/screenshots/ (`a11y-<page>-<lang>-<width>-<scheme>.png`) to be
// looked at. Signed out: the public pages; signed in (as an admin, so the admin pages draw): the
// dashboard, the list, a reminder's details, the dialog, the menu, settings and the rest.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, prefixOf, screenshotPath, startStack, tokyoDate, tr, uniqueEmail } from './harness.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const COMBOS = ['ja', 'en'].flatMap((lang) => [PHONE, DESKTOP].flatMap((viewport) => ['light', 'dark'].map((scheme) => ({ lang, viewport, scheme }))));
const ADMINS = Object.fromEntries(COMBOS.map((c) => [key(c), uniqueEmail(`a11y-${c.lang}-${c.viewport.width}-${c.scheme}`)]));

function key({ lang, viewport, scheme }) {
  return `${lang}-${viewport.width}-${scheme}`;
}

let stack;
before(async () => {
  stack = await startStack({ env: { HIBIKI_ADMIN_EMAILS: Object.values(ADMINS).join(',') } });
});
after(async () => {
  await stack?.close();
});

/** Serious and critical axe violations on the page as it is now, as readable lines. */
async function axeProblems(page, name) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`.trim()) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${name}: ${v.id} (${v.impact}) ${v.help} → ${v.nodes.join(' | ')}`);
}

async function settle(page) {
  await page.waitForLoadState('networkidle');
  await page.locator('h1').first().waitFor();
  // toasts come and go; they are checked where they belong, not in the page's picture
  for (const close of await page.locator('.toast-close').all()) await close.click().catch(() => {});
}

describe('accessibility and screenshots of every page', () => {
  for (const combo of COMBOS) {
    const { lang, viewport, scheme } = combo;
    it(key(combo), async () => {
      const t = (id, p) => tr(lang, id, p);
      const p = prefixOf(lang);
      const problems = [];
      const check = async (page, name, { fullPage = true } = {}) => {
        problems.push(...(await axeProblems(page, name)));
        await page.screenshot({ path: screenshotPath(`a11y-${name}-${key(combo)}`), fullPage, animations: 'disabled' });
      };
      const open = { lang, viewport, colorScheme: scheme, reducedMotion: 'reduce', bypassCSP: true };

      // Signed out.
      const out = await newContext(stack.browser, stack.url, open);
      const page = await out.newPage();
      for (const [name, path] of [
        ['home-signed-out', p || '/'],
        ['login', `${p}/login`],
        ['faq', `${p}/faq`],
        ['guide-signed-out', `${p}/guide`],
        ['privacy', `${p}/privacy`],
        ['terms', `${p}/terms`],
        ['commercial', `${p}/commercial-transaction-act`],
        ['status', `${p}/status`],
        ['not-found', `${p}/no-such-page`],
      ]) {
        await page.goto(path);
        await settle(page);
        await check(page, name);
      }
      await out.close();

      // Signed in, with reminders to show.
      const ctx = await newContext(stack.browser, stack.url, open);
      await apiSignIn(ctx, stack.server, stack.smtp, ADMINS[key(combo)], lang);
      const title = lang === 'ja' ? '薬を飲む' : 'Take medicine';
      await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title, description: lang === 'ja' ? '朝食の後' : 'After breakfast', send_at: `${tokyoDate(1)}T08:00:00+09:00`, timezone: 'Asia/Tokyo', recurrence: { kind: 'daily' } });
      await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: lang === 'ja' ? '会議の資料をまとめて共有フォルダにアップロードし、チームのみんなに連絡する' : 'Gather the meeting notes, upload them to the shared folder and tell the whole team', send_at: `${tokyoDate(3)}T17:45:30+09:00`, timezone: 'America/New_York' });
      const me = await ctx.newPage();
      for (const [name, path] of [
        ['dashboard', p || '/'],
        ['reminders', `${p}/reminders`],
        ['settings', `${p}/settings`],
        ['delete-account', `${p}/settings/delete-account`],
        ['guide', `${p}/guide`],
        ['admin-dashboard', `${p}/admin/dashboard`],
        ['admin-users', `${p}/admin/users`],
        ['test-email', `${p}/test-email`],
      ]) {
        await me.goto(path);
        await settle(me);
        await check(me, name);
      }

      // A reminder's details, the dialog, the menu.
      await me.goto(`${p}/reminders`);
      await settle(me);
      const row = me.locator('.reminder-item').filter({ hasText: title });
      await row.getByRole('button', { name: t('reminders:details.show') }).click();
      await row.locator('.occurrences li').first().waitFor();
      await check(me, 'reminder-details');
      await me.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).click();
      await me.getByRole('dialog').waitFor();
      await me.waitForLoadState('networkidle');
      await check(me, 'dialog', { fullPage: false });
      await me.keyboard.press('Escape');
      await me.getByRole('dialog').waitFor({ state: 'detached' });
      await me.locator(`summary[aria-label="${t('nav.menu')}"]`).click();
      await me.getByRole('button', { name: t('nav.signOut') }).waitFor();
      await check(me, 'menu', { fullPage: false });
      await ctx.close();

      assert.deepEqual(problems, [], `axe-core, ${key(combo)}:\n${problems.join('\n')}`);
    });
  }
});
