import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok, renderApp, unauthorized } from '../../test/renderApp';

const operator = { name: '響き合同会社', contact: 'support@hibiki.example', representative: null, address: null, phone: '03-1234-5678' };

function serve(site: unknown) {
  return mockFetch({
    'GET /api/auth/session': () => unauthorized(),
    'GET /api/site': () => ok(site),
  });
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

  it('the privacy page names the operator and its contact, in English too', async () => {
    serve({ operator: { ...operator, name: null, contact: 'https://hibiki.example/contact' }, error_reporting: null });
    renderApp('/en/privacy');
    const section = (await screen.findByRole('heading', { name: 'Operator' })).closest('section')!;
    expect(await within(section).findByRole('link', { name: 'https://hibiki.example/contact' })).toHaveAttribute('href', 'https://hibiki.example/contact');
    expect(within(section).getByText('Not given by the operator')).toBeInTheDocument();
    expect(within(section).queryByText('03-1234-5678')).toBeNull();
  });

  it('with nothing configured, each page says so once instead of on every row', async () => {
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
    renderApp('/en/terms');
    const terms = (await screen.findByRole('heading', { name: 'Operator' })).closest('section')!;
    expect(await within(terms).findByText('The operator has not given a name or a contact.')).toBeInTheDocument();
    expect(within(terms).queryByText('Not given by the operator')).toBeNull();
  });
});
