import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { List, Reminder } from '../../../lib/types';
import { useOnline } from '../../../lib/useOnline';
import { useDates } from '../../../shared/useDates';
import { ActiveReminders } from './ActiveReminders';
import { ArchivedList } from './ArchivedList';
import { DeleteReminderDialog } from './DeleteReminderDialog';
import { countByList, defaultListOf, filterReminders, listIdOf, searchKey } from './listFilter';
import { listLookup } from './ListTag';
import { NotificationActionPrompt } from '../actions/NotificationActionPrompt';
import { useRecurrenceLabel } from './RecurrenceLabel';
import { ReminderDialog } from '../dialog/ReminderDialog';
import { ReminderRow } from './ReminderRow';
import { MAX_ACTIVE_REMINDERS, byNextRing, isActive } from '../reminderLogic';
import { SearchBox } from './SearchBox';
import { SnoozeAll } from '../actions/SnoozeAll';
import { archivedCount, useArchivedPages, useSettled } from '../useArchived';
import { useOpenCreateRequest } from '../dialog/useOpenCreateRequest';
import { useReminderEditor } from '../dialog/useReminderEditor';
import { useReminders } from '../useReminders';
import { useReminderSettings } from '../useReminderSettings';
import { useListParam, useRemindersUrlState } from './useRemindersUrlState';

/** What the page gives the list switcher (features/lists' ListSwitcher; the app passes it in). */
export interface ListSwitcherSlot {
  /** the list shown (null: every list) */
  selected: string | null;
  onSelect: (id: string | null) => void;
  /** active reminders per list id, and of every list */
  counts: Readonly<Record<string, number>>;
  total: number;
  online: boolean;
}

/**
 * `deviceNotice` (whether this device will ring) shows at the top of the page, as on the
 * dashboard, and in the create/edit dialog; `quickAdd` is the quick-add box; `lists` the person's
 * lists and `listSwitcher` the choice of list and its management (the app passes them all in).
 * The list shown (`?list=<id>`) and the search filter the list the app holds (so both work
 * offline); the completed tab asks the server for the same.
 */
export default function RemindersPage({
  deviceNotice,
  quickAdd,
  lists,
  listSwitcher,
}: {
  deviceNotice: ReactNode;
  quickAdd?: ReactNode;
  lists?: readonly List[];
  listSwitcher?: (slot: ListSwitcherSlot) => ReactNode;
}) {
  const { t } = useTranslation('reminders');
  const dates = useDates();
  const { data, error, isLoading } = useReminders();
  // Deleting is not queued offline (api.md): the buttons wait for the connection, saying why.
  const online = useOnline();
  const recurrenceLabel = useRecurrenceLabel();
  const settings = useReminderSettings();
  const [search, setSearch] = useState('');
  const folded = searchKey(search);
  const { listParam, setList } = useListParam();
  const defaultList = defaultListOf(lists);
  // A list the person is no longer in (deleted, left) or a stale link shows every list.
  const stale = listParam !== null && lists !== undefined && !lists.some((l) => l.id === listParam);
  const selected = stale ? null : listParam;
  useEffect(() => {
    if (stale) setList(null, true);
  }, [stale, setList]);
  // The completed tab shows the archived reminders a page at a time (the first page also gives
  // their count), of the list shown and matching the search, once typing has settled.
  const archiveQuery = useSettled(search.trim());
  const archiveFilter = useMemo(() => ({ listId: selected ?? '', q: archiveQuery }), [selected, archiveQuery]);
  const archived = useArchivedPages(archiveFilter);
  const { tab, setTab, focusId, openedFrom, expanded, toggleDetails } = useRemindersUrlState(data, archived.first.data?.items);
  // A new reminder goes in the list shown, else the default list.
  const editor = useReminderEditor(settings.defaultTz, selected ?? defaultList?.id ?? '');
  const [confirmDelete, setConfirmDelete] = useState<Reminder | null>(null);

  const active = useMemo(() => (data ?? []).filter(isActive).sort(byNextRing), [data]);
  const list = useMemo(() => filterReminders(active, { listId: selected, folded, defaultListId: defaultList?.id }), [active, selected, folded, defaultList?.id]);
  const counts = useMemo(() => countByList(active, defaultList?.id), [active, defaultList?.id]);
  const listOf = listLookup(lists);
  const sharedLists = useMemo(() => new Set((lists ?? []).filter((l) => l.members > 1).map((l) => l.id)), [lists]);
  const selectedName = selected ? lists?.find((l) => l.id === selected)?.name : undefined;
  const completedCount = archived.first.data ? archivedCount(archived.first.data) : 0;
  const atLimit = active.length >= MAX_ACTIVE_REMINDERS;
  const clearSearch = () => setSearch('');
  // Nothing matches: say so, and offer to clear the search; an empty list offers a new reminder in it.
  const noMatch = folded ? (
    <>
      <p>{selectedName ? t('search.noMatchIn', { name: selectedName, q: search.trim() }) : t('search.noMatch', { q: search.trim() })}</p>
      <button type="button" className="button secondary" onClick={clearSearch}>
        {t('search.clear')}
      </button>
    </>
  ) : null;
  const emptyList = selectedName ? (
    <>
      <p>{t('list.empty', { name: selectedName })}</p>
      <button type="button" className="button link" onClick={() => setList(null)}>
        {t('list.showAll')}
      </button>
      <button type="button" className="button primary" onClick={editor.openCreate} disabled={atLimit}>
        {t('create')}
      </button>
    </>
  ) : null;

  // The header's "create" and `?new=1`: once the list and the settings are known.
  useOpenCreateRequest({
    ready: (data !== undefined || error !== undefined) && settings.known,
    atLimit,
    openCreate: editor.openCreate,
    openQuickAdd: editor.openQuickAdd,
  });

  const row = (r: Reminder) => (
    <ReminderRow
      key={r.id}
      reminder={r}
      list={listOf?.(listIdOf(r, defaultList?.id))}
      shared={sharedLists.has(listIdOf(r, defaultList?.id))}
      highlighted={r.id === focusId ? openedFrom : null}
      expanded={expanded.has(r.id)}
      online={online}
      dates={dates}
      recurrenceLabel={recurrenceLabel}
      snoozeMinutes={settings.snoozeMinutes}
      snoozeClock={settings.snoozeClock}
      onToggleDetails={toggleDetails}
      onEdit={editor.openEdit}
      onDelete={setConfirmDelete}
    />
  );

  return (
    <div className="reminders-page">
      <div className="row between wrap">
        <h1>{t('title')}</h1>
        <button type="button" className="button primary" onClick={editor.openCreate} disabled={atLimit}>
          {t('create')}
        </button>
      </div>
      {deviceNotice}
      {atLimit && <p className="notice">{t('errors.limit')}</p>}
      {!online && (
        <p className="notice" id="delete-offline-reason">
          {t('errors.deleteOffline')}
        </p>
      )}
      {quickAdd}
      {/* every list's: snooze all snoozes all of the person's */}
      <SnoozeAll reminders={active} defaultMinutes={settings.snoozeMinutes} online={online} />

      {listSwitcher?.({ selected, onSelect: (id) => setList(id), counts, total: active.length, online })}
      <SearchBox value={search} onChange={setSearch} />
      {/* How many the search finds, read out as it changes. */}
      <p className="sr-only" aria-live="polite">
        {folded && tab === 'active' && data !== undefined ? t('search.found', { count: list.length }) : ''}
      </p>

      <div className="tabs" role="tablist" aria-label={t('tabsLabel')}>
        {(['active', 'completed'] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={tab === k} className="tab" onClick={() => setTab(k)}>
            {t(`tabs.${k}`)}
          </button>
        ))}
      </div>

      <section role="tabpanel" aria-label={t(`tabs.${tab}`)}>
        {tab === 'completed' ? (
          <ArchivedList
            first={archived.first}
            last={archived.last}
            lastOffset={archived.lastOffset}
            pages={archived.pages}
            filter={archived.filter}
            row={row}
            onMore={archived.more}
            empty={archiveFilter.q ? noMatch : null}
          />
        ) : (
          <ActiveReminders
            list={list}
            loading={isLoading && !data}
            failed={!!error && !data}
            completedCount={completedCount}
            row={row}
            onShowCompleted={() => setTab('completed')}
            onCreate={editor.openCreate}
            empty={noMatch ?? emptyList}
          />
        )}
      </section>

      {/* A declarative notification's Complete/Snooze opens `?reminder=&log=&do=&t=`: act once here (asking first without `t`). */}
      <NotificationActionPrompt titleOf={(id) => (data ?? []).find((r) => r.id === id)?.title} />

      <ReminderDialog
        open={editor.dialog.open}
        initial={editor.dialog.initial}
        editing={editor.dialog.editing}
        onClose={editor.close}
        onSave={editor.save}
        deviceNotice={deviceNotice}
        lists={lists}
      />

      <DeleteReminderDialog reminder={confirmDelete} online={online} onClose={() => setConfirmDelete(null)} />
    </div>
  );
}
