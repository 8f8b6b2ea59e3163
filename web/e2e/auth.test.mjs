// Sign-in with the mailed code (typed and pasted, new and returning user), sign-out, the
// /auth/callback link page, and the protected-route redirect — in ja and en, phone and desktop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, apiCall, apiSignIn, newContext, pathOf, signInDetails, startStack, uniqueEmail, watchPage } from './harness.mjs';

const T = {
  ja: {
    prefix: '',
    sendCode: 'コードを送信',
    verify: 'ログイン',
    welcome: 'ようこそ Hibiki へ！最初のリマインダーを作成しましょう。',
    signedIn: 'ログインしました。',
    dashboard: 'ダッシュボード',
    signInLink: 'ログイン',
    menu: 'メニュー',
    signOut: 'ログアウト',
    otpInvalid: '確認コードが正しくありません。確認してもう一度お試しください。',
    confirm: 'ログインを完了する',
    signsInAs: (email) => `このリンクで ${email} としてログインします。`,
    linkInvalid: 'ログインリンクが無効か、有効期限が切れています。もう一度ログインしてください。',
    authRequired: '認証が必要です。ログインしてください。',
  },
  en: {
    prefix: '/en',
    sendCode: 'Send code',
    verify: 'Sign in',
    welcome: 'Welcome to Hibiki! Create your first reminder.',
    signedIn: 'You are signed in.',
    dashboard: 'Dashboard',
    signInLink: 'Sign in',
    menu: 'Menu',
    signOut: 'Sign out',
    otpInvalid: 'Invalid verification code. Please check and try again.',
    confirm: 'Complete sign-in',
    signsInAs: (email) => `This link signs you in as ${email}.`,
    linkInvalid: 'This sign-in link is invalid or has expired. Please sign in again.',
    authRequired: 'Authentication required. Please sign in.',
  },
};

let stack;
// A returning user needs a second code, which the server allows 60 s after the first: the
// account is made first and signed in again by the last test of this file.
const returning = { email: uniqueEmail('returning'), createdAt: 0 };

before(async () => {
  stack = await startStack();
  const ctx = await newContext(stack.browser, stack.url);
  const first = await apiSignIn(ctx, stack.server, stack.smtp, returning.email, 'en');
  assert.equal(first.is_new_user, true);
  returning.createdAt = Date.now();
  await ctx.close();
});
after(async () => {
  await stack?.close();
});

/** Types the address on /login and returns the code from the mail it causes. */
async function requestCode(page, lang, email) {
  const since = stack.smtp.messages.length;
  await page.getByLabel(lang === 'ja' ? 'メールアドレス' : 'Email address').fill(email);
  await page.getByRole('button', { name: T[lang].sendCode }).click();
  await page.locator('#login-otp').waitFor();
  const mail = await stack.smtp.waitFor(email, { since });
  assert.match(mail.contentType, /^text\/plain/i);
  const details = signInDetails(mail);
  assert.ok(details.code, `a 6-digit code on a line of its own in:\n${mail.text}`);
  assert.ok(details.link, 'a sign-in link in the mail');
  return { mail, ...details };
}

async function expectToast(page, text) {
  await page.locator('.toaster').getByText(text, { exact: true }).waitFor();
}

async function signOutViaMenu(page, lang) {
  await page.locator(`summary[aria-label="${T[lang].menu}"]`).click();
  await page.getByRole('button', { name: T[lang].signOut }).click();
  await page.getByRole('link', { name: T[lang].signInLink, exact: true }).waitFor();
  assert.equal(pathOf(page), lang === 'ja' ? '/' : '/en');
  const stored = await page.evaluate(() => localStorage.getItem('auth-storage'));
  assert.equal(stored, null, 'auth-storage is cleared on sign-out');
  const session = await page.request.get(`${stack.url}/api/auth/session`);
  assert.equal(session.status(), 401, 'the session cookie no longer works');
}

const CASES = [
  { lang: 'ja', viewport: PHONE, input: 'typed' },
  { lang: 'ja', viewport: DESKTOP, input: 'pasted' },
  { lang: 'en', viewport: DESKTOP, input: 'typed' },
  { lang: 'en', viewport: PHONE, input: 'pasted' },
];

describe('sign-in with the mailed code', () => {

  for (const { lang, viewport, input } of CASES) {
    it(`${lang} ${viewport.width}px: new user, code ${input}, lands signed in, signs out`, async () => {
      const ctx = await newContext(stack.browser, stack.url, {
        lang,
        viewport,
        ...(input === 'pasted' ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
      });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await page.goto(`${T[lang].prefix}/login`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      const email = uniqueEmail(`new-${lang}`);
      const { code } = await requestCode(page, lang, email);

      // a wrong code first: the message says so and the field is cleared
      const wrong = code === '000000' ? '111111' : '000000';
      await page.locator('#login-otp').pressSequentially(wrong);
      await page.getByRole('button', { name: T[lang].verify, exact: true }).click();
      await page.getByText(T[lang].otpInvalid).waitFor();
      assert.equal(await page.locator('#login-otp').inputValue(), '');

      if (input === 'typed') {
        await page.locator('#login-otp').pressSequentially(code, { delay: 30 });
        assert.equal(await page.locator('#login-otp').inputValue(), code);
        await page.getByRole('button', { name: T[lang].verify, exact: true }).click();
      } else {
        // A real paste (clipboard + keyboard shortcut): surrounding text is dropped and a full
        // six digits submit on their own.
        await page.evaluate((text) => navigator.clipboard.writeText(text), `Code: ${code}\n`);
        await page.locator('#login-otp').focus();
        await page.keyboard.press('ControlOrMeta+V');
      }

      await page.getByRole('heading', { name: T[lang].dashboard }).waitFor();
      assert.equal(pathOf(page), lang === 'ja' ? '/' : '/en');
      await expectToast(page, T[lang].welcome);
      const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('auth-storage')));
      assert.equal(stored.user.email, email);
      assert.deepEqual(Object.keys(stored), ['user'], 'auth-storage keeps only {user}, never a token');
      // a new account takes this device's time zone (the server starts it on UTC)
      // (saved in the background after sign-in: asked until it is, for at most 5 s)
      const zone = async () => (await apiCall(ctx, stack.server, 'GET', '/api/settings')).timezone;
      for (let i = 0; i < 100 && (await zone()) !== 'Asia/Tokyo'; i++) await page.waitForTimeout(50);
      assert.equal(await zone(), 'Asia/Tokyo');
      const cookies = await ctx.cookies();
      assert.ok(cookies.some((c) => c.httpOnly), 'the session is an HttpOnly cookie');

      // the session survives a reload
      await page.reload();
      await page.getByRole('heading', { name: T[lang].dashboard }).waitFor();

      await signOutViaMenu(page, lang);
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }

});

describe('the sign-in link page (/auth/callback)', () => {
  for (const { lang, viewport } of [
    { lang: 'ja', viewport: PHONE },
    { lang: 'en', viewport: DESKTOP },
  ]) {
    it(`${lang}: loading the link spends nothing (a peek shows the masked address); the confirm button signs in`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      // Sign-in calls (code or link); the page's peek (`peek: true`) spends nothing and is counted apart.
      const verifyCalls = [];
      const peeks = [];
      page.on('request', (r) => {
        if (!r.url().includes('/api/auth/verify')) return;
        (JSON.parse(r.postData() ?? '{}').peek === true ? peeks : verifyCalls).push(r.url());
      });
      await page.goto(`${T[lang].prefix}/login`);
      const email = uniqueEmail(`link-${lang}`);
      const { link, token } = await requestCode(page, lang, email);
      const linkPath = new URL(link).pathname;
      assert.equal(linkPath, `${T[lang].prefix}/auth/callback`, 'the mail links to the page in the user’s language');

      // A mail scanner (plain GET of the link) and the page load itself spend nothing.
      const scanner = await fetch(link);
      assert.equal(scanner.status, 200);
      await page.goto(link);
      const button = page.getByRole('button', { name: T[lang].confirm });
      await button.waitFor();
      // The masked address of the account the link opens: the first character, ***, the domain.
      await page.getByText(T[lang].signsInAs(`${email[0]}***@${email.split('@')[1]}`)).waitFor();
      await page.waitForTimeout(800);
      assert.deepEqual(verifyCalls, [], 'no verify call on load');
      assert.equal(peeks.length, 1, 'one peek on load');
      assert.equal(new URL(page.url()).hash, '', 'the token is removed from the address bar');
      assert.equal(pathOf(page), linkPath);

      await button.click();
      await page.getByRole('heading', { name: T[lang].dashboard }).waitFor();
      assert.equal(pathOf(page), lang === 'ja' ? '/' : '/en');
      await expectToast(page, T[lang].welcome);
      assert.equal(verifyCalls.length, 1);

      // The link is single-use: opened again, the peek already says it is invalid (no button).
      const other = await newContext(stack.browser, stack.url, { lang, viewport });
      const again = await other.newPage();
      await again.goto(`${linkPath}#token=${encodeURIComponent(token)}`);
      await again.getByText(T[lang].linkInvalid).waitFor();
      assert.equal(await again.getByRole('button', { name: T[lang].confirm }).count(), 0);
      await other.close();

      // Without a token the page says the link is invalid.
      await page.goto(`${T[lang].prefix}/auth/callback`);
      await page.getByText(T[lang].linkInvalid).waitFor();
      assert.deepEqual(problems, []);
      await ctx.close();
    });
  }
});

describe('protected routes', () => {
  for (const { path, login, lang, viewport } of [
    { path: '/reminders', login: '/login', lang: 'ja', viewport: PHONE },
    { path: '/en/settings', login: '/en/login', lang: 'en', viewport: DESKTOP },
    { path: '/settings', login: '/login', lang: 'ja', viewport: DESKTOP },
    { path: '/en/reminders', login: '/en/login', lang: 'en', viewport: PHONE },
  ]) {
    it(`signed out: ${path} goes to ${login} with the toast (${viewport.width}px)`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport });
      const page = await ctx.newPage();
      await page.goto(path);
      await page.waitForURL((u) => u.pathname === login);
      await expectToast(page, T[lang].authRequired);
      await page.getByRole('button', { name: T[lang].sendCode }).waitFor();
      await ctx.close();
    });
  }

  it('en: after signing in from the redirect, the protected page opens', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en' });
    const page = await ctx.newPage();
    await page.goto('/en/settings');
    await page.waitForURL((u) => u.pathname === '/en/login');
    const { code } = await requestCode(page, 'en', uniqueEmail('from'));
    await page.locator('#login-otp').pressSequentially(code);
    await page.getByRole('button', { name: T.en.verify, exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/en/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    // a signed-in visit to /login goes home
    await page.goto('/en/login');
    await page.waitForURL((u) => u.pathname === '/en');
    await ctx.close();
  });
});

// Last, so the 60 s resend cooldown of the address made in before() has mostly passed.
describe('returning user', () => {
  it('en: returning user (is_new_user false) gets the signed-in toast', async () => {
    // the resend cooldown (60 s) of the address made in before()
    const wait = returning.createdAt + 61_000 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const ctx = await newContext(stack.browser, stack.url, { lang: 'en' });
    const page = await ctx.newPage();
    await page.goto('/en/login');
    const { code } = await requestCode(page, 'en', returning.email);
    await page.locator('#login-otp').pressSequentially(code);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: T.en.dashboard }).waitFor();
    await expectToast(page, T.en.signedIn);
    assert.equal(await page.locator('.toaster').getByText(T.en.welcome).count(), 0);
    await ctx.close();
  });
});
