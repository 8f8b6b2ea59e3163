import { useTranslation } from 'react-i18next';
import type { List } from '../../../lib/types';

/** The list a reminder is in: its colour and name (read as "List: Work"), shown only when the person has more than one list. */
export function ListTag({ list }: { list: Pick<List, 'name' | 'colour'> }) {
  const { t } = useTranslation('reminders');
  return (
    <span className={`list-tag lc-${list.colour}`}>
      <span className="list-dot" aria-hidden="true" />
      <span className="sr-only">{t('list.inList', { name: list.name })}</span>
      <span className="list-tag-name" aria-hidden="true" title={list.name}>
        {list.name}
      </span>
    </span>
  );
}

/**
 * The list of each reminder, for its tag: a lookup by list id (a reminder with no list yet is in
 * the default list), or null with one list or none known (one list: no tag at all).
 */
export function listLookup(lists: readonly List[] | undefined): ((listId: string) => List | undefined) | null {
  if (!lists || lists.length < 2) return null;
  const byId = new Map(lists.map((l) => [l.id, l]));
  const fallback = lists.find((l) => l.is_default);
  return (listId) => (listId ? byId.get(listId) : fallback);
}
