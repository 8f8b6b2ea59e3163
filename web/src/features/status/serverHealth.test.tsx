/**
 * The status page's server health: database and email from GET /api/health `checks`, in both
 * languages, including a 503 (database down) and no answer at all.
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetAuthForTests } from '../../lib/authStore';
import { status } from '../../test/metricsFixtures';
import { json, mockFetch, ok, renderApp } from '../../test/renderApp';
import { serverHealthRows } from './serverHealth';

const health = (checks: Record<string, string>, code = 200) =>
  json(code, { success: true, data: { status: checks.database === 'ok' ? 'ok' : 'degraded', checks: { queue: 'ok', scheduler: 'ok', ...checks } } });

async function rowText(id: 'database' | 'mail', value: string) {
  const list = await screen.findByText(value, { selector: `[data-check="${id}"] .health-value` });
  return within(list.closest('li')!).getByText((_, el) => el?.classList.contains('health-name') ?? false).textContent;
}

describe('server health rows', () => {
  it('maps the checks, and anything unknown or missing to "unable to check"', () => {
    expect(serverHealthRows({ status: 'ok', checks: { database: 'ok', mail: 'smtp' } })).toEqual([
      { id: 'database', status: 'healthy', value: 'ok' },
      { id: 'mail', status: 'healthy', value: 'smtp' },
    ]);
    expect(serverHealthRows({ status: 'degraded', checks: { database: 'down', mail: 'outbox' } })).toEqual([
      { id: 'database', status: 'error', value: 'down' },
      { id: 'mail', status: 'warning', value: 'outbox' },
    ]);
    expect(serverHealthRows({ status: 'ok', checks: { database: 'sideways' } }).map((r) => r.value)).toEqual(['unknown', 'unknown']);
    expect(serverHealthRows(undefined).map((r) => r.value)).toEqual(['unknown', 'unknown']);
  });
});

describe('/status: server health', () => {
  beforeEach(() => resetAuthForTests({ status: 'signedOut' }));

  it('en: database working, email sending', async () => {
    mockFetch({ 'GET /api/status': () => ok(status), 'GET /api/health': () => health({ database: 'ok', mail: 'smtp' }) });
    renderApp('/en/status');
    expect(await screen.findByRole('heading', { name: 'Server health' })).toBeInTheDocument();
    expect(await rowText('database', 'Working')).toBe('Database');
    expect(await rowText('mail', 'Sending')).toBe('Email');
  });

  it('ja: a 503 still shows the database as down; email kept in the outbox', async () => {
    mockFetch({ 'GET /api/status': () => ok(status), 'GET /api/health': () => health({ database: 'down', mail: 'outbox' }, 503) });
    renderApp('/status');
    expect(await screen.findByRole('heading', { name: 'サーバーの稼働状況' })).toBeInTheDocument();
    expect(await rowText('database', '利用できません')).toBe('データベース');
    expect(await rowText('mail', '送信されません（メールサーバー未設定のため、サーバー内に保存のみ）')).toBe('メール');
  });

  it('ja: no answer reads "unable to check"', async () => {
    mockFetch({ 'GET /api/status': () => ok(status), 'GET /api/health': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderApp('/status');
    expect(await rowText('database', '確認できません')).toBe('データベース');
    expect(await rowText('mail', '確認できません')).toBe('メール');
  });
});
