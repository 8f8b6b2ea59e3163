// Screenshots of the main screens (home signed out and in, login both steps, reminders list and
// dialog, settings, status, admin dashboard and users) at phone and desktop sizes in ja and en, into e2e/screenshots/
// (phone screens also at 320 px, `…-320`). Each screen is also checked for what a screenshot shows badly: no horizontal
// overflow at 390 px and at 320 px, the header on one row (nothing wrapped), the stylesheet applied under the CSP
// (no violations), and no Japanese left on English pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DESKTOP,
  PHONE,
  apiCall,
  apiSignIn,
  homePathOf,
  newContext,
  pickZone,
  prefixOf,
  screenshotPath,
  signInDetails,
  startStack,
  tokyoDate,
  tr,
  uniqueEmail,
  watchPage,
} from './harness.mjs';

// One admin per language and size (a second code to the same address within 60 s is refused).
const ADMINS = Object.fromEntries(['ja-390', 'ja-1280', 'en-390', 'en-1280'].map((k) => [k, uniqueEmail(`admin-${k}`)]));

let stack;
before(async () => {
  stack = await startStack({ env: { HIBIKI_ADMIN_EMAILS: Object.values(ADMINS).join(',') } });
});
after(async () => {
  await stack?.close();
});

// Japanese script (hiragana, katakana, CJK ideographs, full-width forms)
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
// Japanese that may appear on English pages: the app's name, the language choice.
const ALLOWED_ON_EN = ['響き', '日本語'];

async function clearToasts(page) {
  for (const close of await page.locator('.toast-close').all()) await close.click().catch(() => {});
  await page.locator('.toast').first().waitFor({ state: 'detached', timeout: 2000 }).catch(() => {});
}

/** Overflow wider than the viewport, at the current size and at 320 px (phone cases). */
async function overflow(page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const wide = [];
    // off the left edge (no scrollbar shows that): visible boxes that start left of 0
    const offLeft = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (r.width > 0 && r.height > 0 && r.left < -1 && style.visibility !== 'hidden' && !el.closest('.sr-only, .skip-link, details:not([open]) > :not(summary)')) {
        offLeft.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} left=${Math.round(r.left)}`);
      }
    }
    if (doc.scrollWidth > window.innerWidth) {
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > window.innerWidth + 1 && getComputedStyle(el).position !== 'fixed') {
          wide.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(r.right)}`);
        }
      }
    }
    return { scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth, wide: wide.slice(0, 8), offLeft: offLeft.slice(0, 8) };
  });
}

/**
 * The header on one row: the logo text on one line, every control (and the text in it) at the
 * header's height, side by side inside the header's box. Problems as strings, none when it fits.
 */
async function headerProblems(page) {
  return page.evaluate(() => {
    const header = document.querySelector('.site-header');
    if (!header) return ['no .site-header'];
    const out = [];
    const box = header.getBoundingClientRect();
    if (box.height > 64) out.push(`header ${Math.round(box.height)}px high`);
    const text = header.querySelector('.logo-text');
    if (text && text.getBoundingClientRect().width > 0) {
      const h = text.getBoundingClientRect().height;
      const lh = parseFloat(getComputedStyle(text).fontSize) * 1.8;
      if (h > lh) out.push(`logo text on more than one line (${Math.round(h)}px high)`);
    }
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && !el.matches('.skip-link, .sr-only') && getComputedStyle(el).visibility !== 'hidden';
    };
    const items = [...header.querySelectorAll(':scope > .logo, .header-end > :not(nav), .header-links > *')].filter(visible);
    const mid = (el) => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; };
    const m0 = mid(items[0]);
    for (const el of items) {
      const r = el.getBoundingClientRect();
      const id = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
      if (Math.abs(mid(el) - m0) > 4) out.push(`${id} off the row (middle ${Math.round(mid(el))} vs ${Math.round(m0)})`);
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${id} outside the header (${Math.round(r.left)}–${Math.round(r.right)})`);
      if (r.height > 44) out.push(`${id} ${Math.round(r.height)}px high (wrapped?)`);
      const p = el.parentElement.getBoundingClientRect();
      if (r.left < p.left - 0.5 || r.right > p.right + 0.5) out.push(`${id} sticks out of its row (${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(p.left)}–${Math.round(p.right)})`);
    }
    for (let i = 1; i < items.length; i++) {
      const gap = items[i].getBoundingClientRect().left - items[i - 1].getBoundingClientRect().right;
      if (gap < 3) out.push(`header items ${gap < 0 ? 'overlap' : 'touch'}: ${items[i - 1].className} / ${items[i].className} (${gap.toFixed(1)}px apart)`);
    }
    return out;
  });
}

async function checkScreen(page, { lang, viewport, name, problems, fullPage = true }) {
  await clearToasts(page);
  // the stylesheet is applied (a blocked stylesheet leaves the body white and unstyled)
  const styled = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(styled, 'rgba(0, 0, 0, 0)', `${name}: styles applied`);
  const o = await overflow(page);
  assert.ok(o.scrollWidth <= o.innerWidth && o.offLeft.length === 0, `${name} at ${o.innerWidth}px overflows: ${JSON.stringify(o)}`);
  assert.deepEqual(await headerProblems(page), [], `${name} at ${o.innerWidth}px: header`);
  const size = viewport === PHONE ? 'phone' : 'desktop';
  if (viewport === PHONE) {
    await page.setViewportSize({ width: 320, height: 640 });
    const small = await overflow(page);
    const header = await headerProblems(page);
    await page.screenshot({ path: screenshotPath(`${name}-${lang}-320`), fullPage, animations: 'disabled' });
    await page.setViewportSize(viewport);
    assert.ok(small.scrollWidth <= 320 && small.offLeft.length === 0, `${name} at 320px overflows: ${JSON.stringify(small)}`);
    assert.deepEqual(header, [], `${name} at 320px: header`);
  }
  if (lang === 'en') {
    let text = await page.evaluate(() => document.body.innerText);
    for (const ok of ALLOWED_ON_EN) text = text.replaceAll(ok, '');
    const line = text.split('\n').find((l) => JAPANESE.test(l));
    assert.equal(line, undefined, `${name}: Japanese text on an English page: "${line}"`);
  }
  assert.deepEqual(problems, [], `${name}: page errors or CSP violations`);
  await page.screenshot({ path: screenshotPath(`${name}-${lang}-${size}`), fullPage, animations: 'disabled' });
}

describe('screenshots of the main screens', () => {
  for (const lang of ['ja', 'en']) {
    for (const viewport of [PHONE, DESKTOP]) {
      it(`${lang} ${viewport.width}px`, async () => {
        const t = (id, p) => tr(lang, id, p);
        const ctx = await newContext(stack.browser, stack.url, { lang, viewport, reducedMotion: 'reduce' });
        const page = await ctx.newPage();
        const problems = watchPage(page);
        // overlays (dialog, menu) are shot as the viewport shows them; pages whole
        const screen = (name, fullPage = true) => checkScreen(page, { lang, viewport, name, problems, fullPage });

        await page.goto(homePathOf(lang));
        await page.getByRole('heading', { level: 1, name: t('home:tagline') }).waitFor();
        await screen('home-signed-out');

        await page.goto(`${prefixOf(lang)}/login`);
        const email = uniqueEmail(`shot-${lang}`);
        await page.getByLabel(t('auth:emailLabel')).fill(email);
        await screen('login-email');
        const since = stack.smtp.messages.length;
        await page.getByRole('button', { name: t('auth:sendCode') }).click();
        await page.locator('#login-otp').waitFor();
        const { code } = signInDetails(await stack.smtp.waitFor(email, { since }));
        await page.locator('#login-otp').pressSequentially(code.slice(0, 3));
        await screen('login-code');
        await page.locator('#login-otp').pressSequentially(code.slice(3));
        await page.getByRole('button', { name: t('auth:verify'), exact: true }).click();
        await page.getByRole('heading', { level: 1, name: t('reminders:dashboard.title') }).waitFor();

        // Some reminders to show: a long title, a description, recurrences.
        const base = { timezone: 'Asia/Tokyo' };
        const samples =
          lang === 'ja'
            ? [
                { title: '薬を飲む', description: '朝食の後に1錠', send_at: `${tokyoDate(1)}T08:00:00+09:00`, recurrence: { kind: 'daily' } },
                { title: 'ゴミ出し（燃えるゴミ）', send_at: `${tokyoDate(2)}T07:30:00+09:00`, recurrence: { kind: 'custom', days: ['mon', 'thu'] } },
                { title: '会議の資料をまとめて共有フォルダにアップロードし、チームのみんなに連絡する', send_at: `${tokyoDate(3)}T17:45:30+09:00`, recurrence: { kind: 'none' } },
              ]
            : [
                { title: 'Take medicine', description: 'One tablet after breakfast', send_at: `${tokyoDate(1)}T08:00:00+09:00`, recurrence: { kind: 'daily' } },
                { title: 'Put out the recycling', send_at: `${tokyoDate(2)}T07:30:00+09:00`, recurrence: { kind: 'custom', days: ['mon', 'thu'] } },
                { title: 'Gather the meeting notes, upload them to the shared folder and tell the whole team', send_at: `${tokyoDate(3)}T17:45:30+09:00`, recurrence: { kind: 'hourly', interval_hours: 12 } },
              ];
        for (const s of samples) await apiCall(ctx, stack.server, 'POST', '/api/reminders', { ...base, ...s });
        await page.reload();
        await page.locator('.dashboard .reminder-item').nth(2).waitFor();
        // the header's icons are drawn (inline SVG): a font glyph can show as an empty box
        await page.locator('.site-header .header-create svg').waitFor();
        assert.equal(await page.locator(`.site-header summary[aria-label="${t('nav.menu')}"] svg`).count(), 1);
        const headerText = await page.locator('.site-header').innerText();
        assert.doesNotMatch(headerText, /[\u2190-\u2bff\uff01-\uff0f\u{1f000}-\u{1faff}]/u, `symbol glyphs in the header: ${headerText}`);
        await screen('home-signed-in');

        await page.goto(`${prefixOf(lang)}/reminders`);
        await page.locator('.reminder-item').nth(2).waitFor();
        await screen('reminders-list');
        const first = page.locator('.reminder-item').first();
        await first.getByRole('button', { name: t('reminders:details.show') }).click();
        await first.locator('.occurrences li').nth(4).waitFor();
        await screen('reminders-details');
        await first.getByRole('button', { name: t('reminders:details.hide') }).click();

        await page.locator('main').getByRole('button', { name: t('reminders:create'), exact: true }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(t('reminders:fields.title')).fill(lang === 'ja' ? 'ストレッチ' : 'Stretch');
        await pickZone(dialog, t('reminders:fields.timezone'), 'Asia/Tokyo');
        await dialog.getByLabel(t('reminders:fields.date')).fill(tokyoDate(1));
        await dialog.getByLabel(t('reminders:fields.time')).fill('15:00:00');
        await dialog.getByLabel(t('reminders:fields.recurrence')).selectOption('custom');
        for (const d of ['mon', 'wed', 'fri']) await dialog.getByLabel(t(`reminders:weekdays.${d}`), { exact: true }).check();
        await dialog.locator('.preview ol li').nth(4).waitFor();
        await screen('reminders-dialog', false);
        await dialog.locator('.preview').scrollIntoViewIfNeeded();
        await screen('reminders-dialog-preview', false);
        await dialog.getByRole('button', { name: t('reminders:dialog.cancel') }).click();

        await page.goto(`${prefixOf(lang)}/settings`);
        await page.locator('#settings-tz').waitFor();
        await screen('settings');

        await page.goto(`${prefixOf(lang)}/guide#diagnostics`);
        await page.locator('.browser-checks li').nth(4).waitFor();
        await screen('guide');

        // the signed-in menu, opened (phone: the only way to the other pages)
        await page.locator(`summary[aria-label="${t('nav.menu')}"]`).click();
        await page.getByRole('button', { name: t('nav.signOut') }).waitFor();
        await screen('menu', false);

        // not an admin: /admin/users says so, with no admin links
        await page.goto(`${prefixOf(lang)}/admin/users`);
        await page.getByRole('heading', { name: t('admin:adminsOnly.title') }).waitFor();
        await page.getByText(t('admin:forbidden')).waitFor();
        assert.equal(await page.locator('.users-table').count(), 0);
        assert.equal(await page.locator('a[href$="/admin/users"], a[href$="/admin/dashboard"]').count(), 0);
        await screen('admin-users-forbidden');
        await ctx.close();
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Status and admin pages. Each is shot as this server answers (a fresh server has delivered
// nothing: all-zero timelines, or none from a server that does not send timeline_1h /
// timeline_24h yet), then again with the server's real answer carrying a fixture timeline
// (page.route), named `…-fixture`, so charts with bars are seen in a real browser too.

const FIVE_MIN = 5 * 60_000;
const HOUR = 3_600_000;
const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');

function fixtureTimeline1h() {
  const start = (Math.floor(Date.now() / FIVE_MIN) - 11) * FIVE_MIN;
  const rows = [[3, 0, 412], [0, 0, null], [5, 1, 380], [12, 0, 950], [7, 2, 1830], [0, 0, null], [1, 0, 120], [9, 0, 640], [4, 0, 300], [0, 0, null], [2, 1, 2500], [6, 0, 410]];
  return rows.map(([sent, failed, p99], i) => ({ start: iso(start + i * FIVE_MIN), sent, failed, lateness_p99_ms: p99 }));
}

function fixtureTimeline24h() {
  const start = (Math.floor(Date.now() / HOUR) - 23) * HOUR;
  return Array.from({ length: 24 }, (_, i) => ({ start: iso(start + i * HOUR), sent: i === 9 ? 130 : (i * 7) % 40, failed: i === 9 ? 3 : i % 6 === 0 ? 1 : 0 }));
}

/** Serves the server's real answer for `path` with `field` of its data set to `make()`. */
async function withFixture(page, path, field, make) {
  await page.route(`**${path}`, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    if (body?.data) body.data[field] = make();
    await route.fulfill({ response, json: body });
  });
}

/** The charts on screen: `count` images with a summary each, bars when the data has any, else the empty text. */
async function checkCharts(page, scope, count, { bars }) {
  const charts = page.locator(`${scope} svg[role="img"]`);
  await charts.nth(count - 1).waitFor();
  assert.equal(await charts.count(), count, `${scope}: ${count} charts`);
  for (const chart of await charts.all()) {
    const label = await chart.getAttribute('aria-label');
    assert.ok(label && label.length > 10, `${scope}: chart summary "${label}"`);
    const box = await chart.boundingBox();
    assert.ok(box && box.width > 200 && box.height > 80, `${scope}: chart size ${JSON.stringify(box)}`);
    const drawn = await chart.locator('rect.chart-bar').count();
    if (bars) assert.ok(drawn > 0, `${scope}: bars drawn`);
  }
  if (!bars) assert.equal(await page.locator(`${scope} .chart-empty`).count(), count, `${scope}: the empty text on every chart`);
}

const hasBars = (timeline) => Array.isArray(timeline) && timeline.some((b) => b.sent > 0 || b.failed > 0);

describe('screenshots of the status and admin pages', () => {
  for (const lang of ['ja', 'en']) {
    for (const viewport of [PHONE, DESKTOP]) {
      it(`${lang} ${viewport.width}px`, async () => {
        const t = (id, p) => tr(lang, id, p);
        // no service worker: page.route must see the API calls
        const ctx = await newContext(stack.browser, stack.url, { lang, viewport, reducedMotion: 'reduce', serviceWorkers: 'block' });
        const page = await ctx.newPage();
        const problems = watchPage(page);
        const screen = (name, fullPage = true) => checkScreen(page, { lang, viewport, name, problems, fullPage });

        // /status, signed out (public), as the server answers
        const live = await apiCall(ctx, stack.server, 'GET', '/api/status');
        await page.goto(`${prefixOf(lang)}/status`);
        await page.getByRole('heading', { level: 1, name: t('status:title') }).waitFor();
        await page.locator('.server-status dt', { hasText: t('status:figures.queueDepth') }).waitFor();
        if (Array.isArray(live.timeline_1h)) await checkCharts(page, '.server-status', 2, { bars: hasBars(live.timeline_1h) });
        else assert.equal(await page.locator('.server-status svg').count(), 0);
        await screen(Array.isArray(live.timeline_1h) ? 'status' : 'status-no-timeline');
        // with a fixture timeline, the table of the second chart open
        await withFixture(page, '/api/status', 'timeline_1h', fixtureTimeline1h);
        await page.reload();
        await checkCharts(page, '.server-status', 2, { bars: true });
        await page.locator('.server-status .chart-table summary').nth(1).click();
        await page.locator('.server-status .chart-table').nth(1).locator('tbody tr').nth(11).waitFor();
        // back to the top, or the full-page shot has the sticky header mid-page
        await page.evaluate(() => window.scrollTo(0, 0));
        await screen('status-fixture');
        await page.unroute('**/api/status');

        // /admin/dashboard, signed in as an admin
        await apiSignIn(ctx, stack.server, stack.smtp, ADMINS[`${lang}-${viewport.width}`], lang);
        // The zone a sign-up in the app takes from the browser (the API sign-in leaves UTC).
        await apiCall(ctx, stack.server, 'PUT', '/api/settings', { timezone: 'Asia/Tokyo' });
        const stats = await apiCall(ctx, stack.server, 'GET', '/api/admin/stats');
        await page.goto(`${prefixOf(lang)}/admin/dashboard`);
        await page.getByRole('heading', { level: 1, name: t('admin:title') }).waitFor();
        await page.locator('.admin-stats dt', { hasText: t('admin:figures.users') }).waitFor();
        if (Array.isArray(stats.timeline_24h)) await checkCharts(page, '.admin-stats', 1, { bars: hasBars(stats.timeline_24h) });
        else assert.equal(await page.locator('.admin-stats svg').count(), 0);
        await screen(Array.isArray(stats.timeline_24h) ? 'admin' : 'admin-no-timeline');
        await withFixture(page, '/api/admin/stats', 'timeline_24h', fixtureTimeline24h);
        await page.reload();
        await checkCharts(page, '.admin-stats', 1, { bars: true });
        await screen('admin-fixture');
        await page.unroute('**/api/admin/stats');

        // /admin/users: the server's list, this admin in it, in the page's language and the admin's zone
        const email = ADMINS[`${lang}-${viewport.width}`];
        const list = await apiCall(ctx, stack.server, 'GET', '/api/admin/users?page=1&per_page=50');
        const me = list.users.find((u) => u.email === email);
        assert.ok(me, `${email} in GET /api/admin/users: ${JSON.stringify(list)}`);
        const pages = Math.max(1, Math.ceil(list.total / list.per_page));
        await page.goto(`${prefixOf(lang)}/admin/users`);
        await page.getByRole('heading', { level: 1, name: t('admin:users') }).waitFor();
        const row = page.locator('.users-table tbody tr', { has: page.locator('th', { hasText: email }) });
        await row.waitFor();
        // Times in the admin's zone (Asia/Tokyo, its settings): the last
        // activity is today (or yesterday, past midnight), the sign-up day has no year this year.
        const created = await page.evaluate(
          ({ me, locale }) => {
            const day = (ms, o) => new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Tokyo', ...o }).format(ms);
            const year = day(Date.parse(me.created_at), { year: 'numeric' }) !== day(Date.now(), { year: 'numeric' });
            return day(Date.parse(me.created_at), { month: 'short', day: 'numeric', ...(year ? { year: 'numeric' } : {}) });
          },
          { me, locale: lang === 'ja' ? 'ja-JP' : 'en-US' },
        );
        const cells = (await row.locator('th, td').allInnerTexts()).map((c) => c.trim());
        assert.deepEqual([...cells.slice(0, 3), ...cells.slice(4)], [email, String(me.active_reminders), String(me.archived_reminders), created, t('admin:userList.active')]);
        assert.match(cells[3], lang === 'ja' ? /^(今日|昨日) \d{1,2}:\d{2}(:\d{2})?$/ : /^(Today|Yesterday), \d{1,2}:\d{2}(:\d{2})? [AP]M$/);
        assert.equal(await page.locator('.users-table tbody tr').count(), Math.min(list.total, 50));
        await page.getByText(t('admin:userList.timeZone', { zone: 'Asia/Tokyo' }), { exact: false }).waitFor();
        const pager = page.getByRole('navigation', { name: t('admin:userList.pagination') });
        await pager.getByText(t('admin:userList.page', { page: 1, pages }), { exact: true }).waitFor();
        assert.equal(await pager.getByRole('button', { name: t('admin:userList.prev') }).isDisabled(), true);
        assert.equal(await pager.getByRole('button', { name: t('admin:userList.next') }).isDisabled(), pages === 1);
        await screen('admin-users');
        // a page past the end (the server answers an empty page with the total)
        await page.goto(`${prefixOf(lang)}/admin/users?page=${pages + 1}`);
        await page.getByText(t('admin:userList.emptyPage')).waitFor();
        await page.getByRole('button', { name: t('admin:userList.firstPage') }).click();
        await row.waitFor();
        await ctx.close();
      });
    }
  }

  it('dark mode (en 1280px, ja 390px)', async () => {
    for (const [lang, viewport] of [['en', DESKTOP], ['ja', PHONE]]) {
      const ctx = await newContext(stack.browser, stack.url, { lang, viewport, reducedMotion: 'reduce', serviceWorkers: 'block', colorScheme: 'dark' });
      const page = await ctx.newPage();
      const problems = watchPage(page);
      await withFixture(page, '/api/status', 'timeline_1h', fixtureTimeline1h);
      await page.goto(`${prefixOf(lang)}/status`);
      await checkCharts(page, '.server-status', 2, { bars: true });
      // the bars take the dark palette (--brand is #818cf8 in dark mode)
      const fill = await page.locator('.server-status rect.chart-sent').first().evaluate((el) => getComputedStyle(el).fill);
      assert.equal(fill, 'rgb(129, 140, 248)');
      await checkScreen(page, { lang, viewport, name: 'status-fixture-dark', problems });
      await ctx.close();
    }
  });
});
