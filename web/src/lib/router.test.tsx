/**
 * The router the app carries in place of react-router: which route a path renders (static over
 * a parameter over a splat, case and a trailing slash ignored, /en before the root's catch-all),
 * links that navigate without a page load (and leave modified clicks to the browser), the
 * active link, the parts of a path a navigation keeps, and the browser entries it writes (keys
 * and the kind of navigation the page arrival reads).
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BrowserRouter,
  createBrowserHistory,
  createMemoryHistory,
  Link,
  MemoryRouter,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Router,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  type NavigateFunction,
} from './router';

function Probe() {
  const l = useLocation();
  const type = useNavigationType();
  return <output data-testid="where">{`${type} ${l.pathname}${l.search}${l.hash} ${JSON.stringify(l.state)}`}</output>;
}

const where = () => screen.getByTestId('where').textContent;

function Layout() {
  return (
    <div data-testid="layout">
      <Outlet />
    </div>
  );
}

function tree() {
  const branch = (prefix: string) => [
    <Route key={`${prefix}i`} index element={<h1>home {prefix}</h1>} />,
    <Route key={`${prefix}r`} path="reminders" element={<h1>reminders {prefix}</h1>} />,
    <Route key={`${prefix}t`} path="t/:secret" element={<h1>trigger {prefix}</h1>} />,
    <Route key={`${prefix}*`} path="*" element={<h1>not found {prefix}</h1>} />,
  ];
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/en">{branch('en')}</Route>
        <Route path="/">{branch('ja')}</Route>
      </Route>
    </Routes>
  );
}

describe('which route a path renders', () => {
  const cases: [string, string][] = [
    ['/', 'home ja'],
    ['/en', 'home en'],
    ['/en/', 'home en'],
    ['/reminders', 'reminders ja'],
    ['/Reminders/', 'reminders ja'],
    ['/en/reminders', 'reminders en'],
    ['/t/abc', 'trigger ja'],
    ['/en/t/abc', 'trigger en'],
    ['/t/abc/more', 'not found ja'],
    ['/en/nothing/here', 'not found en'],
    ['/english', 'not found ja'],
    ['/remindersx', 'not found ja'],
  ];
  for (const [path, heading] of cases) {
    it(`${path} → ${heading}, inside the layout`, () => {
      render(<MemoryRouter initialEntries={[path]}>{tree()}</MemoryRouter>);
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(heading);
      expect(screen.getByTestId('layout')).toContainElement(screen.getByRole('heading'));
    });
  }
});

describe('links and navigation', () => {
  let navigate: NavigateFunction;
  function Grab() {
    navigate = useNavigate();
    return null;
  }

  function renderAt(path: string) {
    return render(
      <MemoryRouter initialEntries={[path]}>
        {tree()}
        <Link to="/en/reminders?x=1#top" state={{ from: 'link' }}>
          go
        </Link>
        <NavLink to="/reminders" end>
          nav
        </NavLink>
        <Probe />
        <Grab />
      </MemoryRouter>,
    );
  }

  it('a plain click navigates in place with its state; the new page renders', async () => {
    renderAt('/');
    const link = screen.getByRole('link', { name: 'go' });
    expect(link).toHaveAttribute('href', '/en/reminders?x=1#top');
    await act(async () => void fireEvent.click(link));
    expect(where()).toBe('PUSH /en/reminders?x=1#top {"from":"link"}');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('reminders en');
  });

  it('a click with a modifier, or one another handler took, is left alone', async () => {
    renderAt('/');
    const link = screen.getByRole('link', { name: 'go' });
    for (const mod of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      await act(async () => void fireEvent.click(link, mod));
    }
    expect(where()).toBe('POP / null');
  });

  it('a link to where one is replaces the entry; the active link says it is the current page', async () => {
    renderAt('/reminders');
    const nav = screen.getByRole('link', { name: 'nav' });
    expect(nav).toHaveAttribute('aria-current', 'page');
    expect(nav).toHaveClass('active');
    await act(async () => void fireEvent.click(nav));
    expect(where()).toBe('REPLACE /reminders null');
    await act(async () => void fireEvent.click(screen.getByRole('link', { name: 'go' })));
    expect(screen.getByRole('link', { name: 'nav' })).not.toHaveAttribute('aria-current');
  });

  it('navigate keeps the pathname when given only a search or hash; -1 goes back as a POP', async () => {
    renderAt('/reminders?list=a');
    await act(async () => navigate({ search: '?list=b', hash: '#x' }));
    expect(where()).toBe('PUSH /reminders?list=b#x null');
    await act(async () => navigate('/en', { replace: true, state: { n: 1 } }));
    expect(where()).toBe('REPLACE /en {"n":1}');
    await act(async () => navigate(-1));
    expect(where()).toBe('POP /reminders?list=a null');
  });

  it('<Navigate> goes once rendered', async () => {
    render(
      <MemoryRouter initialEntries={['/old']}>
        <Routes>
          <Route path="/old" element={<Navigate to="/reminders" replace state={{ why: 'moved' }} />} />
          <Route path="/reminders" element={<h1>reminders</h1>} />
        </Routes>
        <Probe />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'reminders' })).toBeInTheDocument();
    expect(where()).toBe('REPLACE /reminders {"why":"moved"}');
  });
});

describe('the browser history', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('entries carry their state, a key and an index; Back is a POP to the same key', async () => {
    window.history.replaceState(null, '', '/start');
    const history = createBrowserHistory();
    expect(window.history.state).toEqual({ idx: 0 });
    expect(history.location.key).toBe('default');

    history.push({ pathname: '/next', search: '?a=1', hash: '' }, { open: true });
    const pushed = window.history.state as { usr: unknown; key: string; idx: number };
    expect(pushed).toMatchObject({ usr: { open: true }, idx: 1 });
    expect(history.location).toMatchObject({ pathname: '/next', search: '?a=1', state: { open: true }, key: pushed.key });
    expect(history.action).toBe('PUSH');

    history.replace({ pathname: '/next', search: '', hash: '#h' }, null);
    expect((window.history.state as { idx: number }).idx).toBe(1);
    expect(history.location.key).not.toBe(pushed.key);

    const popped = new Promise<void>((resolve) => {
      const stop = history.listen(({ action }) => {
        stop();
        expect(action).toBe('POP');
        resolve();
      });
    });
    window.history.back();
    await popped;
    expect(history.location).toMatchObject({ pathname: '/start', key: 'default' });
  });

  it('BrowserRouter renders the address it starts on', () => {
    window.history.replaceState(null, '', '/en/t/secret');
    render(<BrowserRouter>{tree()}</BrowserRouter>);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('trigger en');
  });

  it('a navigation before the router subscribed is not lost', async () => {
    const history = createMemoryHistory(['/']);
    function Early() {
      // A child's layout effect runs before the router's own (which subscribes).
      useLayoutEffect(() => history.replace({ pathname: '/reminders', search: '', hash: '' }, null), []);
      return null;
    }
    render(
      <Router history={history}>
        <Probe />
        <Early />
      </Router>,
    );
    expect(await screen.findByText('REPLACE /reminders null')).toBeInTheDocument();
  });
});
