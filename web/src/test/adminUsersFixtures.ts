/**
 * GET /api/admin/users `data`, shaped exactly as the server answers
 * `{users: [{id, email, is_active, created_at, last_active_at, active_reminders, archived_reminders}], page, per_page, total}`
 * (newest account first), for a server with `total` users.
 */
import type { AdminUserRow, AdminUsersPage } from '../lib/types';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const NEWEST = Date.parse('2026-11-21T20:30:00Z');
const DAY = 86_400_000;

/** The i-th user, newest first (0-based). The first three are the ones the tests look at. */
export function adminUser(i: number): AdminUserRow {
  if (i === 0) {
    // 20:30Z is 05:30 the next day in Tokyo: the time zone shows in the date
    return { id: 'u-000', email: 'admin@example.com', is_active: true, created_at: '2026-11-20T23:10:00Z', last_active_at: '2026-11-21T20:30:00Z', active_reminders: 3, archived_reminders: 12 };
  }
  if (i === 1) {
    return { id: 'u-001', email: 'closed.account@example.org', is_active: false, created_at: '2026-01-02T03:04:05Z', last_active_at: '2026-02-01T09:15:00Z', active_reminders: 0, archived_reminders: 1200 };
  }
  return {
    id: `u-${String(i).padStart(3, '0')}`,
    email: `user${i}@example.com`,
    is_active: true,
    created_at: iso(NEWEST - i * DAY),
    last_active_at: iso(NEWEST - i * 3_600_000),
    active_reminders: i % 7,
    archived_reminders: i % 3,
  };
}

/** One page as the server answers it (a page past the end has no users but the same total). */
export function adminUsersPage(page: number, perPage = 50, total = 120): AdminUsersPage {
  const first = (page - 1) * perPage;
  const count = Math.max(0, Math.min(perPage, total - first));
  return { users: Array.from({ length: count }, (_, k) => adminUser(first + k)), page, per_page: perPage, total };
}
