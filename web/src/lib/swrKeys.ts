/**
 * Every SWR key of the app, in one place. Keys are arrays whose first element names the
 * resource, so related entries can be revalidated together with a matcher.
 */
import type { ReminderStatusFilter } from './types';

export const swrKeys = {
  reminders: (status: ReminderStatusFilter = 'active') => ['reminders', status] as const,
  /** a page of the archived (completed) reminders, newest archived first; of one list ('' = all) and matching a search ('' = any) */
  archivedReminders: (offset: number, limit: number, listId = '', q = '') => ['reminders-archived', offset, limit, listId, q] as const,
  reminder: (id: string) => ['reminder', id] as const,
  occurrences: (id: string, count = 5) => ['reminder-occurrences', id, count] as const,
  logs: (id: string) => ['reminder-logs', id] as const,
  /** a reminder's trigger links (GET /api/reminders/{id}/triggers; never their secrets) */
  triggers: (id: string) => ['trigger-links', id] as const,
  preview: (inputJson: string) => ['reminder-preview', inputJson] as const,
  /** every list the user belongs to (GET /api/lists) */
  lists: () => ['lists'] as const,
  /** the people in a list (GET /api/lists/{id}/members) */
  listMembers: (id: string) => ['list-members', id] as const,
  /** a list's pending invitations, for its owner (GET /api/lists/{id}/invites) */
  listInvites: (id: string) => ['list-invites', id] as const,
  settings: () => ['settings'] as const,
  /** the person's channels: ntfy, webhooks, Telegram, LINE (GET /api/channels) */
  channels: () => ['channels'] as const,
  subscriptions: () => ['notification-subscriptions'] as const,
  sessions: () => ['auth-sessions'] as const,
  /** the person's API tokens (GET /api/tokens) */
  tokens: () => ['api-tokens'] as const,
  adminStats: () => ['admin-stats'] as const,
  adminUsers: (page: number, perPage: number) => ['admin-users', page, perPage] as const,
  serverStatus: () => ['server-status'] as const,
  healthDetails: () => ['health-details'] as const,
  site: () => ['site'] as const,
} as const;

/** Matches every reminder-related key (for mutate(matcher)). */
export function isReminderKey(key: unknown): boolean {
  return Array.isArray(key) && typeof key[0] === 'string' && key[0].startsWith('reminder');
}

/** Matches the pages of archived reminders. */
export function isArchivedPageKey(key: unknown): boolean {
  return Array.isArray(key) && key[0] === 'reminders-archived';
}
