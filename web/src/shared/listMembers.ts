/**
 * The people in a list (GET /api/lists/{id}/members), which both the lists feature (the people
 * of a list) and the reminders feature (who is reminded, whose turn, who acted) read, under one
 * SWR key (`swrKeys.listMembers`), so a change in one shows in the other.
 */
import useSWR from 'swr';
import { api } from '../lib/api';
import { swrKeys } from '../lib/swrKeys';
import type { Member } from '../lib/types';

/** GET /api/lists/{id}/members: the people in a list, the owner first (co-members see each other's addresses). */
export function fetchMembers(id: string): Promise<Member[]> {
  return api.request<Member[]>('GET', `/api/lists/${encodeURIComponent(id)}/members`);
}

/** The people in list `listId` (null: not fetched). */
export function useListMembers(listId: string | null) {
  return useSWR(listId ? swrKeys.listMembers(listId) : null, ([, id]) => fetchMembers(id));
}
