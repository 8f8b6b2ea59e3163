/**
 * The lists calls (api.md "Lists and sharing"), through the shared typed client but kept here
 * rather than in lib/api.ts, which is part of the initial bundle (`npm run size`), as
 * features/sessions/sessionsApi.ts is.
 */
import { api } from '../../lib/api';
import type { Invite, InvitePeek, List, ListInput, ListPatch } from '../../lib/types';

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

/** GET /api/lists/{id}/members (src/shared, which the reminders read too). */
export { fetchMembers } from '../../shared/listMembers';

/** DELETE /api/lists/{id}/members/{user_id}: the owner removes a member, or a member leaves (403 FORBIDDEN otherwise). */
export function removeMember(id: string, userId: string): Promise<void> {
  return api.request<void>('DELETE', `${path(id)}/members/${encodeURIComponent(userId)}`);
}

/** GET /api/lists/{id}/invites: the owner's pending invitations. */
export function fetchInvites(id: string): Promise<Invite[]> {
  return api.request<Invite[]>('GET', `${path(id)}/invites`);
}

/** POST /api/lists/{id}/invites: 201; 409 MEMBER_LIMIT or ALREADY_MEMBER; 429 RATE_LIMITED; 400 VALIDATION_FAILED (`email`). */
export function sendInvite(id: string, email: string): Promise<Invite> {
  return api.request<Invite>('POST', `${path(id)}/invites`, { body: { email } });
}

/** DELETE /api/lists/{id}/invites/{invite_id}: the invitation's link stops working. */
export function cancelInvite(id: string, inviteId: string): Promise<void> {
  return api.request<void>('DELETE', `${path(id)}/invites/${encodeURIComponent(inviteId)}`);
}
