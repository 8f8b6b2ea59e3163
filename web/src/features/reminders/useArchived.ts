/**
 * The archived (completed) reminders, a page at a time (decisions.md "Retention": up to 1,000
 * per account, kept a year; `GET /api/reminders?status=archived&limit=&offset=`, newest archived
 * first, the total in `X-Total-Count`).
 */
import { useState } from 'react';
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

/** GET /api/reminders?status=archived&limit=&offset=, through the shared client (kept out of lib/api.ts, part of the first paint). */
export async function fetchArchivedPage(offset: number, limit = ARCHIVED_PAGE_SIZE): Promise<ArchivedPage> {
  let total: number | null = null;
  const list = await api.request<Reminder[]>('GET', '/api/reminders', {
    query: { status: 'archived', limit, offset },
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
export function useArchivedPage(offset: number) {
  return useSWR(swrKeys.archivedReminders(offset, ARCHIVED_PAGE_SIZE), () => fetchArchivedPage(offset));
}

/**
 * The completed tab's pages: the first (which also gives the count) and the last one shown, how
 * many are shown, and `more()` for "Show more".
 */
export function useArchivedPages() {
  const first = useArchivedPage(0);
  const [pages, setPages] = useState(1);
  const lastOffset = (pages - 1) * ARCHIVED_PAGE_SIZE;
  const last = useArchivedPage(lastOffset);
  return { first, last, lastOffset, pages, more: () => setPages((n) => n + 1) };
}
