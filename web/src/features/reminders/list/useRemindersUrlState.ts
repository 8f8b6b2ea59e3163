import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from '../../../lib/router';
import type { Reminder } from '../../../lib/types';

export type RemindersTab = 'active' | 'completed';

/**
 * The reminders page's state that comes from its address: the tab (`?tab=completed`) and the
 * highlighted reminder (`?reminder=<id>`, from a tapped notification), whose details open,
 * which is scrolled into view once it is found in `active` or `archived` (the completed tab's
 * first page), and whose archived copy switches to the completed tab. Also which rows have their
 * details open.
 */
export function useRemindersUrlState(active: readonly Reminder[] | undefined, archived: readonly Reminder[] | undefined) {
  const location = useLocation();
  const [tab, setTab] = useState<RemindersTab>(() => (new URLSearchParams(location.search).get('tab') === 'completed' ? 'completed' : 'active'));
  // `?reminder=<id>` (a tapped notification) opens that reminder's details, highlighted.
  const focusId = new URLSearchParams(location.search).get('reminder');
  // The fallback email's link says `from=email`; any other is a tapped notification.
  const openedFrom: 'email' | 'notification' = new URLSearchParams(location.search).get('from') === 'email' ? 'email' : 'notification';
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(focusId ? [focusId] : []));
  const toggleDetails = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const focused = focusId ? ((active ?? []).find((r) => r.id === focusId) ?? archived?.find((r) => r.id === focusId)) : undefined;
  useEffect(() => {
    if (!focusId) return;
    setExpanded((prev) => (prev.has(focusId) ? prev : new Set([...prev, focusId])));
  }, [focusId]);
  useEffect(() => {
    if (!focused) return;
    if (focused.is_archived) setTab('completed');
    const h = setTimeout(() => document.getElementById(`reminder-${focused.id}`)?.scrollIntoView({ block: 'center' }), 50);
    return () => clearTimeout(h);
  }, [focused]);
  return { tab, setTab, focusId, openedFrom, expanded, toggleDetails };
}

/**
 * The list shown, from the address (`?list=<id>`, null: every list): back, forward and reload keep
 * it. Choosing one is a step in the history (Back returns to the one before); `replace` (a list
 * that is gone) is not.
 */
export function useListParam() {
  const location = useLocation();
  const navigate = useNavigate();
  const listParam = new URLSearchParams(location.search).get('list') || null;
  const latest = useRef(location);
  latest.current = location;
  const setList = useCallback(
    (id: string | null, replace = false) => {
      const here = latest.current;
      const params = new URLSearchParams(here.search);
      if (id) params.set('list', id);
      else params.delete('list');
      const qs = params.toString();
      navigate({ pathname: here.pathname, search: qs ? `?${qs}` : '' }, { replace });
    },
    [navigate],
  );
  return { listParam, setList };
}
