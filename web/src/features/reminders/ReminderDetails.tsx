import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR, { useSWRConfig } from 'swr';
import { Spinner } from '../../components/Spinner';
import { toast } from '../../components/toast';
import { api, isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { isReminderKey, swrKeys } from '../../lib/swrKeys';
import type { Reminder } from '../../lib/types';
import { useLang } from '../../lib/useLang';
import { enqueue } from '../offline/offlineSync';
import { latestLog, logStatusKey } from './reminderLogic';

const UPCOMING = 5;

/**
 * A reminder's details (opened from the list, or by `?reminder=<id>` from a notification): the
 * next occurrences, the delivery history, and Complete / Snooze (for the latest delivery) and
 * Send now. Complete and snooze are queued when offline.
 */
export function ReminderDetails({ reminder, snoozeMinutes }: { reminder: Reminder; snoozeMinutes: number }) {
  const { t } = useTranslation('reminders');
  const lang = useLang();
  const { mutate } = useSWRConfig();
  const id = reminder.id;
  const occurrences = useSWR(reminder.is_archived ? null : swrKeys.occurrences(id, UPCOMING), () => api.reminders.occurrences(id, UPCOMING));
  const logs = useSWR(swrKeys.logs(id), () => api.reminders.logs(id));
  const [busy, setBusy] = useState<null | 'complete' | 'snooze' | 'send'>(null);
  const last = latestLog(logs.data ?? []);
  const canHandle = !reminder.is_archived && last !== null && !last.action;
  const stateText = (s: string) => {
    const key = logStatusKey(s);
    return key ? t(key) : s;
  };

  async function handle(action: 'complete' | 'snooze') {
    if (!last) return;
    setBusy(action);
    try {
      if (!navigator.onLine) {
        await enqueue({ type: action, reminderId: id, logId: last.id, data: action === 'snooze' ? { snooze_minutes: snoozeMinutes } : undefined });
        toast.success(t('toast.queued'));
      } else {
        await api.reminders.handle({
          reminder_id: id,
          log_id: last.id,
          action,
          ...(action === 'snooze' ? { snooze_minutes: snoozeMinutes } : {}),
        });
        toast.success(action === 'complete' ? t('details.completedToast') : t('details.snoozedToast', { n: snoozeMinutes }));
      }
      await mutate(isReminderKey);
    } catch {
      toast.error(t('details.actionFailed'));
    } finally {
      setBusy(null);
    }
  }

  async function sendNow() {
    setBusy('send');
    try {
      await api.reminders.sendNow(id);
      toast.success(t('details.sentToast'));
      await mutate(swrKeys.logs(id));
    } catch (e) {
      toast.error(isApiError(e, 'SUBSCRIPTION_NOT_FOUND') ? t('details.noDevice') : t('details.sendFailed'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="reminder-details">
      {!reminder.is_archived && (
        <section aria-labelledby={`occ-${id}`}>
          <h3 id={`occ-${id}`}>{t('details.upcoming')}</h3>
          {occurrences.isLoading ? (
            <Spinner />
          ) : occurrences.error ? (
            <p className="muted">{t('details.loadFailed')}</p>
          ) : (
            <ol className="occurrences">
              {(occurrences.data?.occurrences ?? []).map((iso) => (
                <li key={iso}>{formatDateTime(iso, lang, reminder.timezone)}</li>
              ))}
            </ol>
          )}
        </section>
      )}
      <section aria-labelledby={`logs-${id}`}>
        <h3 id={`logs-${id}`}>{t('details.history')}</h3>
        {logs.isLoading ? (
          <Spinner />
        ) : logs.error ? (
          <p className="muted">{t('details.loadFailed')}</p>
        ) : (logs.data ?? []).length === 0 ? (
          <p className="muted">{t('details.noHistory')}</p>
        ) : (
          <ul className="delivery-log">
            {[...(logs.data ?? [])]
              .sort((a, b) => Date.parse(b.occurrence_at) - Date.parse(a.occurrence_at))
              .slice(0, 10)
              .map((l) => (
                <li key={l.id}>
                  <span>{formatDateTime(l.occurrence_at, lang, reminder.timezone)}</span>
                  <span className="badge">{stateText(l.status)}</span>
                  {l.action && <span className="badge muted">{stateText(l.action)}</span>}
                </li>
              ))}
          </ul>
        )}
      </section>
      <div className="row">
        {canHandle && (
          <>
            <button type="button" className="button small primary" disabled={busy !== null} onClick={() => void handle('complete')}>
              {t('details.complete')}
            </button>
            <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void handle('snooze')}>
              {t('details.snooze', { n: snoozeMinutes })}
            </button>
          </>
        )}
        {!reminder.is_archived && (
          <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void sendNow()}>
            {t('details.sendNow')}
          </button>
        )}
      </div>
      {!canHandle && !reminder.is_archived && <p className="hint">{t('details.handleHint')}</p>}
    </div>
  );
}
