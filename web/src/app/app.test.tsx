import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts, subscribeToasts } from '../components/toast';
import { checkSession, resetAuthForTests } from '../lib/authStore';
import { LANG_STORAGE_KEY } from '../lib/lang';
import type { Reminder, User } from '../lib/types';
import { resetGuideProgressForTests } from '../shared/guideProgress';
import { deferred, json, mockFetch, ok, renderApp, unauthorized } from '../test/renderApp';
import { tr } from '../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const loc = () => screen.getByTestId('location').textContent;

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ status: 'signedOut' });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('routing and language', () => {
  it('renders the signed-out home in Japanese at / and English at /en', async () => {
    mockFetch({});
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'はじめる' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: '詳しく見る' })).toHaveAttribute('href', '/faq');
    expect(screen.getByRole('link', { name: 'プライバシーポリシー' })).toHaveAttribute('href', '/privacy');
  });

  it('English home links stay under /en', async () => {
    mockFetch({});
    renderApp('/en');
    expect(await screen.findByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/en/login');
    expect(screen.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/en/faq');
    expect(screen.getByRole('link', { name: 'See how it works' })).toHaveAttribute('href', '/en/guide');
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Audio alerts',
      'Scheduling to the second',
      'Interactive notifications',
    ]);
  });

  it('the EN/JA switch saves the preference and rewrites the path', async () => {
    mockFetch({});
    renderApp('/faq?x=1');
    const en = await screen.findByRole('button', { name: 'EN' });
    fireEvent.click(en);
    await waitFor(() => expect(loc()).toBe('/en/faq?x=1'));
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('en');
    fireEvent.click(await screen.findByRole('button', { name: 'JA' }));
    await waitFor(() => expect(loc()).toBe('/faq?x=1'));
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('ja');
  });

  it('shows the not-found page with go-back and go-home', async () => {
    mockFetch({});
    renderApp('/en/nope/deeper');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Go home' }));
    await waitFor(() => expect(loc()).toBe('/en'));
  });

  it('has a page for every route of the spec, under / and /en', async () => {
    mockFetch({});
    for (const path of ['/faq', '/en/guide', '/privacy', '/en/terms', '/commercial-transaction-act', '/en/status']) {
      const { unmount } = renderApp(path);
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(screen.queryByText('404')).toBeNull();
      unmount();
    }
  });
});

describe('home during the session check', () => {
  it('without a stored user the signed-out home paints at once; a session the check finds turns it into the dashboard', async () => {
    resetAuthForTests({ status: 'checking' });
    const session = deferred<Response>();
    mockFetch({ 'GET /api/auth/session': () => session.promise, 'GET /api/reminders': () => ok([]) });
    renderApp('/en');
    // no spinner while the check is out: the home is there already
    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeInTheDocument();
    const check = checkSession();
    session.resolve(ok({ user: USER, is_admin: false }));
    await check;
    expect(await screen.findByRole('button', { name: 'Create your first reminder' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Get Started' })).toBeNull();
  });
});

describe('protected routes', () => {
  it('send visitors to /login with the Japanese toast', async () => {
    mockFetch({ 'GET /api/auth/session': () => unauthorized() });
    renderApp('/reminders');
    await waitFor(() => expect(loc()).toBe('/login'));
    expect(await screen.findByText('認証が必要です。ログインしてください。')).toBeInTheDocument();
  });

  it('send English visitors to /en/login with the English toast', async () => {
    mockFetch({});
    renderApp('/en/settings');
    await waitFor(() => expect(loc()).toBe('/en/login'));
    expect(await screen.findByText('Authentication required. Please sign in.')).toBeInTheDocument();
  });
});

describe('login', () => {
  for (const [lang, path] of [['en', '/en/login'], ['ja', '/login']] as const) {
    it(`sending goes through the auth helper, whose refusals read as its own messages (${lang}); the field re-checks with the form's`, async () => {
      const fetch = mockFetch({});
      renderApp(path);
      const submit = await screen.findByRole('button', { name: tr(lang, 'auth:sendCode') });
      const input = screen.getByLabelText(tr(lang, 'auth:emailLabel'));
      // empty: the helper's 'Email address is required'
      fireEvent.click(submit);
      expect(await screen.findByRole('alert')).toHaveTextContent(tr(lang, 'auth:errors.emailAddressRequired'));
      expect(input).toHaveAttribute('aria-invalid', 'true');
      // as the address changes, the form's own check: 'Please enter a valid email address'
      fireEvent.change(input, { target: { value: 'taro@' } });
      expect(screen.getByRole('alert')).toHaveTextContent(tr(lang, 'auth:errors.emailInvalid'));
      // malformed: the helper's 'Invalid email format'
      fireEvent.click(submit);
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(tr(lang, 'auth:errors.emailFormat')));
      // back to empty while editing: the form's 'Email is required'
      fireEvent.change(input, { target: { value: '' } });
      expect(screen.getByRole('alert')).toHaveTextContent(tr(lang, 'auth:errors.emailRequired'));
      // right: the message goes; and nothing was ever sent
      fireEvent.change(input, { target: { value: 'taro@example.com' } });
      expect(screen.queryByRole('alert')).toBeNull();
      expect(submit).toBeEnabled();
      expect(fetch).not.toHaveBeenCalled();
    });
  }

  it('an Enter that confirms an IME composition does not submit', async () => {
    const fetch = mockFetch({ 'POST /api/auth/otp': () => ok({ expires_in: 1200, resend_after: 60 }, 202) });
    renderApp('/login');
    const input = await screen.findByLabelText('メールアドレス');
    fireEvent.change(input, { target: { value: 'taro@example.com' } });
    fireEvent.keyDown(input, { key: 'Enter', keyCode: 229 });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the code, then a pasted 6-digit code signs in automatically', async () => {
    const fetch = mockFetch({
      'POST /api/auth/otp': () => ok({ expires_in: 1200, resend_after: 60 }, 202),
      'POST /api/auth/verify': () => ok({ user: USER, is_new_user: false }),
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/reminders': () => ok([]),
    });
    renderApp('/en/login');
    fireEvent.change(await screen.findByLabelText('Email address'), { target: { value: 'taro@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const code = await screen.findByLabelText('6-digit code');
    expect(fetch.mock.calls[0]![0]).toBe('/api/auth/otp');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ email: 'taro@example.com', lang: 'en' });
    expect(screen.getByText('Code expires in 20:00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Resend available in 60 s/ })).toBeDisabled();
    fireEvent.paste(code, { clipboardData: { getData: () => 'Code: 123 456 7' } });
    await waitFor(() => expect(loc()).toBe('/en'));
    const verify = fetch.mock.calls.find((c) => c[0] === '/api/auth/verify')!;
    expect(JSON.parse(verify[1]!.body as string)).toEqual({ email: 'taro@example.com', code: '123456' });
    expect(JSON.parse(localStorage.getItem('auth-storage')!)).toEqual({ user: USER });
  });

  it('shows the invalid-code message and clears the digits', async () => {
    mockFetch({
      'POST /api/auth/otp': () => ok({ expires_in: 1200, resend_after: 60 }, 202),
      'POST /api/auth/verify': () => json(400, { success: false, error: { code: 'OTP_INVALID', message: 'bad' } }),
    });
    renderApp('/login');
    fireEvent.change(await screen.findByLabelText('メールアドレス'), { target: { value: 'taro@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'コードを送信' }));
    const code = await screen.findByLabelText('6桁のコード');
    fireEvent.change(code, { target: { value: '12345' } });
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findByText('確認コードが正しくありません。確認してもう一度お試しください。')).toBeInTheDocument();
    expect(code).toHaveValue('');
  });
});

describe('login countdown', () => {
  it('enables resend after 60 s, resets on resend, and shows the expired notice at 0', async () => {
    const fetch = mockFetch({ 'POST /api/auth/otp': () => ok({ expires_in: 1200, resend_after: 60 }, 202) });
    renderApp('/en/login');
    fireEvent.change(await screen.findByLabelText('Email address'), { target: { value: 'taro@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const code = await screen.findByLabelText('6-digit code');
    fireEvent.change(code, { target: { value: '12' } });
    const start = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(start + 61_000);
    const resend = await screen.findByRole('button', { name: 'Resend code' });
    expect(resend).toBeEnabled();
    expect(screen.getByText('Code expires in 18:59')).toBeInTheDocument();
    fireEvent.click(resend);
    await waitFor(() => expect(fetch.mock.calls.filter((c) => c[0] === '/api/auth/otp')).toHaveLength(2));
    expect(await screen.findByText('Code expires in 20:00')).toBeInTheDocument();
    expect(code).toHaveValue('');
    expect(screen.getByRole('button', { name: /Resend available in 60 s/ })).toBeDisabled();
    clock.mockReturnValue(start + 61_000 + 1_200_000);
    expect(await screen.findByText('This code has expired. Please request a new one.')).toBeInTheDocument();
    expect(code).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  });
});

describe('auth callback', () => {
  it('never spends the token on load (only a peek, which spends nothing); the button does', async () => {
    window.location.hash = '#token=abc123';
    const fetch = mockFetch({
      'POST /api/auth/verify-link': (_u, init) =>
        (JSON.parse(init.body as string) as { peek?: boolean }).peek ? ok({ email: 't***@example.com' }) : ok({ user: USER }),
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/reminders': () => ok([]),
    });
    renderApp('/auth/callback');
    const bodies = () => fetch.mock.calls.filter((c) => c[0] === '/api/auth/verify-link').map((c) => JSON.parse(c[1]!.body as string) as unknown);
    expect(await screen.findByText('このリンクで t***@example.com としてログインします。')).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'ログインを完了する' });
    expect(bodies()).toEqual([{ token: 'abc123', peek: true }]);
    fireEvent.click(button);
    await waitFor(() => expect(loc()).toBe('/'));
    expect(bodies()).toEqual([{ token: 'abc123', peek: true }, { token: 'abc123' }]);
  });
});

function reminder(id: string, at: string, extra: Partial<Reminder> = {}): Reminder {
  return {
    id, user_id: 'u1', title: `Title ${id}`, send_at: at, scheduled_at: at, timezone: 'Asia/Tokyo',
    recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }], overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false, created_by: 'u1', created_at: at, updated_at: at, ...extra,
  };
}

describe('signed in', () => {
  beforeEach(() => resetAuthForTests({ user: USER, status: 'signedIn' }));

  it('the dashboard shows active, completed and due-soon (the next 5 active) counts and those 5', async () => {
    const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
    const list = [
      reminder('1', inHours(1)),
      reminder('2', inHours(20)),
      ...['3', '4', '5', '6'].map((n) => reminder(n, `2030-01-0${n}T00:00:00Z`)),
      reminder('x', '2029-01-01T00:00:00Z', { is_archived: true, is_active: false, status: 'completed' }),
    ];
    mockFetch({ 'GET /api/reminders': () => ok(list) });
    renderApp('/en');
    const stats = await screen.findByRole('region', { name: 'Reminder counts' });
    const stat = (label: string) => within(stats).getByText(label).previousElementSibling?.textContent;
    await waitFor(() => expect(stat('Active')).toBe('6'));
    expect(stat('Completed')).toBe('1');
    expect(stat('Due soon')).toBe('5');
    const upcoming = within(screen.getByRole('region', { name: 'Upcoming reminders' }));
    expect(upcoming.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Title 1', 'Title 2', 'Title 3', 'Title 4', 'Title 5']);
  });

  it('due soon counts the next active ones however far away (まもなく), fewer than 5 when fewer are active', async () => {
    const list = [reminder('a', '2031-03-01T00:00:00Z'), reminder('b', '2032-03-01T00:00:00Z')];
    mockFetch({ 'GET /api/reminders': () => ok(list) });
    renderApp('/');
    const stats = await screen.findByRole('region', { name: 'リマインダーの集計' });
    await waitFor(() => expect(within(stats).getByText('まもなく').previousElementSibling?.textContent).toBe('2'));
  });

  it('the dashboard has an empty state', async () => {
    mockFetch({ 'GET /api/reminders': () => ok([]) });
    renderApp('/');
    expect(await screen.findByRole('button', { name: '最初のリマインダーを作成' })).toBeInTheDocument();
  });

  it('creates a reminder through the dialog with RFC 3339 offset and recurrence', async () => {
    const created: unknown[] = [];
    mockFetch({
      'GET /api/reminders': () => ok([]),
      'POST /api/reminders/preview': () => ok({ occurrences: ['2030-01-02T00:00:05Z', '2030-01-03T00:00:05Z'] }),
      'POST /api/reminders': (_u, init) => {
        const body = JSON.parse(init.body as string) as Record<string, unknown>;
        created.push(body);
        return ok(reminder('new', '2030-01-02T00:00:05Z', { title: body.title as string }), 201);
      },
    });
    renderApp('/en/reminders');
    fireEvent.click(await screen.findByRole('button', { name: 'Create reminder', hidden: false }));
    const dialog = await screen.findByRole('dialog', { name: 'Create reminder' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Stretch' } });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2030-01-02' } });
    fireEvent.change(within(dialog).getByLabelText('Time (to the second)'), { target: { value: '09:00:05' } });
    const zone = within(dialog).getByRole('combobox', { name: 'Time zone' });
    fireEvent.change(zone, { target: { value: 'tokyo' } });
    await within(dialog).findByRole('option', { name: /^Tokyo \(UTC\+09:00\)/ });
    fireEvent.keyDown(zone, { key: 'Enter' });
    expect(zone).toHaveValue('Tokyo (UTC+09:00)');
    fireEvent.change(within(dialog).getByLabelText('Repeat'), { target: { value: 'custom' } });
    fireEvent.click(within(dialog).getByLabelText('Mon'));
    fireEvent.click(within(dialog).getByLabelText('Wed'));
    expect(await within(dialog).findAllByRole('listitem')).toHaveLength(2);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toEqual({
      title: 'Stretch',
      description: null,
      send_at: '2030-01-02T09:00:05+09:00',
      timezone: 'Asia/Tokyo',
      recurrence: { kind: 'custom', days: ['mon', 'wed'] },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('/reminders?new=1 opens the create dialog and defaults to the settings time zone', async () => {
    mockFetch({
      'GET /api/reminders': () => ok([]),
      'GET /api/settings': () => ok({ timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false }),
      'POST /api/reminders/preview': () => ok({ occurrences: [] }),
    });
    renderApp('/reminders?new=1');
    const dialog = await screen.findByRole('dialog', { name: 'リマインダーを作成' });
    await waitFor(() => expect(loc()).toBe('/reminders'));
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'タイムゾーン' })).toHaveValue('東京 (UTC+09:00)'));
  });

  it('?new=1 waits for slow settings, so a new reminder starts in the account zone, not the device one', async () => {
    const settings = deferred<Response>();
    mockFetch({
      'GET /api/reminders': () => ok([]),
      'GET /api/settings': () => settings.promise,
      'POST /api/reminders/preview': () => ok({ occurrences: [] }),
    });
    renderApp('/en/reminders?new=1');
    await screen.findByRole('heading', { name: 'Reminders', level: 1 });
    await new Promise((r) => setTimeout(r, 300)); // past the dialog's opening delay
    expect(screen.queryByRole('dialog')).toBeNull();
    settings.resolve(ok({ timezone: 'America/New_York', language: 'en', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false }));
    const dialog = await screen.findByRole('dialog', { name: 'Create reminder' });
    await waitFor(() => expect((within(dialog).getByRole('combobox', { name: 'Time zone' }) as HTMLInputElement).value).toMatch(/^New York \(UTC/));
  });

  it('with only completed reminders the dashboard says nothing is pending and links to them', async () => {
    mockFetch({ 'GET /api/reminders': () => ok([reminder('x', '2029-01-01T00:00:00Z', { is_archived: true, is_active: false, status: 'completed' })]) });
    renderApp('/en');
    expect(await screen.findByText('Nothing pending; 1 completed.')).toBeInTheDocument();
    expect(screen.queryByText('No reminders yet. Create your first one.')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'See completed reminders' }));
    expect(await screen.findByRole('tab', { name: 'Completed (archived)', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('Title x')).toBeInTheDocument();
  });

  it('offline, Delete is disabled and says why (deleting is not queued)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    mockFetch({ 'GET /api/reminders': () => ok([reminder('1', '2030-01-01T00:00:00Z')]) });
    renderApp('/en/reminders');
    const del = await screen.findByRole('button', { name: /^Delete .*Title 1/ });
    expect(del).toBeDisabled();
    expect(screen.getByText('Deleting needs a connection. Please try again when you are back online.')).toBeInTheDocument();
  });

  it('at the 100 limit the create request shows the limit instead of the form', async () => {
    const list = Array.from({ length: 100 }, (_, i) => reminder(String(i), '2030-01-01T00:00:00Z'));
    mockFetch({ 'GET /api/reminders': () => ok(list) });
    renderApp('/en/reminders?new=1');
    await waitFor(() => expect(loc()).toBe('/en/reminders'));
    expect(await screen.findByRole('alert')).toHaveTextContent('You can have at most 100 active reminders.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('signing out on a protected page goes home without the "authentication required" toast', async () => {
    mockFetch({ 'GET /api/reminders': () => ok([]), 'POST /api/auth/logout': () => ok(null) });
    // Not even for a moment (a route change would clear it again).
    const shown: string[] = [];
    const stop = subscribeToasts(() => shown.push(...getToasts().map((t) => t.message)));
    renderApp('/en/reminders');
    fireEvent.click(await screen.findByLabelText('Menu'));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(loc()).toBe('/en'));
    stop();
    expect(shown).not.toContain('Authentication required. Please sign in.');
  });

  it("the guide's progress counts a reminder made outside the tour", async () => {
    resetGuideProgressForTests();
    mockFetch({ 'GET /api/reminders': () => ok([reminder('1', '2030-01-01T00:00:00Z')]) });
    renderApp('/en/guide');
    // signed in and has a reminder: 2 of the 5 steps
    expect(await screen.findByText('2 of 5 done')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Create a reminder/ })).toBeChecked();
  });

  it('a 401 AUTHENTICATION_REQUIRED signs the user out', async () => {
    mockFetch({ 'GET /api/reminders': () => unauthorized(), 'GET /api/auth/session': () => unauthorized() });
    renderApp('/en/reminders');
    await waitFor(() => expect(loc()).toBe('/en/login'));
    expect(localStorage.getItem('auth-storage')).toBeNull();
  });
});
