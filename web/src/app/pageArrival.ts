/**
 * Where a page opens (decisions.md, "Trust from the first minute"): reached by a link, at the top
 * (or at its #anchor) with its heading focused (a button that navigates, such as the header's
 * "create", keeps the focus: its dialog takes it); by Back or Forward (or a reload), at the position
 * it had. Positions are kept per history entry (its key) for the tab's session.
 *
 * Only a change of page counts: a link to the same page with other query parameters (a filter, a
 * dialog's request leaving the address) or in the other language (the EN/JA switch) keeps the
 * position and the focus. Loaded after the first paint (with the overlays): the first screen
 * needs none of it.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from '../lib/router';
import { anyDialogOpen } from '../components/dialogStack';

const STORAGE_KEY = 'hibiki.scroll';
/** how long a page may take to arrive (a lazy chunk, the session check, its data) */
const WAIT_MS = 4000;

export type Arrival = 'top' | 'restore' | 'stay';

/** The page a path shows, whatever its language ('/en/faq' and '/faq' are one page). */
const pageOf = (pathname: string) => pathname.replace(/^\/en(?=\/|$)/, '') || '/';

/** What a navigation does to the scroll position and the focus (pure). */
export function arrivalFor(type: 'POP' | 'PUSH' | 'REPLACE', from: string | null, to: string): Arrival {
  if (from === null) return type === 'POP' ? 'restore' : 'stay';
  if (type === 'POP') return 'restore';
  return pageOf(from) === pageOf(to) ? 'stay' : 'top';
}

function readPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

function savePositions(p: Record<string, number>): void {
  try {
    // The newest 50 entries are plenty for Back and Forward.
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(Object.entries(p).slice(-50))));
  } catch {
    // storage full or denied: positions are kept in memory only
  }
}

/**
 * Calls `fn` each frame until it returns true, the person scrolls, types or taps (their own
 * choice wins), or WAIT_MS have passed. Returns a cancel function.
 */
function untilDone(fn: () => boolean): () => void {
  const end = Date.now() + WAIT_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const ev of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.removeEventListener(ev, stop);
  };
  for (const ev of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.addEventListener(ev, stop, { passive: true });
  const step = () => {
    if (fn() || Date.now() > end) stop();
    else frame = requestAnimationFrame(step);
  };
  step();
  return stop;
}

/** The page's main heading, focused without scrolling (the page decides where it is). */
function focusHeading(): boolean {
  const h = document.querySelector<HTMLElement>('main h1');
  if (!h) return false;
  if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
  h.focus({ preventScroll: true });
  return true;
}

function hashTarget(hash: string): HTMLElement | null {
  if (hash.length < 2) return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return null;
  }
}

export function usePageArrival(): void {
  const location = useLocation();
  const type = useNavigationType();
  const positions = useRef<Record<string, number>>(readPositions());
  const current = useRef<{ key: string; pathname: string } | null>(null);

  // The browser's own restoring would fight ours (it runs before the page has arrived).
  useEffect(() => {
    const before = history.scrollRestoration;
    history.scrollRestoration = 'manual';
    // Recorded as it happens: once the next page has replaced this one, the position is gone
    // (the document shrinks and the browser clamps it).
    const onScroll = () => {
      if (current.current) positions.current[current.current.key] = Math.round(window.scrollY);
    };
    const onHide = () => savePositions(positions.current);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onHide);
      history.scrollRestoration = before;
    };
  }, []);

  useLayoutEffect(() => {
    // (StrictMode's second run of the first effect is no navigation.)
    // The entry a tab first opened has no key of its own ('default'): its address stands in.
    const here = { key: location.key === 'default' ? `default ${location.pathname}${location.search}` : location.key, pathname: location.pathname };
    const from = current.current?.key === here.key ? null : current.current;
    current.current = here;
    savePositions(positions.current);

    const arrival = arrivalFor(type, from?.pathname ?? null, location.pathname);
    if (arrival === 'stay') return;
    if (arrival === 'restore') {
      const y = positions.current[here.key];
      if (y === undefined) return;
      // The page grows as it loads: scroll again until the position exists.
      return untilDone(() => {
        window.scrollTo(0, y);
        return Math.abs(window.scrollY - y) < 2;
      });
    }
    window.scrollTo(0, 0);
    const focusedThen = document.activeElement;
    const hash = location.hash;
    return untilDone(() => {
      if (!document.querySelector('main h1')) return false;
      // The heading takes the focus from the link followed (or from nothing); focus on a control
      // that is still there (the header's "create", which also opens a dialog) or that moved on
      // meanwhile (a field, a dialog that opened) stays where it is.
      const active = document.activeElement;
      const free = !active || active === document.body || !active.isConnected || (active === focusedThen && active.tagName === 'A');
      if (free && !anyDialogOpen()) focusHeading();
      const target = hashTarget(hash);
      if (target) target.scrollIntoView?.({ block: 'start' });
      else window.scrollTo(0, 0);
      return true;
    });
  }, [location.key, location.pathname, location.search, location.hash, type]);
}
