import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR, { useSWRConfig } from 'swr';
import { Spinner } from '../../components/Spinner';
import { toast } from '../../components/toast';
import { api, isApiError } from '../../lib/api';
import { errorSummary } from '../../lib/apiErrors';
import { enqueue } from '../../lib/offline/offlineSync';
import { isReminderKey, swrKeys } from '../../lib/swrKeys';
import { SNOOZE_PRESETS, type DeliveryLog, type Reminder } from '../../lib/types';
import { useLang } from '../../lib/useLang';
import { useNow } from '../../lib/useNow';
import { useDates } from '../../shared/useDates';
import { alertsText, nagText } from './alarmText';
import { latestLog, logStatusKey } from './reminderLogic';
import { pickBounds, pickedTime, thisEvening, tomorrowMorning } from './snoozeUntil';
import { skipNextOccurrence } from './useReminders';

const UPCOMING = 5;

/** The settings that place "this evening" and "tomorrow morning". */
export interface SnoozeClock {
  timezone: string;
  morningTime: string;
  eveningTime: string;
}

/** A snooze menu choice: minutes ('10'), or until this evening, tomorrow morning or a picked time. */
type SnoozeChoice = `${number}` | 'evening' | 'morning' | 'pick';

/**
 * A reminder's details (opened from the list, or by `?reminder=<id>` from a notification): the
 * next occurrences, the delivery history, and Complete / Snooze (for the latest delivery) and
 * Send now. Complete and snooze are queued when offline.
 */
export function ReminderDetails({ reminder, snoozeMinutes, snoozeClock }: { reminder: Reminder; snoozeMinutes: number; snoozeClock: SnoozeClock }) {
  const { t } = useTranslation(['reminders', 'errors']);
  const lang = useLang();
  const dates = useDates();
  const { mutate } = useSWRConfig();
  const id = reminder.id;
  const occurrences = useSWR(reminder.is_archived ? null : swrKeys.occurrences(id, UPCOMING), () => api.reminders.occurrences(id, UPCOMING));
  const logs = useSWR(swrKeys.logs(id), () => api.reminders.logs(id));
  const [busy, setBusy] = useState<null | 'complete' | 'snooze' | 'send' | 'skip'>(null);
  const [chosen, setSnoozeChoice] = useState<SnoozeChoice>(`${snoozeMinutes}`);
  const [picked, setPicked] = useState('');
  const [pickError, setPickError] = useState<string | null>(null);
  const now = useNow(30_000);
  const evening = thisEvening(now, snoozeClock.timezone, snoozeClock.eveningTime);
  // "This evening" leaves the menu once the evening has come: fall back to the default minutes.
  const snoozeChoice: SnoozeChoice = chosen === 'evening' && !evening ? `${snoozeMinutes}` : chosen;
  const last = latestLog(logs.data ?? []);
  const recurring = (reminder.recurrence?.kind ?? 'none') !== 'none';
  // Any delivered reminder can be completed or snoozed here, also while snoozed.
  const canHandle = !reminder.is_archived && last !== null;
  const stateText = (s: string) => {
    const key = logStatusKey(s);
    return key ? t(key) : t('details.state.unknown');
  };

  /** The snooze request's `snooze_minutes` or `snooze_until`, or null after showing why the picked time will not do. */
  function snoozeBody(): { snooze_minutes: number } | { snooze_until: string } | null {
    const at = Date.now();
    if (snoozeChoice === 'evening') return { snooze_until: thisEvening(at, snoozeClock.timezone, snoozeClock.eveningTime) ?? '' };
    if (snoozeChoice === 'morning') return { snooze_until: tomorrowMorning(at, snoozeClock.timezone, snoozeClock.morningTime) };
    if (snoozeChoice === 'pick') {
      const p = pickedTime(picked, at, snoozeClock.timezone);
      setPickError('error' in p ? p.error : null);
      return 'error' in p ? null : { snooze_until: p.until };
    }
    return { snooze_minutes: Number(snoozeChoice) };
  }

  async function handle(action: 'complete' | 'snooze') {
    if (!last) return;
    const snooze = action === 'snooze' ? snoozeBody() : undefined;
    if (snooze === null) return;
    const minutes = snooze && 'snooze_minutes' in snooze ? snooze.snooze_minutes : snoozeMinutes;
    setBusy(action);
    try {
      if (!navigator.onLine) {
        await enqueue({ type: action, reminderId: id, logId: last.id, data: snooze });
        toast.success(t('toast.queued'));
      } else {
        const after = await api.reminders.handle({ reminder_id: id, log_id: last.id, action, ...snooze });
        toast.success(
          action === 'complete'
            ? t('details.completedToast')
            : after?.snoozed_until
              ? t('details.snoozedUntilToast', { when: dates.when(after.snoozed_until, reminder.timezone) })
              : t('details.snoozedToast', { n: minutes }),
        );
      }
      await mutate(isReminderKey);
    } catch (e) {
      // A refused snooze time says why (in the reader's language); anything else is generic.
      toast.error(isApiError(e, 'VALIDATION_FAILED') ? errorSummary(t, e) : t('details.actionFailed'));
    } finally {
      setBusy(null);
    }
  }

  async function skipNext() {
    setBusy('skip');
    try {
      const before = new Set(reminder.recurrence?.skip ?? []);
      const after = await skipNextOccurrence(id);
      // The toast names the date the server added to `skip`.
      const added = (after.recurrence.skip ?? []).filter((d) => !before.has(d)).sort()[0];
      const next = occurrences.data?.occurrences[0];
      const date = added ? dates.day(added) : next ? dates.when(next, reminder.timezone) : '';
      toast.success(t('details.skippedToast', { date }));
      await mutate(isReminderKey);
    } catch (e) {
      toast.error(isApiError(e, 'VALIDATION_FAILED') ? errorSummary(t, e) : t('details.skipFailed'));
    } finally {
      setBusy(null);
    }
  }

  async function sendNow() {
    setBusy('send');
    try {
      const answer = await api.reminders.sendNow(id);
      // Say what really happened: to how many devices, by email, or nowhere.
      if (answer && answer.devices > 0) toast.success(t('details.sentTo', { count: answer.devices }));
      else if (answer?.email) toast.warning(t('details.sentByEmail'));
      else toast.error(t('details.sentNowhere'));
      await mutate(swrKeys.logs(id));
    } catch (e) {
      toast.error(isApiError(e, 'SUBSCRIPTION_NOT_FOUND') ? t('details.noDevice') : t('details.sendFailed'));
    } finally {
      setBusy(null);
    }
  }

  const alarms = [alertsText(reminder.alerts, t, lang), nagText(reminder.repeat_until_done, t)].filter(Boolean);

  return (
    <div className="reminder-details">
      {alarms.length > 0 && (
        <p className="small alarm-summary">
          <span className="visually-hidden">{t('alarms.heading')}: </span>
          {alarms.join(t('recurrence.label.separator'))}
        </p>
      )}
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
                <li key={iso}>{dates.when(iso, reminder.timezone)}</li>
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
                <LogEntry key={l.id} log={l} stateText={stateText} when={(iso) => dates.when(iso, reminder.timezone)} />
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
            <span className="snooze-group">
              <label className="visually-hidden" htmlFor={`snooze-${id}`}>
                {t('details.snoozeFor')}
              </label>
              <select
                id={`snooze-${id}`}
                value={snoozeChoice}
                onChange={(e) => {
                  setSnoozeChoice(e.target.value as SnoozeChoice);
                  setPickError(null);
                }}
                disabled={busy !== null}
              >
                {SNOOZE_PRESETS.map((m) => (
                  <option key={m} value={m}>
                    {t('details.snoozeMinutes', { n: m })}
                  </option>
                ))}
                {evening && <option value="evening">{t('details.snoozeEvening', { time: snoozeClock.eveningTime })}</option>}
                <option value="morning">{t('details.snoozeMorning', { time: snoozeClock.morningTime })}</option>
                <option value="pick">{t('details.snoozePick')}</option>
              </select>
              {snoozeChoice === 'pick' && (
                <>
                  <label className="visually-hidden" htmlFor={`snooze-at-${id}`}>
                    {t('details.snoozePickLabel')}
                  </label>
                  <input
                    id={`snooze-at-${id}`}
                    type="datetime-local"
                    value={picked}
                    {...pickBounds(now, snoozeClock.timezone)}
                    onChange={(e) => {
                      setPicked(e.target.value);
                      setPickError(null);
                    }}
                    disabled={busy !== null}
                    {...(pickError ? { 'aria-invalid': true, 'aria-describedby': `snooze-at-${id}-err` } : {})}
                  />
                </>
              )}
              <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void handle('snooze')}>
                {/^\d+$/.test(snoozeChoice) ? t('details.snooze', { n: Number(snoozeChoice) }) : t('details.snoozeSubmit')}
              </button>
            </span>
          </>
        )}
        {!reminder.is_archived && recurring && (
          <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void skipNext()}>
            {t('details.skipNext')}
          </button>
        )}
        {!reminder.is_archived && (
          <button type="button" className="button small secondary" disabled={busy !== null} onClick={() => void sendNow()}>
            {t('details.sendNow')}
          </button>
        )}
      </div>
      {canHandle && snoozeChoice === 'pick' && pickError && (
        <p id={`snooze-at-${id}-err`} className="field-error" role="alert">
          {t(pickError)}
        </p>
      )}
      {!canHandle && !reminder.is_archived && <p className="hint">{t('details.handleHint')}</p>}
    </div>
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
        <span className={`badge${log.status === 'failed' || log.status === 'no_devices' || log.status === 'missed' ? ' warning' : ''}`}>{stateText(log.status)}</span>
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
