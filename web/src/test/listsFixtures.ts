import type { List } from '../lib/types';

/** Two lists of the signed-in user's own: the default list and "Work". */
export const LISTS: List[] = [
  { id: 'l-default', name: 'Reminders', colour: 'blue', is_default: true, role: 'owner', members: 1, active_reminders: 2, owner_id: 'u1' },
  { id: 'l-work', name: 'Work', colour: 'red', is_default: false, role: 'owner', members: 1, active_reminders: 3, owner_id: 'u1' },
];

export const list = (over: Partial<List> & Pick<List, 'id' | 'name'>): List => ({
  colour: 'blue',
  is_default: false,
  role: 'owner',
  members: 1,
  active_reminders: 0,
  owner_id: 'u1',
  ...over,
});
