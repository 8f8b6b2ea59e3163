// Lists (Chromium): make a list with a colour in the Lists dialog, create a reminder in it from
// the dialog while the list is chosen, filter by list, search in both scripts of Japanese and
// any width (also offline, on the cached list), and delete the list with a confirmation that
// names how many reminders go with it. In ja and en, 390 and 1280 px, light and dark.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FOUR_VIEWS, apiCall, apiSignIn, newContext, prefixOf, screenshotPath, startStack, tokyoDate, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const CASES = FOUR_VIEWS;

describe('lists', () => {
  for (const { lang, viewport, scheme } of CASES) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: make a list, add to it, filter, search (also offline), delete it`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`lists-${lang}`), lang);
      const inADay = new Date(Math.ceil((Date.now() + 86_400_000) / 1000) * 1000).toISOString();
      await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: 'ギュウニュウを買う', send_at: inADay, timezone: 'Asia/Tokyo' });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const prefix = prefixOf(lang);
      await page.goto(`${prefix}/reminders`);
      await page.getByRole('heading', { level: 2, name: 'ギュウニュウを買う' }).waitFor();

      // The Lists dialog: a new list named Work, teal.
      const name = lang === 'ja' ? '仕事' : 'Work';
      await page.getByRole('button', { name: t('lists:switcher.manage'), exact: true }).click();
      const manage = page.getByRole('dialog', { name: t('lists:manage.title') });
      await manage.getByRole('button', { name: t('lists:manage.new') }).click();
      await manage.getByLabel(t('lists:form.name')).fill(name);
      await manage.getByLabel(t('lists:colours.teal')).check();
      await page.screenshot({ path: screenshotPath(`lists-${tag}-new`) });
      await manage.getByRole('button', { name: t('lists:form.create') }).click();
      await page.locator('.toast').filter({ hasText: t('lists:toast.created', { name }) }).waitFor();
      const work = (await apiCall(ctx, stack.server, 'GET', '/api/lists')).find((l) => l.name === name);
      assert.equal(work?.colour, 'teal');
      await page.keyboard.press('Escape');
      await manage.waitFor({ state: 'detached' });

      // Work chosen, a new reminder goes to it.
      const chips = page.getByRole('group', { name: t('lists:switcher.label') });
      await chips.getByRole('button', { name: new RegExp(`^${name}`) }).click();
      assert.match(new URL(page.url()).search, new RegExp(`list=${work.id}`));
      await page.getByText(t('reminders:list.empty', { name })).waitFor();
      await page.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.getByLabel(t('reminders:fields.title')).fill('Standup');
      await dialog.getByLabel(t('reminders:fields.date')).fill(tokyoDate(2));
      await dialog.getByLabel(t('reminders:fields.time')).fill('09:30:00');
      assert.equal(await dialog.getByLabel(t('reminders:fields.list')).inputValue(), work.id, 'the chosen list is the default');
      await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 2, name: 'Standup' }).waitFor();
      const all = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
      assert.equal(all.find((r) => r.title === 'Standup')?.list_id, work.id);
      // Only Work's reminder shows; All shows both.
      assert.equal(await page.getByRole('heading', { level: 2, name: 'ギュウニュウを買う' }).count(), 0);
      await page.screenshot({ path: screenshotPath(`lists-${tag}-filtered`), fullPage: true });
      await chips.getByRole('button', { name: new RegExp(`^${t('lists:switcher.all')}`) }).click();
      await page.getByRole('heading', { level: 2, name: 'ギュウニュウを買う' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Standup' }).waitFor();

      // Search: hiragana finds katakana; offline, half-width finds it on the cached list.
      const search = page.getByLabel(t('reminders:search.label'));
      await search.fill('ぎゅうにゅう');
      await page.getByRole('heading', { level: 2, name: 'Standup' }).waitFor({ state: 'detached' });
      await page.getByRole('heading', { level: 2, name: 'ギュウニュウを買う' }).waitFor();
      await ctx.setOffline(true);
      await search.fill('ｷﾞｭｳﾆｭｳ');
      await page.getByRole('heading', { level: 2, name: 'ギュウニュウを買う' }).waitFor();
      await search.fill('tea');
      await page.getByText(t('reminders:search.noMatch', { q: 'tea' })).waitFor();
      await page.screenshot({ path: screenshotPath(`lists-${tag}-search-offline`), fullPage: true });
      await ctx.setOffline(false);
      await search.fill('');

      // Delete Work: the confirmation names its one reminder.
      await page.getByRole('button', { name: t('lists:switcher.manage'), exact: true }).click();
      await manage.getByRole('button', { name: t('lists:manage.deleteNamed', { name }) }).click();
      const confirm = page.getByRole('dialog', { name: t('lists:deleteConfirm.title') });
      const text = lang === 'ja' ? t('lists:deleteConfirm.text_other', { name, count: 1 }) : t('lists:deleteConfirm.text_one', { name, count: 1 });
      await confirm.getByText(text).waitFor();
      await page.screenshot({ path: screenshotPath(`lists-${tag}-delete`) });
      await confirm.getByRole('button', { name: t('lists:deleteConfirm.confirm') }).click();
      await page.locator('.toast').filter({ hasText: t('lists:toast.deleted', { name }) }).waitFor();
      const left = await apiCall(ctx, stack.server, 'GET', '/api/reminders');
      assert.deepEqual(left.map((r) => r.title), ['ギュウニュウを買う']);
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/lists')).length, 1);
      assert.deepEqual(
        problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|NetworkError|net::/.test(p)),
        [],
      );
      await ctx.close();
    });
  }
});
