// No English on a Japanese page: every ja page (signed out, signed in, as an admin; the guide's
// tabs and wizard, a reminder with its details, the dialog) is read as a person sees it (the
// text, the labels, the tab's title) and fails on
// - an English text of the app (the en locale values, and their parts between placeholders),
// - a raw code (VALIDATION_FAILED, no_devices, queued…),
// - any ASCII word the Japanese texts never use (so server English cannot slip through).
// Two server validation errors are provoked through the UI (a past send_at, a bad settings
// time) and must read in Japanese. Every page's title is its own, in Japanese.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DESKTOP, PHONE, WEB_DIR, apiCall, apiSignIn, newContext, startStack, tokyoDate, tr, uniqueEmail, watchPage } from './harness.mjs';

const t = (id, p) => tr('ja', id, p);

function localeValues(lang) {
  const dir = join(WEB_DIR, 'src', 'locales', lang);
  const out = [];
  const walk = (node) => {
    if (typeof node === 'string') out.push(node);
    else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) walk(JSON.parse(readFileSync(join(dir, f), 'utf8')));
  return out;
}

const JA_TEXTS = localeValues('ja').join('\n');
// Words the Japanese texts use themselves (brands, "Hibiki", "Safari"…) may show; and these.
const ALLOWED_WORDS = new Set(['Hibiki', 'UTC', 'GMT', 'JST', 'EN', 'JA']);
const jaWords = new Set([...JA_TEXTS.matchAll(/[A-Za-z]{3,}/g)].map((m) => m[0]));

/** English texts of the app: each en value's parts between placeholders, 2+ words or one capitalised word, that no ja text contains. */
const ENGLISH_UI = [
  ...new Set(
    localeValues('en')
      .flatMap((v) => v.split(/\{\{[^}]*\}\}/))
      .map((s) => s.trim().replace(/[.:,;!?…]+$/, ''))
      .filter((s) => /[A-Za-z]{2,}/.test(s) && (/\s/.test(s) ? s.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length >= 2 : /^[A-Z][a-z]{3,}$/.test(s)))
      .filter((s) => !JA_TEXTS.includes(s) && !ALLOWED_WORDS.has(s)),
  ),
];

const RAW_CODE = /\b[A-Z]{2,}(?:_[A-Z]+)+\b/;
const STATUS_WORDS = /\b(queued|no_devices|send_now|pending|completed|snoozed|cancelled|missed|failing|outbox|smtp|occurrence|undefined|null|NaN|true|false)\b/;

/** What a person reads on the page: visible text, accessible names and placeholders, the title. */
async function readPage(page) {
  return page.evaluate(() => {
    const parts = [document.title];
    parts.push(document.body.innerText);
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
    }
    return parts.join('\n');
  });
}

/** The problems on a page's text, after taking out what may be Latin (addresses, URLs, zone ids, user data). */
function englishOn(text, { allow = [] } = {}) {
  let rest = text
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\b[A-Z][A-Za-z]+\/[A-Za-z_+/-]+\b/g, ' ');
  for (const a of allow) rest = rest.split(a).join(' ');
  const problems = [];
  for (const phrase of ENGLISH_UI) {
    const re = new RegExp(`(^|[^A-Za-z])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z]|$)`);
    if (re.test(rest)) problems.push(`English UI text: "${phrase}"`);
  }
  const code = rest.match(RAW_CODE);
  if (code) problems.push(`raw code: ${code[0]}`);
  const status = rest.match(STATUS_WORDS);
  if (status) problems.push(`internal word: ${status[0]}`);
  for (const m of rest.matchAll(/[A-Za-z]{3,}/g)) {
    if (!jaWords.has(m[0]) && !ALLOWED_WORDS.has(m[0])) problems.push(`ASCII word not in the Japanese texts: "${m[0]}" in …${rest.slice(Math.max(0, m.index - 30), m.index + 30).replace(/\s+/g, ' ')}…`);
  }
  return [...new Set(problems)];
}

const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff]/;
const OPERATOR_SETTINGS = ['NAME', 'CONTACT', 'REPRESENTATIVE', 'ADDRESS', 'PHONE'].map((f) => `HIBIKI_OPERATOR_${f}`);

async function checkPage(page, where, opts) {
  await page.waitForLoadState('networkidle').catch(() => {});
  // The route's title is set after the first paint (lib/firstPaint): on a loaded machine that
  // can come after the network is idle, so wait for it (a page that never sets one still fails).
  await page.waitForFunction(() => document.title !== 'Hibiki', null, { timeout: 5000 }).catch(() => {});
  const problems = englishOn(await readPage(page), opts);
  assert.deepEqual(problems, [], `${where}: English on a Japanese page`);
  const title = await page.title();
  assert.notEqual(title, 'Hibiki', `${where}: the bare app name as the title`);
  assert.match(title, JAPANESE, `${where}: title "${title}" is not Japanese`);
  assert.match(title, / \| Hibiki$/, `${where}: title "${title}"`);
  return title;
}

const ADMIN = uniqueEmail('ja-admin');
let stack;
before(async () => {
  stack = await startStack({ env: { HIBIKI_ADMIN_EMAILS: ADMIN } });
});
after(async () => {
  await stack?.close();
});

describe('no English on a Japanese page', () => {
  it('the list of English texts is built from the en locale (and can find them)', () => {
    assert.ok(ENGLISH_UI.length > 200, `only ${ENGLISH_UI.length} English texts`);
    for (const s of ['Sign in', 'Reminders', 'Save', 'Delete', 'Something went wrong. Please try again']) assert.ok(ENGLISH_UI.includes(s), s);
    assert.ok(englishOn('保存 Save').some((p) => p.includes('"Save"')));
    assert.ok(englishOn('VALIDATION_FAILED').some((p) => p.startsWith('raw code')));
    assert.ok(englishOn('状態: no_devices').some((p) => p.startsWith('internal word')));
    assert.ok(englishOn('リマインダー send_at must be in the future').some((p) => p.includes('"must"')));
    assert.deepEqual(englishOn('Hibiki 響き taro@example.com Asia/Tokyo https://example.com/x UTC Safari'), []);
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`signed out, ${viewport.width}px: every page`, async () => {
      const ctx = await newContext(stack.browser, stack.url, { lang: 'ja', viewport, reducedMotion: 'reduce' });
      const page = await ctx.newPage();
      const errors = watchPage(page);
      const titles = new Map();
      for (const [path, heading] of [
        ['/', t('home:tagline')],
        ['/login', t('auth:title')],
        ['/faq', t('info:faq.title')],
        ['/guide', t('info:guide.title')],
        ['/privacy', t('info:privacy.title')],
        ['/terms', t('info:terms.title')],
        ['/commercial-transaction-act', t('info:commercial.title')],
        ['/status', t('status:title')],
        ['/no/such/page', t('notFound.title')],
      ]) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        if (path === '/status') await page.locator('.server-health [data-check="database"] .health-value', { hasText: t('status:health.values.ok') }).waitFor();
        titles.set(path, await checkPage(page, path));
      }
      assert.equal(new Set(titles.values()).size, titles.size, `every page has its own title: ${[...titles.values()]}`);
      // the check reads real pages: the English FAQ fails it
      await page.goto('/en/faq');
      await page.getByRole('heading', { level: 1, name: tr('en', 'info:faq.title') }).waitFor();
      assert.ok(englishOn(await readPage(page)).some((p) => p.includes('"Frequently asked questions"')));

      // the guide's tabs, and the wizard walked to a fix
      await page.goto('/guide');
      for (const tab of ['troubleshooting', 'diagnostics', 'platforms']) {
        await page.getByRole('tab', { name: t(`info:guide.tabs.${tab}`) }).click();
        if (tab === 'diagnostics') await page.locator('.diagnostics [data-check="connection"] .health-value', { hasText: t('info:guide.diagnostics.values.connected') }).waitFor();
        await checkPage(page, `/guide ${tab}`);
      }
      await page.getByRole('tab', { name: t('info:guide.tabs.troubleshooting') }).click();
      await checkPage(page, '/guide wizard question');
      await page.getByRole('button', { name: t('info:guide.troubleshooting.answers.noNotifications'), exact: true }).click();
      // the wizard does not ask what it knows (not an iPhone; headless Chromium blocks notifications): the fix at once
      await page.getByRole('heading', { name: t('info:guide.troubleshooting.fixes.unblock.title') }).waitFor();
      await page.locator('.wizard-trail li[data-known="true"]', { hasText: t('info:guide.troubleshooting.known') }).first().waitFor();
      await checkPage(page, '/guide wizard fix');
      assert.deepEqual(errors, []);
      await ctx.close();
    });
  }

  it('signed in as an admin: the dashboard, a reminder with its details and the dialog, settings, account deletion, admin, test email; server errors in Japanese', async () => {
    const ctx = await newContext(stack.browser, stack.url, { lang: 'ja', viewport: DESKTOP, reducedMotion: 'reduce' });
    await apiSignIn(ctx, stack.server, stack.smtp, ADMIN, 'ja');
    const title = '薬を飲む';
    await apiCall(ctx, stack.server, 'POST', '/api/reminders', {
      title,
      description: '朝食の後に1錠',
      send_at: `${tokyoDate(1)}T08:00:00+09:00`,
      timezone: 'Asia/Tokyo',
      recurrence: { kind: 'daily' },
    });
    const page = await ctx.newPage();
    const errors = watchPage(page);

    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: t('reminders:dashboard.title') }).waitFor();
    await page.getByText(title).first().waitFor();
    await checkPage(page, '/ (dashboard)');

    await page.goto('/reminders');
    await page.getByRole('heading', { level: 1, name: t('reminders:title') }).waitFor();
    const item = page.locator('.reminder-item').first();
    await item.getByRole('button', { name: t('reminders:details.show') }).click();
    await item.locator('.occurrences li').nth(4).waitFor();
    await checkPage(page, '/reminders with details');

    // a send_at the server refuses (made past on its way), through the dialog
    await page.getByRole('button', { name: t('reminders:editNamed', { title }) }).click();
    const dialog = page.getByRole('dialog', { name: t('reminders:dialog.editTitle') });
    await dialog.waitFor();
    await checkPage(page, '/reminders dialog');
    await page.route('**/api/reminders/*', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const body = { ...route.request().postDataJSON(), send_at: '2020-01-01T09:00:00+09:00' };
      await route.continue({ postData: JSON.stringify(body) });
    });
    await dialog.getByLabel(t('reminders:fields.time')).fill('10:30:00');
    await dialog.getByRole('button', { name: t('reminders:dialog.save') }).click();
    await dialog.locator('.field-error', { hasText: '未来の日時を指定してください。' }).waitFor();
    await checkPage(page, '/reminders dialog with a server error');
    await page.unroute('**/api/reminders/*');
    await dialog.getByRole('button', { name: t('reminders:dialog.cancel') }).click();

    // a settings value the server refuses (changed on its way): the toast names it in Japanese
    await page.goto('/settings');
    await page.getByRole('heading', { level: 1, name: t('settings:title') }).waitFor();
    await page.locator('#settings-tz').waitFor();
    // The sessions' device labels are the server's names of products ("Linux · Chrome"): data, not UI text.
    const sessions = page.getByRole('region', { name: t('sessions:title') });
    await sessions.locator('.device-label strong').first().waitFor();
    const labels = { allow: await sessions.locator('.device-label strong').allInnerTexts() };
    await checkPage(page, '/settings', labels);
    await page.route('**/api/settings', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      await route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), morning_time: '25:00' }) });
    });
    await page.getByRole('button', { name: t('settings:save'), exact: true }).click();
    const toast = page.locator('.toast', { hasText: '「明日の朝の時刻」は00:00〜23:59の時刻で入力してください。' });
    await toast.waitFor();
    await checkPage(page, '/settings with a server error', labels);
    await page.unroute('**/api/settings');

    for (const [path, heading, ready] of [
      ['/settings/delete-account', t('settings:delete.title')],
      ['/admin', t('admin:title'), '.admin-stats dt'],
      ['/admin/dashboard', t('admin:title'), '.admin-stats dt'],
      ['/admin/users', t('admin:users'), '.users-table'],
      ['/test-email', t('admin:testEmail.title')],
      ['/guide', t('info:guide.title')],
      ['/status', t('status:title')],
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (ready) await page.locator(ready).first().waitFor();
      // The admin and status pages name the operator settings this server lacks (the stack sets
      // none) by their environment names, which are not translated.
      await checkPage(page, path, { allow: OPERATOR_SETTINGS });
    }
    // the test email's answer
    await page.goto('/test-email');
    await page.getByRole('button', { name: t('admin:testEmail.send') }).click();
    await page.locator('.toast', { hasText: t('admin:testEmail.sent') }).waitFor();
    await checkPage(page, '/test-email sent');
    assert.deepEqual(errors, []);
    await ctx.close();
  });
});
