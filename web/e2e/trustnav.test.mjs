// "Trust from the first minute" in Chromium against the real server: quick add reads English on
// a Japanese page and Japanese on an English one (repeat, time and title as saved); a page
// reached by a link from a scrolled page opens at the top with its heading focused, and Back
// restores the position; the reminder dialog opens with focus in its title field, Escape with a
// draft asks before discarding, and a quick-add phrase survives closing its dialog.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, homePathOf, newContext, pathOf, prefixOf, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const tokyo = (ms) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date(ms));
const tokyoMinutes = () => {
  const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date()).split(':');
  return Number(h) * 60 + Number(m);
};
/** The first Tokyo date from today on (today only when `todayOk`) whose weekday (0 = Sunday) passes `ok`. */
function nextDate(ok, todayOk) {
  for (let i = todayOk ? 0 : 1; i < 15; i++) {
    const d = tokyo(Date.now() + i * 86_400_000);
    if (ok(new Date(`${d}T00:00:00Z`).getUTCDay())) return d;
  }
  throw new Error('no date');
}

async function signedInPage(lang, viewport, tag) {
  const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
  await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(tag), lang);
  // Quick add reads times in the account's zone (signing in through the API leaves it UTC).
  await apiCall(ctx, stack.server, 'PUT', '/api/settings', { timezone: 'Asia/Tokyo' });
  const page = await ctx.newPage();
  return { ctx, page, problems: watchPage(page) };
}

const focusedHeading = (page) => page.evaluate(() => (document.activeElement?.tagName === 'H1' ? document.activeElement.textContent : null));

describe('quick add reads the other language', () => {
  const CASES = [
    {
      lang: 'ja',
      viewport: PHONE,
      text: 'every weekday at 7:30 standup',
      title: 'standup',
      date: () => nextDate((wd) => wd >= 1 && wd <= 5, tokyoMinutes() < 7 * 60 + 30),
      time: '07:30:00',
      kind: 'weekdays',
      recurrence: { kind: 'weekdays' },
    },
    {
      lang: 'en',
      viewport: DESKTOP,
      text: '毎週月曜8時 ゴミ出し',
      title: 'ゴミ出し',
      date: () => nextDate((wd) => wd === 1, tokyoMinutes() < 8 * 60),
      time: '08:00:00',
      kind: 'weekly',
      recurrence: { kind: 'weekly' },
    },
  ];
  for (const c of CASES) {
    it(`${c.lang} page: “${c.text}” is a ${c.kind} reminder “${c.title}” at ${c.time.slice(0, 5)}`, async () => {
      const { ctx, page, problems } = await signedInPage(c.lang, c.viewport, `tn-qa-${c.lang}`);
      const t = (id) => tr(c.lang, id);
      await page.goto(homePathOf(c.lang));
      const box = page.getByLabel(t('reminders:quickAdd.label'));
      await box.click();
      await box.pressSequentially(c.text, { delay: 10 });
      await page.getByTestId('quick-add-result').getByText(c.title, { exact: false }).waitFor();
      await box.press('Enter');
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel(t('reminders:fields.title')).inputValue(), c.title);
      assert.equal(await dialog.getByLabel(t('reminders:fields.recurrence')).inputValue(), c.kind);
      assert.equal(await dialog.getByLabel(t('reminders:fields.time')).inputValue(), c.time);
      const date = c.date();
      assert.equal(await dialog.getByLabel(t('reminders:fields.date')).inputValue(), date);
      await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
      await dialog.waitFor({ state: 'detached' });
      const saved = (await apiCall(ctx, stack.server, 'GET', '/api/reminders')).find((r) => r.title === c.title);
      assert.ok(saved, `${c.title} on the server`);
      assert.deepEqual(saved.recurrence, c.recurrence);
      assert.equal(new Date(saved.send_at).toISOString(), new Date(`${date}T${c.time}+09:00`).toISOString());
      // Saved: the box it came from is empty again.
      assert.equal(await page.getByLabel(t('reminders:quickAdd.label')).inputValue(), '');
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});

describe('pages reached by a link', () => {
  for (const [lang, viewport] of [
    ['ja', PHONE],
    ['en', DESKTOP],
  ]) {
    it(`${lang} ${viewport.width}px: a footer link from a scrolled policy opens the next page at the top, heading focused; Back restores the position`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const t = (id) => tr(lang, id);
      await page.goto(`${prefixOf(lang)}/privacy`);
      await page.getByRole('heading', { level: 1, name: t('info:privacy.title') }).waitFor();
      // The overlays' chunk (which carries the page arrival) loads after the first paint.
      await page.waitForFunction(() => history.scrollRestoration === 'manual');
      // Down to the footer, as a reader of the whole policy would be.
      const link = page.locator('footer').getByRole('link', { name: t('footer.terms') });
      await link.scrollIntoViewIfNeeded();
      await page.waitForTimeout(100);
      const y = await page.evaluate(() => window.scrollY);
      assert.ok(y > 400, `the policy scrolled down to its footer (${y}px)`);

      await link.click();
      await page.waitForURL(`**${prefixOf(lang)}/terms`);
      await page.getByRole('heading', { level: 1, name: t('info:terms.title') }).waitFor();
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
      assert.equal(await focusedHeading(page), t('info:terms.title'));
      assert.equal(await page.evaluate(() => window.scrollY), 0);

      await page.goBack();
      await page.getByRole('heading', { level: 1, name: t('info:privacy.title') }).waitFor();
      await page.waitForFunction((to) => Math.abs(window.scrollY - to) < 2, y);
      await page.goForward();
      await page.getByRole('heading', { level: 1, name: t('info:terms.title') }).waitFor();
      await page.waitForFunction(() => window.scrollY === 0);
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

  it('ja 390px: the delete-account link from the bottom of the settings opens the page with its heading in view and focused', async () => {
    const { ctx, page, problems } = await signedInPage('ja', PHONE, 'tn-nav');
    const t = (id) => tr('ja', id);
    await page.goto('/settings');
    const link = page.getByRole('link', { name: t('settings:deleteAccount') });
    await link.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => history.scrollRestoration === 'manual');
    const y = await page.evaluate(() => window.scrollY);
    assert.ok(y > 200, `settings scrolled to its danger zone (${y}px)`);
    await link.click();
    const heading = page.getByRole('heading', { level: 1, name: t('settings:delete.title') });
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    const box = await heading.boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= PHONE.height, 'heading in view');
    await page.goBack();
    await page.waitForURL('**/settings');
    await page.waitForFunction((to) => Math.abs(window.scrollY - to) < 2, y);
    assert.deepEqual(problems, []);
    await ctx.close();
  });
});

describe('an unknown path', () => {
  for (const [lang, viewport] of [
    ['ja', PHONE],
    ['en', DESKTOP],
  ]) {
    it(`${lang} ${viewport.width}px: answers 404 with the not-found page, whose button goes home`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      const page = await ctx.newPage();
      const t = (id) => tr(lang, id);
      const res = await page.goto(`${prefixOf(lang)}/no-such-page`);
      assert.equal(res.status(), 404, 'the server keeps the status while the app draws the page');
      await page.getByRole('heading', { level: 1, name: t('common:notFound.title') }).waitFor();
      await page.getByRole('button', { name: t('common:notFound.goHome') }).click();
      await page.waitForURL((u) => u.pathname === homePathOf(lang));
      await ctx.close();
    });
  }
});

describe('the reminder dialog', () => {
  for (const [lang, viewport] of [
    ['ja', PHONE],
    ['en', DESKTOP],
  ]) {
    it(`${lang} ${viewport.width}px: focus in its first field; Escape with a draft asks; a quick-add phrase survives closing`, async () => {
      const { ctx, page, problems } = await signedInPage(lang, viewport, `tn-dlg-${lang}`);
      const t = (id) => tr(lang, id);
      await page.goto(`${prefixOf(lang)}/reminders`);
      await page.getByRole('heading', { level: 1, name: t('reminders:title') }).waitFor();

      // The header's create button: the title field has focus.
      await page.getByRole('button', { name: t('actions.createReminder') }).first().click();
      const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await dialog.waitFor();
      const title = dialog.getByLabel(t('reminders:fields.title'));
      await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT');
      assert.equal(await title.evaluate((el) => el === document.activeElement), true);

      // Typing goes straight into it; Escape asks; Escape again (or "keep editing") keeps the draft.
      await page.keyboard.type(lang === 'ja' ? '歯医者' : 'Dentist');
      await page.keyboard.press('Escape');
      const ask = page.getByRole('dialog', { name: t('reminders:dialog.discardTitle') });
      await ask.waitFor();
      await ask.getByText(t('reminders:dialog.discardText')).waitFor();
      await ask.getByRole('button', { name: t('reminders:dialog.discardKeep') }).click();
      await ask.waitFor({ state: 'detached' });
      assert.equal(await title.inputValue(), lang === 'ja' ? '歯医者' : 'Dentist');
      assert.equal(await title.evaluate((el) => el === document.activeElement), true);
      await page.keyboard.press('Escape');
      await ask.waitFor();
      await ask.getByRole('button', { name: t('reminders:dialog.discardConfirm') }).click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal((await apiCall(ctx, stack.server, 'GET', '/api/reminders')).length, 0);

      // Quick add: Enter opens the dialog; Escape (nothing changed) closes it; the phrase stays.
      const phrase = lang === 'ja' ? '明日9時 薬' : 'tomorrow 9am take medicine';
      const box = page.getByLabel(t('reminders:quickAdd.label'));
      await box.click();
      await box.pressSequentially(phrase, { delay: 10 });
      await page.getByTestId('quick-add-result').getByText(lang === 'ja' ? '薬' : 'take medicine', { exact: false }).waitFor();
      await box.press('Enter');
      await dialog.waitFor();
      await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT' && document.activeElement.closest('[role=dialog]'));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await box.inputValue(), phrase);
      assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'focus back in the box');
      await page.getByTestId('quick-add-result').getByText(lang === 'ja' ? '薬' : 'take medicine', { exact: false }).waitFor();
      // And from the dashboard's box to the reminders page: still there after Escape.
      await page.goto(homePathOf(lang));
      const homeBox = page.getByLabel(t('reminders:quickAdd.label'));
      await homeBox.waitFor();
      assert.equal(await homeBox.inputValue(), '', 'a new page load starts empty');
      await homeBox.click();
      await homeBox.pressSequentially(phrase, { delay: 10 });
      await page.getByTestId('quick-add-result').getByText(lang === 'ja' ? '薬' : 'take medicine', { exact: false }).waitFor();
      await homeBox.press('Enter');
      await dialog.waitFor();
      assert.equal(pathOf(page), `${prefixOf(lang)}/reminders`);
      // Escape once the dialog has its focus (on a busy machine it opens a moment after the page)
      await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT' && document.activeElement.closest('[role=dialog]'));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(await page.getByLabel(t('reminders:quickAdd.label')).inputValue(), phrase);
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
