/**
 * The operator learns on the admin page, and on the status page when an admin views it, which
 * operator settings are missing and what each is for (the legal pages leave missing lines out).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../lib/authStore';
import type { Lang } from '../lib/lang';
import type { User } from '../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../test/renderApp';
import { tr } from '../test/texts';
import { missingOperatorSettings } from './OperatorSetupNotice';

const USER: User = { id: 'u1', email: 'admin@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const PARTLY = { name: '響き合同会社', contact: 'support@hibiki.example', representative: null, address: null, phone: null };
const FULL = { name: '響き合同会社', contact: 'support@hibiki.example', representative: '山田太郎', address: '東京都千代田区1-1', phone: '03-1234-5678' };
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');

function serve(operator: unknown, isAdmin = true) {
  return mockFetch({
    'GET /api/auth/session': () => ok({ user: USER, is_admin: isAdmin }),
    'GET /api/site': () => ok({ operator, error_reporting: null }),
    'GET /api/admin/stats': () => ok({ users: 1 }),
    'GET /api/status': () => ok({}),
  });
}

const notice = (lang: Lang) => screen.findByRole('region', { name: tr(lang, 'admin:operatorSetup.title') });

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  resetAuthForTests({ user: USER, status: 'signedIn', isAdmin: true });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('missing operator settings, told to the operator', () => {
  it('names the settings that are not set, by their environment names', () => {
    expect(missingOperatorSettings(PARTLY).map(([, env]) => env)).toEqual(['HIBIKI_OPERATOR_REPRESENTATIVE', 'HIBIKI_OPERATOR_ADDRESS', 'HIBIKI_OPERATOR_PHONE']);
    expect(missingOperatorSettings(FULL)).toEqual([]);
    expect(missingOperatorSettings({ name: '', contact: null, representative: null, address: null, phone: null })).toHaveLength(5);
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the admin page lists each missing setting and what it is for`, async () => {
      serve(PARTLY);
      renderApp(`${prefix(lang)}/admin`);
      const box = await notice(lang);
      const items = within(box).getAllByRole('listitem');
      expect(items.map((li) => li.querySelector('code')!.textContent)).toEqual(['HIBIKI_OPERATOR_REPRESENTATIVE', 'HIBIKI_OPERATOR_ADDRESS', 'HIBIKI_OPERATOR_PHONE']);
      expect(items[0]).toHaveTextContent(tr(lang, 'admin:operatorSetup.fields.representative'));
      expect(items[2]).toHaveTextContent(tr(lang, 'admin:operatorSetup.fields.phone'));
      expect(box).toHaveTextContent(tr(lang, 'admin:operatorSetup.how'));
    });
  }

  it('en: every setting missing: all five are listed on the status page an admin views', async () => {
    serve({ name: null, contact: null, representative: null, address: null, phone: null });
    renderApp('/en/status');
    const box = await notice('en');
    expect(within(box).getAllByRole('listitem').map((li) => li.querySelector('code')!.textContent)).toEqual([
      'HIBIKI_OPERATOR_NAME',
      'HIBIKI_OPERATOR_CONTACT',
      'HIBIKI_OPERATOR_REPRESENTATIVE',
      'HIBIKI_OPERATOR_ADDRESS',
      'HIBIKI_OPERATOR_PHONE',
    ]);
  });

  it('en: nothing missing, no notice', async () => {
    const fetch = serve(FULL);
    renderApp('/en/admin');
    expect(await screen.findByRole('heading', { level: 2, name: tr('en', 'admin:stats') })).toBeInTheDocument();
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => url === '/api/site')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('region', { name: tr('en', 'admin:operatorSetup.title') })).toBeNull();
  });

  it('ja: the status page does not tell someone who is not an admin', async () => {
    resetAuthForTests({ status: 'signedOut' });
    const fetch = serve(PARTLY, false);
    renderApp('/status');
    expect(await screen.findByRole('heading', { level: 1, name: tr('ja', 'status:title') })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('region', { name: tr('ja', 'admin:operatorSetup.title') })).toBeNull();
    expect(fetch.mock.calls.some(([url]) => url === '/api/site')).toBe(false);
  });
});
