/**
 * /test-email: one press sends one POST /api/test-email, the button waits for the answer, and
 * the answer is said: sent, the hourly limit (RATE_LIMITED), or another failure.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { User } from '../../lib/types';
import { deferred, json, mockFetch, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'admin@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const toasts = () => [...document.querySelectorAll('.toaster [role]')].map((t) => ({ role: t.getAttribute('role'), text: t.querySelector('span')?.textContent }));

// On a busy machine a lazy page's first transform alone can outlast what a findBy waits for.
beforeAll(preloadApp, 120_000);

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn', isAdmin: true });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

const CASES = [
  { lang: 'ja', name: 'sent', answer: () => json(204, null), text: 'admin:testEmail.sent', role: 'status' },
  { lang: 'en', name: 'sent', answer: () => json(204, null), text: 'admin:testEmail.sent', role: 'status' },
  { lang: 'ja', name: '429 RATE_LIMITED', answer: () => json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'slow down', retry_after: 1800 } }), text: 'admin:testEmail.rateLimited', role: 'alert' },
  { lang: 'en', name: '429 RATE_LIMITED', answer: () => json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'slow down', retry_after: 1800 } }), text: 'admin:testEmail.rateLimited', role: 'alert' },
  { lang: 'en', name: '500', answer: () => json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'smtp down' } }), text: 'admin:testEmail.failed', role: 'alert' },
] as const;

describe('test email', () => {
  for (const c of CASES) {
    it(`${c.lang}: ${c.name}`, async () => {
      const answer = deferred<Response>();
      const fetch = mockFetch({ 'POST /api/test-email': () => answer.promise });
      renderApp(c.lang === 'en' ? '/en/test-email' : '/test-email');
      expect(await screen.findByRole('heading', { level: 1, name: tr(c.lang, 'admin:testEmail.title') })).toBeInTheDocument();
      const button = screen.getByRole('button', { name: tr(c.lang, 'admin:testEmail.send') });
      fireEvent.click(button);
      // One request; no second one while it runs.
      await waitFor(() => expect(button).toBeDisabled());
      fireEvent.click(button);
      answer.resolve(c.answer());
      await waitFor(() => expect(toasts()).toEqual([{ role: c.role, text: tr(c.lang, c.text) }]));
      expect(fetch.mock.calls.filter(([u]) => u === '/api/test-email')).toHaveLength(1);
      await waitFor(() => expect(button).toBeEnabled());
    });
  }
});
