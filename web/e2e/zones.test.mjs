// The time zone picker in Chromium, ja and en, phone and desktop: in Settings, type a city (東京 /
// "New York"), move with the arrows, pick with Enter, save; after a reload the settings show
// the new zone and the server has its canonical IANA name. In the reminder dialog Escape closes
// the open list, not the dialog. axe checks the open combobox. Screenshots of the open list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, prefixOf, screenshotPath, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

// Evaluated through the DevTools protocol: the app's CSP refuses inline scripts.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const CASES = [
  { lang: 'ja', viewport: PHONE, query: '東京', zone: 'Asia/Tokyo', label: /^東京 \(UTC\+09:00\)$/, from: 'Europe/London' },
  { lang: 'ja', viewport: DESKTOP, query: '東京', zone: 'Asia/Tokyo', label: /^東京 \(UTC\+09:00\)$/, from: 'Europe/London' },
  { lang: 'en', viewport: PHONE, query: 'New York', zone: 'America/New_York', label: /^New York \(UTC\u22120[45]:00\)$/, from: 'Asia/Tokyo' },
  { lang: 'en', viewport: DESKTOP, query: 'New York', zone: 'America/New_York', label: /^New York \(UTC\u22120[45]:00\)$/, from: 'Asia/Tokyo' },
];

/** axe-core's serious and critical findings inside `selector`. */
async function axeProblems(page, selector) {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  const result = await page.evaluate(async (sel) => {
    const r = await globalThis.axe.run(sel);
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, selector);
  return result;
}

describe('time zone picker', () => {
  for (const { lang, viewport, query, zone, label, from } of CASES) {
    it(`${lang} ${viewport.width}px: type "${query}", arrows and Enter, save; the settings show ${zone}`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`zones-${lang}`), lang);
      await apiCall(ctx, stack.server, 'PUT', '/api/settings', { timezone: from });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const t = (id, p) => tr(lang, id, p);
      const shot = (name) => screenshotPath(`zones-${lang}-${viewport.width}-${name}`);

      await page.goto(`${prefixOf(lang)}/settings`);
      const box = page.getByRole('combobox', { name: t('settings:timezone'), exact: true });
      await box.waitFor();
      assert.equal(await box.getAttribute('aria-expanded'), 'false');
      assert.doesNotMatch(await box.inputValue(), /\//, 'closed, it shows a city, not an id');
      // Closed, the picker has not loaded its list.
      assert.equal(await page.locator('[role=listbox]').count(), 0);

      // Opened unsearched: the user's and common zones first, the current one active.
      await box.click();
      const list = page.getByRole('listbox', { name: t('zones:listLabel') });
      await list.getByRole('group', { name: t('zones:common') }).waitFor();
      const activeText = async () => page.evaluate(() => {
        const id = document.activeElement?.getAttribute('aria-activedescendant');
        return id ? document.getElementById(id)?.textContent : null;
      });
      assert.match(await activeText(), new RegExp(`${from}$`));
      assert.deepEqual(await axeProblems(page, '.zone-select'), []);
      await page.screenshot({ path: shot('open') });
      // The arrows move through the list.
      await page.keyboard.press('ArrowDown');
      assert.doesNotMatch(await activeText(), new RegExp(`${from}$`));
      await page.keyboard.press('ArrowUp');
      assert.match(await activeText(), new RegExp(`${from}$`));

      // Typed key by key (CJK through insertText, like an IME's commit).
      await page.keyboard.type(query);
      const first = list.getByRole('option').first();
      await first.filter({ hasText: zone }).waitFor();
      assert.match(await activeText(), new RegExp(`${zone}$`));
      // The one match: the arrows stay on it; Enter picks it and does not submit the form.
      assert.equal(await list.getByRole('option').count(), 1);
      await page.keyboard.press('ArrowDown');
      assert.match(await activeText(), new RegExp(`${zone}$`));
      await page.screenshot({ path: shot('searched') });
      await page.keyboard.press('Enter');
      await list.waitFor({ state: 'detached' });
      assert.match(await box.inputValue(), label);
      assert.equal(await page.locator('.toaster').getByText(t('settings:saved')).count(), 0, 'Enter picked, it did not save');

      await page.getByRole('button', { name: t('settings:save'), exact: true }).click();
      await page.locator('.toaster').getByText(t('settings:saved')).waitFor();
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/settings')).timezone, zone);
      await page.reload();
      await box.waitFor();
      await page.waitForFunction(
        ([sel, re]) => new RegExp(re).test(document.querySelector(sel)?.value ?? ''),
        ['#settings-tz', label.source],
      );
      await page.screenshot({ path: shot('saved'), fullPage: true });

      // In the reminder dialog: Escape closes the open list and leaves the dialog open.
      await page.goto(`${prefixOf(lang)}/reminders`);
      await page.getByText(t('reminders:emptyActive')).waitFor();
      await page.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      const dialogBox = dialog.getByRole('combobox', { name: t('reminders:fields.timezone'), exact: true });
      // New reminders start in the user's zone.
      assert.match(await dialogBox.inputValue(), label);
      await dialogBox.click();
      await page.keyboard.type('calcutta');
      await dialog.getByRole('option').first().filter({ hasText: 'Asia/Kolkata' }).waitFor();
      await page.screenshot({ path: shot('dialog-searched') });
      await page.keyboard.press('Escape');
      await dialog.getByRole('listbox').waitFor({ state: 'detached' });
      assert.equal(await dialog.isVisible(), true);
      assert.match(await dialogBox.inputValue(), label);

      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
