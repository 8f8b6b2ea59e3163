import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/Spinner';
import type { DeliveryLog } from '../../../lib/types';
import { logStatusKey } from '../reminderLogic';

/** In a shared list, the people the history names: the reader's id, and a person's name ("you", an address). */
export interface HistoryPeople {
  me: string | undefined;
  nameOf: (id: string) => string | null;
}

/**
 * A reminder's delivery history, newest first, the last 10 entries (its details' second list).
 * In a shared list (`people`), each device names its person and an action says who acted.
 */
export function DeliveryHistory({
  id,
  loading,
  failed,
  logs,
  when,
  people,
}: {
  id: string;
  loading: boolean;
  failed: boolean;
  logs: readonly DeliveryLog[];
  /** a time in the reminder's zone */
  when: (iso: string) => string;
  /** a shared list's people (null: one person's list, shown as before) */
  people?: HistoryPeople | null;
}) {
  const { t } = useTranslation('reminders');
  const stateText = (s: string) => {
    const key = logStatusKey(s);
    return key ? t(key) : t('details.state.unknown');
  };
  return (
    <section aria-labelledby={`logs-${id}`}>
      <h3 id={`logs-${id}`}>{t('details.history')}</h3>
      {loading ? (
        <Spinner />
      ) : failed ? (
        <p className="muted">{t('details.loadFailed')}</p>
      ) : logs.length === 0 ? (
        <p className="muted">{t('details.noHistory')}</p>
      ) : (
        <ul className="delivery-log">
          {[...logs]
            .sort((a, b) => Date.parse(b.occurrence_at) - Date.parse(a.occurrence_at))
            .slice(0, 10)
            .map((l) => (
              <LogEntry key={l.id} log={l} stateText={stateText} when={when} people={people ?? null} />
            ))}
        </ul>
      )}
    </section>
  );
}

/**
 * One delivery log entry: when, what kind, what happened (translated, and by whom), until when it
 * was held for quiet hours, and each device (and whose).
 */
function LogEntry({
  log,
  stateText,
  when,
  people,
}: {
  log: DeliveryLog;
  stateText: (s: string) => string;
  when: (iso: string) => string;
  people: HistoryPeople | null;
}) {
  const { t } = useTranslation('reminders');
  // Who completed or snoozed it: "you", or their address.
  const action = log.action?.startsWith('snooze') ? 'snooze' : 'complete';
  const byName = people && log.action_by && log.action_by !== people.me ? people.nameOf(log.action_by) : null;
  const actedText =
    people && log.action_by && log.action_by === people.me ? t(`details.actedByYou.${action}`) : byName ? t(`details.actedBy.${action}`, { name: byName }) : null;
  const kind = log.kind && ['occurrence', 'alert', 'repeat', 'snooze', 'send_now', 'trigger', 'escalation'].includes(log.kind) ? t(`details.kind.${log.kind}`) : null;
  // Still waiting for the reader's quiet hours to end: held, not "sending".
  const status = log.held_until && (log.status === 'queued' || log.status === 'held') ? 'held' : log.status;
  return (
    <li className="delivery-entry">
      <div className="row wrap">
        <span>{when(log.occurrence_at)}</span>
        {kind && <span className="muted small">{kind}</span>}
        <span className={`badge${status === 'failed' || status === 'no_devices' || status === 'missed' ? ' warn' : ''}`}>{stateText(status)}</span>
        {log.emailed_at && <span className="badge">{stateText('emailed')}</span>}
        {log.action && <span className="badge muted">{actedText ?? stateText(log.action)}</span>}
      </div>
      {(log.held_until || log.shown_at || log.emailed_at) && (
        <p className="muted small">
          {[
            // held for the reader's quiet hours, and delivered to them when those ended
            log.held_until ? t('details.heldUntil', { when: when(log.held_until) }) : null,
            log.shown_at ? t('details.shownAt', { when: when(log.shown_at) }) : null,
            log.emailed_at ? t('details.emailedAt', { when: when(log.emailed_at) }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
      {(log.devices ?? []).length > 0 && (
        <ul className="device-results">
          {(log.devices ?? []).map((d) => {
            const device = d.label || t('details.removedDevice');
            const person = people && d.user_id ? people.nameOf(d.user_id) : null;
            return (
              <li key={d.subscription_id} className="muted small">
                {person ? t('details.deviceOf', { device, person }) : device}: {stateText(d.shown_at ? 'shown' : d.status)}
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}
