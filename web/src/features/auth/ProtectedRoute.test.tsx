/**
 * Protected pages for someone not signed in: the toast (sign-in required, or the session check
 * itself failed) in the path's language, the redirect to that language's login page, and the
 * fallback card that shows until the redirect happens (kept on screen here by blocking the redirect).
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { createMemoryHistory, createPath, Route, Router, Routes, type History, type Path } from '../../lib/router';
import { SWRConfig } from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../components/Toaster';
import { clearToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import { mockFetch, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { ProtectedRoute } from './ProtectedRoute';

const loc = () => screen.getByTestId('location').textContent;
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');

beforeEach(() => clearToasts());

describe('a protected page, signed out', () => {
  for (const lang of ['ja', 'en'] as const) {
    for (const checkFailed of [false, true]) {
      const why = checkFailed ? 'the session check failed' : 'no session';
      it(`${lang}, ${why}: its toast, once, and the login page`, async () => {
        resetAuthForTests({ status: 'signedOut', checkFailed });
        mockFetch({});
        renderApp(`${prefix(lang)}/settings`);
        await waitFor(() => expect(loc()).toBe(`${prefix(lang)}/login`));
        const toast = await screen.findByRole('alert');
        expect(toast).toHaveTextContent(tr(lang, checkFailed ? 'auth.checkFailed' : 'auth.required'));
        expect(document.querySelectorAll('.toaster [role]')).toHaveLength(1);
      });
    }
  }

  it('while the first session check runs, neither the page, a toast nor a redirect', async () => {
    resetAuthForTests({ status: 'checking' });
    mockFetch({});
    renderApp('/en/settings');
    expect(await screen.findByRole('main')).toBeInTheDocument();
    expect(loc()).toBe('/en/settings');
    expect(document.querySelectorAll('.toaster [role]')).toHaveLength(0);
    expect(screen.queryByRole('heading', { name: tr('en', 'auth.requiredTitle') })).toBeNull();
  });
});

async function renderBlocked(lang: Lang) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  const path = `${prefix(lang)}/settings`;
  // The redirect to login is blocked (the history goes nowhere), so the fallback card stays on screen.
  const history = createMemoryHistory([path]);
  const asked: string[] = [];
  const ask = (p: Path) => void asked.push(createPath(p));
  const blocked: History = { location: history.location, action: history.action, listen: history.listen, push: ask, replace: ask, go() {} };
  render(
    <SWRConfig value={{ provider: () => new Map() }}>
      <Suspense fallback={null}>
        <Router history={blocked}>
          <Routes>
            <Route
              path={path}
              element={
                <>
                  <ProtectedRoute>
                    <h1>secret page</h1>
                  </ProtectedRoute>
                  {/* inside the router: toasts belong to the page they were shown on */}
                  <Toaster />
                </>
              }
            />
            <Route path={`${prefix(lang)}/login`} element={<h1>login page</h1>} />
          </Routes>
        </Router>
      </Suspense>
    </SWRConfig>,
  );
  return asked;
}

describe('the fallback card', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a heading and a link to the login page in the same language`, async () => {
      resetAuthForTests({ status: 'signedOut' });
      const asked = await renderBlocked(lang);
      const heading = await screen.findByRole('heading', { level: 1, name: tr(lang, 'auth.requiredTitle') });
      const card = heading.parentElement!;
      expect(within(card).getByRole('link', { name: tr(lang, 'auth.goToLogin') })).toHaveAttribute('href', `${prefix(lang)}/login`);
      expect(screen.queryByText('secret page')).toBeNull();
      expect(await screen.findByRole('alert')).toHaveTextContent(tr(lang, 'auth.required'));
      expect(asked).toContain(`${prefix(lang)}/login`);
    });
  }
});
