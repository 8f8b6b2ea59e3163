/**
 * Optimistic create, update and delete (product spec section 4 "Sync"): the list shows the
 * change at once, while the server's answer is held back; when the server then fails (500 or a
 * network error) the list returns to what it was and the person is told. The list reload SWR
 * starts after a mutation is held too, so what restores the list is the rollback itself.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { Reminder, User } from '../../lib/types';
import { deferred, json, mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };

function reminder(id: string, title: string): Reminder {
  const at = '2030-01-02T00:00:05Z';
  return {
    id, user_id: 'u1', title, send_at: at, scheduled_at: at, timezone: 'Asia/Tokyo', recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false, created_by: 'u1', created_at: at, updated_at: at,
  };
}

const SERVER_LIST = [reminder('a', 'Water the plants'), reminder('b', 'Call the bank')];

/** The first list load answers; every later one (SWR's reload after a mutation) is held until the test ends. */
function listRoute() {
  const held: ReturnType<typeof deferred<Response>>[] = [];
  let calls = 0;
  return {
    handler: () => {
      calls += 1;
      if (calls === 1) return ok(SERVER_LIST);
      const d = deferred<Response>();
      held.push(d);
      return d.promise;
    },
    release: () => held.forEach((d) => d.resolve(ok(SERVER_LIST))),
  };
}

type Failure = '500' | 'network';
const fail = (how: Failure) => (how === '500' ? json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }) : Promise.reject(new TypeError('Failed to fetch')));
/** What the dialog says when saving failed this way. */
// A 500 is told by its code (src/lib/apiErrors.ts), a lost connection by the dialog.
const saveError = (lang: Lang, how: Failure) => tr(lang, how === '500' ? 'errors:code.INTERNAL_ERROR' : 'reminders:errors.network');

const titles = () =>
  within(screen.getByRole('tabpanel'))
    .queryAllByRole('heading', { level: 2 })
    .map((h) => h.textContent);

let release = () => {};
// On a busy machine a lazy page's first transform alone can outlast what a findBy waits for.
beforeAll(preloadApp, 120_000);

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // the client logs every 500
});
afterEach(() => release());

async function openPage(lang: Lang, routes: Parameters<typeof mockFetch>[0]) {
  const list = listRoute();
  release = list.release;
  const fetch = mockFetch({
    'GET /api/reminders': list.handler,
    'POST /api/reminders/preview': () => ok({ occurrences: [] }),
    ...routes,
  });
  renderApp(lang === 'en' ? '/en/reminders' : '/reminders');
  // In the page's language (the previous test may have left i18next in the other one).
  await screen.findByRole('heading', { level: 1, name: tr(lang, 'reminders:title') });
  await screen.findByRole('heading', { level: 2, name: 'Water the plants' });
  return fetch;
}

const CASES: { lang: Lang; how: Failure }[] = [
  { lang: 'en', how: '500' },
  { lang: 'ja', how: 'network' },
];

describe('optimistic create', () => {
  for (const { lang, how } of CASES) {
    it(`${lang}: the new reminder shows before the server answers, and goes when it fails (${how})`, async () => {
      const answer = deferred<Response>();
      await openPage(lang, { 'POST /api/reminders': () => answer.promise });
      const main = screen.getByRole('main');
      fireEvent.click(within(main).getAllByRole('button', { name: tr(lang, 'reminders:create') })[0]!);
      const dialog = await screen.findByRole('dialog', { name: tr(lang, 'reminders:dialog.createTitle') });
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'reminders:fields.title')), { target: { value: 'Stretch' } });
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'reminders:fields.date')), { target: { value: '2030-01-03' } });
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'reminders:fields.time')), { target: { value: '09:00:05' } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));

      // At once, while the server has not answered: in the list, marked as not yet saved.
      const row = (await screen.findByRole('heading', { level: 2, name: 'Stretch' })).closest('li')!;
      expect(within(row).getByText(tr(lang, 'reminders:pendingSync'))).toBeInTheDocument();
      expect(titles()).toEqual(expect.arrayContaining(['Water the plants', 'Call the bank', 'Stretch']));

      answer.resolve(fail(how));
      await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'Stretch' })).toBeNull());
      expect(titles()).toEqual(['Water the plants', 'Call the bank']);
      // The dialog stays open with what was typed, and says why.
      // The rollback and the dialog's error come in separate renders: wait for the error.
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(saveError(lang, how));
      expect(within(dialog).getByLabelText(tr(lang, 'reminders:fields.title'))).toHaveValue('Stretch');
    });
  }

  it('en: a created reminder replaces its stand-in when the server answers', async () => {
    const answer = deferred<Response>();
    await openPage('en', { 'POST /api/reminders': () => answer.promise });
    fireEvent.click(within(screen.getByRole('main')).getAllByRole('button', { name: 'Create reminder' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create reminder' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Stretch' } });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2030-01-03' } });
    fireEvent.change(within(dialog).getByLabelText('Time (to the second)'), { target: { value: '09:00:05' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Waiting to sync');
    answer.resolve(ok(reminder('c', 'Stretch'), 201));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.queryByText('Waiting to sync')).toBeNull());
    expect(titles().filter((t) => t === 'Stretch')).toHaveLength(1);
  });
});

describe('optimistic update', () => {
  for (const { lang, how } of CASES) {
    it(`${lang}: the change shows before the server answers, and is undone when it fails (${how})`, async () => {
      const answer = deferred<Response>();
      const sent: unknown[] = [];
      await openPage(lang, {
        'PUT /api/reminders/a': (_u, init) => {
          sent.push(JSON.parse(init.body as string));
          return answer.promise;
        },
      });
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'reminders:editNamed', { title: 'Water the plants' }) }));
      const dialog = await screen.findByRole('dialog', { name: tr(lang, 'reminders:dialog.editTitle') });
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'reminders:fields.title')), { target: { value: 'Water the garden' } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));

      await screen.findByRole('heading', { level: 2, name: 'Water the garden' });
      expect(titles()).not.toContain('Water the plants');
      expect(sent).toEqual([{ title: 'Water the garden' }]);

      answer.resolve(fail(how));
      await screen.findByRole('heading', { level: 2, name: 'Water the plants' });
      expect(titles()).toEqual(['Water the plants', 'Call the bank']);
      // The rollback and the dialog's error come in separate renders: wait for the error.
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(saveError(lang, how));
    });
  }
});

describe('optimistic delete', () => {
  for (const { lang, how } of CASES) {
    it(`${lang}: the reminder leaves the list at once, and comes back with an error when it fails (${how})`, async () => {
      const answer = deferred<Response>();
      const fetch = await openPage(lang, { 'DELETE /api/reminders/b': () => answer.promise });
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'reminders:deleteNamed', { title: 'Call the bank' }) }));
      const confirm = await screen.findByRole('dialog', { name: tr(lang, 'reminders:deleteConfirm.title') });
      fireEvent.click(within(confirm).getByRole('button', { name: tr(lang, 'reminders:delete') }));

      await waitFor(() => expect(titles()).toEqual(['Water the plants']));
      expect(fetch.mock.calls.some(([u, init]) => u === '/api/reminders/b' && init?.method === 'DELETE')).toBe(true);

      answer.resolve(fail(how));
      await screen.findByRole('heading', { level: 2, name: 'Call the bank' });
      expect(titles()).toEqual(['Water the plants', 'Call the bank']);
      expect(await screen.findByText(tr(lang, 'reminders:errors.deleteFailed'))).toBeInTheDocument();
      expect(screen.queryByText(tr(lang, 'reminders:toast.deleted'))).toBeNull();
    });
  }
});
