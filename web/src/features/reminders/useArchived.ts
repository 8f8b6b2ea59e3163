/**
 * The archived (completed) reminders, a page at a time (decisions.md "Retention": up to 1,000
 * per account, kept a year; `GET /api/reminders?status=archived&limit=&offset=`, newest archived
 * first, the total in `X-Total-Count`).
 */
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { api } from '../../lib/api';
import { swrKeys } from '../../lib/swrKeys';
import type { Reminder } from '../../lib/types';

export const ARCHIVED_PAGE_SIZE = 50;

export interface ArchivedPage {
  items: Reminder[];
  /** `X-Total-Count`: how many archived reminders there are in all; null when the answer did not say */
  total: number | null;
}

/** A number in an `X-Total-Count` header, or null. */
export function totalFrom(header: string | null): number | null {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return null;
  return Number(header);
}

/**
 * Which archived reminders: those of one list ('' = every list) whose title or description holds
 * `q` ('' = any). The archive is not kept on the device, so the server filters it (`list_id`, `q`:
 * the same folding as the active list's search on the device).
 */
export interface ArchivedFilter {
  listId: string;
  q: string;
}

export const NO_FILTER: ArchivedFilter = { listId: '', q: '' };

/** GET /api/reminders?status=archived&limit=&offset=(&list_id=&q=), through the shared client (kept out of lib/api.ts, part of the first paint). */
export async function fetchArchivedPage(offset: number, limit = ARCHIVED_PAGE_SIZE, filter: ArchivedFilter = NO_FILTER): Promise<ArchivedPage> {
  let total: number | null = null;
  const list = await api.request<Reminder[]>('GET', '/api/reminders', {
    query: { status: 'archived', limit, offset, list_id: filter.listId || undefined, q: filter.q || undefined },
    onResponse: (res) => {
      total = totalFrom(res.headers.get('X-Total-Count'));
    },
  });
  return { items: (list ?? []).filter((r) => r.is_archived), total };
}

/** Whether there are archived reminders after the page at `offset` (without a total: when the page was full). */
export function hasMoreAfter(page: ArchivedPage, offset: number, limit = ARCHIVED_PAGE_SIZE): boolean {
  return page.total !== null ? offset + page.items.length < page.total : page.items.length >= limit;
}

/** How many archived reminders there are: the total, else what the first page holds. */
export function archivedCount(first: ArchivedPage): number {
  return first.total ?? first.items.length;
}

/** The page of archived reminders at `offset` (a multiple of the page size). */
export function useArchivedPage(offset: number, filter: ArchivedFilter = NO_FILTER) {
  return useSWR(swrKeys.archivedReminders(offset, ARCHIVED_PAGE_SIZE, filter.listId, filter.q), () =>
    fetchArchivedPage(offset, ARCHIVED_PAGE_SIZE, filter),
  );
}

/**
 * The completed tab's pages: the first (which also gives the count) and the last one shown, how
 * many are shown, and `more()` for "Show more"; another filter starts again at one page.
 */
export function useArchivedPages(filter: ArchivedFilter = NO_FILTER) {
  const first = useArchivedPage(0, filter);
  const key = `${filter.listId}\n${filter.q}`;
  const [shown, setShown] = useState({ key, pages: 1 });
  const pages = shown.key === key ? shown.pages : 1;
  const lastOffset = (pages - 1) * ARCHIVED_PAGE_SIZE;
  const last = useArchivedPage(lastOffset, filter);
  return { first, last, lastOffset, pages, filter, more: () => setShown({ key, pages: pages + 1 }) };
}

/** `value`, once it has stayed the same for `ms` (a search typed into the archive asks the server once). */
export function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const h = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(h);
  }, [value, ms]);
  return settled;
}
