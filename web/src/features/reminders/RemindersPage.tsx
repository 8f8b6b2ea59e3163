import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Reminder } from '../../lib/types';
import { useOnline } from '../../lib/useOnline';
import { useDates } from '../../shared/useDates';
import { ActiveReminders } from './ActiveReminders';
import { ArchivedList } from './ArchivedList';
import { DeleteReminderDialog } from './DeleteReminderDialog';
import { NotificationActionPrompt } from './NotificationActionPrompt';
import { useRecurrenceLabel } from './RecurrenceLabel';
import { ReminderDialog } from './ReminderDialog';
import { ReminderRow } from './ReminderRow';
import { MAX_ACTIVE_REMINDERS, byNextRing, isActive } from './reminderLogic';
import { archivedCount, useArchivedPages } from './useArchived';
import { useOpenCreateRequest } from './useOpenCreateRequest';
import { useReminderEditor } from './useReminderEditor';
import { useReminders } from './useReminders';
import { useReminderSettings } from './useReminderSettings';
import { useRemindersUrlState } from './useRemindersUrlState';

/**
 * `deviceNotice` (whether this device will ring) shows at the top of the page, as on the
 * dashboard, and in the create/edit dialog; `quickAdd` is the quick-add box (the app passes both in).
 */
export default function RemindersPage({ deviceNotice, quickAdd }: { deviceNotice: ReactNode; quickAdd?: ReactNode }) {
  const { t } = useTranslation('reminders');
  const dates = useDates();
  const { data, error, isLoading } = useReminders();
  // Deleting is not queued offline (api.md): the buttons wait for the connection, saying why.
  const online = useOnline();
  const recurrenceLabel = useRecurrenceLabel();
  const settings = useReminderSettings();
  // The completed tab shows the archived reminders a page at a time; the first page also gives their count.
  const archived = useArchivedPages();
  const { tab, setTab, focusId, openedFrom, expanded, toggleDetails } = useRemindersUrlState(data, archived.first.data?.items);
  const editor = useReminderEditor(settings.defaultTz);
  const [confirmDelete, setConfirmDelete] = useState<Reminder | null>(null);

  const list = useMemo(() => (data ?? []).filter(isActive).sort(byNextRing), [data]);
  const completedCount = archived.first.data ? archivedCount(archived.first.data) : 0;
  const atLimit = list.length >= MAX_ACTIVE_REMINDERS;

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

      <div className="tabs" role="tablist" aria-label={t('tabsLabel')}>
        {(['active', 'completed'] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={tab === k} className="tab" onClick={() => setTab(k)}>
            {t(`tabs.${k}`)}
          </button>
        ))}
      </div>

      <section role="tabpanel" aria-label={t(`tabs.${tab}`)}>
        {tab === 'completed' ? (
          <ArchivedList first={archived.first} last={archived.last} lastOffset={archived.lastOffset} pages={archived.pages} row={row} onMore={archived.more} />
        ) : (
          <ActiveReminders
            list={list}
            loading={isLoading && !data}
            failed={!!error && !data}
            completedCount={completedCount}
            row={row}
            onShowCompleted={() => setTab('completed')}
            onCreate={editor.openCreate}
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
      />

      <DeleteReminderDialog reminder={confirmDelete} online={online} onClose={() => setConfirmDelete(null)} />
    </div>
  );
}
