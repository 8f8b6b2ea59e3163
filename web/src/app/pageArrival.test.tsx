/**
 * Where a page opens: reached by a link, at the top with its heading focused; by Back and
 * Forward, where it was; a link to the same page (other query, other language) stays put.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useNavigate } from '../lib/router';
import { beforeEach, describe, expect, it } from 'vitest';
import { arrivalFor, usePageArrival } from './pageArrival';

function Arrival() {
  usePageArrival();
  return null;
}

let go: ReturnType<typeof useNavigate> = () => {};
function Nav() {
  go = useNavigate();
  return null;
}

function NavButton() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate('/other')}>
      create
    </button>
  );
}

function Page({ name }: { name: string }) {
  return (
    <>
      <h1>{name}</h1>
      <Link to="/other">to other</Link>
      <Link to="/page?filter=1">filter</Link>
      <Link to="/en/page">English</Link>
      <NavButton />
      <section id="part">part</section>
    </>
  );
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Arrival />
      <Nav />
      <main id="main" tabIndex={-1}>
        <Routes>
          <Route path="/page" element={<Page name="Page" />} />
          <Route path="/en/page" element={<Page name="Page (en)" />} />
          <Route path="/other" element={<Page name="Other" />} />
        </Routes>
      </main>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  sessionStorage.clear();
  window.scrollTo(0, 0);
});

describe('arrivalFor', () => {
  it.each([
    ['PUSH', '/settings', '/settings/delete-account', 'top'],
    ['REPLACE', '/settings/delete-account', '/', 'top'],
    ['PUSH', '/en/faq', '/en/privacy', 'top'],
    ['POP', '/privacy', '/faq', 'restore'],
    ['PUSH', '/reminders', '/reminders', 'stay'],
    ['PUSH', '/privacy', '/en/privacy', 'stay'],
    ['POP', null, '/reminders', 'restore'],
    ['PUSH', null, '/reminders', 'stay'],
  ] as const)('%s %s -> %s: %s', (type, from, to, arrival) => expect(arrivalFor(type, from, to)).toBe(arrival));
});

describe('usePageArrival', () => {
  it('a link opens the page at the top with its heading focused; Back restores the position', async () => {
    renderAt('/page');
    act(() => window.scrollTo(0, 800));
    fireEvent.click(screen.getByRole('link', { name: 'to other' }));
    const heading = await screen.findByRole('heading', { name: 'Other' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(window.scrollY).toBe(0);

    act(() => window.scrollTo(0, 300));
    act(() => void go(-1));
    await screen.findByRole('heading', { name: 'Page' });
    await waitFor(() => expect(window.scrollY).toBe(800));
    act(() => void go(1));
    await screen.findByRole('heading', { name: 'Other' });
    await waitFor(() => expect(window.scrollY).toBe(300));
  });

  it('a link to the same page with another query or in the other language keeps the position and the focus', async () => {
    renderAt('/page');
    act(() => window.scrollTo(0, 500));
    const filter = screen.getByRole('link', { name: 'filter' });
    filter.focus();
    fireEvent.click(filter);
    await new Promise((r) => setTimeout(r, 50));
    expect(window.scrollY).toBe(500);
    expect(screen.getByRole('link', { name: 'filter' })).toHaveFocus();
    fireEvent.click(screen.getByRole('link', { name: 'English' }));
    await screen.findByRole('heading', { name: 'Page (en)' });
    await new Promise((r) => setTimeout(r, 50));
    expect(window.scrollY).toBe(500);
    expect(screen.getByRole('heading', { name: 'Page (en)' })).not.toHaveFocus();
  });

  it('a button that navigates (the header’s “create”) keeps the focus; the page still opens at the top', async () => {
    render(
      <MemoryRouter initialEntries={['/page']}>
        <Arrival />
        <header>
          <NavButton />
        </header>
        <main id="main" tabIndex={-1}>
          <Routes>
            <Route path="/page" element={<h1>Page</h1>} />
            <Route path="/other" element={<h1>Other</h1>} />
          </Routes>
        </main>
      </MemoryRouter>,
    );
    act(() => window.scrollTo(0, 700));
    const button = screen.getByRole('button', { name: 'create' });
    button.focus();
    fireEvent.click(button);
    await screen.findByRole('heading', { name: 'Other' });
    await waitFor(() => expect(window.scrollY).toBe(0));
    await new Promise((r) => setTimeout(r, 50));
    expect(button).toHaveFocus();
  });

  it('a link with an anchor opens at the anchor, the heading focused', async () => {
    renderAt('/page');
    const seen: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      seen.push(this.id);
    };
    act(() => void go('/other#part'));
    const heading = await screen.findByRole('heading', { name: 'Other' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(seen).toContain('part');
  });
});
