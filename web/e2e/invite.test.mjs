// Invitations (Chromium): the owner invites by email (the real mail, in the owner's language);
// the link page shows the list and who invites before anything is spent; a stranger signed in
// is told which address to use; the invited person, signed out, is sent to sign in and comes
// back to join; the list then shows in their switcher with the owner's reminder; the owner sees
// them among the list's people and removes them. In ja and en,
// 390 and 1280 px, light and dark.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, pathOf, prefixOf, screenshotPath, startStack, tr, uniqueEmail, watchPage } from './harness.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.close();
});

const CASES = [
  { lang: 'ja', viewport: PHONE, scheme: 'light' },
  { lang: 'en', viewport: DESKTOP, scheme: 'dark' },
  { lang: 'en', viewport: PHONE, scheme: 'light' },
  { lang: 'ja', viewport: DESKTOP, scheme: 'dark' },
];

describe('invitations', () => {
  for (const { lang, viewport, scheme } of CASES) {
    const tag = `${lang}-${viewport.width}-${scheme}`;
    it(`${tag}: invited by email, a stranger is told which address, the invited person signs in and joins`, async () => {
      const t = (id, params) => tr(lang, id, params);
      const prefix = prefixOf(lang);
      // The owner, in this language, makes a list with a reminder and invites the guest.
      const owner = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      const ownerEmail = uniqueEmail(`owner-${lang}`);
      await apiSignIn(owner, stack.server, stack.smtp, ownerEmail, lang);
      const list = await apiCall(owner, stack.server, 'POST', '/api/lists', { name: lang === 'ja' ? 'ゴミ出し' : 'Rubbish', colour: 'green' });
      const inADay = new Date(Math.ceil((Date.now() + 86_400_000) / 1000) * 1000).toISOString();
      await apiCall(owner, stack.server, 'POST', '/api/reminders', { title: 'Burnable', send_at: inADay, timezone: 'Asia/Tokyo', list_id: list.id });
      const guestEmail = uniqueEmail(`guest-${lang}`);
      const since = stack.smtp.messages.length;
      await apiCall(owner, stack.server, 'POST', `/api/lists/${list.id}/invites`, { email: guestEmail });
      const mail = await stack.smtp.waitFor(guestEmail, { since });
      assert.ok(mail.text.includes(list.name) && mail.text.includes(ownerEmail), mail.text);
      const link = mail.text.match(/https?:\/\/\S+\/invite#token=[\w-]+/)?.[0];
      assert.ok(link, mail.text);
      assert.equal(new URL(link).pathname, `${prefix}/invite`, 'the link is in the owner language');
      const token = new URL(link).hash.slice('#token='.length);

      // A stranger signed in on this browser: told which address it is for.
      const stranger = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      await apiSignIn(stranger, stack.server, stack.smtp, uniqueEmail(`stranger-${lang}`), lang);
      const page = await stranger.newPage();
      const problems = watchPage(page);
      await page.goto(`${prefix}/invite#token=${token}`);
      await page.getByText(t('lists:invite.text', { inviter: '\u0000', list: list.name }).split('\u0000')[1]).waitFor();
      await page.getByRole('button', { name: t('lists:invite.accept') }).click();
      const wrong = page.getByRole('alert').filter({ hasText: t('lists:invite.wrongAccount', { email: '\u0000', current: '\u0000' }).split('\u0000')[0] });
      await wrong.waitFor();
      await page.screenshot({ path: screenshotPath(`invite-${tag}-wrong-account`), fullPage: true });
      assert.deepEqual(problems.filter((p) => !/403/.test(p)), []);
      await stranger.close();

      // The invited person, signed out: sent to sign in, back to join.
      const guest = await newContext(stack.browser, stack.url, { lang, viewport, colorScheme: scheme });
      const guestPage = await guest.newPage();
      const guestProblems = watchPage(guestPage);
      await guestPage.goto(`${prefix}/invite#token=${token}`);
      await guestPage.getByText(t('lists:invite.forAddress', { email: '\u0000' }).split('\u0000')[0]).waitFor();
      await guestPage.screenshot({ path: screenshotPath(`invite-${tag}-signed-out`), fullPage: true });
      await guestPage.getByRole('button', { name: t('lists:invite.signIn') }).click();
      await guestPage.waitForURL((u) => u.pathname === `${prefix}/login`);
      await apiSignIn(guest, stack.server, stack.smtp, guestEmail, lang);
      await guestPage.goto(`${prefix}/invite`);
      await guestPage.getByRole('button', { name: t('lists:invite.accept') }).click();
      await guestPage.waitForURL((u) => u.pathname === `${prefix}/reminders` && u.search.includes(list.id));
      await guestPage.locator('.toast').filter({ hasText: t('lists:invite.joined', { name: list.name }) }).waitFor();
      await guestPage.getByRole('heading', { level: 2, name: 'Burnable' }).waitFor();
      await guestPage.screenshot({ path: screenshotPath(`invite-${tag}-joined`), fullPage: true });
      assert.equal(pathOf(guestPage).startsWith(`${prefix}/reminders`), true);
      const members = await apiCall(owner, stack.server, 'GET', `/api/lists/${list.id}/members`);
      assert.deepEqual(members.map((m) => [m.email, m.role]), [[ownerEmail, 'owner'], [guestEmail, 'member']]);
      assert.deepEqual(guestProblems, []);
      await guest.close();

      // The owner sees the guest among the list's people in the Lists dialog, and removes them.
      const ownerPage = await owner.newPage();
      const ownerProblems = watchPage(ownerPage);
      await ownerPage.goto(`${prefix}/reminders`);
      await ownerPage.getByRole('button', { name: t('lists:switcher.manage'), exact: true }).click();
      const manage = ownerPage.getByRole('dialog', { name: t('lists:manage.title') });
      await manage.getByRole('button', { name: t('lists:people.toggleNamed_other', { name: list.name, count: 2 }) }).click();
      const people = manage.getByRole('region', { name: t('lists:people.heading', { name: list.name }) });
      await people.getByText(guestEmail).waitFor();
      await ownerPage.screenshot({ path: screenshotPath(`invite-${tag}-people`) });
      await people.getByRole('button', { name: t('lists:people.removeNamed', { email: guestEmail }) }).click();
      await ownerPage.locator('.toast').filter({ hasText: t('lists:people.removed', { email: guestEmail }) }).waitFor();
      const left = await apiCall(owner, stack.server, 'GET', `/api/lists/${list.id}/members`);
      assert.deepEqual(left.map((m) => m.email), [ownerEmail]);
      assert.deepEqual(ownerProblems, []);
      await owner.close();
    });
  }
});
