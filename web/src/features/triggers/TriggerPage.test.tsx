/**
 * A trigger link's page (/t/:secret): it never posts on load; each button posts its body and
 * says the answer in words; 404 says the link no longer works, 429 how long to wait; it speaks
 * the language of the answer whatever the path says; a hidden title shows a neutral "Reminder".
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n';
import { resetAuthForTests } from '../../lib/authStore';
import { json, mockFetch, ok, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import type { TriggerPageData } from './triggerPageApi';

const SECRET = 'sEcReT123';
const PAGE: TriggerPageData = {
  reminder_id: 'r1',
  title: 'Take out the trash',
  language: 'en',
  is_active: true,
  ringing: false,
  next_at: '2030-01-02T00:00:00Z',
};

function server(page: Partial<TriggerPageData> = {}, post: Handler = () => ok({ log_id: 'l1' }, 202)) {
  const posts: unknown[] = [];
  const fetch = mockFetch({
    'GET /api/auth/session': () => json(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'x' } }),
    [`GET /api/triggers/${SECRET}`]: () => ok({ ...PAGE, ...page }),
    [`POST /t/${SECRET}`]: (url, init) => {
      posts.push(init.body ? JSON.parse(String(init.body)) : undefined);
      return post(url, init);
    },
  });
  return { fetch, posts };
}

const buttons = async (lang: 'ja' | 'en') => ({
  ring: await screen.findByRole('button', { name: tr(lang, 'automations:page.ring') }),
  complete: screen.getByRole('button', { name: tr(lang, 'automations:page.complete') }),
  snooze: screen.getByRole('button', { name: tr(lang, 'automations:page.snooze') }),
});

beforeAll(async () => {
  await import('./TriggerPage');
  const i18nInstance = (await import('../../i18n')).initI18n('en');
  await i18nInstance.loadLanguages(['ja', 'en']);
  await i18nInstance.loadNamespaces(['automations']);
});
beforeEach(() => {
  resetAuthForTests({ user: null, status: 'signedOut' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('the trigger page', () => {
  it('shows the title, whether it rings and when next, and three buttons, and posts nothing on load', async () => {
    const { fetch, posts } = server();
    renderApp(`/en/t/${SECRET}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Take out the trash' })).toBeInTheDocument();
    await buttons('en');
    expect(screen.getByText(tr('en', 'automations:page.notRinging'))).toBeInTheDocument();
    expect(screen.getByText(/^Next ring: /)).toBeInTheDocument();
    // Give any stray effect its chance: still no POST.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(posts).toEqual([]);
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
  });

  it('Ring now posts {action: ring} and says it rang', async () => {
    const { posts } = server();
    renderApp(`/en/t/${SECRET}`);
    fireEvent.click((await buttons('en')).ring);
    expect(await screen.findByText(tr('en', 'automations:page.rang'))).toBeInTheDocument();
    expect(posts).toEqual([{ action: 'ring' }]);
  });

  it('Done posts {action: complete} and says when it rings next; already done says so', async () => {
    let changed = true;
    const { posts } = server({ ringing: true }, () => ok({ action: 'complete', changed, next_at: changed ? '2030-01-03T00:00:00Z' : null }));
    renderApp(`/en/t/${SECRET}`);
    expect(await screen.findByText(tr('en', 'automations:page.ringing'))).toBeInTheDocument();
    fireEvent.click((await buttons('en')).complete);
    expect(await screen.findByText(/^Marked done\. Next ring: /)).toBeInTheDocument();
    changed = false;
    fireEvent.click((await buttons('en')).complete);
    expect(await screen.findByText(tr('en', 'automations:page.alreadyDone'))).toBeInTheDocument();
    expect(posts).toEqual([{ action: 'complete' }, { action: 'complete' }]);
  });

  it('Snooze (10 min) posts {action: snooze, snooze_minutes: 10} and says when it rings again', async () => {
    const { posts } = server({ ringing: true }, () => ok({ action: 'snooze', changed: true, next_at: '2030-01-01T00:10:00Z' }));
    renderApp(`/en/t/${SECRET}`);
    fireEvent.click((await buttons('en')).snooze);
    expect(await screen.findByText(/^Snoozed: it rings again /)).toBeInTheDocument();
    expect(posts).toEqual([{ action: 'snooze', snooze_minutes: 10 }]);
  });

  it('a 429 says how many seconds to wait', async () => {
    server({}, () => new Response(JSON.stringify({ success: false, error: { code: 'RATE_LIMITED', message: 'slow' } }), { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '42' } }));
    renderApp(`/en/t/${SECRET}`);
    fireEvent.click((await buttons('en')).ring);
    expect(await screen.findByText(tr('en', 'automations:page.wait', { seconds: 42 }))).toBeInTheDocument();
  });

  it('a 404 on a button says the link no longer works', async () => {
    server({}, () => json(404, { success: false, error: { code: 'NOT_FOUND', message: 'gone' } }));
    renderApp(`/en/t/${SECRET}`);
    fireEvent.click((await buttons('en')).ring);
    expect(await screen.findByText(tr('en', 'automations:page.gone'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: tr('en', 'automations:page.ring') })).toBeNull();
  });

  it('an unknown link says it no longer works, with no buttons', async () => {
    const { posts } = server();
    renderApp('/en/t/unknown');
    expect(await screen.findByText(tr('en', 'automations:page.gone'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: tr('en', 'automations:page.ring') })).toBeNull();
    expect(posts).toEqual([]);
  });

  it('speaks the language of the answer, not of the path (which keeps the address and the rest of the app)', async () => {
    server({ language: 'ja' });
    renderApp(`/en/t/${SECRET}`);
    await buttons('ja');
    expect(screen.getByText(tr('ja', 'automations:page.notRinging'))).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 }).closest('section')).toHaveAttribute('lang', 'ja');
    expect(screen.getByTestId('location')).toHaveTextContent(`/en/t/${SECRET}`);
    expect(i18n.language).toBe('en');
  });

  it('an English maker on a Japanese path: English', async () => {
    server({ language: 'en' });
    renderApp(`/t/${SECRET}`);
    await buttons('en');
    expect(screen.getByText(tr('en', 'automations:page.notRinging'))).toBeInTheDocument();
  });

  it('a hidden title shows a neutral "Reminder"', async () => {
    server({ title: null, language: 'ja' });
    renderApp(`/t/${SECRET}`);
    expect(await screen.findByRole('heading', { level: 1, name: tr('ja', 'automations:page.hidden') })).toBeInTheDocument();
  });
});
