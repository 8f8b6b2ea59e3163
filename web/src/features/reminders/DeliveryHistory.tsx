import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/Spinner';
import type { DeliveryLog } from '../../lib/types';
import { logStatusKey } from './reminderLogic';

/** A reminder's delivery history, newest first, the last 10 entries (its details' second list). */
export function DeliveryHistory({
  id,
  loading,
  failed,
  logs,
  when,
}: {
  id: string;
  loading: boolean;
  failed: boolean;
  logs: readonly DeliveryLog[];
  /** a time in the reminder's zone */
  when: (iso: string) => string;
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
              <LogEntry key={l.id} log={l} stateText={stateText} when={when} />
            ))}
        </ul>
      )}
    </section>
  );
}

/** One delivery log entry: when, what kind, what happened (translated), and each device. */
function LogEntry({ log, stateText, when }: { log: DeliveryLog; stateText: (s: string) => string; when: (iso: string) => string }) {
  const { t } = useTranslation('reminders');
  const kind = log.kind && ['occurrence', 'alert', 'repeat', 'snooze', 'send_now'].includes(log.kind) ? t(`details.kind.${log.kind}`) : null;
  return (
    <li className="delivery-entry">
      <div className="row wrap">
        <span>{when(log.occurrence_at)}</span>
        {kind && <span className="muted small">{kind}</span>}
        <span className={`badge${log.status === 'failed' || log.status === 'no_devices' || log.status === 'missed' ? ' warn' : ''}`}>{stateText(log.status)}</span>
        {log.emailed_at && <span className="badge">{stateText('emailed')}</span>}
        {log.action && <span className="badge muted">{stateText(log.action)}</span>}
      </div>
      {(log.shown_at || log.emailed_at) && (
        <p className="muted small">
          {[
            log.shown_at ? t('details.shownAt', { when: when(log.shown_at) }) : null,
            log.emailed_at ? t('details.emailedAt', { when: when(log.emailed_at) }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
      {(log.devices ?? []).length > 0 && (
        <ul className="device-results">
          {(log.devices ?? []).map((d) => (
            <li key={d.subscription_id} className="muted small">
              {d.label || t('details.removedDevice')}: {stateText(d.shown_at ? 'shown' : d.status)}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
