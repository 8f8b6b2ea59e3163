import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../../lib/router';
import { LangLink } from '../../../components/LangLink';
import { Spinner } from '../../../components/Spinner';
import { isWaitingToSync, usePendingReminderIds } from '../../../lib/offline/pendingStatus';
import { useLocalizedPath } from '../../../lib/useLang';
import { useOnline } from '../../../lib/useOnline';
import { OPEN_CREATE_DIALOG } from '../../../shared/navState';
import { useDates } from '../../../shared/useDates';
import type { List } from '../../../lib/types';
import { LastDeliveryBadge } from '../details/LastDeliveryBadge';
import { ListTag, listLookup } from './ListTag';
import { dashboardSummary } from '../reminderLogic';
import { SnoozeAll } from '../actions/SnoozeAll';
import { archivedCount, useArchivedPage } from '../useArchived';
import { useReminders } from '../useReminders';
import { useReminderSettings } from '../useReminderSettings';
import { When } from './When';

/**
 * `deviceNotice`: whether this device will ring, shown under the title; `quickAdd`: the quick-add
 * box; `lists`: the person's lists, whose colour and name each upcoming reminder shows when there
 * are several (all from other features; the app passes them in).
 */
export default function Dashboard({ deviceNotice, quickAdd, lists }: { deviceNotice: ReactNode; quickAdd?: ReactNode; lists?: readonly List[] }) {
  const { t } = useTranslation('reminders');
  const dates = useDates();
  const lp = useLocalizedPath();
  const navigate = useNavigate();
  const { data, error, isLoading } = useReminders();
  const pendingIds = usePendingReminderIds();
  const settings = useReminderSettings();
  const online = useOnline();
  // Completed = archived: the server's total, from the completed list's first page.
  const archived = useArchivedPage(0);
  const summary = dashboardSummary(data ?? [], archived.data ? archivedCount(archived.data) : 0);
  const listOf = listLookup(lists);
  const openCreate = () => navigate(lp('/reminders'), { state: { [OPEN_CREATE_DIALOG]: Date.now() } });

  return (
    <div className="dashboard">
      <h1>{t('dashboard.title')}</h1>
      {deviceNotice}
      {quickAdd}
      <section className="stats" aria-label={t('dashboard.statsLabel')}>
        <Stat label={t('dashboard.active')} value={summary.active} />
        {/* not known offline (the device keeps only the active ones): a dash, not a 0 */}
        <Stat label={t('dashboard.completed')} value={archived.error && !archived.data ? '–' : summary.completed} />
        <Stat label={t('dashboard.dueSoon')} value={summary.dueSoon} />
        {summary.overdue > 0 && <Stat label={t('dashboard.overdue')} value={summary.overdue} warn />}
      </section>
      <SnoozeAll reminders={data} defaultMinutes={settings.snoozeMinutes} online={online} />
      <section className="card" aria-labelledby="upcoming-title">
        <div className="row between">
          <h2 id="upcoming-title">{t('dashboard.upcoming')}</h2>
          <button type="button" className="button primary small" onClick={openCreate}>
            {t('create')}
          </button>
        </div>
        {isLoading && !data ? (
          <Spinner />
        ) : error && !data ? (
          <p className="field-error" role="alert">
            {t('errors.loadFailed')}
          </p>
        ) : summary.upcoming.length === 0 && summary.completed > 0 ? (
          <div className="empty-state">
            <p>{t('nothingPending', { count: summary.completed })}</p>
            <LangLink to="/reminders?tab=completed">{t('showCompleted')}</LangLink>
          </div>
        ) : summary.upcoming.length === 0 ? (
          <div className="empty-state">
            <p>{t('dashboard.empty')}</p>
            <button type="button" className="button primary" onClick={openCreate}>
              {t('dashboard.createFirst')}
            </button>
          </div>
        ) : (
          <ul className="reminder-list compact">
            {summary.upcoming.map((r) => {
              const list = listOf?.(r.list_id);
              return (
              <li key={r.id} className="reminder-item">
                <div className="reminder-main">
                  <h3 className="reminder-title" title={r.title}>
                    {r.title}
                  </h3>
                  {list && (
                    <p className="list-line">
                      <ListTag list={list} />
                    </p>
                  )}
                  {r.description && <p className="muted">{r.description}</p>}
                  {isWaitingToSync(r.id, pendingIds) && <span className="badge warn">{t('pendingSync')}</span>}
                  {r.overdue && <span className="badge warn">{t('overdue')}</span>}
                  {r.overdue && <LastDeliveryBadge reminder={r} />}
                  {r.snoozed_until && <p className="small snoozed">{t('snoozedUntil', { when: dates.when(r.snoozed_until, r.timezone) })}</p>}
                </div>
                <div className="reminder-when">
                  <When at={r.scheduled_at} zone={r.timezone} dates={dates} />
                </div>
              </li>
              );
            })}
          </ul>
        )}
        <p>
          <LangLink to="/reminders">{t('dashboard.viewAll')}</LangLink>
        </p>
      </section>
    </div>
  );
}

function Stat({ label, value, warn = false }: { label: string; value: number | string; warn?: boolean }) {
  return (
    <div className={`card stat${warn ? ' warn' : ''}`}>
      <span className="stat-value">{value}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}
