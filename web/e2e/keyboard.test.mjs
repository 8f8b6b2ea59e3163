// Keyboard only, in Chromium: sign in with the mailed code, create a reminder, edit it, send it
// now, complete it, snooze another and delete one, with Tab, Shift+Tab, Enter and Escape alone
// (no click). Along the way: focus goes to a dialog's first field when it opens, Tab never
// leaves the open dialog, Escape closes dialogs and the header's menu and popover, and focus goes
// back to what opened them (to the page heading when that is gone, never to <body>). ja and en.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertFocused, DESKTOP, focusedDescription, newContext, pathOf, PHONE, prefixOf, signInDetails, startStack, tabTo, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});


/** Tab and Shift+Tab `presses` times each: focus stays inside `dialog` every time. */
async function assertTrapped(page, dialog, presses = 30) {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press(key);
      const inside = await dialog.evaluate((d) => d.contains(document.activeElement) && document.activeElement !== d);
      assert.ok(inside, `${key} #${i + 1} left the dialog: focus is on ${await focusedDescription(page)}`);
    }
  }
}

const CASES = [
  { lang: 'ja', viewport: DESKTOP },
  { lang: 'en', viewport: PHONE },
];

describe('keyboard only', () => {
  for (const { lang, viewport } of CASES) {
    it(`${lang} ${viewport.width}px: sign in, create, edit, send now, complete, snooze, delete`, async () => {
      const t = (id, p) => tr(lang, id, p);
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      const main = page.locator('main');

      // --- sign in: the address, Enter, the code from the mail, Enter
      await page.goto(`${prefixOf(lang)}/login`);
      const email = uniqueEmail(`kbd-${lang}`);
      await tabTo(page, page.locator('#login-email'));
      const since = stack.smtp.messages.length;
      await page.keyboard.type(email);
      await page.keyboard.press('Enter');
      const otp = page.locator('#login-otp');
      await otp.waitFor();
      const { code } = signInDetails(await stack.smtp.waitFor(email, { since }));
      assert.ok(code);
      await tabTo(page, otp);
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: t('reminders:dashboard.title') }).waitFor();

      // --- the header's menu: Enter opens, Escape closes and focus is back on its button
      const menuButton = page.locator(`summary[aria-label="${t('nav.menu')}"]`);
      await tabTo(page, menuButton);
      await page.keyboard.press('Enter');
      await page.locator('details.menu[open]').waitFor();
      await page.keyboard.press('Tab');
      assert.ok(await page.locator('.menu-panel').evaluate((p) => p.contains(document.activeElement)), 'Tab goes into the open menu');
      await page.keyboard.press('Escape');
      await page.locator('details.menu:not([open])').waitFor();
      await assertFocused(page, menuButton, 'Escape on the menu');

      // the health popover too; opening the menu then closes it (one at a time)
      const healthButton = page.locator('.health-indicator > button');
      await tabTo(page, healthButton, { back: true });
      await page.keyboard.press('Enter');
      await page.locator('.health-indicator .popover').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('.health-indicator .popover').waitFor({ state: 'detached' });
      await assertFocused(page, healthButton, 'Escape on the health popover');
      await page.keyboard.press('Enter');
      await page.locator('.health-indicator .popover').waitFor();
      await tabTo(page, menuButton);
      await page.keyboard.press('Enter');
      await page.locator('details.menu[open]').waitFor();
      assert.equal(await page.locator('.health-indicator .popover').count(), 0, 'one open at a time');
      await page.keyboard.press('Escape');

      // --- create: the header's + opens the dialog with focus in its first field (the title)
      const createButton = page.locator('.header-create');
      await tabTo(page, createButton, { back: true });
      await page.keyboard.press('Enter');
      const createDialog = page.getByRole('dialog', { name: t('reminders:dialog.createTitle') });
      await createDialog.waitFor();
      await assertFocused(page, createDialog.getByLabel(t('reminders:fields.title')), 'the opened dialog');
      await assertTrapped(page, createDialog);
      // Escape closes it; focus is back on +
      await page.keyboard.press('Escape');
      await createDialog.waitFor({ state: 'detached' });
      await assertFocused(page, createButton, 'Escape on the create dialog');

      const title = lang === 'ja' ? '薬を飲む' : 'Take medicine';
      const other = lang === 'ja' ? '水を飲む' : 'Drink water';
      for (const name of [title, other]) {
        await page.keyboard.press('Enter');
        await createDialog.waitFor();
        await tabTo(page, createDialog.getByLabel(t('reminders:fields.title')));
        await page.keyboard.type(name);
        await page.keyboard.press('Enter');
        await createDialog.waitFor({ state: 'detached' });
        await main.locator('.reminder-item').filter({ hasText: name }).waitFor();
        // focus back on + (not dropped to <body>)
        await assertFocused(page, createButton, 'after saving a new reminder');
      }

      // --- edit: the row's Edit, a new title, Enter; focus is back on the row's Edit
      const edited = `${title} ${lang === 'ja' ? '(朝)' : '(morning)'}`;
      const editButton = main.getByRole('button', { name: t('reminders:editNamed', { title }) });
      await tabTo(page, editButton);
      await page.keyboard.press('Enter');
      const editDialog = page.getByRole('dialog', { name: t('reminders:dialog.editTitle') });
      await editDialog.waitFor();
      await assertFocused(page, editDialog.getByLabel(t('reminders:fields.title')), 'the edit dialog');
      await tabTo(page, editDialog.getByLabel(t('reminders:fields.title')));
      await page.keyboard.press('End');
      await page.keyboard.type(edited.slice(title.length));
      await page.keyboard.press('Enter');
      await editDialog.waitFor({ state: 'detached' });
      const row = main.locator('.reminder-item').filter({ hasText: edited });
      await row.waitFor();
      await assertFocused(page, main.getByRole('button', { name: t('reminders:editNamed', { title: edited }) }), 'after saving an edit');

      // --- send it now (a delivery makes Complete and Snooze available), then complete it
      await tabTo(page, row.getByRole('button', { name: t('reminders:details.show'), exact: true }));
      await page.keyboard.press('Enter');
      await tabTo(page, row.getByRole('button', { name: t('reminders:details.sendNow') }));
      await page.keyboard.press('Enter');
      const complete = row.getByRole('button', { name: t('reminders:details.complete'), exact: true });
      await tabTo(page, complete, { back: true });
      await page.keyboard.press('Enter');
      await page.locator('.toaster').getByText(t('reminders:details.completedToast')).waitFor();
      await row.waitFor({ state: 'detached' });

      // --- snooze the other one for 10 minutes
      const otherRow = main.locator('.reminder-item').filter({ hasText: other });
      await tabTo(page, otherRow.getByRole('button', { name: t('reminders:details.show'), exact: true }), { back: true });
      await page.keyboard.press('Enter');
      await tabTo(page, otherRow.getByRole('button', { name: t('reminders:details.sendNow') }));
      await page.keyboard.press('Enter');
      const snooze = otherRow.getByRole('button', { name: t('reminders:details.snooze', { n: 10 }), exact: true });
      await tabTo(page, snooze, { back: true });
      await page.keyboard.press('Enter');
      await otherRow.locator('.snoozed').waitFor();

      // --- delete it: the confirmation is a dialog too; focus lands on the page's heading
      await tabTo(page, otherRow.getByRole('button', { name: t('reminders:deleteNamed', { title: other }) }));
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('dialog', { name: t('reminders:deleteConfirm.title') });
      await confirm.waitFor();
      await assertTrapped(page, confirm, 8);
      await tabTo(page, confirm.getByRole('button', { name: t('reminders:delete'), exact: true }));
      await page.keyboard.press('Enter');
      await page.locator('.toaster').getByText(t('reminders:toast.deleted')).waitFor();
      await otherRow.waitFor({ state: 'detached' });
      await assertFocused(page, main.getByRole('heading', { level: 1 }), 'after deleting (its row is gone)');

      // the completed one is on the Completed tab
      await tabTo(page, page.getByRole('tab', { name: t('reminders:tabs.completed') }));
      await page.keyboard.press('Enter');
      await main.locator('.reminder-item').filter({ hasText: edited }).waitFor();
      assert.equal(pathOf(page), `${prefixOf(lang)}/reminders`);
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});
