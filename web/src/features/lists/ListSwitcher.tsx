import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ManageListsDialog } from './ManageListsDialog';
import { useLists } from './useLists';

export interface ListSwitcherProps {
  /** the list shown (null: every list) */
  selected: string | null;
  onSelect: (id: string | null) => void;
  /** active reminders per list id, and of every list */
  counts: Readonly<Record<string, number>>;
  total: number;
  online: boolean;
}

/**
 * The reminders page's choice of list: "All" and each list (colour, name, active reminders) as
 * toggle buttons in one row that scrolls sideways on a phone, and "Lists", which opens the
 * management dialog. With a single list there is nothing to choose: only "Lists" shows.
 */
export function ListSwitcher({ selected, onSelect, counts, total, online }: ListSwitcherProps) {
  const { t } = useTranslation('lists');
  const { data: lists } = useLists();
  const [managing, setManaging] = useState(false);
  const several = !!lists && lists.length > 1;
  // The chosen list's button in view (the row scrolls sideways on a phone), the page not moved.
  const row = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const pressed = row.current?.querySelector<HTMLElement>('[aria-pressed="true"]');
    const box = row.current;
    if (!pressed || !box) return;
    if (pressed.offsetLeft < box.scrollLeft || pressed.offsetLeft + pressed.offsetWidth > box.scrollLeft + box.clientWidth) {
      box.scrollLeft = pressed.offsetLeft - 8;
    }
  }, [selected, several]);
  return (
    <div className="list-bar">
      {lists && several && (
        <div className="list-chips" role="group" aria-label={t('switcher.label')} ref={row}>
          <Chip pressed={selected === null} name={t('switcher.all')} count={total} onClick={() => onSelect(null)} />
          {lists.map((l) => (
            <Chip key={l.id} pressed={selected === l.id} colour={l.colour} name={l.name} count={counts[l.id] ?? 0} onClick={() => onSelect(l.id)} />
          ))}
        </div>
      )}
      <button type="button" className="button small secondary" aria-haspopup="dialog" onClick={() => setManaging(true)}>
        {t('switcher.manage')}
      </button>
      <ManageListsDialog
        open={managing}
        online={online}
        onClose={() => setManaging(false)}
        onDeleted={(id) => {
          if (id === selected) onSelect(null);
        }}
      />
    </div>
  );
}

function Chip({ pressed, colour, name, count, onClick }: { pressed: boolean; colour?: string; name: string; count: number; onClick: () => void }) {
  const { t } = useTranslation('lists');
  return (
    <button type="button" className={colour ? `chip lc-${colour}` : 'chip'} aria-pressed={pressed} onClick={onClick} title={name}>
      {colour && <span className="list-dot" aria-hidden="true" />}
      <span className="chip-name">{name}</span>{' '}
      <span className="chip-count" aria-hidden="true">
        {count}
      </span>
      <span className="sr-only">{t('switcher.count', { count })}</span>
    </button>
  );
}
