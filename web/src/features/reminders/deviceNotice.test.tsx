/**
 * "This device will not ring" is on the reminders page too (decisions.md "What happened, in the
 * list"): at its top, outside the dialog, the same notice as the dashboard's, in ja and en.
 */
import { screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { User } from '../../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  mockFetch({ 'GET /api/reminders': () => ok([]) });
});

describe('the device notice on the reminders page', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: at the top of the page (before the tabs), with no dialog open`, async () => {
      renderApp(lang === 'ja' ? '/reminders' : '/en/reminders');
      const heading = await screen.findByRole('heading', { level: 1, name: tr(lang, 'reminders:title') });
      const notice = await screen.findByTestId('device-setup');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(within(notice).getByText(tr(lang, 'device:notice.title'))).toBeInTheDocument();
      const tabs = screen.getByRole('tablist');
      expect(heading.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(notice.compareDocumentPosition(tabs) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    });
  }
});
