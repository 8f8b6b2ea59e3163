/**
 * The people in a list, in the Lists dialog: the owner sees the members and pending
 * invitations, invites by email (the server's refusals in the person's language), cancels and
 * removes; a member sees the people and leaves; offline, nothing that needs the network can be
 * pressed.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from '../../lib/router';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { List, User } from '../../lib/types';
import { list } from '../../test/listsFixtures';
import { json, mockFetch, ok, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { ListPeople } from './ListPeople';

const TARO: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const HANAKO: User = { id: 'u2', email: 'hanako@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const MEMBERS = [
  { user_id: 'u1', email: 'taro@example.com', role: 'owner', joined_at: '2025-01-01T00:00:00Z' },
  { user_id: 'u2', email: 'hanako@example.com', role: 'member', joined_at: '2025-01-02T00:00:00Z' },
];
const PENDING = [{ id: 'i1', email: 'jiro@example.com', expires_at: '2030-01-01T00:00:00Z' }];
const fail = (status: number, code: string) => json(status, { success: false, error: { code, message: 'server English' } });

async function show(lang: Lang, l: List, routes: Record<string, Handler> = {}, online = true) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['lists', 'errors']);
  const calls: string[] = [];
  const fetch = mockFetch({
    'GET /api/lists/l-home/members': () => ok(MEMBERS),
    'GET /api/lists/l-home/invites': () => ok(PENDING),
    'GET /api/lists': () => ok([l]),
    ...routes,
  });
  render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter>
        <Suspense fallback={null}>
          <p id="offline-reason">offline</p>
          <ListPeople list={l} online={online} offlineReason="offline-reason" />
        </Suspense>
      </MemoryRouter>
    </SWRConfig>,
  );
  await screen.findByText('hanako@example.com');
  const writes = () =>
    fetch.mock.calls
      .filter(([, init]) => (init?.method ?? 'GET') !== 'GET')
      .map(([url, init]) => `${init!.method} ${String(url)}${init!.body ? ` ${String(init!.body)}` : ''}`);
  return { calls, writes };
}

const HOME = list({ id: 'l-home', name: 'Home', members: 2 });

beforeEach(() => clearToasts());

describe('the people in a list', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the owner sees everyone and the pending invitation, and invites by email`, async () => {
      resetAuthForTests({ user: TARO, status: 'signedIn' });
      const { writes } = await show(lang, HOME, { 'POST /api/lists/l-home/invites': () => json(201, { success: true, data: { id: 'i2', email: 'saburo@example.com', expires_at: '2030-01-01T00:00:00Z' } }) });
      expect(screen.getByText(tr(lang, 'lists:people.role.owner'))).toBeInTheDocument();
      expect(await screen.findByText('jiro@example.com')).toBeInTheDocument();
      fireEvent.change(screen.getByLabelText(tr(lang, 'lists:people.inviteLabel')), { target: { value: ' saburo@example.com ' } });
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'lists:people.invite') }));
      await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(tr(lang, 'lists:people.invited', { email: 'saburo@example.com' })));
      expect(writes()).toEqual(['POST /api/lists/l-home/invites {"email":"saburo@example.com"}']);
    });

    it(`${lang}: a refused invitation says why in the person's language (MEMBER_LIMIT)`, async () => {
      resetAuthForTests({ user: TARO, status: 'signedIn' });
      await show(lang, HOME, { 'POST /api/lists/l-home/invites': () => fail(409, 'MEMBER_LIMIT') });
      fireEvent.change(screen.getByLabelText(tr(lang, 'lists:people.inviteLabel')), { target: { value: 'saburo@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'lists:people.invite') }));
      expect(await screen.findByRole('alert')).toHaveTextContent(tr(lang, 'errors:code.MEMBER_LIMIT'));
    });

    it(`${lang}: a member sees the people (no invite, no remove) and leaves`, async () => {
      resetAuthForTests({ user: HANAKO, status: 'signedIn' });
      const shared = list({ id: 'l-home', name: 'Home', role: 'member', members: 2, owner_id: 'u1' });
      const { writes } = await show(lang, shared, { 'DELETE /api/lists/l-home/members/u2': () => json(204, null) });
      expect(screen.queryByLabelText(tr(lang, 'lists:people.inviteLabel'))).toBeNull();
      expect(screen.queryByRole('button', { name: tr(lang, 'lists:people.removeNamed', { email: 'taro@example.com' }) })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'lists:people.leave') }));
      await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(tr(lang, 'lists:people.left', { name: 'Home' })));
      expect(writes()).toEqual(['DELETE /api/lists/l-home/members/u2']);
    });
  }

  it('en: the owner removes a member and cancels an invitation', async () => {
    resetAuthForTests({ user: TARO, status: 'signedIn' });
    const { writes } = await show('en', HOME, {
      'DELETE /api/lists/l-home/members/u2': () => json(204, null),
      'DELETE /api/lists/l-home/invites/i1': () => json(204, null),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove hanako@example.com from the list' }));
    await waitFor(() => expect(writes()).toEqual(['DELETE /api/lists/l-home/members/u2']));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the invitation to jiro@example.com' }));
    await waitFor(() => expect(writes()).toEqual(['DELETE /api/lists/l-home/members/u2', 'DELETE /api/lists/l-home/invites/i1']));
  });

  it('en: offline, inviting, removing and cancelling cannot be pressed, and say why', async () => {
    resetAuthForTests({ user: TARO, status: 'signedIn' });
    await show('en', HOME, {}, false);
    const section = screen.getByRole('region', { name: 'People in “Home”' });
    const remove = within(section).getByRole('button', { name: 'Remove hanako@example.com from the list' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('offline');
    expect(within(section).getByRole('button', { name: 'Invite' })).toBeDisabled();
  });
});
