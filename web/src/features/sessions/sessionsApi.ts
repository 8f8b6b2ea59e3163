/**
 * The sessions calls (api.md "Auth"), through the shared client but kept here rather than in
 * lib/api.ts, which is part of the initial bundle (`npm run size`), as `skipNextOccurrence` is.
 * Signing out everywhere is `signOut(from, true)` in lib/authStore (it unsubscribes this device
 * first and wipes what this browser keeps).
 */
import { api } from '../../lib/api';
import type { AuthSession } from '../../lib/types';

/** GET /api/auth/sessions: every session of the user, `current` marking this one. */
export function listSessions(): Promise<AuthSession[]> {
  return api.request<AuthSession[]>('GET', '/api/auth/sessions');
}

/** DELETE /api/auth/sessions/{id}: that session ends (404 when it already has). */
export function endSession(id: string): Promise<void> {
  return api.request<void>('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`);
}
