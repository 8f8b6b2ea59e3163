import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Dialog } from '../../components/Dialog';
import { focusMainHeading } from '../../components/focus';
import { Spinner } from '../../components/Spinner';
import { toast } from '../../components/toast';
import { isTempId } from '../../lib/offline/syncQueue';
import type { Reminder } from '../../lib/types';
import { useLang } from '../../lib/useLang';
import { deviceZone } from '../../lib/zoneIds';
import { useOnline } from '../../lib/useOnline';
import { markGuideStep } from '../../shared/guideProgress';
import type { QuickAddPrefill } from '../../shared/navState';
import { useDates } from '../../shared/useDates';
import { useSettings } from '../../shared/useSettings';
import { alertsText, nagText } from './alarmText';
import { useRecurrenceLabel } from './RecurrenceLabel';
import { ReminderDetails } from './ReminderDetails';
import { ReminderDialog } from './ReminderDialog';
import { formFromQuickAdd, withQuickAddRecurrence } from './quickAddForm';
import { MAX_ACTIVE_REMINDERS, byNextRing, changedFields, emptyForm, formFromReminder, formToInput, isActive, type ReminderForm } from './reminderLogic';
import { NotificationActionPrompt } from './NotificationActionPrompt';
import { ArchivedList } from './ArchivedList';
import { ARCHIVED_PAGE_SIZE, archivedCount, useArchivedPage } from './useArchived';
import { useOpenCreateRequest } from './useOpenCreateRequest';
import { useReminderMutations, useReminders } from './useReminders';
import { When } from './When';

type Tab = 'active' | 'completed';

/** `deviceNotice` goes into the create/edit dialog; `quickAdd` is the quick-add box (the app passes both in). */
export default function RemindersPage({ deviceNotice, quickAdd }: { deviceNotice: ReactNode; quickAdd?: ReactNode }) {
  const { t } = useTranslation('reminders');
  const lang = useLang();
  const dates = useDates();
  const location = useLocation();
  const { data, error, isLoading } = useReminders();
  const { create, update, remove } = useReminderMutations();
  // Deleting is not queued offline (api.md): the buttons wait for the connection, saying why.
  const online = useOnline();
  const recurrenceLabel = useRecurrenceLabel();
  // New reminders default to the user's timezone setting (decisions.md), else the browser's.
  const settings = useSettings();
  const defaultTz = settings.data?.timezone || deviceZone();
  const [tab, setTab] = useState<Tab>(() => (new URLSearchParams(location.search).get('tab') === 'completed' ? 'completed' : 'active'));
  const [dialog, setDialog] = useState<{ open: boolean; editing: Reminder | null; initial: ReminderForm; quick?: QuickAddPrefill }>(() => ({
    open: false,
    editing: null,
    initial: emptyForm(deviceZone(), Date.now()),
  }));
  const [confirmDelete, setConfirmDelete] = useState<Reminder | null>(null);
  // `?reminder=<id>` (a tapped notification) opens that reminder's details, highlighted.
  const focusId = new URLSearchParams(location.search).get('reminder');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(focusId ? [focusId] : []));
  const toggleDetails = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const snoozeMinutes = settings.data?.default_snooze_minutes ?? 10;
  // "This evening" / "tomorrow morning" are the settings' times in the settings' zone.
  const snoozeClock = {
    timezone: defaultTz,
    morningTime: settings.data?.morning_time ?? '08:00',
    eveningTime: settings.data?.evening_time ?? '18:00',
  };
  // The completed tab shows the archived reminders a page at a time; the first page also gives their count.
  const firstArchived = useArchivedPage(0);
  const [archivedPages, setArchivedPages] = useState(1);
  const lastOffset = (archivedPages - 1) * ARCHIVED_PAGE_SIZE;
  const lastArchived = useArchivedPage(lastOffset);
  const focused = focusId ? ((data ?? []).find((r) => r.id === focusId) ?? firstArchived.data?.items.find((r) => r.id === focusId)) : undefined;
  useEffect(() => {
    if (!focusId) return;
    setExpanded((prev) => (prev.has(focusId) ? prev : new Set([...prev, focusId])));
  }, [focusId]);
  useEffect(() => {
    if (!focused) return;
    if (focused.is_archived) setTab('completed');
    const h = setTimeout(() => document.getElementById(`reminder-${focused.id}`)?.scrollIntoView({ block: 'center' }), 50);
    return () => clearTimeout(h);
  }, [focused]);

  const list = useMemo(() => (data ?? []).filter(isActive).sort(byNextRing), [data]);
  const activeCount = list.length;
  const completedCount = firstArchived.data ? archivedCount(firstArchived.data) : 0;
  const atLimit = activeCount >= MAX_ACTIVE_REMINDERS;

  const openCreate = () => setDialog({ open: true, editing: null, initial: emptyForm(defaultTz, Date.now()) });
  const openQuickAdd = (p: QuickAddPrefill) => setDialog({ open: true, editing: null, initial: formFromQuickAdd(p, Date.now()), quick: p });
  const openEdit = (r: Reminder) => setDialog({ open: true, editing: r, initial: formFromReminder(r, defaultTz) });

  // The header's "create" and `?new=1`: once the list and the settings are known.
  useOpenCreateRequest({
    ready: (data !== undefined || error !== undefined) && (settings.data !== undefined || settings.error !== undefined),
    atLimit,
    openCreate,
    openQuickAdd,
  });

  async function save(input: Parameters<typeof create>[0]) {
    if (dialog.editing) {
      await update(dialog.editing.id, changedFields(formToInput(dialog.initial), input));
      toast.success(navigator.onLine ? t('toast.updated') : t('toast.queued'));
    } else {
      await create(dialog.quick ? withQuickAddRecurrence(input, dialog.initial, dialog.quick) : input);
      markGuideStep('create');
      toast.success(navigator.onLine ? t('toast.created') : t('toast.queued'));
    }
  }

  async function doDelete(r: Reminder) {
    setConfirmDelete(null);
    try {
      await remove(r.id);
      toast.success(t('toast.deleted'));
    } catch {
      toast.error(t('errors.deleteFailed'));
    }
    // The row's Delete button, where the dialog put focus back, is gone with the row.
    if (document.activeElement === document.body || !document.activeElement?.isConnected) focusMainHeading();
  }

  const row = (r: Reminder) => (
    <li key={r.id} id={`reminder-${r.id}`} className={`card reminder-item${r.id === focusId ? ' highlight' : ''}`}>
      <div className="reminder-main">
        <h2 className="reminder-title" title={r.title}>
          {r.title}
        </h2>
        {r.description && <p className="muted">{r.description}</p>}
        <p className="tags">
          <span className="badge">{recurrenceLabel(r.recurrence)}</span>
          {[alertsText(r.alerts, t, lang), nagText(r.repeat_until_done, t)].map((text) => text && <span key={text} className="badge muted">{text}</span>)}
          {isTempId(r.id) && <span className="badge warn">{t('pendingSync')}</span>}
          {r.is_archived && <span className="badge">{t('status.completed')}</span>}
          {r.overdue && <span className="badge warn">{t('overdue')}</span>}
        </p>
        {r.snoozed_until && <p className="small snoozed">{t('snoozedUntil', { when: dates.when(r.snoozed_until, r.timezone) })}</p>}
      </div>
      <div className="reminder-when">
        <When at={r.scheduled_at} zone={r.timezone} dates={dates} />
      </div>
      <div className="reminder-actions">
        {!isTempId(r.id) && (
          <button
            type="button"
            className="button small ghost"
            aria-expanded={expanded.has(r.id)}
            aria-controls={`details-${r.id}`}
            onClick={() => toggleDetails(r.id)}
          >
            {expanded.has(r.id) ? t('details.hide') : t('details.show')}
          </button>
        )}
        {!r.is_archived && (
          <button type="button" className="button small secondary" onClick={() => openEdit(r)} aria-label={t('editNamed', { title: r.title })}>
            {t('edit')}
          </button>
        )}
        {/* Quiet here; only the confirming button is red. */}
        <button
          type="button"
          className="button small ghost"
          onClick={() => setConfirmDelete(r)}
          aria-label={t('deleteNamed', { title: r.title })}
          disabled={!online}
          aria-describedby={online ? undefined : 'delete-offline-reason'}
        >
          {t('delete')}
        </button>
      </div>
      {expanded.has(r.id) && !isTempId(r.id) && (
        <div id={`details-${r.id}`} className="reminder-details-wrap">
          {r.id === focusId && <p className="badge">{t('details.openedFromNotification')}</p>}
          <ReminderDetails reminder={r} snoozeMinutes={snoozeMinutes} snoozeClock={snoozeClock} />
        </div>
      )}
    </li>
  );

  return (
    <div className="reminders-page">
      <div className="row between wrap">
        <h1>{t('title')}</h1>
        <button type="button" className="button primary" onClick={openCreate} disabled={atLimit}>
          {t('create')}
        </button>
      </div>
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
          <ArchivedList first={firstArchived} last={lastArchived} lastOffset={lastOffset} pages={archivedPages} row={row} onMore={() => setArchivedPages((n) => n + 1)} />
        ) : isLoading && !data ? (
          <Spinner />
        ) : error && !data ? (
          <p className="field-error" role="alert">
            {t('errors.loadFailed')}
          </p>
        ) : list.length === 0 ? (
          <div className="empty-state card">
            {completedCount > 0 ? (
              <>
                <p>{t('nothingPending', { count: completedCount })}</p>
                <button type="button" className="button link" onClick={() => setTab('completed')}>
                  {t('showCompleted')}
                </button>
              </>
            ) : (
              <p>{t('emptyActive')}</p>
            )}
            <button type="button" className="button primary" onClick={openCreate}>
              {t('dashboard.createFirst')}
            </button>
          </div>
        ) : (
          <ul className="reminder-list">
            {list.map(row)}
          </ul>
        )}
      </section>

      {/* A declarative notification's Complete/Snooze opens `?reminder=&log=&do=&t=`: act once here (asking first without `t`). */}
      <NotificationActionPrompt titleOf={(id) => (data ?? []).find((r) => r.id === id)?.title} />

      <ReminderDialog
        open={dialog.open}
        initial={dialog.initial}
        editing={dialog.editing}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onSave={save}
        deviceNotice={deviceNotice}
      />

      <Dialog
        open={confirmDelete !== null}
        title={t('deleteConfirm.title')}
        onClose={() => setConfirmDelete(null)}
        footer={
          <>
            <button type="button" className="button secondary" onClick={() => setConfirmDelete(null)}>
              {t('dialog.cancel')}
            </button>
            <button type="button" className="button danger" onClick={() => confirmDelete && void doDelete(confirmDelete)} disabled={!online}>
              {t('delete')}
            </button>
          </>
        }
      >
        <p>{t('deleteConfirm.text', { title: confirmDelete?.title ?? '' })}</p>
      </Dialog>
    </div>
  );
}
