/**
 * The lists calls (api.md "Lists and sharing"), through the shared typed client but kept here
 * rather than in lib/api.ts, which is part of the initial bundle (`npm run size`), as
 * features/sessions/sessionsApi.ts is.
 */
import { api } from '../../lib/api';
import type { InvitePeek, List, ListInput, ListPatch } from '../../lib/types';

const path = (id: string) => `/api/lists/${encodeURIComponent(id)}`;

/** GET /api/lists: every list the user belongs to, the default list first. */
export function fetchLists(): Promise<List[]> {
  return api.request<List[]>('GET', '/api/lists');
}

/** POST /api/lists: 201 the list; 409 LIST_LIMIT past 50 of one's own; 400 VALIDATION_FAILED (`name`). */
export function createList(input: ListInput): Promise<List> {
  return api.request<List>('POST', '/api/lists', { body: input });
}

/** PUT /api/lists/{id}: rename or recolour (the owner only: 403 FORBIDDEN for a member; 404). */
export function updateList(id: string, patch: ListPatch): Promise<List> {
  return api.request<List>('PUT', path(id), { body: patch });
}

/** DELETE /api/lists/{id}: the list and its reminders are gone; 400 DEFAULT_LIST for the default list. */
export function deleteList(id: string): Promise<void> {
  return api.request<void>('DELETE', path(id));
}

/** POST /api/invites/peek: what an invitation link shows (addresses masked); spends nothing, needs no session. */
export function peekInvite(token: string): Promise<InvitePeek> {
  return api.request<InvitePeek>('POST', '/api/invites/peek', { body: { token } });
}

/** POST /api/invites/accept: the signed-in account joins the list (403 INVITE_WRONG_ACCOUNT, 400 INVITE_INVALID). */
export function acceptInvite(token: string): Promise<List> {
  return api.request<List>('POST', '/api/invites/accept', { body: { token } });
}
