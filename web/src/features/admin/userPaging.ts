/**
 * Paging of GET /api/admin/users: `{users, page, per_page, total}` with a 1-based page and
 * per_page 1..100 (the server refuses anything else with 400).
 */
import type { AdminUsersPage } from '../../lib/types';

export const USERS_PER_PAGE = 50;
export const MAX_PAGE = 1_000_000;

/** The `?page=` of the address: a whole number from 1 to MAX_PAGE, else 1. */
export function readPage(value: string | null): number {
  if (value === null || !/^\d{1,7}$/.test(value.trim())) return 1;
  const n = Number(value.trim());
  return n >= 1 && n <= MAX_PAGE ? n : 1;
}

export interface PageInfo {
  page: number;
  /** number of pages, at least 1 (an empty list is one empty page) */
  pages: number;
  total: number;
  /** 1-based positions of the first and last user shown; 0 and 0 when none */
  from: number;
  to: number;
  hasPrev: boolean;
  hasNext: boolean;
}

/** What the pagination controls show, from the server's answer. */
export function pageInfo(data: AdminUsersPage): PageInfo {
  const perPage = Math.max(1, data.per_page);
  const total = Math.max(0, data.total);
  const pages = Math.max(1, Math.ceil(total / perPage));
  const page = Math.max(1, data.page);
  const shown = data.users.length;
  const from = shown > 0 ? (page - 1) * perPage + 1 : 0;
  const to = shown > 0 ? from + shown - 1 : 0;
  return { page, pages, total, from, to, hasPrev: page > 1, hasNext: page < pages };
}
