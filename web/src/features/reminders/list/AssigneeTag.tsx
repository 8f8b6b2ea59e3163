import { useTranslation } from 'react-i18next';
import { isTempId } from '../../../lib/offline/syncQueue';
import type { Reminder } from '../../../lib/types';
import { useOccurrences, usePeople } from '../usePeople';

/**
 * A shared reminder's people on its card: "for hanako@example.com, you", or, taking turns,
 * whose turn is next (the whole order in its title). Shown once their names are known.
 */
export function AssigneeTag({ reminder: r }: { reminder: Pick<Reminder, 'id' | 'list_id' | 'assignees' | 'rotate' | 'is_archived'> }) {
  const { t } = useTranslation('reminders');
  const { nameOf } = usePeople(r.list_id);
  const next = useOccurrences(r.rotate && !r.is_archived && !isTempId(r.id) ? r.id : null).data?.assignees?.[0];
  const names = r.assignees.map(nameOf);
  if (names.some((n) => n === null)) return null;
  const all = t('assign.for', { names: names.join(t('assign.separator')) });
  const nextName = nameOf(next);
  return (
    <span className="badge muted assignee-tag" title={all}>
      {nextName ? t('assign.next', { name: nextName }) : all}
    </span>
  );
}
