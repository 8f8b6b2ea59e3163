/**
 * Toasts belong to the page they were shown on: a route change clears them, except one that
 * announces that very navigation ("signed in"), which lasts one route change only.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useEffect } from 'react';
import { Link, MemoryRouter, Route, Routes, useNavigate } from '../lib/router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../i18n';
import { Toaster } from './Toaster';
import { TOAST_ACTION_MS, TOAST_DEFAULT_MS, clearToasts, toast } from './toast';

beforeAll(async () => {
  const i18n = initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(() => act(() => clearToasts()));

function Login() {
  const navigate = useNavigate();
  return (
    <>
      <h1>Login</h1>
      <button type="button" onClick={() => toast.info('Code sent again')}>
        Resend
      </button>
      <button
        type="button"
        onClick={() => {
          toast.success('You are signed in.', { survivesNavigation: true });
          navigate('/');
        }}
      >
        Sign in
      </button>
    </>
  );
}

/** A page that greets with a toast as it opens: the toast is this page's. */
function Settings() {
  useEffect(() => void toast.warning('Settings opened'), []);
  return <h1>Settings</h1>;
}

function App() {
  return (
    <MemoryRouter initialEntries={['/login']}>
      <nav>
        <Link to="/">Home</Link> <Link to="/settings">Settings</Link> <Link to="/faq">FAQ</Link>
      </nav>
      <Routes>
        <Route path="/" element={<h1>Dashboard</h1>} />
        <Route path="/login" element={<Login />} />
        <Route path="/settings" element={<Settings />} />
        <Route path="/faq" element={<h1>FAQ</h1>} />
      </Routes>
      <Toaster />
    </MemoryRouter>
  );
}

const toaster = () => document.querySelector('.toaster')!;

function startApp() {
  const user = userEvent.setup();
  render(
    <Suspense fallback={null}>
      <App />
    </Suspense>,
  );
  return user;
}

describe('toasts and route changes', () => {
  it("a login page's toast does not follow onto the dashboard", async () => {
    const user = startApp();
    await user.click(await screen.findByRole('button', { name: 'Resend' }));
    expect(toaster()).toHaveTextContent('Code sent again');
    await user.click(screen.getByRole('link', { name: 'Home' }));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(toaster()).not.toHaveTextContent('Code sent again');
  });

  it('"signed in" survives the navigation it announces, and goes with the next one', async () => {
    const user = startApp();
    await user.click(await screen.findByRole('button', { name: 'Resend' }));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(toaster()).toHaveTextContent('You are signed in.');
    expect(toaster()).not.toHaveTextContent('Code sent again');
    await user.click(screen.getByRole('link', { name: 'FAQ' }));
    await screen.findByRole('heading', { name: 'FAQ' });
    await waitFor(() => expect(toaster()).not.toHaveTextContent('You are signed in.'));
  });

  it("a toast the new page shows as it opens stays on it", async () => {
    const user = startApp();
    await user.click(await screen.findByRole('link', { name: 'Settings' }));
    await screen.findByRole('heading', { name: 'Settings' });
    expect(toaster()).toHaveTextContent('Settings opened');
  });
});

describe('how long a toast shows', () => {
  afterEach(() => vi.useRealTimers());

  function startAlone() {
    vi.useFakeTimers();
    render(
      <MemoryRouter initialEntries={['/']}>
        <Toaster />
      </MemoryRouter>,
    );
  }

  it('the default is the spec\'s 5 s: still shown at 4,999 ms, gone at 5,000 ms', () => {
    expect(TOAST_DEFAULT_MS).toBe(5_000);
    startAlone();
    act(() => void toast.success('Saved'));
    expect(toaster()).toHaveTextContent('Saved');
    act(() => vi.advanceTimersByTime(4_999));
    expect(toaster()).toHaveTextContent('Saved');
    act(() => vi.advanceTimersByTime(1));
    expect(toaster()).not.toHaveTextContent('Saved');
    expect(toaster()).toBeEmptyDOMElement();
  });

  it('one at a time: a newer toast replaces the one shown and counts its own time from when it appeared', () => {
    startAlone();
    act(() => void toast.error('First'));
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(3_000));
    act(() => void toast.info('Second'));
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    expect(toaster()).not.toHaveTextContent('First');
    expect(toaster()).toHaveTextContent('Second');
    // the first one's 5 s would end here: the second one stays its own full 5 s
    act(() => vi.advanceTimersByTime(2_000));
    expect(toaster()).toHaveTextContent('Second');
    act(() => vi.advanceTimersByTime(2_999));
    expect(toaster()).toHaveTextContent('Second');
    act(() => vi.advanceTimersByTime(1));
    expect(toaster()).toBeEmptyDOMElement();
  });

  it('a longer duration is kept; the same message again leaves the shown one as it is', () => {
    startAlone();
    act(() => void toast.warning('Long', 8_000));
    act(() => vi.advanceTimersByTime(6_000));
    expect(toaster()).toHaveTextContent('Long');
    act(() => void toast.warning('Long', 8_000));
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(2_000));
    expect(toaster()).toBeEmptyDOMElement();
  });

  it('three toasts in a row: only the last one shows', () => {
    startAlone();
    act(() => {
      toast.success('Saved');
      toast.warning('Offline: queued');
      toast.error('Failed');
    });
    expect([...document.querySelectorAll('.toast')].map((el) => el.textContent)).toEqual(['Failed×']);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed');
  });

  it('a toast with a button (Undo) stays 10 s; pressing it runs its action once and the toast goes', () => {
    startAlone();
    const undo = vi.fn();
    act(() => void toast.success('Skipped', { action: { label: 'Undo', run: undo } }));
    expect(TOAST_ACTION_MS).toBe(10_000);
    act(() => vi.advanceTimersByTime(9_999));
    expect(toaster()).toHaveTextContent('Skipped');
    act(() => screen.getByRole('button', { name: 'Undo' }).click());
    expect(undo).toHaveBeenCalledTimes(1);
    expect(toaster()).toBeEmptyDOMElement();
  });

  it('a toast with a button goes after its 10 s, its action not run', () => {
    startAlone();
    const undo = vi.fn();
    act(() => void toast.info('Language changed', { action: { label: 'Undo', run: undo } }));
    act(() => vi.advanceTimersByTime(10_000));
    expect(toaster()).toBeEmptyDOMElement();
    expect(undo).not.toHaveBeenCalled();
  });
});
