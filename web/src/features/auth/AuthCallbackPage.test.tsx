import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import AuthCallbackPage from './AuthCallbackPage';

/** Suspends its first render until `release` is called: React throws away its siblings' render. */
function suspendOnce() {
  let release!: () => void;
  let done = false;
  const gate = new Promise<void>((r) => {
    release = () => {
      done = true;
      r();
    };
  });
  function Gate() {
    if (!done) throw gate;
    return null;
  }
  return { Gate, release };
}

describe('the sign-in link page', () => {
  it('a render React throws away does not lose the token (the fragment is dropped only once shown)', async () => {
    initI18n('en');
    window.history.replaceState(null, '', '/en/auth/callback#token=abc123');
    const { Gate, release } = suspendOnce();
    render(
      <MemoryRouter initialEntries={['/en/auth/callback']}>
        <Suspense fallback={<p>loading</p>}>
          <AuthCallbackPage />
          <Gate />
        </Suspense>
      </MemoryRouter>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(window.location.hash).toBe('#token=abc123'); // the thrown-away render left it
    release();
    expect(await screen.findByRole('button', { name: 'Complete sign-in' })).toBeInTheDocument();
    expect(window.location.hash).toBe(''); // shown: now it is gone from the address bar
  });
});
