// Where toasts go and how list rows look, ja and en, 390 and 1280 px, light and dark: a toast
// shows at the bottom, never over the header's controls, and inside an open dialog, clear of its
// close button and buttons; on an iPhone, one toast at a time above the add-to-home-screen card
// and the offline banner, the card above the banner; a login page's toast does not follow onto the dashboard; long titles
// end in an ellipsis; the row's Delete is quiet and the confirming one red; the EN/JA pill and
// the red button keep 4.5:1 in dark mode. Screenshots go to e2e/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, prefixOf, screenshotPath, signInDetails, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1';

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** WCAG contrast of an element's text against its own background colour. */
function contrastOf(locator) {
  return locator.evaluate((el) => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const s = getComputedStyle(el);
    const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}

const LONG_TITLE = {
  ja: '来週の月曜日の朝までに経理部へ提出する四半期の経費精算書と領収書の束を確認してまとめ、不足している領収書があれば各部署の担当者に連絡して今週中に集めておき、金曜日の午後には部長の承認印をもらってから経理部の受付に直接持っていく',
  en: 'Check and bundle the quarterly expense report and the stack of receipts for accounting before Monday morning, ask each team for the missing receipts this week, and get the approval stamp on Friday',
};

describe('toasts, dialogs and list rows', () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const { lang, viewport } of [
      { lang: 'ja', viewport: PHONE },
      { lang: 'ja', viewport: DESKTOP },
      { lang: 'en', viewport: PHONE },
      { lang: 'en', viewport: DESKTOP },
    ]) {
      const size = viewport === PHONE ? 'phone' : 'desktop';
      it(`${lang} ${viewport.width}px ${colorScheme}`, async () => {
        const t = (id, p) => tr(lang, id, p);
        const ctx = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme, reducedMotion: 'reduce' });
        await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`ovl-${lang}`), lang);
        const inDays = (d) => new Date(Date.now() + d * 86_400_000).toISOString();
        await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: LONG_TITLE[lang], send_at: inDays(1), timezone: 'Asia/Tokyo', recurrence: { kind: 'none' } });
        await apiCall(ctx, stack.server, 'POST', '/api/reminders', { title: lang === 'ja' ? '水を飲む' : 'Drink water', send_at: inDays(2), timezone: 'Asia/Tokyo', recurrence: { kind: 'daily' } });
        const page = await ctx.newPage();
        const problems = watchPage(page);
        await page.goto(`${prefixOf(lang)}/reminders`);
        const main = page.locator('main');
        const longRow = main.locator('.reminder-item').filter({ hasText: LONG_TITLE[lang] });
        await longRow.waitFor();

        // a long title: two lines at most, cut with an ellipsis, whole in its title attribute
        const heading = longRow.locator('.reminder-title');
        assert.equal(await heading.getAttribute('title'), LONG_TITLE[lang]);
        const fits = await heading.evaluate((h) => ({
          cut: h.scrollHeight > h.clientHeight,
          lines: Math.round(h.clientHeight / parseFloat(getComputedStyle(h).lineHeight)),
          clamp: getComputedStyle(h).webkitLineClamp,
        }));
        assert.deepEqual(fits, { cut: true, lines: 2, clamp: '2' });
        // the row's Delete is quiet (no red background); red is for the confirming button only
        const rowDelete = longRow.getByRole('button', { name: t('reminders:deleteNamed', { title: LONG_TITLE[lang] }) });
        assert.equal(await rowDelete.evaluate((b) => getComputedStyle(b).backgroundColor), 'rgba(0, 0, 0, 0)');
        await page.screenshot({ path: screenshotPath(`rows-${lang}-${size}-${colorScheme}`), animations: 'disabled' });

        // the EN/JA pill keeps 4.5:1 (dark mode's light brand colour had white text at 2.98:1)
        const pressed = page.locator('.lang-switch button[aria-pressed="true"]');
        assert.ok((await contrastOf(pressed)) >= 4.5, `EN/JA pill contrast ${await contrastOf(pressed)}`);

        // a toast from saving: never over the header's controls; at the bottom on phones
        await page.locator('.header-create').click();
        const createDialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
        await createDialog.getByLabel(t('reminders:fields.title')).fill(lang === 'ja' ? '散歩' : 'Walk');
        await createDialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
        await createDialog.waitFor({ state: 'detached' });
        const toast = page.locator('.toast').filter({ hasText: t('reminders:toast.created') });
        await toast.waitFor();
        const toastBox = await toast.boundingBox();
        for (const control of await page.locator('.site-header .header-end > *').all()) {
          const box = await control.boundingBox();
          if (box) assert.ok(!overlap(toastBox, box), `the toast covers a header control: ${JSON.stringify({ toastBox, box })}`);
        }
        assert.ok(toastBox.y + toastBox.height > viewport.height - 80, `at the bottom: ${JSON.stringify(toastBox)}`);
        await page.screenshot({ path: screenshotPath(`toast-${lang}-${size}-${colorScheme}`), animations: 'disabled' });

        // a dialog opened while the toast shows: the toast moves inside it, clear of its buttons
        await longRow.getByRole('button', { name: t('reminders:editNamed', { title: LONG_TITLE[lang] }) }).click();
        const editDialog = page.getByRole('dialog', { name: t('reminders:dialog.editTitle') });
        await editDialog.locator('.toast').filter({ hasText: t('reminders:toast.created') }).waitFor();
        const inDialog = await editDialog.locator('.toast').boundingBox();
        for (const button of [editDialog.locator('.dialog-close'), ...(await editDialog.locator('.dialog-footer button').all())]) {
          assert.ok(!overlap(inDialog, await button.boundingBox()), 'the toast covers a dialog button');
        }
        await page.screenshot({ path: screenshotPath(`dialog-toast-${lang}-${size}-${colorScheme}`), animations: 'disabled' });
        await page.keyboard.press('Escape');
        await editDialog.waitFor({ state: 'detached' });

        // the confirming Delete is the red one, at 4.5:1
        await rowDelete.click();
        const confirm = page.getByRole('dialog', { name: t('reminders:deleteConfirm.title') });
        const confirmDelete = confirm.getByRole('button', { name: t('reminders:delete'), exact: true });
        assert.ok((await contrastOf(confirmDelete)) >= 4.5, `Delete contrast ${await contrastOf(confirmDelete)}`);
        await page.screenshot({ path: screenshotPath(`delete-confirm-${lang}-${size}-${colorScheme}`), animations: 'disabled' });
        await page.keyboard.press('Escape');
        assert.deepEqual(problems, []);
        await ctx.close();
      });
    }
  }

  // decisions.md: a toast is never over the offline banner or the install card; one at a time.
  for (const lang of ['ja', 'en']) {
    it(`${lang} ${PHONE.width}px iPhone Safari: the toast stays above the add-to-home-screen card and the offline banner`, async () => {
      const t = (id, p) => tr(lang, id, p);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport: PHONE, userAgent: IPHONE_SAFARI });
      await apiSignIn(ctx, stack.server, stack.smtp, uniqueEmail(`ovl-bottom-${lang}`), lang);
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(`${prefixOf(lang)}/reminders`);
      await page.getByText(t('reminders:emptyActive')).waitFor();
      // the offline store is open (an offline save is queued there)
      await page.waitForFunction(async () => (await indexedDB.databases()).some((d) => d.name === 'hibiki-offline'));
      const card = page.locator('.ios-guide');
      await card.waitFor(); // 3 s after load
      const boxOf = async (locator) => {
        const box = await locator.boundingBox();
        assert.ok(box, 'shown');
        return box;
      };
      // The boxes of one frame (read one after the other, a banner that grew in between made a
      // toast and a card look overlapped that never were on screen), until no pair overlaps or
      // 3 s have passed; then each pair is checked.
      async function boxesOnceSettled(locators, pairs) {
        const handles = await Promise.all(locators.map((l) => l.elementHandle()));
        // In the page: the boxes of one frame once no pair overlaps (the predicate is `overlap`'s).
        const settled = await page
          .waitForFunction(
            ([els, pairList]) => {
              const boxes = els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height }));
              const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
              return pairList.every(([i, j]) => !hit(boxes[i], boxes[j])) && boxes;
            },
            [handles, pairs.map(([i, j]) => [i, j])],
            { timeout: 3000 },
          )
          .then((h) => h.jsonValue(), () => null);
        // Never clear: the boxes of the last frame, for the message.
        const boxes = settled ?? (await Promise.all(locators.map(boxOf)));
        for (const [i, j, what] of pairs) assert.ok(!overlap(boxes[i], boxes[j]), `${what}: ${JSON.stringify({ a: boxes[i], b: boxes[j] })}`);
        return boxes;
      }

      async function save(title) {
        await page.locator('.header-create').click();
        const dialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
        await dialog.getByLabel(t('reminders:fields.title')).fill(title);
        await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
        await dialog.waitFor({ state: 'detached' });
      }

      // online: the toast sits above the card
      await save(lang === 'ja' ? '散歩' : 'Walk');
      const created = page.locator('.toaster .toast').filter({ hasText: t('reminders:toast.created') });
      await created.waitFor();
      await boxOf(created);
      await boxesOnceSettled([created, card], [[0, 1, 'the toast covers the install card']]);
      await page.screenshot({ path: screenshotPath(`toast-over-card-${lang}`), animations: 'disabled' });

      // offline: the banner at the very bottom, the card above it, the toast above both, one toast only
      await ctx.setOffline(true);
      const banner = page.locator('.offline-banner');
      await banner.getByText(t('offline:banner')).waitFor();
      await save(lang === 'ja' ? 'オフラインの散歩' : 'Offline walk');
      const queued = page.locator('.toaster .toast').filter({ hasText: t('reminders:toast.queued') });
      await queued.waitFor();
      assert.equal(await page.locator('.toast').count(), 1, 'one toast at a time');
      await banner.getByText(t('offline:pending', { count: 1 })).waitFor();
      await Promise.all([boxOf(queued), boxOf(card), boxOf(banner)]);
      const [, , bannerBox] = await boxesOnceSettled(
        [queued, card, banner],
        [
          [0, 2, 'the toast covers the offline banner'],
          [0, 1, 'the toast covers the install card'],
          [1, 2, 'the banner covers the install card'],
        ],
      );
      assert.ok(bannerBox.y + bannerBox.height >= PHONE.height - 1, `the banner is at the bottom: ${JSON.stringify(bannerBox)}`);
      await page.screenshot({ path: screenshotPath(`toast-card-banner-${lang}`), animations: 'disabled' });

      // the card goes: the toast moves down to just above the banner
      await card.getByRole('button', { name: t('install:ios.dismiss') }).click();
      await card.waitFor({ state: 'detached' });
      await save(lang === 'ja' ? 'もう一つ' : 'One more');
      await queued.waitFor();
      await boxesOnceSettled([queued, banner], [[0, 1, 'the toast covers the offline banner']]);

      await ctx.setOffline(false);
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

  it('a login page toast does not follow onto the dashboard; deleting the account ends signed out without an error toast', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'ja', viewport: PHONE });
    const page = await ctx.newPage();
    // signed out on a protected page: the "sign in" toast comes along to the login page ...
    await page.goto('/reminders');
    await page.locator('.toaster').getByText(tr('ja', 'auth.required')).waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    // ... and goes once signed in there
    const email = uniqueEmail('del');
    const since = stack.smtp.messages.length;
    await page.locator('#login-email').fill(email);
    await page.locator('#login-email').press('Enter');
    await page.locator('#login-otp').waitFor();
    const { code } = signInDetails(await stack.smtp.waitFor(email, { since }));
    // six digits arriving at once sign in by themselves
    await page.locator('#login-otp').fill(code);
    await page.getByRole('heading', { level: 1, name: tr('ja', 'reminders:title') }).waitFor();
    await page.locator('.toaster').getByText(tr('ja', 'auth:welcomeNew')).waitFor();
    assert.equal(new URL(page.url()).pathname, '/reminders');
    assert.equal(await page.locator('.toaster').getByText(tr('ja', 'auth.required')).count(), 0);

    await page.goto('/settings/delete-account');
    await page.getByRole('heading', { level: 1, name: tr('ja', 'settings:delete.title') }).waitFor();
    const seen = [];
    await page.exposeFunction('hibikiToastSeen', (text) => seen.push(text));
    await page.evaluate(() =>
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.toast')) window.hibikiToastSeen(el.textContent);
      }).observe(document.body, { childList: true, subtree: true }),
    );
    await page.locator('#delete-confirm').fill(email);
    await page.getByRole('button', { name: tr('ja', 'settings:delete.submit') }).click();
    // signed out on the home page, where the "deleted" toast came along
    await page.getByRole('link', { name: tr('ja', 'nav.signIn'), exact: true }).waitFor();
    await page.locator('.toaster').getByText(tr('ja', 'settings:delete.done')).waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    assert.ok(!seen.some((s) => s.includes(tr('ja', 'auth.required'))), `toasts seen: ${JSON.stringify(seen)}`);
    await ctx.close();
  });
});
