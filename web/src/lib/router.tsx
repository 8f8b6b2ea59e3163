/**
 * The app's router: the part of react-router's declarative API the app uses (BrowserRouter,
 * MemoryRouter, Routes/Route/Outlet, Link/NavLink/Navigate, useLocation, useNavigate,
 * useNavigationType), on the History API. react-router was 13.7 kB of the first screen's 90 kB
 * (gzip) for what these ~250 lines do; the small routers on npm keep no entry keys nor the
 * kind of the last navigation, which the page arrival (scroll restored on Back, focus moved on
 * a new page) needs. Entries are stored as react-router stored them ({ usr, key, idx } in
 * history.state), so a tab open across an upgrade keeps its scroll positions.
 */
import {
  Children,
  createContext,
  isValidElement,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  /** The entry's own key ('default' for the entry a tab or memory history starts on). */
  key: string;
}

export interface Path {
  pathname: string;
  search: string;
  hash: string;
}

/** A path, or parts of one (what is left out is the current location's). */
export type To = string | Partial<Path>;

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface NavigateFunction {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
}

export interface History {
  readonly location: Location;
  readonly action: NavigationType;
  push(path: Path, state: unknown): void;
  replace(path: Path, state: unknown): void;
  go(delta: number): void;
  listen(listener: (update: { location: Location; action: NavigationType }) => void): () => void;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

export function createPath({ pathname, search, hash }: Path): string {
  return pathname + (search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '') + (hash && hash !== '#' ? (hash.startsWith('#') ? hash : `#${hash}`) : '');
}

/** Parses "/a?b#c" into its parts (relative to nothing: the app's paths are absolute). */
function parsePath(path: string): Partial<Path> {
  const out: Partial<Path> = {};
  let rest = path;
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    out.hash = rest.slice(hashAt);
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf('?');
  if (searchAt >= 0) {
    out.search = rest.slice(searchAt);
    rest = rest.slice(0, searchAt);
  }
  if (rest) out.pathname = rest;
  return out;
}

/** Where `to` leads from `from`: a string is a whole path; parts left out keep `from`'s pathname. */
export function resolveTo(to: To, from: Path): Path {
  const parts = typeof to === 'string' ? parsePath(to) : to;
  return { pathname: parts.pathname ?? from.pathname, search: parts.search ?? '', hash: parts.hash ?? '' };
}

type Listener = Parameters<History['listen']>[0];

export function createBrowserHistory(win: Window = window): History {
  const listeners = new Set<Listener>();
  const entry = (): { usr?: unknown; key?: string; idx?: number } => (win.history.state as never) ?? {};
  const read = (): Location => {
    const { pathname, search, hash } = win.location;
    const s = entry();
    return { pathname, search, hash, state: s.usr ?? null, key: s.key ?? 'default' };
  };
  // The tab's first entry gets its index, as react-router gave it (without a new key).
  if (entry().idx == null) win.history.replaceState({ ...entry(), idx: 0 }, '');
  let location = read();
  let action: NavigationType = 'POP';
  const emit = () => listeners.forEach((l) => l({ location, action }));
  win.addEventListener('popstate', () => {
    location = read();
    action = 'POP';
    emit();
  });
  const write = (kind: 'PUSH' | 'REPLACE', path: Path, state: unknown) => {
    const idx = (entry().idx ?? 0) + (kind === 'PUSH' ? 1 : 0);
    const stored = { usr: state ?? null, key: newKey(), idx };
    const url = createPath(path);
    if (kind === 'PUSH') {
      try {
        win.history.pushState(stored, '', url);
      } catch {
        // Too many entries (iOS caps them), or state it cannot keep: a full page load instead.
        win.location.assign(url);
        return;
      }
    } else {
      win.history.replaceState(stored, '', url);
    }
    location = read();
    action = kind;
    emit();
  };
  return {
    get location() {
      return location;
    },
    get action() {
      return action;
    },
    push: (path, state) => write('PUSH', path, state),
    replace: (path, state) => write('REPLACE', path, state),
    go: (delta) => win.history.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A history in memory (tests): its entries are paths, or parts of a location with its state. */
export function createMemoryHistory(initialEntries: (string | Partial<Location>)[] = ['/']): History {
  const listeners = new Set<Listener>();
  const entries: Location[] = initialEntries.map((e, i) => ({
    pathname: '/',
    search: '',
    hash: '',
    state: null,
    ...(typeof e === 'string' ? parsePath(e) : e),
    key: i === 0 ? 'default' : newKey(),
  }));
  let index = entries.length - 1;
  let action: NavigationType = 'POP';
  const emit = () => listeners.forEach((l) => l({ location: entries[index]!, action }));
  const make = (path: Path, state: unknown): Location => ({ ...path, state: state ?? null, key: newKey() });
  return {
    get location() {
      return entries[index]!;
    },
    get action() {
      return action;
    },
    push(path, state) {
      index += 1;
      entries.splice(index, entries.length, make(path, state));
      action = 'PUSH';
      emit();
    },
    replace(path, state) {
      entries[index] = make(path, state);
      action = 'REPLACE';
      emit();
    },
    go(delta) {
      const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
      if (next === index) return;
      index = next;
      action = 'POP';
      emit();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

interface RouterState {
  location: Location;
  navigationType: NavigationType;
  history: History;
}

const RouterContext = createContext<RouterState | null>(null);
const OutletContext = createContext<ReactNode>(null);

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Router hooks are used outside a router.');
  return router;
}

/** Renders `children` with the history's location; updates come as transitions (as react-router's). */
export function Router({ history, children }: { history: History; children?: ReactNode }) {
  const [state, setState] = useState({ location: history.location, action: history.action });
  useLayoutEffect(() => {
    const stop = history.listen((update) => startTransition(() => setState(update)));
    // A navigation between the first render and this subscription (a child's layout effect).
    if (history.location !== state.location) setState({ location: history.location, action: history.action });
    return stop;
  }, [history]); // eslint-disable-line react-hooks/exhaustive-deps
  const value = { location: state.location, navigationType: state.action, history };
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function BrowserRouter({ children }: { children?: ReactNode }) {
  const history = useRef<History | null>(null);
  history.current ??= createBrowserHistory();
  return <Router history={history.current}>{children}</Router>;
}

export function MemoryRouter({ initialEntries, children }: { initialEntries?: (string | Partial<Location>)[]; children?: ReactNode }) {
  const history = useRef<History | null>(null);
  history.current ??= createMemoryHistory(initialEntries);
  return <Router history={history.current}>{children}</Router>;
}

export function useLocation(): Location {
  return useRouter().location;
}

export function useNavigationType(): NavigationType {
  return useRouter().navigationType;
}

export function useNavigate(): NavigateFunction {
  const { history, location } = useRouter();
  // The latest location without a new function each navigation (effects depend on it).
  const here = useRef(location);
  here.current = location;
  return useCallback(
    ((to: To | number, options: NavigateOptions = {}) => {
      if (typeof to === 'number') return history.go(to);
      const path = resolveTo(to, here.current);
      (options.replace ? history.replace : history.push)(path, options.state);
    }) as NavigateFunction,
    [history],
  );
}

export function Navigate({ to, replace, state }: { to: To; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), []); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  state?: unknown;
};

function isPlainLeftClick(e: MouseEvent<HTMLAnchorElement>, target: string | undefined) {
  return e.button === 0 && (!target || target === '_self') && !(e.metaKey || e.altKey || e.ctrlKey || e.shiftKey);
}

export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { location } = useRouter();
  const navigate = useNavigate();
  const href = createPath(resolveTo(to, location));
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || !isPlainLeftClick(e, target)) return;
    e.preventDefault();
    // A link to where one is already replaces the entry rather than adding the same one again.
    navigate(to, { replace: replace ?? href === createPath(location), state });
  };
  return <a {...rest} href={href} target={target} onClick={handle} />;
}

export type NavLinkProps = LinkProps & {
  /** Active only on its own path, not below it. */
  end?: boolean;
};

const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p).toLowerCase();

/** A link that says when it is the current page (`aria-current`, and the class `active`). */
export function NavLink({ to, end, className, ...rest }: NavLinkProps) {
  const { location } = useRouter();
  const target = norm(resolveTo(to, location).pathname);
  const here = norm(location.pathname);
  const isActive = here === target || (!end && (target === '/' || here.startsWith(`${target}/`)));
  const classes = [className, isActive ? 'active' : undefined].filter(Boolean).join(' ') || undefined;
  return <Link {...rest} to={to} className={classes} aria-current={isActive ? 'page' : undefined} />;
}

export interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** Declares a route for its <Routes>; renders nothing itself. */
export function Route(_: RouteProps): ReactElement | null {
  return null;
}

export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

interface RouteDef {
  segments: string[];
  index: boolean;
  element: ReactNode;
  children: RouteDef[];
}

function routesOf(children: ReactNode, parent: string[] = []): RouteDef[] {
  const out: RouteDef[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement<RouteProps>(child)) return;
    const { path, index, element, children: nested } = child.props;
    const own = (path ?? '').split('/').filter(Boolean);
    const segments = path?.startsWith('/') ? own : [...parent, ...own];
    out.push({ segments, index: !!index, element, children: routesOf(nested, segments) });
  });
  return out;
}

/** How well a route's own segments fit: static beats a parameter beats a splat (react-router's ranks). */
function score(route: RouteDef, parts: string[]): number | null {
  const segs = route.segments;
  if (route.index && segs.length !== parts.length) return null;
  let total = route.index ? 2 : 0;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (seg === '*') return total - 2;
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.startsWith(':')) total += 3;
    else if (seg.toLowerCase() === part.toLowerCase()) total += 10;
    else return null;
  }
  return segs.length === parts.length ? total : null;
}

/** The chain of routes (outermost first) that best matches `parts`, or null. */
function match(routes: RouteDef[], parts: string[]): { chain: RouteDef[]; score: number } | null {
  let best: { chain: RouteDef[]; score: number } | null = null;
  for (const route of routes) {
    const found = route.children.length
      ? match(route.children, parts)
      : (() => {
          const s = score(route, parts);
          return s === null ? null : { chain: [], score: s };
        })();
    if (found && (!best || found.score > best.score)) best = { chain: [route, ...found.chain], score: found.score };
  }
  return best;
}

export function Routes({ children }: { children?: ReactNode }) {
  const { location } = useRouter();
  let parts: string[];
  try {
    parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    parts = location.pathname.split('/').filter(Boolean);
  }
  const found = match(routesOf(children), parts);
  if (!found) return null;
  // Each route's element, with its child's element as the <Outlet/> inside it.
  return found.chain.reduceRight<ReactNode>((inner, route) => <OutletContext.Provider value={inner}>{route.element ?? <Outlet />}</OutletContext.Provider>, null);
}
