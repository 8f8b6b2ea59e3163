import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok, renderApp, unauthorized } from '../../test/renderApp';

const operator = { name: '響き合同会社', contact: 'support@hibiki.example', representative: null, address: null, phone: '03-1234-5678' };

let fetched: ReturnType<typeof mockFetch> | null = null;
const fetchedSite = () => !!fetched?.mock.calls.some(([url]) => url === '/api/site');

function serve(site: unknown) {
  return (fetched = mockFetch({
    'GET /api/auth/session': () => unauthorized(),
    'GET /api/site': () => ok(site),
  }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('operator details on the information pages', () => {
  it('the commercial-transaction-act page names the seller and says what is disclosed on request', async () => {
    serve({ operator, error_reporting: null });
    renderApp('/commercial-transaction-act');
    const section = (await screen.findByRole('heading', { name: '運営者' })).closest('section')!;
    expect(await within(section).findByText('響き合同会社')).toBeInTheDocument();
    expect(within(section).getByText('販売事業者')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'support@hibiki.example' })).toHaveAttribute('href', 'mailto:support@hibiki.example');
    expect(within(section).getByText('03-1234-5678')).toBeInTheDocument();
    // representative and address are not configured
    expect(within(section).getAllByText('請求があった場合には遅滞なく開示いたします。')).toHaveLength(2);
  });

  it('the privacy page shows only the lines the operator gave, in English too', async () => {
    serve({ operator: { ...operator, name: null, contact: 'https://hibiki.example/contact' }, error_reporting: null });
    renderApp('/en/privacy');
    const section = (await screen.findByRole('heading', { name: 'Operator' })).closest('section')!;
    expect(await within(section).findByRole('link', { name: 'https://hibiki.example/contact' })).toHaveAttribute('href', 'https://hibiki.example/contact');
    expect(within(section).getByText('Contact')).toBeInTheDocument();
    // no name given: no line for it, and no "not given"
    expect(section.querySelectorAll('dt')).toHaveLength(1);
    expect(within(section).queryByText(/not given/i)).toBeNull();
    expect(within(section).queryByText('03-1234-5678')).toBeNull();
  });

  it('with nothing configured, the commercial page says once what is disclosed on request; privacy and terms have no operator section', async () => {
    const none = { name: null, contact: null, representative: null, address: null, phone: null };
    serve({ operator: none, error_reporting: null });
    const { unmount } = renderApp('/commercial-transaction-act');
    const section = (await screen.findByRole('heading', { name: '運営者' })).closest('section')!;
    expect(
      await within(section).findByText('販売事業者、運営責任者、所在地、電話番号、連絡先は、請求があった場合には遅滞なく開示いたします。'),
    ).toBeInTheDocument();
    expect(within(section).queryByText('請求があった場合には遅滞なく開示いたします。')).toBeNull();
    expect(within(section).queryByText('販売事業者')).toBeNull();
    unmount();
    for (const path of ['/en/terms', '/privacy']) {
      const page = renderApp(path);
      const heading = await screen.findByRole('heading', { level: 1 });
      // the site details have arrived (the request answered) and still no section
      await waitFor(() => expect(fetchedSite()).toBe(true));
      await new Promise((r) => setTimeout(r, 20));
      expect(screen.queryByRole('heading', { name: path.startsWith('/en') ? 'Operator' : '運営者' })).toBeNull();
      expect(document.querySelector('.operator-details')).toBeNull();
      expect(heading).toBeInTheDocument();
      page.unmount();
    }
  });
});
