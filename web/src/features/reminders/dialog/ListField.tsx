import { useTranslation } from 'react-i18next';
import type { List } from '../../../lib/types';
import { defaultListOf } from '../list/listFilter';

/**
 * The list a reminder goes in: a select of the person's lists by name, the chosen one's colour
 * beside it. `value` '' (not chosen: the server's default list) shows the default list.
 */
export function ListField({ id, lists, value, onChange }: { id: string; lists: readonly List[]; value: string; onChange: (listId: string) => void }) {
  const { t } = useTranslation('reminders');
  const current = lists.find((l) => l.id === value) ?? defaultListOf(lists) ?? lists[0];
  return (
    <>
      <label htmlFor={id}>{t('fields.list')}</label>
      <div className={`list-select lc-${current?.colour ?? 'blue'}`}>
        <span className="list-dot" aria-hidden="true" />
        <select id={id} value={current?.id ?? ''} onChange={(e) => onChange(e.target.value)}>
          {lists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
