// A household (Chromium), two people in two browser contexts: the owner makes a list with a
// reminder that rings within seconds and invites the other person from the Lists dialog with the
// keyboard alone; the invited person opens the link from the real mail, joins with the keyboard,
// sees the owner's reminder and completes it; the owner's page, coming back to the front, drops
// it from the pending list, and its delivery history says who completed it. In ja and en, 390
// and 1280 px, light and dark, with screenshots. (invite.test.mjs covers the link page's other
// cases: signed out, the wrong account, removing a member.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiCall, apiSignIn, assertFocused, comeBack, FOUR_VIEWS, newContext, prefixOf, screenshotPath, startStack, tabTo, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const CASES = FOUR_VIEWS;

const secondsAhead = (s) => new Date(Math.ceil((Date.now() + s * 1000) / 1000) * 1000).toISOString();

describe('a household: two people, one list', () => {
  for (const { lang, viewport, scheme } of CASES) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: invited with the keyboard, joined from the mail, one completes, the other's list follows`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const prefix = prefixOf(lang);
      const listName = lang === 'ja' ? '我が家' : 'Home';
      const title = lang === 'ja' ? '燃えるゴミを出す' : 'Put the rubbish out';

      // --- The owner: a list, and in it a one-time reminder that rings in a few seconds.
      const owner = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      const ownerEmail = uniqueEmail(`hh-owner-${lang}`);
      await apiSignIn(owner, stack.server, stack.smtp, ownerEmail, lang);
      const list = await apiCall(owner, stack.server, 'POST', '/api/lists', { name: listName, colour: 'orange' });
      const reminder = await apiCall(owner, stack.server, 'POST', '/api/reminders', {
        title,
        send_at: secondsAhead(3),
        timezone: 'Asia/Tokyo',
        list_id: list.id,
      });
      const ownerPage = await owner.newPage();
      const ownerProblems = watchPage(ownerPage);
      await ownerPage.goto(`${prefix}/reminders`);
      const ownerRow = ownerPage.locator(`#reminder-${reminder.id}`);
      await ownerRow.getByRole('heading', { level: 2, name: title }).waitFor();

      // --- The owner invites by keyboard: Lists, the list's people, the address, Enter.
      const guestEmail = uniqueEmail(`hh-guest-${lang}`);
      const listsButton = ownerPage.getByRole('button', { name: t('lists:switcher.manage'), exact: true });
      await tabTo(ownerPage, listsButton);
      await ownerPage.keyboard.press('Enter');
      const manage = ownerPage.getByRole('dialog', { name: t('lists:manage.title') });
      await manage.waitFor();
      // No field in the dialog: focus is on its title, and Tab stays inside.
      await assertFocused(ownerPage, manage.getByRole('heading', { level: 2, name: t('lists:manage.title') }), 'the opened Lists dialog');
      const peopleToggle = manage.getByRole('button', { name: t('lists:people.toggleNamed_one', { name: listName, count: 1 }) });
      await tabTo(ownerPage, peopleToggle);
      assert.ok(await manage.evaluate((d) => d.contains(document.activeElement)), 'Tab stayed in the dialog');
      await ownerPage.keyboard.press('Enter');
      const people = manage.getByRole('region', { name: t('lists:people.heading', { name: listName }) });
      await people.getByText(ownerEmail).waitFor();
      assert.equal(await peopleToggle.getAttribute('aria-expanded'), 'true');
      const address = people.getByLabel(t('lists:people.inviteLabel'));
      await tabTo(ownerPage, address);
      const since = stack.smtp.messages.length;
      await ownerPage.keyboard.type(guestEmail);
      await ownerPage.keyboard.press('Enter');
      await ownerPage.locator('.toast').filter({ hasText: t('lists:people.invited', { email: guestEmail }) }).waitFor();
      // Sent: the address is among the invited, the field is empty and keeps the focus (for another).
      await people.getByRole('button', { name: t('lists:people.cancelNamed', { email: guestEmail }) }).waitFor();
      assert.equal(await address.inputValue(), '');
      await assertFocused(ownerPage, address, 'after sending the invitation');
      await ownerPage.screenshot({ path: screenshotPath(`households-${tag}-invited`) });
      // Escape closes the dialog; focus is back on Lists.
      await ownerPage.keyboard.press('Escape');
      await manage.waitFor({ state: 'detached' });
      await assertFocused(ownerPage, listsButton, 'Escape on the Lists dialog');

      // The real mail, in the owner's language, with the link.
      const mail = await stack.smtp.waitFor(guestEmail, { since });
      assert.ok(mail.text.includes(listName) && mail.text.includes(ownerEmail), mail.text);
      const link = mail.text.match(/https?:\/\/\S+\/invite#token=[\w-]+/)?.[0];
      assert.ok(link, mail.text);
      assert.equal(new URL(link).pathname, `${prefix}/invite`, 'the link is in the owner language');

      // --- The guest, signed in as the invited address, opens the link and joins by keyboard.
      const guest = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(guest, stack.server, stack.smtp, guestEmail, lang);
      const guestPage = await guest.newPage();
      const guestProblems = watchPage(guestPage);
      await guestPage.goto(link);
      // Who invites, to which list (the inviter as the server names them), before anything is spent.
      await guestPage.getByText(t('lists:invite.text', { inviter: '\u0000', list: listName }).split('\u0000')[1]).waitFor();
      await guestPage.getByText(t('lists:invite.signedInAs', { email: guestEmail })).waitFor();
      const accept = guestPage.getByRole('button', { name: t('lists:invite.accept') });
      await tabTo(guestPage, accept);
      await guestPage.screenshot({ path: screenshotPath(`households-${tag}-invite-page`), fullPage: true });
      await guestPage.keyboard.press('Enter');
      await guestPage.waitForURL((u) => u.pathname === `${prefix}/reminders` && u.searchParams.get('list') === list.id);
      await guestPage.locator('.toast').filter({ hasText: t('lists:invite.joined', { name: listName }) }).waitFor();
      // Arrived on another page: its heading has the focus (not <body>).
      await assertFocused(guestPage, guestPage.locator('main h1'), 'after joining');
      const guestRow = guestPage.locator(`#reminder-${reminder.id}`);
      await guestRow.getByRole('heading', { level: 2, name: title }).waitFor();
      // The shared list is chosen in the guest's switcher (beside their own default list).
      const chips = guestPage.getByRole('group', { name: t('lists:switcher.label') });
      assert.equal(await chips.getByRole('button', { name: new RegExp(`^${listName}`) }).getAttribute('aria-pressed'), 'true');

      // --- It rings (nobody has a device: it is recorded, the owner is emailed) and is not done yet.
      let [logs, overdue] = [[], false];
      for (let i = 0; i < 100 && !(overdue && logs.some((l) => l.status !== 'queued')); i++) {
        await new Promise((r) => setTimeout(r, 200));
        logs = await apiCall(owner, stack.server, 'GET', `/api/reminders/${reminder.id}/logs`);
        overdue = (await apiCall(owner, stack.server, 'GET', `/api/reminders/${reminder.id}`)).overdue;
      }
      assert.ok(logs.length > 0 && overdue, 'the reminder rang and is overdue');
      // Both pages, back in front, show it as not done yet.
      const overdueBadge = (row) => row.locator('.badge.warn').filter({ hasText: t('reminders:overdue') });
      await comeBack(guestPage, async () => (await overdueBadge(guestRow).count()) > 0);
      await comeBack(ownerPage, async () => (await overdueBadge(ownerRow).count()) > 0);
      await guestPage.screenshot({ path: screenshotPath(`households-${tag}-guest-joined`), fullPage: true });
      await ownerPage.screenshot({ path: screenshotPath(`households-${tag}-owner-overdue`), fullPage: true });

      // --- The guest completes it from its details.
      await guestRow.getByRole('button', { name: t('reminders:details.show'), exact: true }).click();
      const guestDetails = guestPage.locator(`#details-${reminder.id}`);
      await guestDetails.getByRole('heading', { name: t('reminders:details.history') }).waitFor();
      await guestDetails.getByRole('button', { name: t('reminders:details.complete'), exact: true }).click();
      await guestPage.locator('.toast').filter({ hasText: t('reminders:details.completedToast') }).waitFor();
      await guestRow.waitFor({ state: 'detached' });
      await guestPage.getByText(t('reminders:list.empty', { name: listName })).waitFor();
      await guestPage.screenshot({ path: screenshotPath(`households-${tag}-guest-completed`), fullPage: true });
      const done = await apiCall(owner, stack.server, 'GET', `/api/reminders/${reminder.id}`);
      assert.equal(done.is_archived, true, 'completed for everyone in the list');

      // --- The owner switches back: the reminder leaves the pending list.
      await comeBack(ownerPage, async () => (await ownerRow.count()) === 0);
      await ownerPage.getByText(t('reminders:nothingPending', { count: 1 })).waitFor();
      await ownerPage.screenshot({ path: screenshotPath(`households-${tag}-owner-updated`), fullPage: true });
      // On the completed tab, its delivery history names who completed it.
      await ownerPage.getByRole('tab', { name: t('reminders:tabs.completed') }).click();
      await ownerRow.getByText(t('reminders:status.completed'), { exact: true }).waitFor();
      // When it was completed wraps beside the title: it does not squeeze the title and its badges
      // to a word a line (at 390 px, "Completed Today, 8:26:17 PM GMT+9" in one line did).
      const [main, whole] = await Promise.all([ownerRow.locator('.reminder-main').boundingBox(), ownerRow.boundingBox()]);
      assert.ok(main.width >= whole.width * 0.4, `the title column is ${Math.round(main.width)} of ${Math.round(whole.width)} px`);
      await ownerRow.getByRole('button', { name: t('reminders:details.show'), exact: true }).click();
      const ownerDetails = ownerPage.locator(`#details-${reminder.id}`);
      await ownerDetails.getByText(t('reminders:details.actedBy.complete', { name: guestEmail })).waitFor();
      await ownerPage.screenshot({ path: screenshotPath(`households-${tag}-owner-history`), fullPage: true });
      // And the guest's own says "you" (its details are still open, on the completed tab).
      await guestPage.getByRole('tab', { name: t('reminders:tabs.completed') }).click();
      await guestRow.getByRole('button', { name: t('reminders:details.hide'), exact: true }).waitFor();
      await guestDetails.getByText(t('reminders:details.actedByYou.complete'), { exact: true }).waitFor();
      await guestPage.screenshot({ path: screenshotPath(`households-${tag}-guest-history`), fullPage: true });

      assert.deepEqual(ownerProblems, []);
      assert.deepEqual(guestProblems, []);
      await guest.close();
      await owner.close();
    });
  }
});
