import { useTranslation } from 'react-i18next';
import { isWaitingToSync, usePendingReminderIds } from '../../../lib/offline/pendingStatus';
import { isTempId } from '../../../lib/offline/syncQueue';
import type { List, Recurrence, Reminder } from '../../../lib/types';
import { useLang } from '../../../lib/useLang';
import type { Dates } from '../../../shared/useDates';
import { alertsText, nagText } from '../alarmText';
import { AssigneeTag } from './AssigneeTag';
import { DoneEarlyButton } from '../details/DoneEarlyButton';
import { LastDeliveryBadge } from '../details/LastDeliveryBadge';
import { ListTag } from './ListTag';
import { ReminderDetails } from '../details/ReminderDetails';
import type { SnoozeClock } from '../actions/snoozeUntil';
import { When } from './When';

export interface ReminderRowProps {
  reminder: Reminder;
  /** the list it is in, when the person has more than one */
  list?: Pick<List, 'name' | 'colour'>;
  /** its list has more than one person */
  shared?: boolean;
  /** opened by `?reminder=<id>` from a notification */
  /** opened by its link: from a notification or from the fallback email (null: not) */
  highlighted: 'notification' | 'email' | null;
  /** its details are open */
  expanded: boolean;
  /** deleting needs the connection */
  online: boolean;
  /** the page's (one clock and one settings reader for all the rows) */
  dates: Dates;
  recurrenceLabel: (rec: Recurrence | undefined, anchor?: { at: string; zone: string }) => string;
  snoozeMinutes: number;
  snoozeClock: SnoozeClock;
  onToggleDetails: (id: string) => void;
  onEdit: (r: Reminder) => void;
  onDelete: (r: Reminder) => void;
}

/** One reminder in the list: title, badges (who it is for, in a shared list), when, Details / Edit / Delete, and its details when open. */
export function ReminderRow({
  reminder: r,
  list,
  shared = false,
  highlighted,
  expanded,
  online,
  dates,
  recurrenceLabel,
  snoozeMinutes,
  snoozeClock,
  onToggleDetails,
  onEdit,
  onDelete,
}: ReminderRowProps) {
  const { t } = useTranslation('reminders');
  const lang = useLang();
  const waiting = isWaitingToSync(r.id, usePendingReminderIds());
  return (
    <li id={`reminder-${r.id}`} className={`card reminder-item${highlighted ? ' highlight' : ''}`}>
      <div className="reminder-main">
        <h2 className="reminder-title" title={r.title}>
          {r.title}
        </h2>
        {r.description && <p className="muted">{r.description}</p>}
        <p className="tags">
          {list && (
            <span className="badge">
              <ListTag list={list} />
            </span>
          )}
          {(r.assignees?.length ?? 0) > 0 && <AssigneeTag reminder={r} />}
          <span className="badge">{recurrenceLabel(r.recurrence, { at: r.send_at, zone: r.timezone })}</span>
          {[alertsText(r.alerts, t, lang), nagText(r.repeat_until_done, t)].map((text) => text && <span key={text} className="badge muted">{text}</span>)}
          {/* created, edited, completed or snoozed offline: the change is still queued */}
          {waiting && <span className="badge warn">{t('pendingSync')}</span>}
          {r.is_archived && <span className="badge">{t('status.completed')}</span>}
          {r.overdue && <span className="badge warn">{t('overdue')}</span>}
          {/* and how its last ring was delivered */}
          {r.overdue && <LastDeliveryBadge reminder={r} />}
        </p>
        {r.snoozed_until && <p className="small snoozed">{t('snoozedUntil', { when: dates.when(r.snoozed_until, r.timezone) })}</p>}
      </div>
      <div className="reminder-when">
        {/* In the archive, when it was completed (its last change); otherwise when it rings next. */}
        {r.is_archived ? (
          <span className="small completed-at">{t('completedAt', { when: dates.when(r.updated_at, r.timezone) })}</span>
        ) : (
          <When at={r.scheduled_at} zone={r.timezone} dates={dates} />
        )}
      </div>
      <div className="reminder-actions">
        {!isTempId(r.id) && (
          <button type="button" className="button small ghost" aria-expanded={expanded} aria-controls={`details-${r.id}`} onClick={() => onToggleDetails(r.id)}>
            {expanded ? t('details.hide') : t('details.show')}
          </button>
        )}
        {/* Done before it rings; inside open details it sits with the other actions. */}
        {!r.is_archived && !expanded && !isTempId(r.id) && <DoneEarlyButton reminder={r} dates={dates} online={online} />}
        {!r.is_archived && (
          <button type="button" className="button small secondary" onClick={() => onEdit(r)} aria-label={t('editNamed', { title: r.title })}>
            {t('edit')}
          </button>
        )}
        {/* Quiet here; only the confirming button is red. */}
        <button
          type="button"
          className="button small ghost"
          onClick={() => onDelete(r)}
          aria-label={t('deleteNamed', { title: r.title })}
          disabled={!online}
          aria-describedby={online ? undefined : 'delete-offline-reason'}
        >
          {t('delete')}
        </button>
      </div>
      {expanded && !isTempId(r.id) && (
        <div id={`details-${r.id}`} className="reminder-details-wrap">
          {highlighted && <p className="badge">{t(highlighted === 'email' ? 'details.openedFromEmail' : 'details.openedFromNotification')}</p>}
          <ReminderDetails reminder={r} snoozeMinutes={snoozeMinutes} snoozeClock={snoozeClock} online={online} shared={shared} />
        </div>
      )}
    </li>
  );
}
